"""Every count-based metric of clfeval against scikit-learn as the oracle.

Oracle: scikit-learn 1.9.1 (asserted below, so that a run against another
version shows up as one clear failure rather than as silent drift).

Random inputs come from hypothesis: string and integer labels (small ranges,
ranges mapped through a lookup table, large sparse ranges, negative ints) and
booleans; classes never predicted, classes absent from gold, classes absent
from both (given through ``labels=``), binary tasks, K up to 50; the three
``zero_division`` policies 0, 1 and nan; several values of β.

Where scikit-learn's treatment of an undefined value differs from clfeval's
documented policy, the policy is tested explicitly instead (see the tests at
the end of this file):

* MCC — scikit-learn returns 0 when every gold label or every prediction is
  one class; clfeval fills the undefined value with ``zero_division`` (so the
  two agree under the default policy 0) and lists ``mcc`` under ``undefined``.
* Cohen's kappa — scikit-learn's ``replace_undefined_by`` defaults to NaN;
  clfeval uses ``zero_division`` (we pass the same value to scikit-learn).
* Jaccard (``average="samples"``) under ``zero_division=nan`` — scikit-learn's
  ``jaccard_score`` has no nan option; clfeval leaves the items whose gold and
  predicted sets are both empty (0/0) out of the mean.
* Support-weighted averages whose weights sum to 0 — no gold item at all
  (a multi-label batch without labels), or, under ``zero_division=nan``, no
  defined per-class value with support > 0: scikit-learn falls back to the
  unweighted mean; for clfeval the weighted mean is itself 0/0 and takes
  ``zero_division`` (0 under the default policy, like scikit-learn there).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn
from hypothesis import HealthCheck, given, settings, strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    hamming_loss,
    jaccard_score,
    matthews_corrcoef,
    mean_absolute_error,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
)

import clfeval
from clfeval.core import _catalog as catalog, _metrics as M
from clfeval.core._scoring import scalar_metric
from clfeval.core._tables import MultilabelTable, confusion_table
from tests._helpers._strategies import (
    ZERO_DIVISIONS,
    assert_same,
    by_string,
    multilabel_cases,
    same,
    single_label_cases,
)

SKLEARN_ORACLE_VERSION = "1.9.1"

pytestmark = [
    pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning"),
    pytest.mark.filterwarnings("ignore:y_pred contains classes not in y_true"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:A single label was found"),
]

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
BETAS = st.sampled_from([1.0, 1.0, 1.0, 2.0, 0.5, 0.3, 3.7])
ZD = st.sampled_from(ZERO_DIVISIONS)


def test_oracle_version() -> None:
    assert sklearn.__version__ == SKLEARN_ORACLE_VERSION, (
        f"these tests were checked against scikit-learn {SKLEARN_ORACLE_VERSION}; "
        f"found {sklearn.__version__}: re-check the oracle's undefined-value behaviour"
    )


# --- the oracle ------------------------------------------------------------------

def _fill(num: np.ndarray, den: np.ndarray, zd: float) -> np.ndarray:
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, zd, num / np.where(den == 0, 1, den))


def codes_of(values: list, labels: list) -> np.ndarray:
    """Positions of ``values`` in ``labels``: the oracle sees integer codes (fast in
    scikit-learn), clfeval sees the original labels; the mapping is made here,
    independently of clfeval."""
    pos = {v: i for i, v in enumerate(labels)}
    return np.array([pos[v] for v in values], dtype=np.int64)


def sklearn_single(gold: np.ndarray, pred: np.ndarray, k: int, zd: float, beta: float) -> dict:
    """The report's numbers as scikit-learn computes them, for integer codes ``0..k-1``
    in the report's label order."""
    labels = list(range(k))
    out: dict = {"confusion_matrix": confusion_matrix(gold, pred, labels=labels).tolist()}
    p, r, f1, s = precision_recall_fscore_support(gold, pred, labels=labels, average=None, zero_division=zd)
    if beta != 1.0:
        fb = precision_recall_fscore_support(gold, pred, labels=labels, average=None, beta=beta, zero_division=zd)[2]
    else:
        fb = f1
    p_nan, r_nan, f_nan, _ = precision_recall_fscore_support(gold, pred, labels=labels, average=None,
                                                             zero_division=np.nan)
    mcm = multilabel_confusion_matrix(gold, pred, labels=labels)
    tn, fp, fn, tp = mcm[:, 0, 0], mcm[:, 0, 1], mcm[:, 1, 0], mcm[:, 1, 1]
    spec = _fill(tn, tn + fp, zd)
    fpr = _fill(fp, fp + tn, zd)
    fpr_nan = _fill(fp, fp + tn, math.nan)
    undefined_rate = np.isnan(r_nan) | np.isnan(fpr_nan)
    delta = np.where(undefined_rate, zd, r_nan - fpr_nan)
    phi = np.where(undefined_rate, zd, r_nan + fpr_nan - 1.0)
    out["per_class"] = [{"tp": tp[i], "fp": fp[i], "fn": fn[i], "tn": tn[i], "support": s[i],
                         "precision": p[i], "recall": r[i], "f1": f1[i], "fbeta": fb[i],
                         "specificity": spec[i], "fpr": fpr[i], "delta": delta[i], "phi": phi[i]}
                        for i in range(k)]
    out["undefined"] = {"precision": set(np.flatnonzero(np.isnan(p_nan)).tolist()),
                        "recall": set(np.flatnonzero(np.isnan(r_nan)).tolist()),
                        "f1": set(np.flatnonzero(np.isnan(f_nan)).tolist()),
                        "specificity": set(np.flatnonzero(tn + fp == 0).tolist()),
                        "fpr": set(np.flatnonzero(tn + fp == 0).tolist()),
                        "delta": set(np.flatnonzero(undefined_rate).tolist()),
                        "phi": set(np.flatnonzero(undefined_rate).tolist())}
    out["accuracy"] = accuracy_score(gold, pred)
    out["error_rate"] = 1.0 - out["accuracy"]
    out["balanced_accuracy"] = balanced_accuracy_score(gold, pred)
    mcc_undefined = len(set(gold.tolist())) == 1 or len(set(pred.tolist())) == 1
    out["mcc"] = zd if mcc_undefined else matthews_corrcoef(gold, pred)
    out["kappa"] = cohen_kappa_score(gold, pred, labels=labels, replace_undefined_by=zd)
    for how in ("macro", "micro", "weighted"):
        pa, ra, fa, _ = precision_recall_fscore_support(gold, pred, labels=labels, average=how, zero_division=zd)
        fba = fa
        if beta != 1.0:
            fba = precision_recall_fscore_support(gold, pred, labels=labels, average=how, beta=beta,
                                                  zero_division=zd)[2]
        out[how] = {"precision": pa, "recall": ra, "f1": fa, "fbeta": fba}
    weighted_policy(out["weighted"], s, p_nan, r_nan, f_nan, zd)
    mp, mr = out["macro"]["precision"], out["macro"]["recall"]
    out["macro"]["f1_of_means"] = zd if mp + mr == 0 else 2 * mp * mr / (mp + mr)
    out["undefined_mcc"] = mcc_undefined
    return out


