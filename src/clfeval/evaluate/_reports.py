"""The report: every count-based number about one classifier, as plain data.

:func:`report` chains the house steps — validate → encode labels → count →
reduce — and returns a :class:`Report`, a frozen dataclass whose
:meth:`Report.to_dict` is the stable JSON interface. :func:`report_from_table`
does the reduction alone, for tables that were built elsewhere (streamed,
merged across folds or shards).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from clfeval.core import (
    MAX_DENSE,
    ConfusionTable,
    EncodedGold,
    EncodedPair,
    LabelMap,
    MultilabelTable,
    build_signature,
    check_beta,
    check_positive_int,
    check_zero_division,
    encode_multilabel,
    encode_pair,
    freeze,
    label_str,
    normalization_notes,
    resolve_label,
    score,
    score_multilabel,
    stats_of,
    table_of,
    zero_division_name,
)
from clfeval.errors import DataError, LabelListError, UsageError
from clfeval.evaluate._baselines import (
    TrainFrequencies,
    multilabel_baselines,
    single_label_baselines,
    train_frequencies,
)
from clfeval.evaluate._diagnostics import hardest_classes, misclassified, most_confused_pair, top_confusions
from clfeval.ops.report import (
    Averages,
    Baselines,
    BinaryRow,
    ClassRow,
    ConfusionCells,
    Diagnostics,
    Intervals,
    Misclassified,
    OrdinalScores,
    RankingPart,
    Report,
    UndefinedValue,
)
from clfeval.ops.report._result import SCHEMA_VERSION

if TYPE_CHECKING:
    from typing import TypeAlias

    import numpy.typing as npt

    #: A class label as the input gives it.
    Label: TypeAlias = str | int | float | bool

__all__ = ["Report", "report", "report_from_table", "check_ids", "check_predictions", "SCHEMA_VERSION", "typed_report"]

MULTILABEL_OMITTED = (
    "multi-label data has no K×K confusion matrix (an item may carry several labels, so an error is "
    "not one gold class predicted as another); confusion_matrix, most_confused_pair, mcc, kappa and "
    "balanced_accuracy are therefore left out. Each label has its own binary table instead."
)


def typed_report(*, kind: str, n: int | float, labels: Sequence[str], scored: dict[str, Any],
                 diagnostics: dict[str, Any], baselines: dict[str, Any], signature: dict[str, Any], notes: list[str],
                 table: ConfusionTable | MultilabelTable | None, binary: dict[str, Any] | None = None,
                 confusion_matrix: list[list[int]] | None = None, confusion_cells: dict[str, Any] | None = None,
                 ci: dict[str, Any] | None = None) -> Report:
    """The typed :class:`Report` of the plain numbers the scoring gives (``scored``: :func:`clfeval.core.score`'s
    or :func:`clfeval.core.score_multilabel`'s): per-class rows keyed by the table's labels as given."""
    raw = getattr(table, "labels", None)
    keys: list[Any] = list(labels)
    if raw is not None and len(raw) == len(labels) and [label_str(x) for x in raw] == list(labels):
        keys = list(raw)
    per_class = LabelMap.of(keys, [ClassRow.of(scored["per_class"][lab]) for lab in labels])
    multilabel = kind == "multilabel"
    ordinal = scored.get("ordinal")
    return Report(kind=kind, n=n, labels=freeze(list(labels)), per_class=per_class, accuracy=scored["accuracy"],
                  error_rate=scored["error_rate"], macro=Averages.of(scored["macro"]),
                  micro=Averages.of(scored["micro"]), weighted=Averages.of(scored["weighted"]),
                  diagnostics=Diagnostics.of(diagnostics), baselines=Baselines.of(baselines),
                  undefined=tuple(UndefinedValue.of(u) for u in scored["undefined"]),
                  signature=freeze(signature), notes=freeze(list(notes)),
                  confusion_matrix=None if confusion_matrix is None else tuple(tuple(r) for r in confusion_matrix),
                  confusion_cells=None if confusion_cells is None else ConfusionCells.of(confusion_cells),
                  balanced_accuracy=None if multilabel else scored["balanced_accuracy"],
                  mcc=None if multilabel else scored["mcc"], kappa=None if multilabel else scored["kappa"],
                  subset_accuracy=scored["subset_accuracy"] if multilabel else None,
                  hamming_loss=scored["hamming_loss"] if multilabel else None,
                  jaccard=scored["jaccard"] if multilabel else None,
                  binary=None if binary is None else BinaryRow.of(binary),
                  ordinal=None if ordinal is None else OrdinalScores.of(ordinal),
                  ci=None if ci is None else Intervals.of(ci), table=table)


def _train(train_labels: Any, multilabel: bool, sep: str) -> TrainFrequencies | None:
    if train_labels is None or isinstance(train_labels, TrainFrequencies):
        return train_labels
    return train_frequencies(train_labels, multilabel=multilabel, sep=sep)


def _signature(zd: float, beta: float, kind: str) -> dict[str, Any]:
    return build_signature({"zero_division": zero_division_name(zd), "beta": beta,
                            "averaging": {"macro": "mean over labels of the per-label value",
                                          "macro.f1_of_means": "F1 of macro-precision and macro-recall",
                                          "micro": "computed once from TP, FP, FN pooled over labels",
                                          "weighted": "mean of per-label values weighted by support"},
                            "undefined_policy": _policy_text(zd), "kind": kind})


def _policy_text(zd: float) -> str:
    if math.isnan(zd):
        return "0/0 is reported as undefined (NaN, null in JSON) and left out of macro and weighted averages"
    return f"0/0 is counted as {zero_division_name(zd)}; the affected labels and metrics are listed under 'undefined'"


def report_from_table(table: ConfusionTable | MultilabelTable, *, positive: Label | None = None, beta: float = 1.0,
                      zero_division: float | str = 0, order: bool = False,
                      train_labels: npt.ArrayLike | TrainFrequencies | None = None, sep: str = "|", top_n: int = 5,
                      ci: float | None = None, samples: int = 10_000, seed: int | np.random.Generator = 0,
                      ci_method: str | Sequence[str] | Mapping[str, str] = "auto") -> Report:
    """A :class:`Report` from a count table built elsewhere (streamed, merged, pooled over folds).

    Same parameters as :func:`report`, except that ``order=True`` says the
    table's label order is the ordinal scale.

    Parameters
    ----------
    table : ConfusionTable or MultilabelTable
        The counts (a sparse confusion table too); a multi-label table gives a multi-label report.
    positive : label, optional
        Adds a ``binary`` block: this class against all others (it must be one of the table's labels).
    beta : float
        Adds F-beta (key ``fbeta``) beside F1 when not 1; default 1.0.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios; default 0, as scikit-learn; the affected metrics and labels are listed under
        ``undefined``; ``"nan"`` leaves them out of averages.
    order : bool
        The table's label order is the ordinal scale: adds ``ordinal`` (single-label tables only); default False.
    train_labels : sequence or TrainFrequencies, optional
        Training labels (label sets for a multi-label table, split at ``sep``), or training frequencies already
        counted: the majority and stratified baselines then follow them.
    sep : str
        The separator of labels within a multi-label text cell of ``train_labels``; default ``"|"``.
    top_n : int
        The largest confusions listed in the diagnostics; default 5 (20 at least for a sparse table).
    ci : float, optional
        Adds a bootstrap interval at this level to every metric (``r.ci``); not for a multi-label or a sparse
        table. Default none.
    samples : int
        Bootstrap replicates of ``ci``; default 10,000.
    seed : int or numpy.random.Generator
        The random seed of ``ci``; default 0.
    ci_method : str, list of str or dict
        Which interval each metric of ``ci`` gets, as in :func:`report`; default ``"auto"``.
    """
    zd = check_zero_division(zero_division)
    beta = check_beta(beta)
    labels = table.label_strings
    notes: list[str] = normalization_notes(labels)
    if isinstance(table, MultilabelTable):
        if ci is not None:
            raise UsageError("confidence intervals of a multi-label report resample the items (their label-set "
                             "patterns), which a multi-label table does not keep; use report(gold, pred, "
                             "multilabel=True, ci=...) instead.")
        if order:
            raise UsageError("option order (ordinal classes) applies to single-label data, not to multi-label data.")
        scored = score_multilabel(table.counts, labels, n_items=table.n_items, exact=table.exact,
                                  jaccard_sum=table.jaccard_sum, jaccard_empty=table.jaccard_empty, beta=beta,
                                  zero_division=zd)
        f1 = np.array([scored["per_class"][lab]["f1"] for lab in labels])
        hard = hardest_classes(f1, labels)
        diagnostics: dict[str, Any] = {"hardest_class": hard[0] if hard else None, "hardest_classes": hard,
                                       "omitted": MULTILABEL_OMITTED}
        train = _train(train_labels, True, sep)
        baselines, bnotes = multilabel_baselines(table, labels, beta=beta, zero_division=zd, train=train)
        notes.append(MULTILABEL_OMITTED)
        notes.extend(bnotes)
        binary = None
        if positive is not None:
            i = resolve_label(positive, table.labels, option="positive")
            binary = dict(positive=labels[i], **{k: v for k, v in scored["per_class"][labels[i]].items()})
        return typed_report(kind="multilabel", n=table.n_items, labels=labels, scored=scored,
                            diagnostics=diagnostics, baselines=baselines,
                            signature=_signature(zd, beta, "multilabel"), notes=notes, binary=binary, table=table)
    sparse = not isinstance(table, ConfusionTable)
    if sparse and ci is not None:
        raise UsageError(f"bootstrap intervals keep every replicate of every per-class value, which a table of "
                         f"{table.k:,} classes (held sparsely, above {MAX_DENSE:,}) cannot afford; leave out ci "
                         f"(--ci), or evaluate fewer classes.")
    positive_index = None if positive is None else resolve_label(positive, table.labels, option="positive")
    stats = stats_of(table)
    scored = score(stats, labels, beta=beta, zero_division=zd, order=order, positive=positive_index)
    binary = scored.get("binary")
    f1 = np.array([scored["per_class"][lab]["f1"] for lab in labels])
    hard = hardest_classes(f1, labels)
    diagnostics = {"hardest_class": hard[0] if hard else None, "hardest_classes": hard,
                   "most_confused_pair": most_confused_pair(table, labels),
                   "top_confusions": top_confusions(table, labels, max(top_n, TOP_SPARSE) if sparse else top_n)}
    train = _train(train_labels, False, sep)
    c = stats.classes
    baselines, bnotes = single_label_baselines(c.tp + c.fn if sparse else table.counts, labels, beta=beta,
                                               zero_division=zd, positive_index=positive_index, train=train)
    notes.extend(bnotes)
    if math.isnan(zd) and scored["undefined"]:
        notes.append("Undefined values (0/0) are shown as NaN and left out of the macro and weighted averages.")
    intervals = None
    if ci is not None:
        from clfeval.evaluate._intervals import table_ci

        intervals = table_ci(table.counts, table.labels, level=ci, samples=samples, seed=seed, zero_division=zd,
                                  beta=beta, order=order, positive=positive_index, method=ci_method)
    cells = None
    if sparse:
        cells = sparse_cells(table)
        notes.append(f"{table.k:,} classes: the confusion table is held sparsely ({cells['non_empty']:,} non-empty "
                     f"cells of {table.k ** 2:,}); the JSON gives every per-class count under per_class and the "
                     f"largest off-diagonal cells under confusion_cells instead of a {table.k:,}×{table.k:,} matrix.")
    return typed_report(kind="multiclass" if len(labels) != 2 else "binary", n=table.n, labels=labels,
                        scored=scored, diagnostics=diagnostics, baselines=baselines,
                        signature=_signature(zd, beta, "single-label"), notes=notes,
                        confusion_matrix=None if sparse else table.counts.tolist(), confusion_cells=cells,
                        binary=binary, ci=intervals, table=table)


#: Largest off-diagonal cells a sparse report's JSON lists (``confusion_cells``), and confusions in its text.
SPARSE_CELLS = 10_000
TOP_SPARSE = 20


def sparse_cells(table: Any, limit: int = SPARSE_CELLS) -> dict[str, Any]:
    """What a report of a sparse table holds instead of the K×K matrix: its largest off-diagonal cells."""
    g, p, c = table.cells()
    off = g != p
    order = np.flatnonzero(off)[np.argsort(-c[off], kind="stable")][:limit]
    labs = table.label_strings
    return {"form": "sparse", "rows": "gold", "columns": "predicted",
            "holds": f"the {min(limit, int(off.sum())):,} largest off-diagonal cells [gold, predicted, count], "
                     f"largest first (ties in label order); the diagonal is per_class.LABEL.tp, the row and column "
                     f"totals per_class.LABEL.support and tp + fp",
            "non_empty": int(c.size), "off_diagonal": int(off.sum()),
            "cells": [[labs[int(g[i])], labs[int(p[i])], int(c[i])] for i in order.tolist()]}


def check_ids(ids: Any, n: int) -> list[Any]:
    """Item ids as a list: one per item, none missing, all distinct (the message names the offending id)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = ids if isinstance(ids, (pa.Array, pa.ChunkedArray)) else \
        pa.array(list(ids) if not isinstance(ids, np.ndarray) else ids)
    if len(arr) != n:
        raise DataError(f"ids must give one id per item: got {len(arr)} ids for {n} items.")
    if arr.null_count:
        first = int(np.flatnonzero(np.asarray(pc.is_null(arr)))[0])
        raise DataError(f"ids has a missing id at item {first} (0-based); every item needs an id.")
    if pc.count_distinct(arr).as_py() != n:
        from clfeval.io import first_duplicate  # the id join's one rule: the first id seen twice

        found = first_duplicate(arr, np.zeros(n, dtype=np.int64), np.arange(n, dtype=np.int64))
        dup = found[0] if found is not None else None
        raise DataError(f"ids must be unique; the id {label_str(dup)!r} occurs more than once.")
    ids_list: list[Any] = arr.to_pylist()
    return ids_list


def _encode(gold: Any, pred: Any, scores: Any, threshold: float | None, *, positive: Any,
            labels: Sequence[Any] | None, multilabel: bool, sep: str) -> tuple[Any, EncodedGold]:
    """Gold (and the predictions, given or cut from the scores) encoded once: the pair and the gold alone."""
    if multilabel:
        if pred is None:
            assert threshold is not None  # the caller refuses scores without a threshold
            from clfeval.scores import predictions_from_cut

            pred = predictions_from_cut(gold, scores, threshold, positive=positive, multilabel=True)
        enc = encode_multilabel(gold, pred, labels=labels, sep=sep)
        return enc, EncodedGold(indicator=enc.gold, labels=tuple(enc.labels))
    if pred is None:
        assert threshold is not None  # the caller refuses scores without a threshold
        from clfeval.scores import binary_cut

        gold_enc, codes = binary_cut(gold, scores, threshold, positive=positive)
        assert gold_enc.codes is not None  # single-label gold
        pair = EncodedPair(gold_enc.codes, codes, len(gold_enc.raw), gold_enc.raw)
        return (pair if labels is None else pair.with_labels(list(labels))), gold_enc
    single = encode_pair(gold, pred, labels=labels)
    return single, EncodedGold(codes=single.gold_raw, raw=single.raw_labels)


def check_predictions(pred: Any, scores: Any, threshold: Any) -> None:
    """Predictions given, or made from scores by a threshold."""
    if pred is None and (scores is None or threshold is None):
        raise UsageError("predictions are missing: give predicted labels, or scores with a threshold "
                         "(an item is then predicted positive iff its score >= threshold).")


def report(gold: Any, pred: Any = None, *, labels: Sequence[Any] | None = None, ids: Any = None, positive: Any = None,
           beta: float = 1.0, zero_division: Any = 0, order: Sequence[Any] | None = None, multilabel: bool = False,
           train_labels: Any = None, show_errors: int = 0, sep: str = "|", scores: Any = None,
           threshold: float | None = None, ci: float | None = None, samples: int = 10_000, seed: Any = 0,
           ci_method: Any = "auto") -> Report:
    """Evaluate predictions against gold labels: every count-based metric, diagnostics and baselines.

    Parameters
    ----------
    gold, pred : sequence
        One label per item (strings, integers or booleans, of one kind), or
        with ``multilabel=True`` one label *set* per item (lists, or strings
        separated by ``sep``; empty = no label).
    labels : sequence, optional
        The labels and their order; default: every label in either column,
        sorted. Labels that never occur are allowed (their counts are 0).
    ids : sequence, optional
        Item ids (unique); used to list misclassified items.
    positive : label, optional
        Adds a ``binary`` block: this class against all others.
    beta : float
        Adds F-beta (key ``fbeta``) beside F1 when not 1; ``f1`` always stays F1.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios. The default 0 agrees with scikit-learn; every
        affected metric and label is listed under ``undefined``; ``nan``
        leaves them out of averages.
    order : sequence, optional
        The classes are ordered (e.g. star ratings): the labels in scale
        order. Adds ``ordinal``: MAE over ranks, linear and quadratic kappa.
    multilabel : bool
        Items carry label sets; see :class:`~clfeval.core._tables.MultilabelTable`.
    train_labels : sequence or TrainFrequencies, optional
        Training labels: the majority and stratified baselines then follow
        the training class frequencies (the honest version). Labels already
        counted (:func:`clfeval.evaluate._baselines.train_frequencies`) are used as they are.
    show_errors : int
        List up to this many misclassified items (ids, gold, prediction).
    scores : sequence, or mapping label → column, optional
        Scores (higher = more positive) add ``r.ranking`` (ROC-AUC,
        average precision): one column with ``positive``, or one column per
        label (one-vs-rest). See :func:`clfeval.scores._curves.ranking_section`.
    threshold : float, optional
        With ``scores`` and no ``pred``: predictions come from the cut,
        positive iff score ≥ threshold (binary, or per label for multi-label).
    ci : float, optional
        Add a bootstrap percentile interval at this level (e.g. 0.95) to every
        count-table metric, in ``r.ci`` (:class:`~clfeval.evaluate._sections.Intervals`: the same
        paths as the report's keys; see :func:`clfeval.evaluate._intervals.table_ci`).
    samples, seed : int
        Bootstrap replicates and seed of the intervals.
    ci_method : str, list of str or dict
        Which interval each metric gets (:mod:`clfeval.evaluate._cimethods`): ``auto`` (default) the methods
        whose worst cell covered best in ``bench/ci_coverage.py`` (Wilson for per-class precision and
        recall, BCa otherwise), ``percentile``, ``bca``, or ``METRIC=METHOD`` values. Multi-label
        intervals are percentile intervals.

    Returns
    -------
    Report

    Examples
    --------
    The accuracy trap: 100 documents, 90 of them news, "always news":

    >>> r = report(["news"] * 90 + ["other"] * 10, ["news"] * 100)
    >>> r.accuracy, round(r.macro.f1, 4), r.per_class["other"].f1
    (0.9, 0.4737, 0.0)
    >>> for u in r.undefined:  # "other" is never predicted, and no item is predicted as not news
    ...     print(u.metric, *(u.labels or []))
    precision other
    npv news
    markedness news other
    lr_plus other
    lr_minus news
    dor news other
    mcc
    """
    zd = check_zero_division(zero_division)
    beta = check_beta(beta)
    show_errors = check_positive_int(show_errors, option="show_errors", minimum=0)
    check_predictions(pred, scores, threshold)
    if order is not None:
        if labels is not None and [label_str(x) for x in labels] != [label_str(x) for x in order]:
            raise UsageError("give either labels or order (the ordinal scale), not two different lists.")
        labels = list(order)
    try:
        enc, gold_enc = _encode(gold, pred, scores, threshold, positive=positive, labels=labels, multilabel=multilabel,
                                sep=sep)
    except LabelListError as exc:
        if order is None:
            raise
        raise LabelListError(exc.missing, parameter="order") from None
    if multilabel:
        table: ConfusionTable | MultilabelTable = MultilabelTable.from_indicators(enc.gold, enc.pred, enc.labels)
    else:
        table = table_of(enc)
    n = enc.n
    id_list = check_ids(ids, n) if ids is not None else None
    if multilabel and ci is not None:
        from clfeval.evaluate._cimethods import check_method_labels, parse_ci_methods

        methods = parse_ci_methods(ci_method)
        counted = {m for k, m in methods.items() if k.partition(":")[0] != "roc_auc"}  # ROC-AUC: its own methods
        if counted & {"bca", "wilson"}:
            raise UsageError(lambda name: f"option {name}: multi-label intervals are bootstrap percentile intervals "
                             f"only; got {ci_method!r}.", params=["ci_method"])
        check_method_labels(methods, [label_str(x) for x in enc.labels])
    rep = report_from_table(table, positive=positive, beta=beta, zero_division=zd, order=order is not None,
                            train_labels=train_labels, sep=sep, ci=None if multilabel else ci, samples=samples,
                            seed=seed, ci_method=ci_method)
    if multilabel and ci is not None:
        from clfeval.evaluate._intervals import multilabel_ci

        rep = dataclasses.replace(rep, ci=Intervals.of(multilabel_ci(
            enc.gold, enc.pred, enc.labels, level=ci, samples=samples, seed=seed, zero_division=zd, beta=beta)))
    if show_errors:
        if multilabel:
            wrong = np.flatnonzero(np.any(enc.gold != enc.pred, axis=1))
            items = []
            for pos in wrong[:show_errors].tolist():
                items.append({"id": id_list[pos] if id_list is not None else pos,
                              "gold": [label_str(enc.labels[j]) for j in np.flatnonzero(enc.gold[pos])],
                              "pred": [label_str(enc.labels[j]) for j in np.flatnonzero(enc.pred[pos])]})
            errors = {"total": int(wrong.size), "shown": len(items), "items": items}
        else:
            errors = misclassified(enc.gold, enc.pred, enc.labels, id_list, show_errors)
        rep = dataclasses.replace(rep, errors=Misclassified.of(errors))
    if scores is not None:
        from clfeval.scores import ranking_section

        section = ranking_section(gold_enc, scores, positive=positive, multilabel=multilabel, sep=sep,
                                  threshold=threshold)
        rep = dataclasses.replace(rep, ranking=RankingPart.of(section))
    return rep
