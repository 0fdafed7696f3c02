"""The typed blocks every report has: per-class rows, averages, the binary and ordinal blocks, diagnostics,
baselines, undefined values, the listed errors and a sparse table's largest cells.

Each is a :class:`~clfeval.ops.report._block.Block`: fields named as the JSON's keys, read-only, ``to_dict()``
the JSON object again (a value the report does not hold is None and left out).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from clfeval.ops.report._block import Block, block_map, blocks

__all__ = ["ClassRow", "BinaryRow", "Averages", "OrdinalScores", "ConfusedPair", "Confusion", "Diagnostics",
           "BaselineClass", "Baseline", "Baselines", "UndefinedValue", "MisclassifiedItem", "Misclassified",
           "ConfusionCells"]

Count = int | float  # a float for a table of weighted counts


@dataclass(frozen=True)
class ClassRow(Block):
    """One class against all others: its counts and every per-label metric of the catalogue.

    Attributes
    ----------
    tp, fp, fn, tn : int or float
        True positives, false positives, false negatives, true negatives (floats for weighted counts).
    support : int or float or None
        Items of the class in gold (None in a single-label binary block, where it is ``tp + fn``).
    precision, recall, specificity, fpr, f1, delta, phi : float or None
        The catalogue's per-label metrics, with the next line's (NaN when undefined under
        ``zero_division="nan"``); ``fbeta`` only when β ≠ 1.
    fbeta, npv, fnr, prevalence, markedness, lr_plus, lr_minus, dor : float or None
        The others, in the catalogue's order.
    accuracy : float or None
        The label's binary accuracy (multi-label reports and the binary block).
    """

    tp: Count = 0
    fp: Count = 0
    fn: Count = 0
    tn: Count = 0
    support: Count | None = None
    precision: float | None = None
    recall: float | None = None
    specificity: float | None = None
    fpr: float | None = None
    f1: float | None = None
    delta: float | None = None
    phi: float | None = None
    fbeta: float | None = None
    npv: float | None = None
    fnr: float | None = None
    prevalence: float | None = None
    markedness: float | None = None
    lr_plus: float | None = None
    lr_minus: float | None = None
    dor: float | None = None
    accuracy: float | None = None


@dataclass(frozen=True)
class BinaryRow(ClassRow):
    """The ``binary`` block (``positive=``): the positive class against all others, with the binary table's own
    summary numbers.

    Attributes
    ----------
    positive : str
        The positive class.
    error_rate, balanced_accuracy, mcc, kappa : float or None
        Of the 2 × 2 table (single-label).
    """

    positive: str = ""
    error_rate: float | None = None
    balanced_accuracy: float | None = None
    mcc: float | None = None
    kappa: float | None = None


@dataclass(frozen=True)
class Averages(Block):
    """One way of averaging the per-label precision, recall and F1 (``macro``, ``micro`` or ``weighted``).

    Attributes
    ----------
    precision, recall, f1 : float
        The averaged values.
    f1_of_means : float or None
        Macro only: F1 of macro-precision and macro-recall.
    fbeta : float or None
        F-beta, when β ≠ 1.
    """

    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    f1_of_means: float | None = None
    fbeta: float | None = None


@dataclass(frozen=True)
class OrdinalScores(Block):
    """The ``ordinal`` block (``order=``).

    Attributes
    ----------
    order : sequence of str
        The labels in scale order.
    mae : float
        Mean absolute error over ranks.
    linear_kappa, quadratic_kappa : float
        Weighted kappas.
    """

    order: Sequence[str] = ()
    mae: float = 0.0
    linear_kappa: float = 0.0
    quadratic_kappa: float = 0.0


@dataclass(frozen=True)
class ConfusedPair(Block):
    """The pair of classes most often confused with each other.

    Attributes
    ----------
    classes : sequence of str
        The two classes, a then b.
    errors : int or float
        Errors between them, both ways.
    a_as_b, b_as_a : int or float
        Each way.
    """

    classes: Sequence[str] = ()
    errors: Count = 0
    a_as_b: Count = 0
    b_as_a: Count = 0


@dataclass(frozen=True)
class Confusion(Block):
    """One off-diagonal cell of the confusion table.

    Attributes
    ----------
    gold, pred : str
        Gold class, predicted class.
    count : int or float
        Its items.
    """

    gold: str = ""
    pred: str = ""
    count: Count = 0


@dataclass(frozen=True)
class Diagnostics(Block):
    """Where the classifier struggles.

    Attributes
    ----------
    hardest_class : str or None
        The class of lowest F1.
    hardest_classes : sequence of str
        Every class of that F1.
    most_confused_pair : ConfusedPair or None
        Single-label: the pair confused most (None without errors).
    top_confusions : tuple of Confusion
        Single-label: the largest off-diagonal cells, largest first.
    omitted : str or None
        Multi-label: what is left out and why.
    """

    hardest_class: str | None = None
    hardest_classes: Sequence[str] = ()
    most_confused_pair: ConfusedPair | None = None
    top_confusions: tuple[Confusion, ...] = ()
    omitted: str | None = None

    _nested = {"most_confused_pair": ConfusedPair.of, "top_confusions": blocks(Confusion)}


@dataclass(frozen=True)
class BaselineClass(Block):
    """A baseline's precision, recall and F1 of one class.

    Attributes
    ----------
    precision, recall, f1 : float
    accuracy : float or None
        Multi-label: the label's binary accuracy.
    """

    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    accuracy: float | None = None


@dataclass(frozen=True)
class Baseline(Block):
    """One trivial classifier, scored on the same gold labels.

    Attributes
    ----------
    description : str
        What it predicts, in words.
    accuracy : float or None
        Single-label.
    hamming_loss : float or None
        Multi-label.
    macro_f1, micro_f1 : float
        Its averaged F1.
    per_class : mapping of str to BaselineClass
        Its per-class precision, recall and F1.
    positive_f1 : float or None
        F1 of the positive class (``positive=``).
    label : str or None
        Majority: the class it always predicts.
    source : str or None
        Where the class frequencies come from.
    """

    description: str = ""
    accuracy: float | None = None
    hamming_loss: float | None = None
    macro_f1: float = 0.0
    micro_f1: float = 0.0
    per_class: Mapping[str, BaselineClass] | None = None
    positive_f1: float | None = None
    label: str | None = None
    source: str | None = None

    _nested = {"per_class": block_map(BaselineClass)}


@dataclass(frozen=True)
class Baselines(Block):
    """The trivial classifiers a report compares with.

    Attributes
    ----------
    majority, uniform, stratified : Baseline or None
        Always the most frequent class; uniformly random; random by the class frequencies.
    """

    majority: Baseline | None = None
    uniform: Baseline | None = None
    stratified: Baseline | None = None

    _nested = {"majority": Baseline.of, "uniform": Baseline.of, "stratified": Baseline.of}


@dataclass(frozen=True)
class UndefinedValue(Block):
    """A metric that was 0/0 (or x/0) somewhere.

    Attributes
    ----------
    metric : str
        The metric.
    labels : sequence of str or None
        The labels where it was undefined (per-label metrics).
    reason : str or None
        Why, in words.
    infinite : bool or None
        x/0 rather than 0/0 (an infinite ratio).
    items : int or None
        Items where it was undefined (a per-item metric).
    """

    metric: str = ""
    labels: Sequence[str] | None = None
    items: int | None = None
    reason: str | None = None
    infinite: bool | None = None


@dataclass(frozen=True)
class MisclassifiedItem(Block):
    """One listed mistake (``show_errors=``).

    Attributes
    ----------
    id : int or str
        The item's id (its position without ids).
    gold, pred : str or sequence of str
        Its gold and predicted label (label sets, multi-label).
    """

    id: int | str = 0
    gold: str | Sequence[str] = ""
    pred: str | Sequence[str] = ""


@dataclass(frozen=True)
class Misclassified(Block):
    """The ``errors`` block: the first mistakes.

    Attributes
    ----------
    total : int
        Every misclassified item.
    shown : int
        Those listed.
    items : tuple of MisclassifiedItem
    """

    total: int = 0
    shown: int = 0
    items: tuple[MisclassifiedItem, ...] = ()

    _nested = {"items": blocks(MisclassifiedItem)}


@dataclass(frozen=True)
class ConfusionCells(Block):
    """What a report of a sparsely held table gives instead of the K×K matrix: its largest off-diagonal cells.

    Attributes
    ----------
    form, rows, columns, holds : str
        ``sparse``; ``gold``; ``predicted``; what ``cells`` holds, in words.
    non_empty, off_diagonal : int
        Non-empty cells; off-diagonal ones.
    cells : sequence of (str, str, int)
        ``[gold, predicted, count]``, largest first.
    """

    form: str = "sparse"
    rows: str = "gold"
    columns: str = "predicted"
    holds: str = ""
    non_empty: int = 0
    off_diagonal: int = 0
    cells: Sequence[Sequence[str | int]] = ()