def weighted_policy(weighted: dict, support: np.ndarray, p_nan: np.ndarray, r_nan: np.ndarray,
                    f_nan: np.ndarray, zd: float) -> None:
    """clfeval's documented policy where scikit-learn differs: a support-weighted mean
    whose weights sum to 0 (over the defined values, under ``nan``) is 0/0 and takes
    ``zero_division``; scikit-learn falls back to the unweighted mean."""
    for name, vals in (("precision", p_nan), ("recall", r_nan), ("f1", f_nan), ("fbeta", f_nan)):
        w = support[~np.isnan(vals)] if math.isnan(zd) else support
        if w.sum() == 0:
            weighted[name] = zd


def undefined_of(d: dict) -> dict[str, set]:
    out: dict[str, set] = {}
    for entry in d["undefined"]:
        out[entry["metric"]] = set(entry.get("labels", [])) or {True}
    return out


PER_CLASS_KEYS = ("tp", "fp", "fn", "tn", "support", "precision", "recall", "f1", "specificity", "fpr", "delta", "phi")


def check_single(d: dict, exp: dict, labels_str: list[str], beta: float) -> None:
    assert d["confusion_matrix"] == exp["confusion_matrix"]
    for lab_s, exp_row in zip(labels_str, exp["per_class"], strict=True):
        row = d["per_class"][lab_s]
        for key in PER_CLASS_KEYS + (("fbeta",) if beta != 1.0 else ()):
            assert_same(row[key], exp_row[key], f"{key} of {lab_s!r}")
        if beta == 1.0:
            assert "fbeta" not in row
    for key in ("accuracy", "error_rate", "balanced_accuracy", "mcc", "kappa"):
        assert_same(d[key], exp[key], key)
    for how in ("macro", "micro", "weighted"):
        for key in ("precision", "recall", "f1") + (("fbeta",) if beta != 1.0 else ()):
            assert_same(d[how][key], exp[how][key], f"{how}.{key}")
    assert_same(d["macro"]["f1_of_means"], exp["macro"]["f1_of_means"], "macro.f1_of_means")


