"""Choosing a threshold honestly: on development data, never on the test data.

The cut is chosen on a development set (a held-out slice of the training
data) for an objective — maximise F-beta, minimise an expected cost, reach a
precision or a recall — and then applied, unchanged, to the test set. Three
rows are always shown side by side on the test set:

1. the **default** cut (given, else 0.5 when every score lies in [0, 1] and 0
   otherwise: log-odds and margins decide at 0);
2. the cut **chosen on the development set**;
3. the **best-in-hindsight** cut, chosen on the test set itself — optimistic by
   construction, shown only to measure how much the development split found.

The reported threshold is always a score that occurs in the data it was
chosen on (the lowest score predicted positive at that cut), so it can be
applied anywhere as "positive iff score ≥ threshold" (:data:`clfeval.scores._curves.RULE`).

Reference: Manning, Raghavan & Schütze (2008), *Introduction to Information
Retrieval*, ch. 13–14 (tuning on a development set); Lewis (1995) on
thresholding per category.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import (
    EncodedGold,
    MultilabelTable,
    build_signature,
    check_finite,
    check_zero_division,
    fbeta,
    fpr,
    label_str,
    precision,
    recall,
    resolve_label,
    safe_divide,
    score_multilabel,
    sweep_curves,
    zero_division_name,
)
from clfeval.errors import DataError, UsageError
from clfeval.ops.threshold import ChosenCut, CutRow, LabelCuts, SortedRuns, Sweep, ThresholdResult
from clfeval.scores._columns import DEFAULT_SOURCE, ScoreSource, as_scores, score_matrix
from clfeval.scores._curves import RULE, Objective, SortedRanking, binary_gold, indicator_gold, parse_objective
from clfeval.scores._external import DEFAULT_MEMORY, RankingStore, SpillSpace
from clfeval.scores._intcuts import IntegerKeys, check_kinds, value_of_key, valued
from clfeval.scores._streamovr import batch_is_positive

__all__ = ["choose_threshold", "choose_threshold_batches",
           "choose_threshold_filled", "check_positive",
           "choose_label_thresholds", "choose_label_thresholds_batches", "check_dev_columns", "default_cut",
           "HINDSIGHT_NOTE", "NO_DEV_NOTE"]

HINDSIGHT_NOTE = ("The hindsight cut was chosen by looking at the test labels: its scores are optimistic, an upper "
                  "bound on what tuning can give, not an estimate of it. The gap between the dev-chosen row and "
                  "the hindsight row is what the development split could not find.")
NO_DEV_NOTE = ("No development data was given, so no threshold could be chosen honestly: only the default cut and "
               "the best-in-hindsight cut on the test data are shown. The hindsight cut was chosen on the test "
               "labels themselves, so its scores are optimistic (the test set was used for tuning and can no longer "
               "measure the result). Pass development data (a held-out slice of the training data) to choose "
               "a cut that can be applied to the test data.")


def default_cut(*scores: np.ndarray, given: Any = None) -> tuple[float, str]:
    """The default cut and why: ``given``, else 0.5 when every score lies in [0, 1], else 0.

    >>> default_cut(np.array([0.2, 0.9]))
    (0.5, 'every score lies in [0, 1] (probabilities): 0.5')
    >>> default_cut(np.array([-3.0, 2.0]))[0]
    0.0
    """
    if given is not None:
        t = check_finite(given, option="default_threshold")
        return t, f"given: {t:g}"
    if all(s.size == 0 or (s.min() >= 0.0 and s.max() <= 1.0) for s in scores):
        return 0.5, "every score lies in [0, 1] (probabilities): 0.5"
    return 0.0, "scores outside [0, 1] (log-odds or margins): 0"


def cut_row(rk: Any, threshold: float, obj: Objective, zd: float) -> dict[str, Any]:
    """Every count and measure of one cut applied to one ranking, as plain data."""
    c = rk.counts_at(threshold)
    out: dict[str, Any] = {"threshold": threshold if isinstance(threshold, int) else float(threshold), "tp": int(c.tp),
                           "fp": int(c.fp), "fn": int(c.fn),
                           "tn": int(c.tn)}
    out["precision"] = float(precision(c, zd)[0])
    out["recall"] = float(recall(c, zd)[0])
    out["f1"] = float(fbeta(c, 1.0, zd)[0])
    if obj.kind == "fbeta" and obj.beta != 1.0:
        out["fbeta"] = float(fbeta(c, obj.beta, zd)[0])
    out["fpr"] = float(fpr(c, zd)[0])
    out["accuracy"] = float(safe_divide(c.tp + c.tn, rk.n, zd)[0])
    out["cost"] = float(safe_divide(obj.cost_fp * c.fp + obj.cost_fn * c.fn, rk.n, zd)[0])
    return out


def _cut_of(rk: Any, obj: Objective) -> tuple[float | None, tuple[float, float] | None]:
    """The threshold an objective chooses on a :class:`SortedRanking` or a :class:`RankingStore` (None when no cut
    qualifies), and — when a precision target is out of reach — (the highest precision, its threshold)."""
    if isinstance(rk, SortedRanking):
        k = rk.best_cut(obj)
        if k is not None:
            return float(rk.cuts.thresholds[k]), None
        if obj.kind != "precision" or rk.cuts.thresholds.size == 0:
            return None, None
        p, _, thr = rk.pr_curve()
        j = int(np.argmax(p))
        return None, (float(p[j]), float(thr[j]))
    choice = rk.best_cut(obj)
    return choice.threshold, choice.top_precision


def _best(rk: Any, obj: Objective, what: str) -> tuple[float | None, str | None]:
    """The threshold an objective chooses on one ranking (in memory or a store), or (None, reason)."""
    t, top = _cut_of(rk, obj)
    if t is None:
        if obj.kind == "precision" and top is not None:
            return None, (f"no cut on {what} reaches precision >= {obj.target:g}; the highest precision there is "
                          f"{top[0]:.4g} (at threshold {top[1]:g})")
        return None, f"{what} has no items"
    return t, None


def _cost_note(rk: Any, t: float, obj: Objective, what: str) -> str | None:
    if obj.kind != "cost" or rk.n == 0:
        return None
    best = (obj.cost_fp * rk.counts_at(t).fp + obj.cost_fn * rk.counts_at(t).fn) / rk.n
    nothing = obj.cost_fn * rk.n_positive / rk.n
    if nothing < best:
        return (f"On {what}, predicting no item positive would cost {nothing:.4g} per item, less than the best cut "
                f"({best:.4g}); a cut is always reported as a score in the data, so it predicts at least one item.")
    return None


def _signature(obj: Objective, zd: float, default_source: str) -> dict[str, Any]:
    return build_signature({"objective": obj.name, "beta": obj.beta, "cost_fp": obj.cost_fp, "cost_fn": obj.cost_fn,
                            "zero_division": zero_division_name(zd), "rule": RULE,
                            "default_threshold": default_source,
                            "cost": "expected cost per item = (cost_fp * FP + cost_fn * FN) / N"})


def choose_threshold(test_gold: Any, test_scores: Any, *, positive: Any, dev_gold: Any = None, dev_scores: Any = None,
                     objective: str | Objective = "f1", cost_fp: float = 1.0, cost_fn: float = 1.0,
                     default_threshold: float | None = None, zero_division: Any = 0,
                     source: ScoreSource | None = None, dev_source: ScoreSource | None = None) -> ThresholdResult:
    """Choose a cut on development data for an objective and measure it on the test data.

    Parameters
    ----------
    test_gold, test_scores : sequences
        The test data: gold labels and one score per item.
    positive : label
        The positive class; it must occur in the test and development gold labels.
    dev_gold, dev_scores : sequences, optional
        The development data the cut is chosen on. Without them only the
        default and the hindsight cut are shown (and the result says why).
    objective : str
        ``f1``, ``f0.5``, ``f2`` (any ``f<beta>``), ``cost``, ``precision>=X``
        or ``recall>=X``; see :class:`~clfeval.scores._curves.Objective` for the tie rules.
    cost_fp, cost_fn : float
        Costs of one false positive and one false negative (objective ``cost``).
    default_threshold : float, optional
        The default cut; else 0.5 when every score lies in [0, 1] and 0 otherwise.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios in the measures.
    source, dev_source : ScoreSource, optional
        How messages name the score column and the items of the test and of
        the development data (the command line names each file's rows).

    Returns
    -------
    ThresholdResult
        With ``choice`` (one score column's cuts).

    Raises
    ------
    DataError
        Development data with one class only; a precision target no cut of
        the development data reaches; bad scores.

    Examples
    --------
    >>> c = choose_threshold([1, 0, 1, 0], [0.9, 0.6, 0.7, 0.2], positive=1,
    ...                      dev_gold=[1, 1, 0, 0], dev_scores=[0.8, 0.4, 0.3, 0.1])
    >>> c.threshold, c.test.f1, c.default.threshold, c.hindsight.threshold
    (0.4, 0.8, 0.5, 0.7)
    """
    zd = check_zero_division(zero_division)
    obj = parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)
    if (dev_gold is None) != (dev_scores is None):
        raise UsageError("give both dev_gold and dev_scores (the development data), or neither.")
    src, dev_src = source or DEFAULT_SOURCE, dev_source or source or DEFAULT_SOURCE
    y, pos_label, _ = binary_gold(test_gold, positive, name="test gold")
    s = as_scores(test_scores, name=src.column("scores"), n=y.shape[0], where=src.where)
    test_rk = SortedRanking.from_indicator(y, s, pos_label)
    dev_rk = None
    dev_s = None
    if dev_gold is not None:
        dy, _, present = _dev_gold(dev_gold, positive, dev_src.called("the development data"))
        dev_s = as_scores(dev_scores, name=dev_src.column("scores"), n=dy.shape[0], where=dev_src.where)
        dev_rk = SortedRanking.from_indicator(dy, dev_s, pos_label)
    default = default_cut(*([s] + ([dev_s] if dev_s is not None else [])), given=default_threshold)
    return _choice(test_rk, dev_rk, pos_label, default, obj, zd, src, dev_src,
                   sweep_curves(test_rk.pos_scores, test_rk.neg_parts, beta=obj.beta))


def _choice(test_rk: Any, dev_rk: Any, pos_label: str, default: tuple[float, str], obj: Objective, zd: float,
            src: ScoreSource, dev_src: ScoreSource, sweep: dict[str, Any] | None,
            external: dict[str, Any] | None = None) -> ThresholdResult:
    """The three rows of a threshold choice from the test and development rankings (in memory or stores)."""
    t0, source = default
    notes: list[str] = []
    default_row = dict(cut_row(test_rk, t0, obj, zd), source=source)
    chosen = test_row = dev_row = None
    if dev_rk is not None:
        chosen, why = _best(dev_rk, obj, dev_src.called("the development data"))
        if chosen is None:
            raise DataError(f"{why}. Lower the target or choose another objective.")
        dev_row = cut_row(dev_rk, chosen, obj, zd)
        test_row = cut_row(test_rk, chosen, obj, zd)
        for note in (_cost_note(dev_rk, chosen, obj, "the development data"),):
            if note:
                notes.append(note)
    else:
        notes.append(NO_DEV_NOTE)
    hind, why = _best(test_rk, obj, src.called("the test data"))
    hind_row = dict(cut_row(test_rk, hind, obj, zd),
                    label="hindsight (chosen on the test labels: optimistic)") if hind is not None else None
    if hind is None:
        notes.append(f"No hindsight cut: {why}.")
    if dev_rk is not None:
        notes.append(HINDSIGHT_NOTE)
    choice = ChosenCut(pos_label, chosen, CutRow.of(default_row), _row(test_row), _row(hind_row), _row(dev_row),
                       None if sweep is None else Sweep.of(sweep))
    return ThresholdResult(obj.name, obj.describe(), RULE, int(test_rk.n), None if dev_rk is None else int(dev_rk.n),
                           tuple(notes), _signature(obj, zd, source), choice=choice, external=_runs(external))


def _row(d: dict[str, Any] | None) -> CutRow | None:
    return None if d is None else CutRow.of(d)


def _runs(external: dict[str, Any] | None) -> SortedRuns | None:
    return None if external is None else SortedRuns.of(external)


def _dev_refused(exc: DataError, called: str) -> DataError:
    """A reason the development data cannot choose a threshold, wrapped to say so (option names kept)."""
    return DataError(lambda *names, _e=exc: f"{called} cannot be used to choose a threshold: "
                                            f"{_e.with_names(dict(zip(_e.params, names, strict=False)))}",
                     params=exc.params)


def _check_two_classes(n_positive: int, n_negative: int, present: list[str], pos_label: str, called: str) -> None:
    if n_positive == 0 or n_negative == 0:
        raise DataError(f"{called} holds only one class ({', '.join(map(repr, present))}); a threshold "
                        f"cannot be chosen without both positive ({pos_label!r}) and negative items.")


def _dev_gold(dev_gold: Any, positive: Any, called: str = "the development data") -> tuple[np.ndarray, str, list[str]]:
    try:
        dy, pos_label, present = binary_gold(dev_gold, positive, name="dev gold")
    except DataError as exc:
        raise _dev_refused(exc, called) from None
    n_pos = int(dy.sum())
    _check_two_classes(n_pos, dy.shape[0] - n_pos, present, pos_label, called)
    return dy, pos_label, present


# --- streamed: rankings beyond memory ---------------------------------------------------

class _Filled:
    """A store filled from batches of (gold labels, scores), the labels seen (string form → value, in order of
    appearance) and the score range (for the default cut): what :func:`choose_threshold_filled` takes."""

    def __init__(self, store: RankingStore, batches: Iterable[tuple[Any, Any]], positive: Any) -> None:
        self.store = store
        self.seen: dict[str, Any] = {}
        lo, hi = math.inf, -math.inf
        kinds: set[bool] = set()
        for gold, scores in batches:
            g = EncodedGold.of(gold)
            for x in g.occurring:
                self.seen.setdefault(label_str(x), x)
            if len(scores):
                kinds.add(isinstance(scores, IntegerKeys))
            s = np.asarray(scores, dtype=np.float64)
            store.add(batch_is_positive(g, positive), s)
            if s.size:
                lo, hi = min(lo, float(s.min())), max(hi, float(s.max()))
        self.integers = check_kinds(kinds)
        self.range = (np.array([value_of_key(lo), value_of_key(hi)]) if self.integers else np.array([lo, hi])) \
            if store.n else np.empty(0)


def check_positive(filled: Any, positive: Any, name: str) -> str:
    """The positive's string form as a filled ranking's labels hold it (``binary_gold``'s checks and messages;
    ``name`` says whose labels: ``"test gold"``)."""
    if filled.store.n == 0:
        raise DataError(f"{name} holds no items; a ranking needs at least one item.")
    labels = list(filled.seen.values())
    return label_str(labels[resolve_label(positive, labels, option="positive", source=f"the {name} labels")])


def choose_threshold_filled(test: Any, dev: Any = None, *, positive: Any, objective: str | Objective = "f1",
                            cost_fp: float = 1.0, cost_fn: float = 1.0, default_threshold: float | None = None,
                            zero_division: Any = 0, source: ScoreSource | None = None,
                            dev_source: ScoreSource | None = None,
                            external: dict[str, Any] | None = None) -> ThresholdResult:
    """:func:`choose_threshold` from filled rankings (beyond memory, or on a cluster): the same result, bit for bit.

    Parameters
    ----------
    test, dev : filled rankings
        Each with ``store`` (a ranking offering ``n``, ``n_positive``,
        ``n_negative``, ``counts_at(threshold)``, ``best_cut(objective)`` and
        ``summary()`` → :class:`~clfeval.core._ranksummary.RankingSummary`, as
        :class:`~clfeval.scores._external.RankingStore`), ``seen`` (the gold
        labels, string form → value, in order of appearance) and ``range``
        (the scores' [min, max], empty without items); ``dev`` optional.
    external : dict, optional
        How the rankings were computed (kept in the result).
    positive, objective, cost_fp, cost_fn, default_threshold, zero_division, source, dev_source
        As :func:`choose_threshold`.
    """
    zd = check_zero_division(zero_division)
    obj = parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)
    src, dev_src = source or DEFAULT_SOURCE, dev_source or source or DEFAULT_SOURCE
    pos_label = check_positive(test, positive, "test gold")
    if dev is not None:
        called = dev_src.called("the development data")
        try:
            check_positive(dev, positive, "dev gold")
        except DataError as exc:
            raise _dev_refused(exc, called) from None
        _check_two_classes(dev.store.n_positive, dev.store.n_negative, list(dev.seen), pos_label, called)
    default = default_cut(*([test.range] + ([dev.range] if dev is not None else [])), given=default_threshold)
    test_rk, dev_rk = valued(test, dev)
    sweep = test_rk.summary().sweep_curves(beta=obj.beta)
    return _choice(test_rk, dev_rk, pos_label, default, obj, zd, src, dev_src, sweep, external)


def choose_threshold_batches(test_batches: Iterable[tuple[Any, Any]],
                             dev_batches: Iterable[tuple[Any, Any]] | None = None, *, positive: Any,
                             objective: str | Objective = "f1", cost_fp: float = 1.0, cost_fn: float = 1.0,
                             default_threshold: float | None = None, zero_division: Any = 0,
                             memory: Any = DEFAULT_MEMORY, tmpdir: str | None = None,
                             source: ScoreSource | None = None,
                             dev_source: ScoreSource | None = None) -> ThresholdResult:
    """:func:`choose_threshold` from batches, in bounded memory: the same result, bit for bit.

    Parameters
    ----------
    test_batches, dev_batches : iterables of (gold labels, scores)
        The test and (optional) development data, batch by batch; scores
        finite float64 (checked by the caller, which can name their rows).
    memory : int or str
        The budget the two rankings share (:func:`clfeval.scores._external.parse_memory`);
        beyond it sorted runs spill to ``tmpdir`` and are merged, exactly.
    positive, objective, cost_fp, cost_fn, default_threshold, zero_division, source, dev_source
        As :func:`choose_threshold`.

    Returns
    -------
    ThresholdResult
        With ``choice`` (one score column's cuts).
        With ``external``: the budget, whether runs spilled, how many.

    Examples
    --------
    >>> c = choose_threshold_batches([([1, 0], [0.9, 0.6]), ([1, 0], [0.7, 0.2])],
    ...                              [([1, 1, 0, 0], [0.8, 0.4, 0.3, 0.1])], positive=1)
    >>> c.threshold, c.test.f1, c.external.spilled
    (0.4, 0.8, False)
    """
    check_zero_division(zero_division)  # option errors before any batch is read
    parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)
    with SpillSpace(memory, tmpdir=tmpdir) as space:
        test = _Filled(RankingStore(label_str(positive), space=space), test_batches, positive)
        pos_label = check_positive(test, positive, "test gold")  # refused before the development data is read
        dev = None if dev_batches is None else _Filled(RankingStore(pos_label, space=space), dev_batches, positive)
        result = choose_threshold_filled(test, dev, positive=positive, objective=objective, cost_fp=cost_fp,
                                         cost_fn=cost_fn, default_threshold=default_threshold,
                                         zero_division=zero_division, source=source, dev_source=dev_source)
        external = {"memory": space.memory, "spilled": space.spilled, "runs": space.runs_written}
    return dataclasses.replace(result, external=SortedRuns.of(external))


# --- multi-label: one cut per label ------------------------------------------------

def _averages(table: MultilabelTable, labels: list[str], obj: Objective, zd: float) -> dict[str, Any]:
    """Micro and macro averages, subset accuracy and Hamming loss of the test data at one vector of cuts."""
    sc = score_multilabel(table.counts, labels, n_items=table.n_items, exact=table.exact,
                          jaccard_sum=table.jaccard_sum, jaccard_empty=table.jaccard_empty,
                          beta=obj.beta, zero_division=zd, track_undefined=False)
    keys = ("precision", "recall", "f1") + (("fbeta",) if obj.beta != 1.0 else ())
    return {"micro": {k: sc["micro"][k] for k in keys}, "macro": {k: sc["macro"][k] for k in keys},
            "subset_accuracy": sc["subset_accuracy"], "hamming_loss": sc["hamming_loss"]}


@dataclass
class _LabelCuts:
    """Per label: the rows, the cut chosen on the development data, and the cut vectors (default, tuned,
    hindsight) the averages are computed at."""

    per_label: dict[str, dict[str, Any]]
    thresholds: dict[str, float | None]
    cuts: dict[str, np.ndarray]
    kept_default: list[str]


def _label_cuts(labs: list[str], test_rks: Sequence[Any], dev_rks: Sequence[Any] | None,
                ranges: Sequence[list[np.ndarray]], default_threshold: Any, obj: Objective, zd: float) -> _LabelCuts:
    """Every label's cuts from its test and development rankings (in memory or stores); ``ranges[j]`` the score
    columns (or their [min, max]) the default cut of label ``j`` looks at."""
    per_label: dict[str, dict[str, Any]] = {}
    t_default, t_tuned, t_hind = (np.empty(len(labs)) for _ in range(3))
    thresholds: dict[str, float | None] = {}
    kept_default = []
    for j, lab in enumerate(labs):
        rk = test_rks[j]
        t0, source = default_cut(*ranges[j], given=default_threshold)
        t_default[j] = t0
        entry: dict[str, Any] = {"default": dict(cut_row(rk, t0, obj, zd), source=source)}
        chosen = None
        if dev_rks is not None:
            drk = dev_rks[j]
            if drk.n_positive == 0:
                kept_default.append(lab)
            else:
                chosen, why = _best(drk, obj, f"the development data for label {lab!r}")
                if chosen is None:
                    raise DataError(f"{why}. Lower the target or choose another objective.")
                entry["dev"] = cut_row(drk, chosen, obj, zd)
        t_tuned[j] = chosen if chosen is not None else t0
        thresholds[lab] = chosen
        entry["threshold"] = chosen
        entry["test"] = cut_row(rk, t_tuned[j], obj, zd) if dev_rks is not None else None
        hind, _ = _best(rk, obj, "the test data") if rk.n_positive else (None, None)
        t_hind[j] = hind if hind is not None else t0
        entry["hindsight"] = cut_row(rk, t_hind[j], obj, zd) if hind is not None else None
        per_label[lab] = entry
    cuts = {"default": t_default, **({"tuned": t_tuned} if dev_rks is not None else {}), "hindsight": t_hind}
    return _LabelCuts(per_label, thresholds, cuts, kept_default)


def _label_result(labs: list[str], lc: _LabelCuts, tables: dict[str, MultilabelTable], test_rks: Sequence[Any],
                  n_test: int, n_dev: int | None, obj: Objective, zd: float,
                  external: dict[str, Any] | None = None) -> ThresholdResult:
    """The result from the cuts and the test data's tables at every cut vector (``lc.cuts``' keys)."""
    averages = {k: _averages(tables[k], labs, obj, zd) for k in lc.cuts}
    notes = [HINDSIGHT_NOTE if n_dev is not None else NO_DEV_NOTE]
    if lc.kept_default:
        notes.append(f"Labels without a positive item in the development data keep the default cut (no cut can be "
                     f"chosen for them): {', '.join(lc.kept_default)}.")
    no_test_pos = [lab for lab, rk in zip(labs, test_rks, strict=False) if rk.n_positive == 0]
    if no_test_pos:
        notes.append(f"Labels without a positive item in the test data have no hindsight cut (they keep the default "
                     f"in the hindsight averages): {', '.join(no_test_pos)}.")
    notes.append("Micro averages pool TP, FP and FN over labels (big labels dominate); macro averages are the "
                 "plain mean over labels (every label counts equally).")
    cuts = LabelCuts.of(labs, lc.thresholds, lc.per_label, averages)
    return ThresholdResult(obj.name, obj.describe(), RULE, int(n_test), None if n_dev is None else int(n_dev),
                           tuple(notes),
                           _signature(obj, zd, "per label: given, else 0.5 when the label's scores lie in [0, 1], "
                                               "else 0"), labels_cuts=cuts, external=_runs(external))


def choose_label_thresholds(test_gold: Any, test_scores: Any, *, dev_gold: Any = None, dev_scores: Any = None,
                            labels: Sequence[Any] | None = None, objective: str | Objective = "f1",
                            cost_fp: float = 1.0, cost_fn: float = 1.0, default_threshold: float | None = None,
                            zero_division: Any = 0, sep: str = "|", source: ScoreSource | None = None,
                            dev_source: ScoreSource | None = None) -> ThresholdResult:
    """Multi-label: one cut per label chosen on development data, applied to the test data.

    Parameters
    ----------
    test_gold : sequence of label sets
        The test data's: lists, or strings separated by ``sep`` (empty = no label).
    test_scores : mapping label → column, or array (n, L) with ``labels``
        One score column per label.
    dev_gold, dev_scores : optional
        The development data the cuts are chosen on, in the same forms (give both or neither); its score columns
        have the same labels. Without it only the default and the hindsight cuts are shown.
    labels : sequence of labels, optional
        With an (n, L) array ``test_scores``: the label of each column, one per column (unused with a mapping,
        whose keys name the columns); the development columns are taken in the same order.
    objective : str or Objective
        What each label's cut maximises: ``f1`` (the default), ``f0.5``, ``f2`` (any ``f<beta>``), ``cost``,
        ``precision>=X`` or ``recall>=X``, as in :func:`choose_threshold`.
    cost_fp, cost_fn : float, default 1.0
        Costs of one false positive and one false negative (objective ``cost``).
    default_threshold : float, optional
        The default cut of every label; else, per label, 0.5 when every score of its column lies in [0, 1]
        and 0 otherwise.
    zero_division : 0, 1 or "nan"
        The value of 0/0 ratios in the measures; default 0.
    sep : str, default "|"
        The separator of the labels within a string label set.
    source, dev_source : ScoreSource, optional
        How messages name the score columns (their ``prefix``) and the items
        of the test and of the development data.

    Notes
    -----
    A label with no positive item in the development data keeps the default
    cut (said in ``notes``): no cut can be chosen for it honestly.

    Examples
    --------
    >>> r = choose_label_thresholds(["a", "a|b", "", "b"], {"a": [0.9, 0.8, 0.3, 0.1], "b": [0.2, 0.6, 0.1, 0.7]},
    ...                             dev_gold=["a", "b", "", "a|b"],
    ...                             dev_scores={"a": [0.7, 0.2, 0.4, 0.6], "b": [0.1, 0.5, 0.3, 0.9]})
    >>> dict(r.thresholds)
    {'a': 0.6, 'b': 0.5}
    >>> r.averages["tuned"].micro["f1"]
    1.0
    """
    zd = check_zero_division(zero_division)
    obj = parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)
    if (dev_gold is None) != (dev_scores is None):
        raise UsageError("give both dev_gold and dev_scores (the development data), or neither.")
    src, dev_src = source or DEFAULT_SOURCE, dev_source or source or DEFAULT_SOURCE
    prefix = src.prefix
    s, raw_labels = score_matrix(test_scores, labels=labels, where=src.where, prefix=prefix)
    labs = [label_str(x) for x in raw_labels]
    y = indicator_gold(test_gold, raw_labels, multilabel=True, sep=sep, prefix=prefix)
    if y.shape[0] != s.shape[0]:
        raise DataError(f"the test gold has {y.shape[0]} items but the score columns have {s.shape[0]} values.")
    dy = ds = None
    if dev_gold is not None:
        if isinstance(dev_scores, dict):
            check_dev_columns(raw_labels, dev_scores, prefix)
            dev_scores = {lab: dev_scores[lab] for lab in raw_labels}
        ds, _ = score_matrix(dev_scores, labels=raw_labels, where=dev_src.where, prefix=prefix)
        dy = indicator_gold(dev_gold, raw_labels, multilabel=True, sep=sep, prefix=prefix)
        if dy.shape[0] != ds.shape[0]:
            raise DataError(f"the development gold has {dy.shape[0]} items but its score columns have {ds.shape[0]} "
                            "values.")
    test_rks = [SortedRanking.from_indicator(y[:, j], s[:, j], lab) for j, lab in enumerate(labs)]
    dev_rks = None if dy is None or ds is None else [SortedRanking.from_indicator(dy[:, j], ds[:, j], lab)
                                                     for j, lab in enumerate(labs)]
    ranges = [[s[:, j]] + ([ds[:, j]] if ds is not None else []) for j in range(len(labs))]
    lc = _label_cuts(labs, test_rks, dev_rks, ranges, default_threshold, obj, zd)
    tables = {k: MultilabelTable.from_indicators(y, s >= t[None, :], labs) for k, t in lc.cuts.items()}
    return _label_result(labs, lc, tables, test_rks, y.shape[0], None if dy is None else dy.shape[0], obj, zd)


def check_dev_columns(labels: Sequence[Any], dev_columns: Iterable[Any], prefix: str) -> None:
    """Refuse development data without a score column of every test label (naming the missing columns)."""
    have = set(dev_columns)
    missing = [lab for lab in labels if lab not in have]
    if missing:
        raise DataError("the development data has no score column for "
                        f"{', '.join(repr(f'{prefix}{label_str(m)}') for m in missing)}; it needs the same score "
                        "columns as the test data.")


class _LabelsFilled:
    """One store per label filled from batches of (label sets, (n, L) scores), and every column's [min, max]."""

    def __init__(self, labels: Sequence[Any], space: SpillSpace, batches: Iterable[tuple[Any, Any]], *, sep: str,
                 prefix: str) -> None:
        k = len(labels)
        self.stores = [RankingStore(label_str(lab), space=space) for lab in labels]
        self.n = 0
        lo, hi = np.full(k, math.inf), np.full(k, -math.inf)
        for gold, scores in batches:
            g = EncodedGold.of(gold, multilabel=True, sep=sep)
            if g.n == 0:
                continue
            y = g.over(labels, prefix=prefix)
            s = np.asarray(scores, dtype=np.float64)
            if s.shape != y.shape:
                raise DataError(f"a batch has {g.n} gold label sets and scores of shape {s.shape}; expected "
                                f"({g.n}, {k}) (one column per label).")
            for j, st in enumerate(self.stores):
                st.add(y[:, j], s[:, j])
            lo, hi = np.minimum(lo, s.min(axis=0)), np.maximum(hi, s.max(axis=0))
            self.n += g.n
        self.ranges = [np.array([lo[j], hi[j]]) if self.n else np.empty(0) for j in range(k)]


def choose_label_thresholds_batches(test_batches: Callable[[], Iterable[tuple[Any, Any]]],
                                    dev_batches: Iterable[tuple[Any, Any]] | None = None, *, labels: Sequence[Any],
                                    objective: str | Objective = "f1", cost_fp: float = 1.0, cost_fn: float = 1.0,
                                    default_threshold: float | None = None, zero_division: Any = 0, sep: str = "|",
                                    memory: Any = DEFAULT_MEMORY, tmpdir: str | None = None,
                                    source: ScoreSource | None = None) -> ThresholdResult:
    """:func:`choose_label_thresholds` from batches, in bounded memory: the same result, bit for bit.

    Parameters
    ----------
    test_batches : callable returning an iterable of (label sets, (n, L) scores)
        The test data, read twice: once into one ranking store per label (the
        per-label rows and the hindsight cuts), once more, when the cuts are
        known, for what needs every item's joint predictions (subset accuracy).
    dev_batches : iterable of (label sets, (n, L) scores), optional
        The development data (read once), score columns in the order of ``labels``.
    labels : sequence
        The score columns' labels, in order. Scores are finite float64 (checked
        by the caller, which can name their rows).
    memory : int or str
        The budget every label's stores share (:func:`clfeval.scores._external.parse_memory`);
        beyond it sorted runs spill to ``tmpdir`` and are merged, exactly.
    objective, cost_fp, cost_fn, default_threshold, zero_division, sep, source
        As :func:`choose_label_thresholds` (``source.prefix`` names the columns).

    Returns
    -------
    ThresholdResult
        With ``labels_cuts`` (one cut per label).
        With ``external``: the budget, whether runs spilled, how many.

    Examples
    --------
    >>> test = lambda: [(["a", "a|b"], np.array([[0.9, 0.2], [0.8, 0.6]])),
    ...                 (["", "b"], np.array([[0.3, 0.1], [0.1, 0.7]]))]
    >>> dev = [(["a", "b", "", "a|b"], np.array([[0.7, 0.1], [0.2, 0.5], [0.4, 0.3], [0.6, 0.9]]))]
    >>> r = choose_label_thresholds_batches(test, dev, labels=["a", "b"])
    >>> dict(r.thresholds), r.averages["tuned"].micro["f1"], r.external.spilled
    ({'a': 0.6, 'b': 0.5}, 1.0, False)
    """
    zd = check_zero_division(zero_division)
    obj = parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)
    prefix = (source or DEFAULT_SOURCE).prefix
    labs = [label_str(x) for x in labels]
    with SpillSpace(memory, tmpdir=tmpdir) as space:
        test = _LabelsFilled(labels, space, test_batches(), sep=sep, prefix=prefix)
        if test.n == 0:
            raise DataError("the test data holds no items; a threshold needs at least one item.")
        dev = None if dev_batches is None else _LabelsFilled(labels, space, dev_batches, sep=sep, prefix=prefix)
        ranges = [[test.ranges[j]] + ([dev.ranges[j]] if dev is not None else []) for j in range(len(labs))]
        lc = _label_cuts(labs, test.stores, dev.stores if dev is not None else None, ranges, default_threshold,
                         obj, zd)
        external = {"memory": space.memory, "spilled": space.spilled, "runs": space.runs_written}
    tables: dict[str, MultilabelTable] = {}
    for gold, scores in test_batches():  # the second pass: every item's predictions at the cuts now known
        g = EncodedGold.of(gold, multilabel=True, sep=sep)
        if g.n == 0:
            continue
        y, s = g.over(labels, prefix=prefix), np.asarray(scores, dtype=np.float64)
        for k, t in lc.cuts.items():
            part = MultilabelTable.from_indicators(y, s >= t[None, :], labs)
            tables[k] = tables[k] + part if k in tables else part
    return _label_result(labs, lc, tables, test.stores, test.n, dev.n if dev is not None else None, obj, zd, external)
