"""The table sampler of the paired bootstrap (issue 40): Poissonized multinomial draws against independent oracles —
SciPy's Poisson CDF for its tables, a plain ``searchsorted`` inversion for its guide tables, the multinomial's
moments, and the old sampler (``rng.multinomial`` over the joint cells, written out here) for the replicate
quantiles and the p-value of a paired comparison at fixed n."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import clfeval
from clfeval.significance import _paired
from clfeval.stats import _tables
from clfeval.stats._tables import TableSampler, _Inversion, _poisson_tables
from tests._helpers import mc


@pytest.mark.parametrize("mu", [0.02, 0.7, 3.0, 29.5, 30.5, 412.0, 9_000.0])
def test_poisson_tables_are_scipys_cdf_and_lose_no_mass(mu):
    inv, shift = _poisson_tables(np.array([mu]))
    table = inv.cdf
    k = np.arange(table.size) + shift[0]  # shift: the count of the table's first entry
    assert k[0] >= 0 and table[-1] == 1.0
    np.testing.assert_allclose(table[:-1], stats.poisson.cdf(k[:-1], mu), rtol=0, atol=1e-12)
    assert stats.poisson.cdf(k[0] - 1, mu) < 1e-17 and stats.poisson.sf(k[-1] - 1, mu) < 1e-17  # the mass left out


def test_guided_inversion_is_plain_inversion():
    """Every draw is min{k : F[k] > u}, found by ``searchsorted``, for random u and for u on the CDF's own values
    and their neighbours (the bucket edges and ties)."""
    rng = np.random.default_rng(5)
    dists = [np.cumsum(w) / w.sum() for w in (rng.random(7), np.array([1e-9, 1.0, 1e-9, 3.0]), rng.random(40) ** 8)]
    for d in dists:
        d[-1] = 1.0
    sizes = np.array([d.size for d in dists])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    inv = _Inversion(np.concatenate(dists), starts, sizes, 2)
    for i, d in enumerate(dists):
        u = np.concatenate([rng.random(5000), d[:-1], np.nextafter(d[:-1], 0), np.nextafter(d[:-1], 1), [0.0]])
        u = u[u < 1.0]
        got = inv.draw(np.array([i]), u) - starts[i]
        assert (got == np.searchsorted(d, u, side="right")).all()


@pytest.mark.parametrize("method", ["poisson", "poisson, fill by inversion", "multinomial"])
def test_sampler_draws_multinomial_moments(method, monkeypatch):
    """Totals exact; every cell's mean n·p and variance n·p(1−p), and one covariance −n·p_i·p_j, within 5 standard
    errors over 6,000 replicates (the items left after the Poisson draws added from the table of the items' cells,
    or above its size by inversion of the cells' CDF)."""
    if method.endswith("inversion"):
        monkeypatch.setattr(_tables, "_MAX_CODES", 0)
    counts = np.array([900, 30, 7, 2400, 1, 350, 64, 1200] * 3)
    n, b = counts.sum(), 6000
    sampler = TableSampler(counts, method=method.split(",")[0])
    assert (sampler.method == "poisson") == method.startswith("poisson")
    reps = sampler.draw(b, np.random.default_rng(11))
    assert reps.shape == (b, counts.size) and reps.dtype == np.int64
    assert (reps.sum(axis=1) == n).all() and reps.min() >= 0
    p = counts / n
    var = n * p * (1 - p)
    assert np.all(np.abs(reps.mean(axis=0) - n * p) <= 5 * np.sqrt(var / b))
    # the variance of a sample variance: (μ4 − σ⁴)/b, μ4 ≈ 3σ⁴ + n·p(1−p)(1 − 6p(1−p)) for a binomial
    mu4 = 3 * var ** 2 + var * (1 - 6 * p * (1 - p))
    assert np.all(np.abs(reps.var(axis=0) - var) <= 5 * np.sqrt((mu4 - var ** 2) / b))
    cov = np.cov(reps[:, 0], reps[:, 3])[0, 1]
    assert abs(cov + n * p[0] * p[3]) <= 5 * np.sqrt(var[0] * var[3] / b) * 1.5


def test_sampler_draws_in_chunks_what_it_draws_at_once():
    """Blocks handed out in order: 1,000 replicates in chunks of 7, 300, … are those of one call, and the generator
    is left in the same state; a new generator starts a new block."""
    counts = np.arange(1, 65) * 3
    sampler = TableSampler(counts, method="poisson")
    g1, g2 = np.random.default_rng(7), np.random.default_rng(7)
    whole = sampler.draw(1000, g1)
    chunked = TableSampler(counts, method="poisson")
    parts = [chunked.draw(c, g2) for c in (7, 300, 1, 256, 436)]
    assert (np.concatenate(parts) == whole).all()
    assert g1.random() == g2.random()
    assert not (sampler.draw(5, np.random.default_rng(8)) == chunked.draw(5, np.random.default_rng(9))).all()


def test_sampler_chooses_poisson_where_it_pays():
    assert TableSampler(np.full(1000, 300)).method == "poisson"  # 3e5 items over 1,000 cells
    assert TableSampler(np.full(1000, 3000)).method == "multinomial"  # its tables would not stay in cache
    assert TableSampler(np.array([500_000, 500_000])).method == "multinomial"  # few cells
    assert TableSampler(np.full(1000, 10)).method == "poisson"  # few items a cell: NumPy's binomials cost too
    assert TableSampler(np.array([5, 0, 7] * 40)).method == "multinomial"  # an empty cell
    assert TableSampler(np.full(40, 50)).method == "multinomial"  # few cells: a few µs a replicate
    with pytest.raises(ValueError, match="positive"):
        TableSampler(np.array([5, 0, 7] * 40), method="poisson")
    assert TableSampler(np.full(100, 1_000_000)).method == "multinomial"  # 1e8 items: too many to add one by one


def _macro_f1(t):
    """Macro-F1 of tables (b, K, K), rows gold, by hand: 2·TP / (2·TP + FP + FN), 0 when undefined."""
    tp = np.diagonal(t, axis1=1, axis2=2).astype(float)
    den = 2 * tp + (t.sum(axis=1) - tp) + (t.sum(axis=2) - tp)
    return np.where(den > 0, 2 * tp / np.where(den > 0, den, 1), 0.0).mean(axis=1)


def test_paired_bootstrap_keeps_the_old_samplers_distribution():
    """compare's bootstrap of macro-F1 (drawn by Poissonization here) against the old sampler, Multinomial(n, p) over
    the joint (gold, A, B) cells written out with NumPy: the 2.5 %, 50 % and 97.5 % quantiles of δ, of each system's
    replicates, and the p-value, within Monte-Carlo error."""
    rng = np.random.default_rng(3)
    n, k = 6000, 5
    gold = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.7, gold, rng.integers(0, k, n))
    b = np.where(rng.random(n) < 0.66, gold, rng.integers(0, k, n))
    prob = _paired._problem(gold, a, b, "macro_f1", labels=None, zd=0.0, beta=1.0, positive=None, engine="auto")
    assert prob.engine.sampler.method == "poisson"  # the path under test
    samples, ref_samples = 4000, 20_000
    res = clfeval.compare(gold, a, b, metric="macro_f1", samples=samples, seed=8)
    reps = _paired.bootstrap_replicates(gold, a, b, metric="macro_f1", samples=samples, seed=8)

    joint = np.zeros((k, k, k), dtype=np.int64)
    np.add.at(joint, (gold, a, b), 1)
    old = np.random.default_rng(99).multinomial(n, joint.ravel() / n, size=ref_samples).reshape(-1, k, k, k)
    ref_a, ref_b = _macro_f1(old.sum(axis=3)), _macro_f1(old.sum(axis=2))
    obs = _macro_f1(joint.sum(axis=2)[None])[0] - _macro_f1(joint.sum(axis=1)[None])[0]
    assert res.delta == pytest.approx(obs, abs=1e-12)
    for mine, ref in ((reps.a - reps.b, ref_a - ref_b), (reps.a, ref_a), (reps.b, ref_b)):
        r = mc.Reference.of_replicates(ref)
        for q in (0.025, 0.5, 0.975):
            mc.assert_quantile(float(np.quantile(mine, q)), r, q, samples)
    mc.assert_interval(res.ci.delta, mc.Reference.of_replicates(ref_a - ref_b), 0.95, samples, "CI of δ")
    p_ref = float(np.mean(ref_a - ref_b >= 2 * obs - 1e-12))
    mc.assert_p_value(res.p_value, p_ref, samples, ref_samples)