# --- single-label, through the public API ------------------------------------

@SETTINGS
@given(case=single_label_cases(), zd=ZD, beta=BETAS, data=st.data())
def test_report_matches_sklearn(case, zd, beta, data) -> None:
    use_labels = data.draw(st.booleans(), label="labels=")
    labels_arg = None
    if use_labels:
        labels_arg = data.draw(st.permutations(case.occurring + list(case.extra)), label="labels order")
    rep = clfeval.report(case.gold, case.pred, labels=labels_arg, zero_division=zd, beta=beta)
    d = rep.to_dict()
    back = by_string(case.vocab)
    labels = [back[s] for s in d["labels"]]
    if labels_arg is None:
        assert set(labels) == set(case.occurring)
    else:
        assert labels == list(labels_arg)
    assert d["n"] == len(case.gold)
    exp = sklearn_single(codes_of(case.gold, labels), codes_of(case.pred, labels), len(labels), zd, beta)
    check_single(d, exp, d["labels"], beta)
    # every undefined per-class value is listed, and nothing else
    und = undefined_of(d)
    for metric, idx in exp["undefined"].items():
        assert und.get(metric, set()) == {d["labels"][i] for i in idx}, metric
    assert ("mcc" in und) == exp["undefined_mcc"]
    # the Report's own fields agree with its JSON
    assert rep.accuracy == d["accuracy"] and rep.macro.to_dict() == d["macro"]


@SETTINGS
@given(case=single_label_cases(max_k=12), zd=ZD, data=st.data())
def test_ordinal_metrics_match_sklearn(case, zd, data) -> None:
    order = data.draw(st.permutations(case.occurring + list(case.extra)), label="order")
    d = clfeval.report(case.gold, case.pred, order=order, zero_division=zd).to_dict()
    assert d["labels"] == [str(x) if not isinstance(x, str) else x for x in order]
    g = codes_of(case.gold, order)  # ranks on the ordinal scale
    p = codes_of(case.pred, order)
    assert_same(d["ordinal"]["mae"], mean_absolute_error(g, p), "mae")
    for w in ("linear", "quadratic"):
        exp = cohen_kappa_score(g, p, labels=list(range(len(order))), weights=w, replace_undefined_by=zd)
        assert_same(d["ordinal"][f"{w}_kappa"], exp, f"{w} kappa")
    # unweighted kappa does not depend on the order
    assert_same(d["kappa"], cohen_kappa_score(g, p, replace_undefined_by=zd), "kappa")
    # the metric functions on the table in scale order, and on a stack of two copies
    cm = np.array(d["confusion_matrix"])
    stack = np.stack([cm, cm])
    assert_same(M.ordinal_mae(stack, zd)[0][1], d["ordinal"]["mae"], "ordinal_mae()")
    for w in ("linear", "quadratic"):
        assert_same(M.weighted_kappa(stack, w, zd)[0][1], d["ordinal"][f"{w}_kappa"], f"weighted_kappa({w})")
    assert_same(M.weighted_kappa(cm, None, zd)[0], d["kappa"], "weighted_kappa(None)")


