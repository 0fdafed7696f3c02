"""20,000 classes (ten times the dense limit, MAX_DENSE = 2,048): sparse tables give the same numbers as a dense
computation, and a short text report. (It held 100,000 classes until issue 40: the same paths, five times the time.)

Oracles: scikit-learn's per-class and averaged precision / recall / F1 (computed from its
multilabel_confusion_matrix, which needs no K×K table), hand formulas over numpy bincounts for MCC and
kappa (scikit-learn builds a dense K×K matrix for those: 4·10^8 cells), and the dense table of the same
items where it fits.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, precision_recall_fscore_support

from clfeval.core._counting import Counter, JointCounter
from clfeval.core._labels import MAX_DENSE, MAX_DENSE_JOINT
from clfeval.core._sparse import SparseConfusionTable, SparseJointTable, cells_of, sparse_of
from clfeval.core._tables import ConfusionTable, JointTable
from clfeval.evaluate._reports import report_from_table
from clfeval.evaluate._streaming import count_batches
from clfeval.significance._paired import compare
from tests._helpers.clihelp import run

K = 20_000
N = 40_000


def names_of(codes) -> list[str]:
    return [f"L{i:06d}" for i in codes]


@pytest.fixture(scope="module")
def many():
    rng = np.random.default_rng(12)
    g = rng.integers(0, K, N)
    g[:K] = np.arange(K)  # every class is a gold label
    p = np.where(rng.random(N) < 0.6, g, rng.integers(0, K, N))
    g[K:K + 5000] = 7  # a few big classes, so that the top classes and confusions are not ties
    p[K:K + 3000] = 7
    p[K + 3000:K + 5000] = 11
    names = np.array([f"L{i:06d}" for i in range(K)])
    return names[g], names[p], g, p


@pytest.fixture(scope="module")
def table(many):
    gold, pred, _, _ = many
    batches = [type("B", (), {"gold": gold[i:i + 70_001], "pred": pred[i:i + 70_001], "ids": None, "text": False,
                              "n": len(gold[i:i + 70_001])}) for i in range(0, N, 70_001)]
    t, _ = count_batches(batches)
    return t


def test_many_classes_are_stored_sparsely(table, many):
    assert isinstance(table, SparseConfusionTable)
    assert table.k == K and table.n == N
    assert table.n_cells < 2 * N  # the occupied cells, not K² = 10^10


def test_report_equals_sklearn_and_hand_formulas(table, many):
    gold, pred, g, p = many
    rep = report_from_table(table)
    assert rep.accuracy == accuracy_score(gold, pred)
    labels = sorted(set(gold) | set(pred))
    codes = np.union1d(g, p)  # scikit-learn on the integer codes: the same items, names in the same order
    assert names_of(codes) == labels
    for average in ("macro", "micro", "weighted"):
        prec, rec, f1, _ = precision_recall_fscore_support(g, p, labels=codes, average=average, zero_division=0)
        ours = getattr(rep, average)
        assert ours.precision == pytest.approx(prec, rel=1e-12)
        assert ours.recall == pytest.approx(rec, rel=1e-12)
        assert ours.f1 == pytest.approx(f1, rel=1e-12)
    few = ["L000007", "L000011", "L000123", labels[-1]]
    prec, rec, f1, support = precision_recall_fscore_support(gold, pred, labels=few, zero_division=0)
    for j, lab in enumerate(few):
        pc = rep.per_class[lab]
        assert (pc.precision, pc.recall, pc.f1, pc.support) == pytest.approx(
            (prec[j], rec[j], f1[j], support[j]), rel=1e-12)
    t = np.bincount(g, minlength=K).astype(object)
    q = np.bincount(p, minlength=K).astype(object)
    c, n = int((g == p).sum()), N
    tq = int(np.dot(t, q))
    mcc = (c * n - tq) / ((n * n - int(np.dot(q, q))) * (n * n - int(np.dot(t, t)))) ** 0.5
    assert rep.mcc == pytest.approx(mcc, rel=1e-12)
    assert rep.kappa == float(Fraction(c * n - tq, n * n - tq))


def test_sparse_and_dense_tables_give_the_same_report_on_a_sample_that_fits(many):
    """The first 2,000 classes' items: counted once sparse (forced), once dense — every number the same."""
    gold, pred, g, p = many
    keep = (g < 1500) & (p < 1500)
    dense = Counter()
    sparse = Counter()
    sparse.limit = 1  # force the sparse cells from the first batch on
    for c in (dense, sparse):
        for i in range(0, int(keep.sum()), 997):
            c.update([gold[keep][i:i + 997], pred[keep][i:i + 997]])
    td = dense.table()
    assert isinstance(td, ConfusionTable) and td.k <= MAX_DENSE
    np.testing.assert_array_equal(sparse.table().counts, td.counts)  # counted as sparse cells, the same table
    ts = sparse_of(td)  # the same table stored sparsely: the sparse report path
    assert isinstance(ts, SparseConfusionTable) and ts == td
    a, b = report_from_table(td).to_dict(), report_from_table(ts).to_dict()
    for key in ("labels", "accuracy", "balanced_accuracy", "mcc", "kappa", "macro", "micro", "weighted", "per_class"):
        assert json.dumps(a[key], sort_keys=True) == json.dumps(b[key], sort_keys=True), key


