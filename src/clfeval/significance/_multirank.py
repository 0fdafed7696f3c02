"""k systems over N data sets: :func:`rank_scores` and its result :class:`RankResult`.

The frequentist part follows Demšar (2006): average ranks, the Friedman test
with the Iman–Davenport F, Nemenyi's critical difference (the CD diagram),
and — recommended by García & Herrera (2008) — Wilcoxon signed-rank tests of
every pair, Holm-adjusted; with a control system, its k − 1 comparisons,
Holm-adjusted among themselves. The Bayesian part is the Bayesian signed-rank
test with a ROPE (Benavoli et al. 2017) for the requested pairs. The
arithmetic lives in :mod:`clfeval.significance._manysystems` and
:mod:`clfeval.significance._bayesrank`.

References
----------
* Demšar (2006), "Statistical comparisons of classifiers over multiple data sets", JMLR 7:1–30.
* García & Herrera (2008), "An extension on 'Statistical comparisons of classifiers over multiple data sets'
  for all pairwise comparisons", JMLR 9:2677–2694.
* Benavoli, Corani, Demšar & Zaffalon (2017), "Time for a change: a tutorial for comparing multiple
  classifiers through Bayesian analysis", JMLR 18(77):1–36.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from clfeval.core import (
    check_positive_int,
    check_probability,
    check_samples,
    number,
    quote_name,
    signature,
    split_names,
)
from clfeval.errors import DataError, UsageError
from clfeval.ops.rank import (
    BayesPair,
    ControlComparisons,
    ControlPair,
    FriedmanTest,
    NemenyiTest,
    RankPair,
    RankResult,
)
from clfeval.significance import _bayesrank as bayesrank, _manysystems as ms
from clfeval.significance._results import format_p
from clfeval.stats import holm

__all__ = ["rank_scores", "check_settings", "check_pairs", "pairs_of_text", "check_condition_names",
           "WILCOXON_SETTINGS", "req_p_better", "req_in_best_group"]

#: How the pairwise Wilcoxon tests are computed (stated in every output, with SciPy's version).
WILCOXON_SETTINGS = "scipy.stats.wilcoxon, zero_method='pratt', method='auto', two-sided"


def _scipy_version() -> str:
    import scipy

    return str(scipy.__version__)


# --- validation ----------------------------------------------------------------------------------------------

def _check_matrix(scores: Any, systems: Sequence[str], datasets: Sequence[str]) -> np.ndarray:
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 2 or x.shape != (len(datasets), len(systems)):
        raise UsageError(f"scores must be a matrix of {len(datasets)} data sets × {len(systems)} systems; got shape "
                         f"{x.shape}.")
    if len(set(systems)) != len(systems) or len(set(datasets)) != len(datasets):
        raise UsageError("system and data set names must be unique.")
    if len(systems) < 2:
        raise DataError(f"only one system ({', '.join(map(str, systems)) or 'none'}) was found; ranking needs at "
                        f"least two systems scored on the same data sets.")
    if len(datasets) < 2:
        raise DataError(f"only one data set ({', '.join(map(str, datasets)) or 'none'}) was found; ranking over data "
                        f"sets needs at least two (for one test set, compare the systems with `clfeval compare`).")
    bad = np.argwhere(~np.isfinite(x))
    if bad.size:
        where = ", ".join(f"{systems[c]!r} on {datasets[r]!r}" for r, c in bad[:5])
        raise DataError(f"{len(bad)} score(s) are not finite numbers (NaN or infinite): {where}"
                        f"{' …' if len(bad) > 5 else ''}. Give every system a score on every data set, or "
                        f"leave those data sets out (--missing drop drops them, naming them).")
    return x


def _refuse_pairs(why: str) -> UsageError:
    return UsageError(lambda name: f"{name} {why}", params=["pairs"])


def _pair_of_names(names: list[Any], shown: str) -> tuple[str, str]:
    if len(names) != 2 or any(not n.text for n in names):
        raise _refuse_pairs(f"takes A:B pairs; {shown} is not one (a name holding ',' or ':' is written in quotes: "
                            f"'\"lr, l2\":svm').")
    return names[0].text, names[1].text


def _element_error(n: int, item: str) -> Callable[[str], UsageError]:
    return lambda why: _refuse_pairs(f"element {n} {item!r}: {why}")


def pairs_of_text(text: str) -> list[tuple[str, str]]:
    """The pairs of the command line's spelling ``"A:B,C:D"`` (``--pairs``): commas separate the pairs, a colon the
    two systems; a name holding ``,`` or ``:`` is written in quotes (the rule of :mod:`clfeval.core._quoting`).

    >>> pairs_of_text("svm:nb, svm:'lr, l2'")
    [('svm', 'nb'), ('svm', 'lr, l2')]
    """
    names = split_names(text, ",:", lambda why: _refuse_pairs(f"{text!r}: {why}"))
    out, current = [], []
    for n in names:
        current.append(n)
        if n.sep != ":":
            shown = repr(":".join(quote_name(c.text, ",:") for c in current)) if text.strip() else "''"
            out.append(_pair_of_names(current, shown))
            current = []
    return out


def check_pairs(pairs: Any) -> list[tuple[str, str]] | None:
    """The Bayesian pairs as (A, B) (None stays None: the default pairs), from a list or tuple whose elements are
    each one pair: the text ``"A:B"`` (only ``:`` separates, so ``"lr, l2:svm"`` needs no quotes; a name holding
    ``:`` is written in quotes) or a pair ``("A", "B")`` taken as it is. One text is refused, naming the list to
    write (the command line's ``--pairs A:B,C:D`` is read by :func:`pairs_of_text`).

    >>> check_pairs([("a:b", "c"), "x:y", "lr, l2:svm"])
    [('a:b', 'c'), ('x', 'y'), ('lr, l2', 'svm')]
    """
    if pairs is None:
        return None
    if isinstance(pairs, str):
        listed = ", ".join(repr(f"{quote_name(a, ':')}:{quote_name(b, ':')}") for a, b in pairs_of_text(pairs))
        raise _refuse_pairs(f"takes a list of pairs, each the text 'A:B' or a pair ('A', 'B'); got the text "
                            f"{pairs!r}: write [{listed}].")
    if not isinstance(pairs, (list, tuple)):
        raise _refuse_pairs(f"takes a list of pairs, each the text 'A:B' or a pair ('A', 'B'); got "
                            f"{type(pairs).__name__}.")
    if not pairs:
        raise _refuse_pairs("names no pair; leave it out for the default pairs (each system against the control, "
                            "else against the best-ranked).")
    out = []
    for n, item in enumerate(pairs, start=1):
        if isinstance(item, str):
            names = split_names(item, ":", _element_error(n, item))
            out.append(_pair_of_names(names, f"element {n} ({item!r})"))
        elif isinstance(item, (list, tuple)) and len(item) == 2 and all(isinstance(v, str) and v for v in item):
            out.append((item[0], item[1]))
        else:
            raise _refuse_pairs(f"element {n} ({item!r}) is neither the text 'A:B' nor a pair ('A', 'B') of "
                                f"system names.")
    return out


def check_settings(*, alpha: Any, rope: Any, prior: Any, samples: Any, seed: Any, control: Any, pairs: Any,
                   bayes: Any) -> dict[str, Any]:
    """Every setting of a ranking checked and normalised, before any data is read (pairs: :func:`check_pairs`)."""
    alpha = check_probability(alpha, option="alpha")
    if not _real(rope) or rope < 0:
        raise UsageError(lambda name: f"{name} must be a number ≥ 0 on the score's scale; got {rope!r}.",
                         params=["rope"])
    if not _real(prior) or prior <= 0:
        raise UsageError(lambda name: f"{name} must be a positive number; got {prior!r}.", params=["prior"])
    if control is not None and not isinstance(control, str):
        raise UsageError(lambda name: f"{name} must be a system name (text); got {control!r}.", params=["control"])
    if bayes not in (True, False):
        raise UsageError(lambda name: f"{name} must be True or False; got {bayes!r}.", params=["bayes"])
    return {"alpha": alpha, "rope": float(rope), "prior": float(prior), "samples": check_samples(samples),
            "seed": check_positive_int(seed, option="seed", minimum=0), "control": control,
            "pairs": check_pairs(pairs), "bayes": bool(bayes)}


def _real(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x)


def check_condition_names(conditions: Sequence[Any], systems: Sequence[str] | None = None) -> None:
    """Refuse a condition (a parsed requirement) that compares a system with itself (``p_better(A,A)``) or, given
    the ``systems``, names one not in the results: before anything is computed."""
    for q in conditions:
        if q.function in ("p_better", "in_best_group") and systems is not None:
            _known(systems, *(str(a) for a in q.args))
        if q.function == "p_better":
            _distinct(str(q.args[0]), str(q.args[1]))


def _honesty(n: int, k: int) -> list[str]:
    out = []
    if n < 5:
        out.append(f"Only {n} data sets: with fewer than 5 the Friedman and post-hoc tests have very little power, "
                   f"and the two-sided Wilcoxon test cannot reach p < 0.05 with fewer than 6; a result that is not "
                   f"significant says the data cannot tell, not that the systems are alike.")
    if k > n:
        out.append(f"More systems ({k}) than data sets ({n}): the average ranks are coarse and Nemenyi's critical "
                   f"difference is wide, so only large differences can be shown; read 'not separated' as 'not shown'.")
    return out


def _pairs_requested(pairs: Sequence[tuple[str, str]] | None, control: str | None, order: Sequence[str],
                     systems: Sequence[str]) -> list[tuple[str, str]]:
    if pairs:
        for a, b in pairs:
            for s in (a, b):
                if s not in systems:
                    raise UsageError(lambda name, s=s: f"{name} names system {s!r}, which is not in the results; the "
                                                  f"systems are: {', '.join(systems)}.", params=["pairs"])
            if a == b:
                raise UsageError(lambda name, a=a: f"{name} pairs system {a!r} with itself.", params=["pairs"])
        return list(dict.fromkeys((a, b) for a, b in pairs))
    ref = control if control is not None else order[0]
    return [(ref, s) for s in order if s != ref]


# --- the tests -----------------------------------------------------------------------------------------------

def _effects(st: ms.PairStats, n: int, a: str, b: str) -> tuple[float, float, float, str | None]:
    """The effect sizes of pair n (mean, median, Hodges–Lehmann), each undefined (NaN) beyond the float range,
    and why (None when all are defined)."""
    mean, median, hl = _num(st.mean[n]), _num(st.median[n]), _num(st.hodges_lehmann[n])
    lost = [w for w, v in (("mean", mean), ("median", median), ("Hodges–Lehmann estimate", hl)) if math.isnan(v)]
    what = ", ".join(lost[:-1]) + " and " + lost[-1] if len(lost) > 1 else "".join(lost)
    return mean, median, hl, (f"the {what} of {a} − {b} {'are' if len(lost) > 1 else 'is'} beyond the float range "
                              f"(|value| > 1.797e308)" if lost else None)


def _num(x: Any) -> float:
    """A number of the result: the value, NaN when undefined (:func:`clfeval.core.number` of a value)."""
    v = number(x)
    return math.nan if v is None else v


def _pair_rows(x: np.ndarray, systems: Sequence[str], avg: np.ndarray, hib: bool, alpha: float,
               nem_p: np.ndarray, cd: float) -> tuple[list[RankPair], np.ndarray]:
    k = len(systems)
    order = np.argsort(avg, kind="stable")
    pos = np.empty(k, dtype=np.int64)
    pos[order] = np.arange(k)
    idx = [(int(a), int(b)) if pos[a] < pos[b] else (int(b), int(a)) for a in range(k) for b in range(a + 1, k)]
    idx.sort(key=lambda p: (pos[p[0]], pos[p[1]]))
    st = ms.wilcoxon_pairs(x, idx, higher_is_better=hib)
    adj = holm(st.p_value)
    sep = np.zeros((k, k), dtype=bool)
    rows = []
    for n, (a, b) in enumerate(idx):
        s = bool(adj[n] < alpha)
        sep[a, b] = sep[b, a] = s
        rows.append(RankPair(systems[a], systems[b], float(avg[a]), float(avg[b]), float(avg[b] - avg[a]),
                             _num(st.statistic[n]), _num(st.p_value[n]), str(st.method[n]), _num(adj[n]), s,
                             _num(nem_p[a, b]), bool(avg[b] - avg[a] >= cd), *_effects(st, n, systems[a], systems[b]),
                             int(st.wins[n]), int(st.ties[n]), int(st.losses[n])))
    return rows, sep


def _control_rows(x: np.ndarray, systems: Sequence[str], control: str, hib: bool,
                  alpha: float) -> ControlComparisons:
    c = list(systems).index(control)
    others = [j for j in range(len(systems)) if j != c]
    st = ms.wilcoxon_pairs(x, [(j, c) for j in others], higher_is_better=hib)
    adj = holm(st.p_value)
    rows = tuple(ControlPair(systems[j], _num(st.p_value[n]), str(st.method[n]), _num(adj[n]), bool(adj[n] < alpha),
                             *_effects(st, n, systems[j], control), int(st.wins[n]), int(st.ties[n]),
                             int(st.losses[n]))
                 for n, j in enumerate(others))
    return ControlComparisons(control, rows, f"each system against {control}: Wilcoxon signed-rank tests, "
                                             f"Holm-adjusted over these {len(others)} comparisons; differences are "
                                             f"system − {control} (positive: better)")


def _bayes_rows(x: np.ndarray, systems: Sequence[str], wanted: Sequence[tuple[str, str]], hib: bool, rope: float,
                prior: float, samples: int, seed: int) -> list[BayesPair]:
    out = []
    for n, (a, b) in enumerate(wanted):
        ia, ib = list(systems).index(a), list(systems).index(b)
        # z = B − A (positive: B better), on the scale 2^−e that keeps it finite; the ROPE on the same scale
        z, e = ms.pair_differences(x, np.array([ib if hib else ia]), np.array([ia if hib else ib]))
        rng = np.random.default_rng([seed, n])
        p = bayesrank.signed_rank(z[0], rope=float(np.ldexp(rope, -int(e[0]))), prior=prior, samples=samples, rng=rng)
        out.append(BayesPair(a, b, p.left, p.rope, p.right, _bayes_words(a, b, p, rope)))
    return out


def _bayes_words(a: str, b: str, p: bayesrank.BayesProbs, rope: float) -> str:
    tail = f" by more than the ROPE ({rope:g})" if rope > 0 else ""
    if p.left >= 0.95:
        return f"{a} is practically better than {b}{tail} (P = {p.left:.3f})."
    if p.right >= 0.95:
        return f"{b} is practically better than {a}{tail} (P = {p.right:.3f})."
    if p.rope >= 0.95:
        return f"{a} and {b} are practically equivalent (within ±{rope:g}; P = {p.rope:.3f})."
    best = max((p.left, f"{a} better"), (p.rope, "equivalent"), (p.right, f"{b} better"))
    return (f"{a} against {b}: undecided at 0.95 — most probable: {best[1]} (P = {best[0]:.3f}).")


def _names(xs: Sequence[str]) -> str:
    xs = list(xs)
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def _verdict(fr: ms.Friedman, alpha: float, order: Sequence[str], best_group: Sequence[str], sep: np.ndarray,
             systems: Sequence[str]) -> str:
    idx = {s: i for i, s in enumerate(systems)}
    omnibus = (f"The Friedman test {'rejects' if fr.f_p_value < alpha else 'does not reject'} that all "
               f"{len(systems)} systems perform alike (Iman–Davenport {format_p(fr.f_p_value)}).")
    beaten = [s for s in order if s not in best_group and all(sep[idx[s], idx[g]] for g in best_group)]
    if len(best_group) > 1:
        head = f"{order[0]} is ranked first; {_names([g for g in best_group if g != order[0]])} " \
               f"{'is' if len(best_group) == 2 else 'are'} not separated from it"
        both = "both beat" if len(best_group) == 2 else "all of them beat"
        tail = f"; {both} {_names(beaten)}" if beaten else ""
    else:
        head, tail = f"{order[0]} is ranked first and separated from every other system", ""
    return f"{omnibus} {head}{tail} (Holm-adjusted Wilcoxon signed-rank tests, α = {alpha:g})."


def rank_scores(scores: Any, systems: Sequence[str], datasets: Sequence[str], *, higher_is_better: bool,
                score: str = "score", metric: str | None = None, alpha: float = 0.05, control: str | None = None,
                pairs: Any = None, rope: float = 0.01, prior: float = 0.5,
                samples: int = 50_000, seed: int = 0, bayes: bool = True,
                extra_pairs: Sequence[tuple[str, str]] = (), notes: Sequence[str] = (),
                checked: Sequence[str] = (), dropped: Sequence[str] = (),
                settings: dict[str, Any] | None = None) -> RankResult:
    """Rank k systems over N data sets from a score matrix (rows: data sets, columns: systems).

    Parameters
    ----------
    scores : array of shape (N, k)
    systems, datasets : sequences of str
        Column and row names.
    higher_is_better : bool
        The direction of the score.
    alpha : float
        Level of the Friedman test, Nemenyi's CD and the Holm-adjusted tests.
    control : str, optional
        A system compared with every other (Holm over the k − 1 comparisons); the default Bayesian pairs.
    pairs : str or sequence, optional
        The Bayesian pairs (default: each system against the control, else against the best-ranked system): a
        list of ``"A:B"`` texts or ``("A", "B")`` pairs (:func:`check_pairs`).
    extra_pairs : sequence of (A, B)
        Pairs added to those (the pairs a ``p_better`` condition names).
    rope, prior, samples, seed
        The Bayesian signed-rank test: ROPE half-width on the score's scale, prior weight of the
        pseudo-observation at 0, posterior samples, seed (pair n draws from ``default_rng([seed, n])``).

    Returns
    -------
    RankResult

    Examples
    --------
    >>> r = rank_scores([[0.9, 0.8], [0.7, 0.6], [0.8, 0.7]], ["A", "B"], ["d1", "d2", "d3"],
    ...                 higher_is_better=True, samples=1000)
    >>> r.average_ranks, r.order
    ({'A': 1.0, 'B': 2.0}, ('A', 'B'))
    """
    systems, datasets = tuple(str(s) for s in systems), tuple(str(d) for d in datasets)
    x = _check_matrix(scores, systems, datasets)
    o = check_settings(alpha=alpha, rope=rope, prior=prior, samples=samples, seed=seed, control=control,
                       pairs=pairs, bayes=bayes)
    alpha, rope, prior, samples, seed, control = (o[k] for k in ("alpha", "rope", "prior", "samples", "seed",
                                                                 "control"))
    if control is not None and control not in systems:
        raise UsageError(lambda name: f"{name} {control!r} is not one of the systems: {', '.join(systems)}.",
                         params=["control"])
    n, k = x.shape
    ranks = ms.average_ranks(x, higher_is_better=higher_is_better)
    avg = ranks.mean(axis=0)
    order = tuple(systems[i] for i in np.argsort(avg, kind="stable"))
    fr = ms.friedman(ranks)
    q, cd, nem_p = ms.nemenyi(avg, n, alpha)
    pos = [systems.index(s) for s in order]
    nem_sep = np.abs(avg[:, None] - avg[None, :]) >= cd
    nem_groups = [[systems[i] for i in g] for g in ms.groups(pos, nem_sep)]
    rows, sep = _pair_rows(x, systems, avg, higher_is_better, alpha, nem_p, cd)
    holm_groups = tuple(tuple(systems[i] for i in g) for g in ms.groups(pos, sep))
    best = systems.index(order[0])
    best_group = tuple(s for s in order if s == order[0] or not sep[best, systems.index(s)])
    wanted = _pairs_requested(o["pairs"], control, order, systems) if o["bayes"] else []
    for a, b in extra_pairs:  # pairs a condition asks about (p_better), when not already there in either order
        if o["bayes"] and a in systems and b in systems and a != b and (a, b) not in wanted and (b, a) not in wanted:
            wanted.append((a, b))
    brows = _bayes_rows(x, systems, wanted, higher_is_better, rope, prior, samples, seed)
    sv = _scipy_version()
    sig = signature("rank", {"score": score, "metric": metric, "higher_is_better": higher_is_better, "alpha": alpha,
                             "wilcoxon": f"{WILCOXON_SETTINGS} (SciPy {sv})", "rope": rope, "prior": prior,
                             **(settings or {})},
                    seed=seed, samples=samples, random=bool(brows))
    ftest = FriedmanTest(fr.chi2, fr.chi2_p_value, fr.df_chi2, _num(fr.chi2_tie_corrected),
                         _num(fr.chi2_tie_corrected_p_value), _num(fr.f), fr.f_p_value, fr.df_f,
                         bool(fr.f_p_value < alpha))
    ntest = NemenyiTest(q, cd, tuple(tuple(g) for g in nem_groups),
                        f"two systems differ when their average ranks differ by at least CD = q_α·√(k(k+1)/(6N)) "
                        f"= {q:.3f}·√({k}·{k + 1}/(6·{n})) = {cd:.3f}")
    sentence = _verdict(fr, alpha, order, best_group, sep, systems)
    control_rows = _control_rows(x, systems, control, higher_is_better, alpha) if control is not None else None
    all_notes = list(notes) + _test_notes(rows, control_rows, sv)
    if brows:
        all_notes.append(f"Bayesian signed-rank test: ROPE ±{rope:g}, prior weight {prior:g} on a "
                         f"pseudo-observation at 0, {samples:,} posterior samples, seed {seed}; probabilities "
                         f"are shares of samples in which each region has the largest mass (as baycomp reports "
                         f"them). The hierarchical model (it needs a Stan sampler) is not offered.")
    return RankResult(score, metric, bool(higher_is_better), systems, datasets,
                      tuple(tuple(float(v) for v in row) for row in x),
                      tuple(tuple(float(v) for v in row) for row in ranks),
                      {s: float(avg[i]) for i, s in enumerate(systems)},
                      dict(zip(systems, (float(v) for v in ms.mean(x, axis=0)), strict=True)), order, alpha, ftest,
                      ntest, tuple(rows), control_rows, holm_groups, best_group, tuple(brows), rope, prior, samples,
                      seed, tuple(_honesty(n, k)), tuple(all_notes), tuple(checked), tuple(dropped), sentence, sig)


def _test_notes(rows: Sequence[RankPair], control: ControlComparisons | None, scipy_version: str) -> list[str]:
    """The Wilcoxon rule with how many pairs each method gave, and the range rule when an effect size is lost."""
    every: list[RankPair | ControlPair] = [*rows, *(control.comparisons if control else ())]
    used = {m: sum(r.wilcoxon_method == m for r in rows) for m in ("exact", "permutation", "normal", "equal")}
    words = {"exact": "exact", "permutation": "exact permutation", "normal": "normal approximation",
             "equal": "equal on every data set (p = 1)"}
    counts = ", ".join(f"{words[m]}: {c}" for m, c in used.items() if c)
    out = [f"Wilcoxon signed-rank tests ({WILCOXON_SETTINGS}, SciPy {scipy_version}): {ms.WILCOXON_RULE}; a pair "
           f"whose scores are equal on every data set has p = 1. Pairs by method — {counts}."]
    lost = [r.undefined for r in every if r.undefined]
    if lost:
        out.append(f"Extreme scores: {ms.RANGE_RULE}. Undefined here: {'; '.join(dict.fromkeys(lost))}.")
    return out


# --- requirement functions (registered in clfeval.core._reqfunctions) ------------------------------------------

def _known(systems: Sequence[str], *names: str) -> None:
    for s in names:
        if s not in systems:
            raise UsageError(f"the condition names system {s!r}, which is not in the results; the systems are: "
                             f"{', '.join(quote_name(x, ',') for x in systems)}.")


def _distinct(a: str, b: str) -> None:
    if a == b:
        raise UsageError(lambda name: f"option {name}: p_better({quote_name(a, ',')}, {quote_name(b, ',')}) compares "
                                      f"system {a!r} with itself; name two different systems.", params=["require"])


def _typed(result: RankResult | Mapping[str, object]) -> RankResult:
    """The ranking a condition reads: the result, or the result of its JSON."""
    return result if isinstance(result, RankResult) else RankResult.from_dict(result)


def req_p_better(result: RankResult | Mapping[str, object], a: str, b: str) -> tuple[float, str | None]:
    """``p_better(A,B)``: P(A better than B by more than the ROPE), from the Bayesian pair {A, B}."""
    r = _typed(result)
    _known(r.systems, a, b)
    _distinct(a, b)
    p = r.p_better(a, b)
    if p is None:
        return math.nan, "the Bayesian pair was not computed (the Bayesian tests were left out)"
    return p, None


def req_in_best_group(result: RankResult | Mapping[str, object], s: str) -> tuple[bool, str | None]:
    """``in_best_group(S)``: S is the best-ranked system or not separated from it (Holm-adjusted Wilcoxon)."""
    r = _typed(result)
    _known(r.systems, s)
    return s in r.best_group, None