@SETTINGS
@given(case=single_label_cases(max_k=20), zd=ZD, beta=BETAS, data=st.data())
def test_binary_block_matches_sklearn_one_vs_rest(case, zd, beta, data) -> None:
    pos = data.draw(st.sampled_from(case.occurring), label="positive")
    d = clfeval.report(case.gold, case.pred, positive=pos, zero_division=zd, beta=beta).to_dict()
    b = d["binary"]
    g = [x == pos for x in case.gold]
    p = [x == pos for x in case.pred]
    pr, rc, f1, _ = precision_recall_fscore_support(g, p, labels=[True], average=None, zero_division=zd)
    fb = precision_recall_fscore_support(g, p, labels=[True], average=None, beta=beta, zero_division=zd)[2]
    (tn, fp), (fn, tp) = confusion_matrix(g, p, labels=[False, True]).tolist()
    assert (b["tp"], b["fp"], b["fn"], b["tn"]) == (tp, fp, fn, tn)
    assert_same(b["precision"], pr[0], "precision")
    assert_same(b["recall"], rc[0], "recall")
    assert_same(b["f1"], f1[0], "f1")
    if beta != 1.0:
        assert_same(b["fbeta"], fb[0], "fbeta")
    assert_same(b["accuracy"], accuracy_score(g, p), "accuracy")
    assert_same(b["specificity"], zd if tn + fp == 0 else tn / (tn + fp), "specificity")
    assert_same(b["balanced_accuracy"], balanced_accuracy_score(g, p), "balanced accuracy")
    mcc_undefined = len(set(g)) == 1 or len(set(p)) == 1
    assert_same(b["mcc"], zd if mcc_undefined else matthews_corrcoef(g, p), "mcc")
    assert_same(b["kappa"], cohen_kappa_score(g, p, replace_undefined_by=zd), "kappa")


# --- the metric functions and the named-metric registry, on stacks ---------------

def _split_tables(case, n_parts: int, labels: list) -> np.ndarray:
    bounds = np.linspace(0, len(case.gold), n_parts + 1).astype(int)
    return np.stack([confusion_table(case.gold[a:b], case.pred[a:b], labels=labels).counts if b > a
                     else np.zeros((len(labels), len(labels)), dtype=np.int64)
                     for a, b in zip(bounds[:-1], bounds[1:], strict=True)])


