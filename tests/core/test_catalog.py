"""Tests that iterate the metric catalogue, as scikit-learn's test_common.py iterates its metric lists.

* every numeric leaf of every report's JSON is a catalogue entry (or on the short exclusion list below), and
  every entry appears in some report;
* the interval machinery applied to the observed table itself (no resampling) returns exactly the reported value;
* the protocol runner's per-fold value of every count metric equals the report of that fold's table;
* every entry has an oracle (scikit-learn, or a hand computation), and the names those oracles cover are exactly
  the catalogue's names.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import clfeval
from clfeval.core import _catalog as catalog
from clfeval.core._metrics import TableStats
from clfeval.evaluate._intervals import ItemPatterns, replicate_leaves
from clfeval.evaluate._reports import report_from_table
from tests._helpers.oracles import BETA, ORACLES

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning",
                                        "ignore::RuntimeWarning")



# --- the reports ------------------------------------------------------------------------------

def single_case(seed: int = 0, n: int = 60, k: int = 3):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.6, g, rng.integers(0, k, n))
    return g, p


def multilabel_case(seed: int = 0, n: int = 50, labels: int = 3):
    rng = np.random.default_rng(seed)
    g = rng.random((n, labels)) < 0.4
    p = np.where(rng.random((n, labels)) < 0.75, g, ~g)
    names = [f"l{j}" for j in range(labels)]
    sets = lambda m: ["|".join(names[j] for j in np.flatnonzero(row)) for row in m]  # noqa: E731
    return g, p, names, sets(g), sets(p)


def results():
    """(result kind, JSON dict) of reports that together hold every entry."""
    g, p = single_case()
    yield "report", clfeval.report(g, p, positive=1, beta=BETA, order=[0, 1, 2]).to_dict()
    _, _, _, gs, ps = multilabel_case()
    yield "report", clfeval.report(gs, ps, multilabel=True, positive="l1", beta=BETA).to_dict()
    rng = np.random.default_rng(3)
    yb = rng.integers(0, 2, 80)
    s = yb + rng.normal(0, 0.8, 80)
    yield "report", clfeval.report(yb, (s > 0.5).astype(int), scores=s, positive=1).to_dict()
    cols = {c: (g == c) + rng.normal(0, 0.5, g.size) for c in range(3)}
    yield "report", clfeval.report(g, p, scores=cols).to_dict()
    prob = 1 / (1 + np.exp(-2 * (s - 0.5)))
    yield "calibration", clfeval.reliability(yb, prob, positive=1).to_dict()
    e = np.exp(np.column_stack([cols[c] for c in range(3)]))
    probs = e / e.sum(axis=1, keepdims=True)
    yield "calibration", clfeval.reliability(g, {c: probs[:, c] for c in range(3)}).to_dict()


# Numbers in a result's JSON that are not metrics: counts, baselines, diagnostics, intervals (checked below), the
# reliability table, the signature.
EXCLUDED = {
    "report": ["schema_version", "n", "confusion_matrix.**", "per_class.*.tp", "per_class.*.fp", "per_class.*.fn",
               "per_class.*.tn", "per_class.*.support", "binary.tp", "binary.fp", "binary.fn", "binary.tn",
               "binary.support", "diagnostics.**", "baselines.**", "errors.**", "undefined.**", "signature.**",
               "ci.**", "ranking.n", "ranking.n_positive", "ranking.n_negative", "ranking.pairs",
               "ranking.pairs_in_order", "ranking.random.**", "ranking.max_fpr", "ranking.threshold.**",
               "ranking.per_class.*.support",
               "ranking.undefined.**", "ranking.signature.**",
               "engine.**",  # where it ran (the front door's engine block), not a metric
               "ranking.curves.**"],  # figure data: decimated curve points, not metrics
    "calibration": ["n", "n_bins", "bins.**", "log_loss_eps", "signature.**", "engine.**"],
}


def numeric_leaves(d, path=()):
    if isinstance(d, dict):
        for k, v in d.items():
            yield from numeric_leaves(v, path + (str(k),))
    elif isinstance(d, (list, tuple)):
        for i, v in enumerate(d):
            yield from numeric_leaves(v, path + (f"[{i}]",))
    elif isinstance(d, (int, float)) and not isinstance(d, bool):
        yield path, d


def matches(pattern: str, path: tuple[str, ...], wildcard: str = "*") -> bool:
    parts = pattern.split(".")
    for i, part in enumerate(parts):
        if part == "**":
            return True
        if i >= len(path) or (part != wildcard and part != path[i]):
            return False
    return len(parts) == len(path)


def entries_at(kind: str, path: tuple[str, ...]) -> list[catalog.Metric]:
    return [m for m in catalog.METRICS for p in m.where if p.result == kind and matches(p.path, path, "LABEL")]


def test_every_numeric_leaf_is_a_catalogue_entry_and_every_entry_appears():
    seen: set[str] = set()
    for kind, d in results():
        for path, _ in numeric_leaves(d):
            if any(matches(x, path) for x in EXCLUDED[kind]):
                continue
            found = entries_at(kind, path)
            assert found, f"{kind} JSON leaf {'.'.join(path)} is neither a catalogue entry nor excluded"
            seen.update(m.key for m in found)
    assert seen == {m.key for m in catalog.METRICS}, {m.key for m in catalog.METRICS} - seen


def test_catalogue_entries_are_well_formed():
    keys = [m.key for m in catalog.METRICS]
    assert len(keys) == len(set(keys))
    for m in catalog.METRICS:
        assert m.title and m.definition.endswith(".") and m.formula and m.undefined, m.key
        assert m.where and callable(m.compute), m.key
        assert m.range[0] < m.range[1], m.key
        assert (m.higher_is_better is None) == (m.direction == "none")
        if m.infinite is not None:
            assert math.isinf(m.range[1]) and "infinite" in m.undefined, m.key
    # likelihood ratios and the DOR are not averaged over classes
    assert not [k for k in keys if k.split("_", 1)[-1] in ("lr_plus", "lr_minus", "dor") and "_" in k and ":" not in k]


# --- the intervals, applied to the observed table ------------------------------------------------

def same_number(a: float, b: float, infinite_ok: bool, rel: float = 0.0) -> bool:
    if math.isnan(b):
        return math.isnan(a) or (infinite_ok and a == math.inf)
    return a == b or (rel > 0 and math.isclose(a, b, rel_tol=rel))


def nested(d, path):
    for key in path:
        d = d[key]
    return d


@pytest.mark.parametrize("zd", [0, 1, "nan"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_interval_machinery_on_the_observed_table_gives_the_reported_values(seed, zd):
    g, p = single_case(seed, n=30, k=3)
    rep = clfeval.report(g, p, positive=0, beta=BETA, order=[0, 1, 2], zero_division=zd)
    d = rep.to_dict()
    obs = replicate_leaves(TableStats.of_matrix(rep.table.counts[None]), d["labels"], zero_division=rep_zd(zd),
                           beta=BETA, order=True, positive=0)
    report_paths = {path for path, _ in numeric_leaves(d)
                    if not any(matches(x, path) for x in EXCLUDED["report"])}
    assert set(obs) == report_paths
    for path, v in obs.items():
        m = entries_at("report", path)[0]
        assert same_number(float(v[0]), nested(d, path), m.infinite is not None), path


@pytest.mark.parametrize("zd", [0, 1, "nan"])
def test_multilabel_interval_machinery_on_the_observed_items_gives_the_reported_values(zd):
    g, p, names, gs, ps = multilabel_case(4, n=40)
    d = clfeval.report(gs, ps, multilabel=True, beta=BETA, zero_division=zd).to_dict()
    pat = ItemPatterns.of(g, p)
    obs = replicate_leaves(pat.stats(pat.counts[None]), names, zero_division=rep_zd(zd), beta=BETA)
    report_paths = {path for path, _ in numeric_leaves(d) if not any(matches(x, path) for x in EXCLUDED["report"])}
    assert set(obs) == report_paths
    for path, v in obs.items():
        m = entries_at("report", path)[0]
        rel = 1e-12 if m.name == "jaccard" else 0.0  # a sum of per-item ratios, added up in another order
        assert same_number(float(v[0]), nested(d, path), m.infinite is not None, rel), path


def rep_zd(zd):
    return math.nan if zd == "nan" else float(zd)


def test_binary_balanced_accuracy_interval_contains_the_value():
    """Issue 10: balanced accuracy 0.8 was given the interval [0, 0] (intervals had their own formula)."""
    r = clfeval.report(["a"] * 10, ["a"] * 8 + ["b"] * 2, positive="a", ci=0.95)
    lo, hi = r.ci.to_dict()["binary"]["balanced_accuracy"]
    assert r.binary.balanced_accuracy == pytest.approx(0.8)
    assert lo <= 0.8 <= hi and hi > 0


# --- the protocol runner ---------------------------------------------------------------------------

def runner_names(labels, multilabel):
    task = "multilabel" if multilabel else "multiclass"
    out = []
    for m in catalog.METRICS:
        if m.input != "counts" or task not in m.tasks:
            continue
        out.extend([f"{m.name}:{lab}" for lab in labels] if m.per_label else [m.key])
    return out


def test_fold_runner_values_equal_the_reports_of_the_fold_tables():
    from sklearn.neighbors import KNeighborsClassifier

    from clfeval.protocols._api import cross_validate

    rng = np.random.default_rng(5)
    codes = rng.integers(0, 3, 90)
    X = codes[:, None] + rng.normal(0, 0.9, (90, 1))
    y = np.array(["c0", "c1", "c2"])[codes].tolist()
    names = runner_names(["c0", "c1", "c2"], False)
    res = cross_validate(KNeighborsClassifier(3), X, y, folds=3, seed=0, metrics=names, beta=BETA)
    checked = 0
    for f in res.folds:
        for name in names:
            m, lab = catalog.parse(name)
            binary_only = m.per_label and not any(p.path.startswith("per_class") and p.tasks is None for p in m.where)
            positive = lab if binary_only and lab in f.table.label_strings else None
            ref = report_from_table(f.table, beta=BETA, positive=positive).metric(name)
            assert same_number(f.metrics[name], ref, False), (f.fold, name)
            checked += math.isfinite(ref)
    assert checked > len(names)  # most of them are defined numbers, not NaN == NaN


def test_multilabel_fold_runner_values_equal_the_reports_of_the_fold_tables():
    from sklearn.neighbors import KNeighborsClassifier

    from clfeval.protocols._api import cross_validate

    g, _, names, gs, _ = multilabel_case(6, n=90)
    X = g.astype(float) + np.random.default_rng(6).normal(0, 0.7, g.shape)
    metric_names = runner_names(names, True)
    res = cross_validate(KNeighborsClassifier(3), X, gs, folds=3, seed=0, multilabel=True, metrics=metric_names,
                         beta=BETA, train_scores=False)
    for f in res.folds:
        rep = report_from_table(f.table, beta=BETA)
        for name in metric_names:
            assert same_number(f.metrics[name], rep.metric(name), False), (f.fold, name)


# --- oracles ---------------------------------------------------------------------------------------

def test_the_oracles_cover_exactly_the_catalogue():
    assert set(ORACLES) == set(catalog.names())


class Case:
    def __init__(self, seed: int):
        rng = np.random.default_rng(seed)
        self.k = 3
        self.g, self.p = single_case(seed, n=80, k=3)
        self.G, self.P, self.names, self.gs, self.ps = multilabel_case(seed, n=60)
        self.y = rng.integers(0, 2, 70)
        self.s = self.y + rng.normal(0, 0.9, 70)
        self.prob = np.clip(1 / (1 + np.exp(-2 * (self.s - 0.5))), 0.02, 0.98)


def catalogue_value(m: catalog.Metric, case: Case):
    """What clfeval reports for an entry on a case (per label: an array over the labels)."""
    if m.input == "ranking":
        return clfeval.ranking(case.y, case.s, positive=1).to_dict()[m.name]
    if m.input == "probabilities":
        return clfeval.reliability(case.y, case.prob, positive=1).to_dict()[m.name]
    if m.tasks == ("multilabel",):
        return clfeval.report(case.gs, case.ps, multilabel=True).to_dict()[m.name]
    if m.tasks == ("ordinal",):
        return clfeval.report(case.g, case.p, order=[0, 1, 2]).to_dict()["ordinal"][m.name[len("ordinal_"):]]
    if m.per_label:
        if not any(p.path.startswith("per_class") and p.tasks is None for p in m.where):  # binary block only
            return np.array([getattr(clfeval.report(case.g, case.p, positive=k).binary, m.name) for k in range(case.k)])
        d = clfeval.report(case.g, case.p, beta=BETA).to_dict()
        return np.array([d["per_class"][str(k)][m.name] for k in range(case.k)])
    d = clfeval.report(case.g, case.p, beta=BETA).to_dict()
    path = next(p.path for p in m.where if p.result == "report")
    return nested(d, path.split("."))


@pytest.mark.parametrize("key", sorted(ORACLES))
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_every_entry_matches_its_oracle(key, seed):
    case = Case(seed)
    m = catalog.by_key(key)
    got = np.asarray(catalogue_value(m, case), dtype=float)
    want = np.asarray(ORACLES[key](case), dtype=float)
    defined = np.isfinite(want)  # the oracle's undefined cases are tested against the documented policy elsewhere
    assert defined.any(), key
    np.testing.assert_allclose(got[defined], want[defined], rtol=1e-10, atol=1e-12, err_msg=key)