def test_text_report_shows_top_classes_not_a_huge_matrix(tmp_path, many):
    gold, pred, _, _ = many
    path = tmp_path / "many.csv"
    rows = N * 3 // 4  # every class (the first K rows) and the big classes 7 and 11
    path.write_text("gold,pred\n" + "".join(f"{a},{b}\n" for a, b in zip(gold[:rows], pred[:rows], strict=True)))
    res = run("report", str(path))
    assert res.code == 0, res.err
    lines = res.out.splitlines()
    assert len(lines) < 400 and max(map(len, lines)) < 400
    assert "L000007" in res.out and "L000011" in res.out  # the biggest class and its confusion
    shown = sum(f"L{i:06d}" in res.out for i in range(0, K, 97))
    assert shown < 40  # a sample of the class names: almost none is shown


def test_sparse_joint_compare_equals_dense_for_the_same_seed():
    rng = np.random.default_rng(4)
    n = 3000
    g = rng.integers(0, 6, n)
    a = np.where(rng.random(n) < 0.75, g, rng.integers(0, 6, n))
    b = np.where(rng.random(n) < 0.65, g, rng.integers(0, 6, n))
    names = np.array(list("uvwxyz"))
    dense, sparse = JointCounter(["a", "b"]), JointCounter(["a", "b"])
    for c in sparse.counters.values():
        c.limit = 1
    for c in (dense, sparse):
        for i in range(0, n, 500):
            c.update(names[g[i:i + 500]], [names[a[i:i + 500]], names[b[i:i + 500]]])
    jd = dense.tables().pair("a", "b")
    assert isinstance(jd, JointTable) and 6 <= MAX_DENSE_JOINT
    np.testing.assert_array_equal(sparse.tables().pair("a", "b").counts, jd.counts)  # counted as sparse cells
    js = SparseJointTable(*cells_of(jd.counts), jd.labels)  # the same joint table stored sparsely
    assert js == jd
    for test, metric in (("bootstrap", "macro_f1"), ("randomization", "accuracy"), ("bootstrap", "mcc")):
        rd = compare(jd, None, None, test=test, metric=metric, samples=400, seed=3)
        rs = compare(js, None, None, test=test, metric=metric, samples=400, seed=3)
        mem = compare(names[g], names[a], names[b], test=test, metric=metric, samples=400, seed=3)
        for r in (rs, mem):
            assert (r.a, r.b, r.delta, r.p_value) == (rd.a, rd.b, rd.delta, rd.p_value)
            assert tuple(r.ci.delta) == tuple(rd.ci.delta)


def test_a_long_list_of_infinite_values_says_how_many_more():
    """Regression: the text listed the first ten classes of an infinite LR+ and silently left out the rest."""
    from clfeval.render._reports import undefined_text

    k = 30  # each class: TP = 1 and FP = 0 with some FN, so LR+ = TPR / 0 is infinite
    cm = np.eye(k, dtype=np.int64)
    cm[np.arange(k), (np.arange(k) + 1) % k] = 0
    cm[:, 0] += 1
    cm[0, 0] -= 1
    rep = report_from_table(ConfusionTable(cm, tuple(f"c{i:02d}" for i in range(k))))
    inf = [u for u in rep.undefined if u.infinite and u.metric == "lr_plus"]
    assert inf and len(inf[0].labels) > 10
    text = undefined_text(rep)
    assert f"(+{len(inf[0].labels) - 10} more)" in text.split("Infinite")[1]