@SETTINGS
@given(case=single_label_cases(max_k=15), zd=ZD, beta=BETAS, parts=st.integers(1, 4))
def test_metric_functions_on_stacks_match_sklearn(case, zd, beta, parts) -> None:
    labels = case.occurring
    stack = _split_tables(case, parts, labels)  # (parts, K, K): each a table of one slice
    c = M.class_counts(stack)
    bounds = np.linspace(0, len(case.gold), parts + 1).astype(int)
    gold, pred = codes_of(case.gold, labels), codes_of(case.pred, labels)
    for t, (a, b) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
        g, p = gold[a:b], pred[a:b]
        if not g.size:
            continue
        np.testing.assert_array_equal(stack[t], confusion_matrix(g, p, labels=list(range(len(labels)))))
        codes = list(range(len(labels)))
        pr, rc, f1, sup = precision_recall_fscore_support(g, p, labels=codes, average=None, zero_division=zd)
        fb = precision_recall_fscore_support(g, p, labels=codes, average=None, beta=beta, zero_division=zd)[2]
        np.testing.assert_array_equal(c.support[t], sup)
        np.testing.assert_allclose(M.precision(c, zd)[0][t], pr, rtol=1e-12, equal_nan=True)
        np.testing.assert_allclose(M.recall(c, zd)[0][t], rc, rtol=1e-12, equal_nan=True)
        np.testing.assert_allclose(M.f1(c, zd)[0][t], f1, rtol=1e-12, equal_nan=True)
        np.testing.assert_allclose(M.fbeta(c, beta, zd)[0][t], fb, rtol=1e-12, equal_nan=True)
        assert_same(M.accuracy(stack, zd)[0][t], accuracy_score(g, p), "accuracy")
        assert_same(M.balanced_accuracy(stack, zd)[0][t], balanced_accuracy_score(g, p), "balanced accuracy")
        assert_same(M.kappa(stack, zd)[0][t], cohen_kappa_score(g, p, labels=codes, replace_undefined_by=zd), "kappa")
        mcc_undefined = len(set(g.tolist())) == 1 or len(set(p.tolist())) == 1
        assert_same(M.mcc(stack, zd)[0][t], zd if mcc_undefined else matthews_corrcoef(g, p), "mcc")
        # the registry of named metrics
        for how in ("macro", "micro", "weighted"):
            pa, ra, fa, _ = precision_recall_fscore_support(g, p, labels=codes, average=how, zero_division=zd)
            fba = precision_recall_fscore_support(g, p, labels=codes, average=how, beta=beta, zero_division=zd)[2]
            for name, exp in (("precision", pa), ("recall", ra), ("f1", fa)):
                if how == "weighted" and math.isnan(zd):
                    continue  # see the documented-policy test below
                assert_same(scalar_metric(f"{how}_{name}")(stack, zd)[t], exp, f"{how}_{name}")
            if not (how == "weighted" and math.isnan(zd)):
                assert_same(scalar_metric(f"{how}_fbeta", beta=beta)(stack, zd)[t], fba, f"{how}_fbeta")
        assert_same(scalar_metric("accuracy")(stack, zd)[t], accuracy_score(g, p), "accuracy")
        assert_same(scalar_metric("error_rate")(stack, zd)[t], 1 - accuracy_score(g, p), "error_rate")
        for i, lab in enumerate(labels):
            assert_same(scalar_metric(f"f1:{lab}", labels)(stack, zd)[t], f1[i], f"f1:{lab}")
            assert_same(scalar_metric(f"recall:{lab}", labels)(stack, zd)[t], rc[i], f"recall:{lab}")


@SETTINGS
@given(case=single_label_cases(max_k=15), zd=ZD)
def test_named_metrics_equal_report_fields(case, zd) -> None:
    """Every registered scalar metric gives the number the report prints under that name."""
    d = clfeval.report(case.gold, case.pred, zero_division=zd).to_dict()
    cm = np.array(d["confusion_matrix"])
    paths = {"accuracy": ("accuracy",), "error_rate": ("error_rate",), "balanced_accuracy": ("balanced_accuracy",),
             "mcc": ("mcc",), "kappa": ("kappa",), "macro_f1_of_means": ("macro", "f1_of_means")}
    for how in ("macro", "micro", "weighted"):
        for m in ("precision", "recall", "f1"):
            paths[f"{how}_{m}"] = (how, m)
    whole_table = {m.key for m in catalog.METRICS if m.input == "counts" and not m.per_label
                   and "multiclass" in m.tasks and not m.uses_beta}
    assert set(paths) == whole_table
    for name, path in paths.items():
        v = d
        for key in path:
            v = v[key]
        assert_same(scalar_metric(name)(cm, zd), v, name)
    for lab in d["labels"]:
        for prefix in ("f1", "precision", "recall", "specificity", "fpr", "delta", "phi"):
            assert_same(scalar_metric(f"{prefix}:{lab}", d["labels"])(cm, zd), d["per_class"][lab][prefix],
                        f"{prefix}:{lab}")


# --- multi-label ----------------------------------------------------------------

