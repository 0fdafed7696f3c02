"""The one result of ``clfeval.report``: :class:`Report`, every count-based number about one classifier.

Every field is typed and read-only: per-class rows (:class:`~clfeval.ops.report._rows.ClassRow`, keyed by the
labels as given), the averages, diagnostics and baselines as typed blocks, and each optional part (``ci``,
``ranking``, ``ranking_ci``, ``inputs``, ``slices``, ``find_slices``, ``requirements``, ``engine``,
``errors_share``) a typed block or None. :meth:`Report.to_dict` lays them out as the stable JSON.

>>> import clfeval
>>> r = clfeval.report(["a", "b", "b"], ["a", "b", "a"], ci=0.9, samples=200)
>>> type(r.ci).__name__, r.ci.level, r.ranking is None, r.per_class["b"].recall
('Intervals', 0.9, True, 0.5)
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from clfeval.core import (
    ConfusionTable,
    Display,
    EngineInfo,
    FrozenDict,
    LabelMap,
    MultilabelTable,
    catalog,
    freeze,
    freeze_fields,
    label_str,
    named_values,
)
from clfeval.errors import UsageError
from clfeval.ops.report._block import plain
from clfeval.ops.report._found import FoundSlices, json_mapping as _mapping, json_number as _number
from clfeval.ops.report._parts import (
    ErrorsSharePart,
    InputsPart,
    Intervals,
    RankingIntervals,
    RankingPart,
    RequirementsPart,
    SlicesPart,
)
from clfeval.ops.report._rows import (
    Averages,
    Baselines,
    BinaryRow,
    ClassRow,
    ConfusedPair,
    ConfusionCells,
    Diagnostics,
    Misclassified,
    OrdinalScores,
    UndefinedValue,
)

if TYPE_CHECKING:
    import pandas

__all__ = ["Report", "SCHEMA_VERSION", "PART_KEYS"]

SCHEMA_VERSION = 1

#: The keys of the optional parts, in the JSON's order (after ``errors``, before ``undefined``).
PART_KEYS = ("ci", "ranking", "ranking_ci", "inputs", "slices", "find_slices", "requirements", "engine",
             "errors_share")

Part = Intervals | RankingPart | RankingIntervals | InputsPart | SlicesPart | FoundSlices | RequirementsPart | \
    EngineInfo | ErrorsSharePart


@dataclass(frozen=True)
class Report(Display):
    """Every count-based number about one classifier on one data set: the one result of ``clfeval.report``.

    Attributes
    ----------
    kind : str
        ``binary``, ``multiclass`` or ``multilabel``.
    n : int or float
        Items (a float for a table of weighted counts).
    labels : sequence of str
        The labels, in the table's order.
    per_class : mapping of label to ClassRow
        Each class against all others, keyed by the labels as given (``r.per_class[1]`` for integer labels; the
        string form finds it too).
    accuracy, error_rate : float
    macro, micro, weighted : Averages
        The averaged precision, recall and F1.
    diagnostics : Diagnostics
        Where the classifier struggles.
    baselines : Baselines
        The trivial classifiers, scored on the same gold labels.
    undefined : tuple of UndefinedValue
        The metrics that were 0/0 somewhere.
    signature : mapping of str to object
        Version, 0/0 policy, β, how averages are taken (read-only).
    notes : sequence of str
        What the reader should know.
    confusion_matrix : tuple of tuple of int, or None
        Rows gold, columns predicted (None: multi-label, or a table held sparsely).
    confusion_cells : ConfusionCells or None
        A sparsely held table: its largest off-diagonal cells.
    balanced_accuracy, mcc, kappa : float or None
        Single-label.
    subset_accuracy, hamming_loss, jaccard : float or None
        Multi-label.
    binary : BinaryRow or None
        ``positive=``: that class against all others.
    ordinal : OrdinalScores or None
        ``order=``: MAE over ranks, weighted kappas.
    errors : Misclassified or None
        ``show_errors=``: the first mistakes.
    ci : Intervals or None
        ``ci=``: the intervals of the count metrics.
    ranking : RankingPart or None
        With scores: ROC-AUC, average precision.
    ranking_ci : RankingIntervals or None
        With scores and ``ci=``: their intervals.
    inputs : InputsPart or None
        What reading the input noticed.
    slices : SlicesPart or None
        ``by=``: the report per slice.
    find_slices : FoundSlices or None
        ``find_slices=``: the slices where the classifier does worst.
    requirements : RequirementsPart or None
        ``require=``: each condition met or not.
    engine : EngineInfo or None
        Where it ran.
    errors_share : ErrorsSharePart or None
        The command line's ``report --text``: the largest confused cells of the error analysis.
    table : ConfusionTable or MultilabelTable or None
        The count table everything was derived from (not part of the JSON).
    """

    kind: str
    n: int | float
    labels: Sequence[str]
    per_class: Mapping[object, ClassRow]
    accuracy: float
    error_rate: float
    macro: Averages
    micro: Averages
    weighted: Averages
    diagnostics: Diagnostics
    baselines: Baselines
    undefined: tuple[UndefinedValue, ...]
    signature: Mapping[str, object]
    notes: Sequence[str] = ()
    confusion_matrix: tuple[tuple[int, ...], ...] | None = None
    confusion_cells: ConfusionCells | None = None
    balanced_accuracy: float | None = None
    mcc: float | None = None
    kappa: float | None = None
    subset_accuracy: float | None = None
    hamming_loss: float | None = None
    jaccard: float | None = None
    binary: BinaryRow | None = None
    ordinal: OrdinalScores | None = None
    errors: Misclassified | None = None
    ci: Intervals | None = None
    ranking: RankingPart | None = None
    ranking_ci: RankingIntervals | None = None
    inputs: InputsPart | None = None
    slices: SlicesPart | None = None
    find_slices: FoundSlices | None = None
    requirements: RequirementsPart | None = None
    engine: EngineInfo | None = None
    errors_share: ErrorsSharePart | None = None
    table: ConfusionTable | MultilabelTable | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        freeze_fields(self, ("labels", "signature", "notes"))
        if not isinstance(self.per_class, LabelMap):
            object.__setattr__(self, "per_class", LabelMap(self.per_class))

    def parts(self) -> dict[str, Part]:
        """The optional parts the report holds (``ci``, ``ranking``, ..., ``engine``), by JSON key, in the JSON's
        order."""
        out: dict[str, Part] = {}
        for key in PART_KEYS:
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    @property
    def sections(self) -> dict[str, object]:
        """Deprecated: the optional parts as plain data by JSON key (``r.sections["ranking"]`` is
        ``r.ranking.to_dict()``). Read the typed fields (``r.ranking``) instead."""
        warnings.warn("Report.sections is deprecated and will be removed in the next release: the parts of a "
                      "report are typed fields now (r.ci, r.ranking, r.slices, ...)", DeprecationWarning,
                      stacklevel=2)
        return {key: part.to_dict() for key, part in self.parts().items()}

    @property
    def hardest_class(self) -> str | None:
        return self.diagnostics.hardest_class

    @property
    def most_confused_pair(self) -> ConfusedPair | None:
        return self.diagnostics.most_confused_pair

    def metric(self, name: str) -> float:
        """A named metric of this report, found where the metric catalogue places it.

        Names are the catalogue's (``accuracy``, ``macro_f1``, ``micro_f1``,
        ``weighted_precision``, ``f1:LABEL``, ``lr_plus:LABEL``, …; multi-label
        also ``hamming_loss``, ``jaccard``). A label the data does not have is
        refused (:class:`~clfeval.errors.UsageError`, listing the labels); NaN
        when the report does not hold the value (the binary block of another
        positive class, F-beta of a report with β = 1) or when it is undefined.

        Examples
        --------
        >>> import clfeval
        >>> clfeval.report(["a", "b", "b"], ["a", "b", "a"]).metric("macro_f1")
        0.6666666666666666
        >>> clfeval.report([1, 2, 2], [1, 2, 1]).metric("recall:9")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        clfeval.errors.UsageError: metric 'recall:9' names the label '9', which the data does not have; its labels are:
        '1', '2'.
        """
        task = "multilabel" if self.kind == "multilabel" else "ordinal" if self.ordinal is not None else "multiclass"
        m, lab = catalog.parse(name)
        per_class = self.per_class
        assert isinstance(per_class, LabelMap)  # __post_init__ makes it one
        if lab is not None and lab not in per_class:
            shown = ", ".join(repr(x) for x in self.labels[:20]) + (", ..." if len(self.labels) > 20 else "")
            raise UsageError(f"metric {name!r} names the label {lab!r}, which the data does not have; its labels "
                             f"are: {shown}.")
        if not (task in m.tasks or (task == "ordinal" and "multiclass" in m.tasks)):
            catalog.check_name(name, task="multilabel" if task == "multilabel" else "multiclass", input="counts")
        if m.input != "counts":
            return math.nan
        key = m.name if lab is None else f"{m.name}:{label_str(per_class.key_of(lab))}"
        return self.values.get(key, math.nan)

    @property
    def values(self) -> Mapping[str, float]:
        """Every count metric of the report by catalogue name (``accuracy``, ``macro_f1``, ``f1:spam``, ...;
        NaN when undefined): the one place :meth:`metric` and the ``require=`` conditions read."""
        return FrozenDict(named_values(self._layout()).values)

    def to_dict(self) -> dict[str, object]:
        """The JSON interface (labels as strings; undefined values stay ``nan`` here and become ``null`` in
        JSON text): plain dicts and lists, a copy of the report's read-only data."""
        return self._layout()

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Report:
        """The report of its JSON: :meth:`to_dict`, or ``clfeval report --format json`` parsed (what ``clfeval plot
        KIND REPORT.json`` draws). The inverse of :meth:`to_dict`: ``Report.from_dict(r.to_dict()).to_dict()`` is
        ``r.to_dict()`` (an undefined number, ``null`` in JSON text, comes back as NaN at the report's own
        numbers and as None inside a part, both ``null`` again). Per-class rows are keyed by the label texts;
        ``table`` is None. Not a report's JSON: :class:`~clfeval.errors.UsageError` naming what is missing.

        Examples
        --------
        >>> import clfeval
        >>> r = clfeval.report(["a", "b", "b"], ["a", "b", "a"])
        >>> Report.from_dict(r.to_dict()).per_class["b"].recall
        0.5
        >>> Report.from_dict({"kind": "binary"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        clfeval.errors.UsageError: this is not a report's JSON (clfeval report --format json): it has no 'n', ...
        """
        return _from_dict(cls, data)

    def _layout(self) -> dict[str, object]:
        out: dict[str, object] = {"schema_version": SCHEMA_VERSION, "kind": self.kind, "n": self.n,
                                  "labels": list(self.labels)}
        if self.confusion_matrix is not None:
            out["confusion_matrix"] = [list(row) for row in self.confusion_matrix]
        if self.confusion_cells is not None:
            out["confusion_cells"] = self.confusion_cells.to_dict()
        assert isinstance(self.per_class, LabelMap)
        out["per_class"] = {k: row.to_dict() for k, row in self.per_class.as_text().items()}
        out["accuracy"] = self.accuracy
        out["error_rate"] = self.error_rate
        for key in ("balanced_accuracy", "mcc", "kappa", "subset_accuracy", "hamming_loss", "jaccard"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["macro"] = self.macro.to_dict()
        out["micro"] = self.micro.to_dict()
        out["weighted"] = self.weighted.to_dict()
        if self.binary is not None:
            out["binary"] = self.binary.to_dict()
        if self.ordinal is not None:
            out["ordinal"] = self.ordinal.to_dict()
        out["diagnostics"] = self.diagnostics.to_dict()
        out["baselines"] = self.baselines.to_dict()
        if self.errors is not None:
            out["errors"] = self.errors.to_dict()
        for key, part in self.parts().items():
            out[key] = part.to_dict()
        out["undefined"] = [u.to_dict() for u in self.undefined]
        out["notes"] = list(self.notes)
        out["signature"] = plain(self.signature)
        return out

    def to_frame(self) -> pandas.DataFrame:
        """The per-class table: one row per class (or label), index ``class``. Columns (``FRAME_COLUMNS['Report']`` of
        :mod:`clfeval.render._frames`): ``class``, ``tp``, ``fp``, ``fn``, ``tn``, ``support``, ``precision``,
        ``recall``, ``specificity``, ``fpr``, ``f1``, ``delta``, ``phi``, ``npv``, ``fnr``, ``prevalence``,
        ``markedness``, ``lr_plus``, ``lr_minus``, ``dor``, ``accuracy`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)


#: The keys every report's JSON has.
_REQUIRED = ("kind", "n", "labels", "per_class", "accuracy", "error_rate", "macro", "micro", "weighted",
             "diagnostics", "baselines")
_PARTS: dict[str, Callable[[object], Part]] = {
    "ci": Intervals.of, "ranking": RankingPart.of, "ranking_ci": RankingIntervals.of, "inputs": InputsPart.of,
    "slices": SlicesPart.of, "requirements": RequirementsPart.of, "errors_share": ErrorsSharePart.of}


def _from_dict(cls: type[Report], data: Mapping[str, object]) -> Report:
    if not isinstance(data, Mapping):
        raise UsageError(f"a report is read from its JSON object (a mapping), not {type(data).__name__}.")
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise UsageError(f"this is not a report's JSON (clfeval report --format json): it has no "
                         f"{', '.join(map(repr, missing))}.")
    d = data
    try:
        labels = [str(x) for x in d["labels"]]  # type: ignore[attr-defined]
        pc = _mapping(d["per_class"])
        per_class = LabelMap.of(list(pc), [ClassRow.of(row) for row in pc.values()])

        def opt(key: str) -> float | None:
            return _number(d[key]) if key in d else None

        def block(key: str, make: Callable[[object], object]) -> object:
            return None if d.get(key) is None else make(d[key])

        parts: dict[str, object] = {key: block(key, make) for key, make in _PARTS.items()}
        parts["find_slices"] = block("find_slices", FoundSlices.from_dict)
        parts["engine"] = block("engine", lambda x: EngineInfo.of(_mapping(x)))
        cm = d.get("confusion_matrix")
        undefined = d.get("undefined") or ()
        notes = d.get("notes") or ()
        assert isinstance(undefined, (list, tuple)) and isinstance(notes, (list, tuple))
        n = d["n"]
        if not isinstance(n, (int, float)):
            raise TypeError(f"n: a number, not {type(n).__name__}")
        return cls(kind=str(d["kind"]), n=n, labels=freeze(labels), per_class=per_class,
                   accuracy=_number(d["accuracy"]), error_rate=_number(d["error_rate"]),
                   macro=Averages.of(d["macro"]), micro=Averages.of(d["micro"]),
                   weighted=Averages.of(d["weighted"]), diagnostics=Diagnostics.of(d["diagnostics"]),
                   baselines=Baselines.of(d["baselines"]),
                   undefined=tuple(UndefinedValue.of(u) for u in undefined),
                   signature=freeze(dict(_mapping(d.get("signature") or {}))), notes=freeze([str(x) for x in notes]),
                   confusion_matrix=None if cm is None else
                   tuple(tuple(row) for row in cm),  # type: ignore[attr-defined]
                   confusion_cells=block("confusion_cells", ConfusionCells.of),  # type: ignore[arg-type]
                   balanced_accuracy=opt("balanced_accuracy"), mcc=opt("mcc"), kappa=opt("kappa"),
                   subset_accuracy=opt("subset_accuracy"), hamming_loss=opt("hamming_loss"), jaccard=opt("jaccard"),
                   binary=block("binary", BinaryRow.of),  # type: ignore[arg-type]
                   ordinal=block("ordinal", OrdinalScores.of),  # type: ignore[arg-type]
                   errors=block("errors", Misclassified.of),  # type: ignore[arg-type]
                   **parts)  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError, AssertionError) as e:
        raise UsageError(f"this is not a report's JSON (clfeval report --format json): {type(e).__name__}: "
                         f"{e}.") from None