@SETTINGS
@given(case=multilabel_cases(), zd=ZD, beta=BETAS, data=st.data())
def test_multilabel_report_matches_sklearn(case, zd, beta, data) -> None:
    all_labels = data.draw(st.booleans(), label="labels=vocabulary")
    labels_arg = list(case.vocab) if all_labels else None
    d = clfeval.report(case.gold, case.pred, multilabel=True, labels=labels_arg, zero_division=zd, beta=beta).to_dict()
    assert d["kind"] == "multilabel"
    for absent in ("confusion_matrix", "mcc", "kappa"):
        assert absent not in d
    assert "most_confused_pair" not in d["diagnostics"]
    back = by_string(case.vocab)
    cols = [case.vocab.index(back[s]) for s in d["labels"]]
    if labels_arg is None:
        used = np.flatnonzero(case.gold_ind.any(axis=0) | case.pred_ind.any(axis=0))
        assert sorted(cols) == sorted(used.tolist())
    g = case.gold_ind[:, cols].astype(int)
    p = case.pred_ind[:, cols].astype(int)
    assert d["n"] == g.shape[0]
    if g.shape[1] == 0:
        return
    # scikit-learn reads an (n, 1) indicator matrix as a binary column: give it one label's
    # 0/1 vector and labels=[1] instead
    sg, sp, kw = (g[:, 0], p[:, 0], {"labels": [1]}) if g.shape[1] == 1 else (g, p, {})
    pr, rc, f1, sup = precision_recall_fscore_support(sg, sp, average=None, zero_division=zd, **kw)
    fb = precision_recall_fscore_support(sg, sp, average=None, beta=beta, zero_division=zd, **kw)[2]
    mcm = multilabel_confusion_matrix(sg, sp, **kw)
    for j, lab in enumerate(d["labels"]):
        row = d["per_class"][lab]
        (tn, fp), (fn, tp) = mcm[j].tolist()
        assert (row["tp"], row["fp"], row["fn"], row["tn"], row["support"]) == (tp, fp, fn, tn, sup[j])
        assert_same(row["precision"], pr[j], f"precision of {lab}")
        assert_same(row["recall"], rc[j], f"recall of {lab}")
        assert_same(row["f1"], f1[j], f"f1 of {lab}")
        if beta != 1.0:
            assert_same(row["fbeta"], fb[j], f"fbeta of {lab}")
        assert_same(row["accuracy"], accuracy_score(g[:, j], p[:, j]), f"accuracy of {lab}")
        assert_same(row["specificity"], zd if tn + fp == 0 else tn / (tn + fp), f"specificity of {lab}")
        assert_same(row["fpr"], zd if tn + fp == 0 else fp / (tn + fp), f"fpr of {lab}")
    for how in ("macro", "micro", "weighted"):
        pa, ra, fa, _ = precision_recall_fscore_support(sg, sp, average=how, zero_division=zd, **kw)
        fba = precision_recall_fscore_support(sg, sp, average=how, beta=beta, zero_division=zd, **kw)[2]
        exp = {"precision": pa, "recall": ra, "f1": fa, "fbeta": fba}
        if how == "weighted":
            weighted_policy(exp, sup,
                            *precision_recall_fscore_support(sg, sp, average=None, zero_division=np.nan, **kw)[:3], zd)
        for key in ("precision", "recall", "f1") + (("fbeta",) if beta != 1.0 else ()):
            assert_same(d[how][key], exp[key], f"{how}.{key}")
    assert_same(d["accuracy"], accuracy_score(sg, sp), "subset accuracy")
    assert_same(d["subset_accuracy"], accuracy_score(sg, sp), "subset accuracy")
    assert_same(d["error_rate"], 1 - accuracy_score(sg, sp), "error rate")
    assert_same(d["hamming_loss"], hamming_loss(sg, sp), "hamming loss")
    # Jaccard per item: an all-zero extra column changes no intersection or union
    jg, jp = (np.hstack([g, 0 * g]), np.hstack([p, 0 * p])) if g.shape[1] == 1 else (g, p)
    if not math.isnan(zd):
        assert_same(d["jaccard"], jaccard_score(jg, jp, average="samples", zero_division=zd), "jaccard")
    else:
        assert_same(d["jaccard"], _jaccard_nan_policy(jg, jp), "jaccard (nan policy)")


def _jaccard_nan_policy(g: np.ndarray, p: np.ndarray) -> float:
    """clfeval's documented policy: items with both sets empty are left out of the mean."""
    keep = (g | p).any(axis=1)
    if not keep.any():
        return math.nan
    return jaccard_score(g[keep], p[keep], average="samples")


@SETTINGS
@given(case=multilabel_cases(max_l=10), zd=ZD)
def test_multilabel_table_metric_functions(case, zd) -> None:
    """score_multilabel / binary_class_counts work on the counts alone."""
    t = MultilabelTable.from_indicators(case.gold_ind, case.pred_ind, case.vocab)
    c = M.binary_class_counts(t.counts)
    g = np.hstack([case.gold_ind, 0 * case.gold_ind]).astype(int)  # at least 2 columns (see above)
    p = np.hstack([case.pred_ind, 0 * case.pred_ind]).astype(int)
    n_lab = case.gold_ind.shape[1]
    mcm = multilabel_confusion_matrix(g, p)[:n_lab]
    np.testing.assert_array_equal(c.tp, mcm[:, 1, 1])
    np.testing.assert_array_equal(c.tn, mcm[:, 0, 0])
    np.testing.assert_array_equal(c.fp, mcm[:, 0, 1])
    np.testing.assert_array_equal(c.fn, mcm[:, 1, 0])
    pr = precision_recall_fscore_support(g, p, average=None, zero_division=zd)[0][:n_lab]
    np.testing.assert_allclose(M.precision(c, zd)[0], pr, rtol=1e-12, equal_nan=True)


# --- the documented undefined-value policy, where scikit-learn differs ---------

@pytest.mark.parametrize("zd", ZERO_DIVISIONS)
def test_mcc_undefined_follows_zero_division(zd) -> None:
    # every prediction is one class: MCC is 0/0; scikit-learn returns 0
    gold, pred = ["a", "b", "b", "c"], ["b", "b", "b", "b"]
    assert matthews_corrcoef(gold, pred) == 0.0
    d = clfeval.report(gold, pred, zero_division=zd).to_dict()
    assert same(d["mcc"], zd)
    assert {"metric": "mcc"} in d["undefined"]
    # every gold label is one class: the same
    d = clfeval.report(["a"] * 4, ["a", "b", "a", "c"], zero_division=zd).to_dict()
    assert same(d["mcc"], zd)
    assert {"metric": "mcc"} in d["undefined"]


@pytest.mark.parametrize("zd", ZERO_DIVISIONS)
def test_kappa_undefined_follows_zero_division(zd) -> None:
    # gold and predictions all one and the same class: expected disagreement 0
    gold = pred = ["x"] * 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        assert math.isnan(cohen_kappa_score(gold, pred))  # scikit-learn's default: NaN
    d = clfeval.report(gold, pred, zero_division=zd, order=["x"]).to_dict()
    assert same(d["kappa"], zd)
    assert same(d["ordinal"]["linear_kappa"], zd)
    assert same(d["ordinal"]["quadratic_kappa"], zd)
    metrics = {e["metric"] for e in d["undefined"]}
    assert {"kappa", "ordinal.linear_kappa", "ordinal.quadratic_kappa", "mcc"} <= metrics
    # gold all "x", predictions all "y": defined, κ = 0 (scikit-learn agrees)
    d = clfeval.report(["x"] * 3, ["y"] * 3, zero_division=zd).to_dict()
    assert d["kappa"] == 0.0 == cohen_kappa_score(["x"] * 3, ["y"] * 3)
    assert "kappa" not in {e["metric"] for e in d["undefined"]}


def test_jaccard_nan_policy_leaves_empty_items_out() -> None:
    gold = [["a"], [], ["a", "b"]]
    pred = [["a", "b"], [], ["b"]]
    # item 1: 1/2; item 2: 0/0; item 3: 1/2
    g = np.array([[1, 0], [0, 0], [1, 1]])
    p = np.array([[1, 1], [0, 0], [0, 1]])
    # scikit-learn's jaccard_score has no nan option (zero_division must be 0, 1 or "warn")
    with pytest.raises(ValueError):
        jaccard_score(g, p, average="samples", zero_division=np.nan)
    assert clfeval.report(gold, pred, multilabel=True, zero_division="nan").jaccard == 0.5
    assert clfeval.report(gold, pred, multilabel=True, zero_division=0).jaccard == pytest.approx(
        jaccard_score(g, p, average="samples", zero_division=0)) == pytest.approx(1 / 3)
    assert clfeval.report(gold, pred, multilabel=True, zero_division=1).jaccard == pytest.approx(
        jaccard_score(g, p, average="samples", zero_division=1)) == pytest.approx(2 / 3)
    d = clfeval.report(gold, pred, multilabel=True).to_dict()
    assert [e for e in d["undefined"] if e["metric"] == "jaccard"][0]["items"] == 1


def test_weighted_average_with_all_defined_weights_zero_is_undefined_under_nan() -> None:
    # "b" is never predicted (precision undefined); "c" is predicted but absent from gold (support 0)
    gold, pred = ["b", "b"], ["c", "c"]
    p_sk = precision_recall_fscore_support(gold, pred, labels=["b", "c"], average="weighted", zero_division=np.nan)[0]
    assert p_sk == 0.0  # scikit-learn falls back to the unweighted mean of the defined values
    d = clfeval.report(gold, pred, zero_division="nan").to_dict()
    assert math.isnan(d["weighted"]["precision"])
    assert d["weighted"]["recall"] == 0.0
    assert {"metric": "weighted.precision"} in d["undefined"]


@pytest.mark.parametrize("zd", ZERO_DIVISIONS)
def test_weighted_average_without_gold_labels_follows_zero_division(zd) -> None:
    # multi-label items without any gold label: every support is 0
    gold, pred = [[], []], [["a"], []]
    d = clfeval.report(gold, pred, multilabel=True, zero_division=zd).to_dict()
    for m in ("precision", "recall", "f1"):
        assert same(d["weighted"][m], zd), m
        assert {"metric": f"weighted.{m}"} in d["undefined"]
    # scikit-learn: the unweighted mean of the per-label values (0 here: "a" has precision 0/1)
    g = np.array([[0, 0], [0, 0]])
    p = np.array([[1, 0], [0, 0]])
    assert precision_recall_fscore_support(g, p, average="weighted", zero_division=0)[0] == 0.0


@pytest.mark.parametrize("zd", ZERO_DIVISIONS)
def test_nan_policy_leaves_undefined_out_of_macro(zd) -> None:
    # "c" never predicted: precision undefined
    gold, pred = ["a", "a", "b", "c"], ["a", "b", "b", "a"]
    d = clfeval.report(gold, pred, zero_division=zd).to_dict()
    p_a, p_b = 1 / 2, 1 / 2
    expected = {0.0: (p_a + p_b + 0) / 3, 1.0: (p_a + p_b + 1) / 3}.get(zd, (p_a + p_b) / 2)
    assert d["macro"]["precision"] == pytest.approx(expected)
    assert same(d["per_class"]["c"]["precision"], zd)
    assert {"metric": "precision", "labels": ["c"]} in d["undefined"]
    if math.isnan(zd):
        assert any("left out" in note for note in d["notes"])
        assert "left out of macro" in d["signature"]["undefined_policy"]


def test_sklearn_default_policy_gives_the_same_numbers() -> None:
    """The default zero_division (0) gives scikit-learn's numbers (with its warnings silenced)."""
    gold, pred = ["a", "a", "b", "c"], ["a", "b", "b", "a"]
    d = clfeval.report(gold, pred).to_dict()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        pr, rc, f1, _ = precision_recall_fscore_support(gold, pred, average="macro")
    assert (d["macro"]["precision"], d["macro"]["recall"], d["macro"]["f1"]) == pytest.approx((pr, rc, f1))
    assert d["signature"]["zero_division"] == "0"


def test_confusion_table_function_matches_sklearn_on_a_fixed_case() -> None:
    gold = [3, 1, 2, 3, 3, 1]
    pred = [3, 2, 2, 1, 3, 1]
    t = confusion_table(gold, pred)
    assert t.labels == (1, 2, 3)
    assert t.counts.tolist() == confusion_matrix(gold, pred).tolist()
