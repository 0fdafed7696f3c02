"""The registry's golden JSON compared as distribution pins (issue 39): the fields a seeded resample produced are
compared within the Monte-Carlo tolerance of ``tests/_helpers/mc.py`` (read from the stored values themselves), every
other field exactly. Used by ``tools/golden_json.py --check``, ``tests/project/test_registry_json.py`` and the
``tests/ops/test_*_result.py`` golden tests.

The resampled fields (``RESAMPLED`` lists them, ``PINS.md`` explains each):

* ``ci.<metric>`` of a report with ``ci.samples`` whose ``ci.methods[<metric>]`` is ``bca`` or ``percentile``
  (Wilson's and the other closed-form ends stay exact), each end within :func:`mc.end_tolerance` (BCa doubled; an
  interval with an infinite end, stored as the string ``"inf"``, is compared exactly: none in the golden files);
* a comparison's ``ci.a``, ``ci.b``, ``ci.delta`` (percentile) and ``ci.bca.*`` (BCa), and ``ci.test_bound.value``
  (the basic bound, an order statistic of δ's replicates: the tolerance of δ's interval ends);
* ``p_value`` (and a slice's ``p``) of a bootstrap or randomization comparison, and the adjusted ``p_holm`` /
  ``p_by`` (the p-value tolerance times the family's largest multiplier, m·H(m));
* ``bootstrap.count`` (replicates at or beyond the threshold: B times the p-value tolerance) and a margin's
  ``count`` and ``bound.value`` (the histogram's scale);
* ``distribution.counts`` and ``distribution.edges`` (the replicate histogram): its total exactly, its mean within
  Z·√2·σ/√B plus a bin;
* ``bayes[].p_a_better``, ``p_b_better``, ``p_equivalent`` of ``rank`` (posterior samples: the p-value tolerance);
* ``verdict`` sentences of a resampled result: equal once their numbers are masked; and a decision (the verdict's
  words, ``significant``, ``rejected``, ``non_inferior``) may differ only where one of its resampled probabilities is
  within its tolerance of a decision level (α, 1 − α, 0.005, 0.01, 0.05, 0.95): there a sampler cannot pin it (the
  golden rank/frame has P = 0.949 against 0.95, and two seeds of 2,000 samples out of four say 0.953 and 0.956).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from tests._helpers import mc

RESAMPLED = ("ci.<metric> (bca/percentile)", "ci.a", "ci.b", "ci.delta", "ci.bca.*", "ci.test_bound.value",
             "p_value", "p", "p_holm", "p_by", "bootstrap.count", "count", "bound.value", "distribution.counts",
             "distribution.edges", "bayes[].p_a_better", "bayes[].p_b_better", "bayes[].p_equivalent", "verdict")
RESAMPLING_TESTS = {"bootstrap", "randomization", "permutation", "paired bootstrap"}
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)*(?:e-?\d+)?")


def _samples(stack: list[dict], root: dict) -> int | None:
    for d in reversed(stack):
        s = d.get("samples")
        if isinstance(s, int) and not isinstance(s, bool) and s > 0:
            return s
    over = root.get("overall")
    return over.get("samples") if isinstance(over, dict) else None


def _test(stack: list[dict], root: dict) -> str | None:
    for d in reversed(stack):
        if isinstance(d.get("test"), str):
            return d["test"]
    over = root.get("overall")
    return over.get("test") if isinstance(over, dict) else None


def _n(stack: list[dict]) -> int | None:
    for d in reversed(stack):
        if isinstance(d.get("n"), int) and d["n"] > 0:
            return d["n"]
    return None


def _hist_sigma(dist: dict) -> tuple[float, float, float]:
    """Mean, standard deviation and bin width of a stored replicate histogram."""
    edges, counts = dist.get("edges") or [], dist.get("counts") or []
    if len(edges) != len(counts) + 1 or not counts or sum(counts) == 0:
        return math.nan, math.nan, 0.0
    mids = [(a + b) / 2 for a, b in zip(edges[:-1], edges[1:], strict=True)]
    tot = sum(counts)
    m = sum(c * x for c, x in zip(counts, mids, strict=True)) / tot
    var = sum(c * (x - m) ** 2 for c, x in zip(counts, mids, strict=True)) / tot
    return m, math.sqrt(var), edges[1] - edges[0]


def _close(got: Any, want: Any, tol: float) -> bool:
    if not (isinstance(got, int | float) and isinstance(want, int | float)) or isinstance(got, bool):
        return got == want
    if math.isinf(tol):
        return True
    return abs(float(got) - float(want)) <= tol


def _family(stack: list[Any]) -> int:
    for x in reversed(stack):
        if isinstance(x, list) and len(x) > 1:
            return len(x)
    return 1


def diff(got: Any, want: Any) -> list[str]:
    """The differences between a result's JSON and its golden one, resampled fields within their tolerance."""
    out: list[str] = []
    root = want if isinstance(want, dict) else {}
    _walk(got, want, "", [], [], root, out)
    return out


def _walk(got: Any, want: Any, path: str, stack: list[dict], lists: list[Any], root: dict, out: list[str]) -> None:
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            out.append(f"{path or '.'}: keys {sorted(got) if isinstance(got, dict) else got!r} != {sorted(want)}")
            return
        if _resampled_dict(got, want, path, stack + [want], lists, root, out):
            return
        for k in want:
            _walk(got[k], want[k], f"{path}.{k}", stack + [want], lists, root, out)
        return
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            out.append(f"{path}: {got!r} != {want!r}")
            return
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            _walk(g, w, f"{path}[{i}]", stack, lists + [want], root, out)
        return
    key = path.rsplit(".", 1)[-1]
    if key == "verdict" and isinstance(want, str) and _resampling(stack, root):
        if _NUMBER.sub("#", str(got)) != _NUMBER.sub("#", want) and not _at_boundary(stack, root):
            out.append(f"{path}: {got!r} != {want!r} (numbers masked)")
        return
    if key in DECISIONS and isinstance(want, bool) and got != want and _at_boundary(stack, root, wording=False):
        return
    tol = _leaf_tolerance(key, path, stack, lists, root)
    if tol is None:
        if got != want or type(got) is not type(want):
            out.append(f"{path}: {got!r} != {want!r}")
    elif not _close(got, want, tol):
        out.append(f"{path}: {got!r} != {want!r} beyond the Monte-Carlo tolerance {tol:.4g}")


DECISIONS = ("significant", "rejected", "non_inferior")
_PROBABILITIES = ("p_value", "p", "p_holm", "p_a_better", "p_b_better", "p_equivalent")


def _at_boundary(stack: list[dict], root: dict, wording: bool = True) -> bool:
    """Whether a resampled probability of the innermost result is within its tolerance of a decision level (of α and
    1 − α only for a yes/no decision; also the wording's 0.005, 0.01, 0.05, 0.95 for a verdict)."""
    parent = stack[-1] if stack else {}
    b = _samples(stack, root)
    if not b:
        return False
    alpha = root.get("alpha", parent.get("alpha", 0.05))
    levels = {float(alpha), 1 - float(alpha)} | ({0.005, 0.01, 0.05, 0.95} if wording else set())
    for k in _PROBABILITIES:
        v = parent.get(k)
        if isinstance(v, int | float) and not isinstance(v, bool):
            tol = mc.p_value_tolerance(float(v), b)
            if any(abs(float(v) - lv) <= tol for lv in levels):
                return True
    return False


def _resampling(stack: list[dict], root: dict) -> bool:
    return (_test(stack, root) in RESAMPLING_TESTS or "bayes" in root or
            any(isinstance(d.get("ci"), dict) and "samples" in d["ci"] for d in stack))


def _leaf_tolerance(key: str, path: str, stack: list[dict], lists: list[Any], root: dict) -> float | None:
    """The tolerance of a numeric leaf, or None when it is compared exactly."""
    parent = stack[-1] if stack else {}
    b = _samples(stack, root)
    if b is None:
        return None
    resampling_test = _test(stack, root) in RESAMPLING_TESTS
    if key in ("p_value", "p") and resampling_test and isinstance(parent.get(key), int | float):
        return mc.p_value_tolerance(float(parent[key]), b)
    if key in ("p_holm", "p_by") and resampling_test:
        m = _family(lists)
        base = parent.get("p_value", parent.get("p"))
        if isinstance(base, int | float):
            return mc.p_value_tolerance(float(base), b) * m * sum(1 / i for i in range(1, m + 1))
    if key in ("p_a_better", "p_b_better", "p_equivalent") and ".bayes[" in path:
        return mc.p_value_tolerance(float(parent[key]), b)
    if key == "value" and path.endswith("test_bound.value") and len(stack) >= 2:
        ci = stack[-2]
        d = ci.get("delta")
        if isinstance(d, list) and len(d) == 2:
            return mc.end_tolerance(d[0], d[1], ci.get("level", 0.95), b, grid=_grid(stack))
    if key in ("value", "count") and resampling_test:
        dist = next((d["distribution"] for d in reversed(stack) if isinstance(d.get("distribution"), dict)), None)
        if dist is not None and (path.endswith("bound.value") or path.endswith(".count") and "margin" in root):
            _, sigma, width = _hist_sigma(dist)
            if key == "count":
                thr = root.get("threshold")
                return b * mc.p_value_tolerance(float(parent["count"]) / b, b) if thr is not None else None
            q = 1 - float(stack[-1].get("level", 0.95))
            return _normal_quantile_tol(sigma, q, b) + width + _grid(stack)
    if key == "count" and path.endswith("bootstrap.count"):
        return b * mc.p_value_tolerance(float(parent["count"]) / b, b)
    return None


def _grid(stack: list[dict]) -> float:
    n = _n(stack)
    return 1.0 / n if n else 0.0


def _normal_quantile_tol(sigma: float, q: float, b: int) -> float:
    if not math.isfinite(sigma):
        return math.inf
    from scipy import stats
    return mc.Z * math.sqrt(2) * sigma * math.sqrt(q * (1 - q) / b) / float(stats.norm.pdf(stats.norm.ppf(q)))


def _resampled_dict(got: dict, want: dict, path: str, stack: list[dict], lists: list[Any], root: dict,
                    out: list[str]) -> bool:
    """Intervals and histograms: compared here (True) or left to the generic walk (False)."""
    key = path.rsplit(".", 1)[-1]
    b = _samples(stack, root)
    if key == "distribution" and b and "counts" in want:
        for k in want:
            if k not in ("counts", "edges"):
                _walk(got[k], want[k], f"{path}.{k}", stack, lists, root, out)
        tot_g = sum(got.get("counts") or []) + int(got.get("count_beyond") or 0)
        tot_w = sum(want.get("counts") or []) + int(want.get("count_beyond") or 0)
        if tot_g != tot_w:
            out.append(f"{path}: the histogram holds {tot_g} replicates, the golden one {tot_w}")
        (mg, _, wg), (mw, sw, ww) = _hist_sigma(got), _hist_sigma(want)
        tol = mc.Z * math.sqrt(2) * sw / math.sqrt(b) + max(wg, ww) if math.isfinite(sw) else math.inf
        if math.isfinite(mw) and not abs(mg - mw) <= tol:
            out.append(f"{path}: the histogram's mean {mg!r} != {mw!r} beyond {tol:.4g}")
        return True
    if key != "ci" or not b:
        return False
    level = float(want.get("level", 0.95))
    methods = want.get("methods")
    grid = _grid(stack)

    def ends(g: Any, w: Any, p: str, bca: bool) -> None:
        if not (isinstance(w, list) and len(w) == 2 and all(isinstance(x, int | float) for x in w)):
            _walk(g, w, p, stack, lists, root, out)
            return
        tol = mc.end_tolerance(float(w[0]), float(w[1]), level, b, grid=grid, bca=bca)
        if not (isinstance(g, list) and len(g) == 2 and all(_close(x, y, tol) for x, y in zip(g, w, strict=True))):
            out.append(f"{p}: {g!r} != {w!r} beyond the Monte-Carlo tolerance {tol:.4g}")

    if isinstance(methods, dict):  # a report's intervals: per metric, by its method
        def walk_ci(g: Any, w: Any, p: str, name: str) -> None:
            if isinstance(w, dict) and name not in ("values", "methods"):
                for k in w:
                    if isinstance(g, dict) and k in g:
                        walk_ci(g[k], w[k], f"{p}.{k}", f"{name}.{k}" if name else k)
                    else:
                        out.append(f"{p}.{k}: missing")
                return
            method = methods.get(name)
            if method in ("bca", "percentile") and isinstance(w, list):
                ends(g, w, p, method == "bca")
            else:
                _walk(g, w, p, stack, lists, root, out)
        for k in want:
            walk_ci(got[k], want[k], f"{path}.{k}", k if k not in ("values", "methods") else k)
        return True
    if "delta" in want and "a" in want:  # a comparison's intervals
        for k in want:
            if k in ("a", "b", "delta"):
                ends(got[k], want[k], f"{path}.{k}", False)
            elif k == "bca" and isinstance(want[k], dict):
                if not isinstance(got[k], dict) or set(got[k]) != set(want[k]):
                    out.append(f"{path}.bca: keys differ")
                    continue
                for kk in want[k]:
                    ends(got[k][kk], want[k][kk], f"{path}.bca.{kk}", True)
            else:
                _walk(got[k], want[k], f"{path}.{k}", stack, lists, root, out)
        return True
    return False


# --- rendered text (golden .txt / .md files) --------------------------------------------------------------------

_TEXT_NUMBER = re.compile(r"(<\s*)?-?\d[\d,]*(?:\.\d+)?")
_PLAIN_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_P_CLAUSE = re.compile(r"p (?:[<=≥] #)(?: [<≥] #)?")


def text_diff(got: str, want: str, resampled: dict[tuple[str, int], Callable[[float, bool], None]],
              verdicts: tuple[str, ...] = ()) -> list[str]:
    """Rendered text against its golden file: every line's words equal; every number equal as printed, except the
    ``resampled`` ones — keyed by (the line's text before its first number, stripped; the number's index in the
    line) — each given to its check as (value, shown as "< value"). Lines starting with one of ``verdicts`` have
    their p clause ("p = 0.003 < 0.01", "p < 0.001") masked: its number and its band are resampled."""
    out: list[str] = []
    g_lines, w_lines = got.splitlines(), want.splitlines()
    if len(g_lines) != len(w_lines):
        return [f"{len(g_lines)} lines, the golden file has {len(w_lines)}"]
    for i, (g, w) in enumerate(zip(g_lines, w_lines, strict=True)):
        if verdicts and w.startswith(verdicts):
            mask = lambda s: _P_CLAUSE.sub("p …", _PLAIN_NUMBER.sub("#", s))  # noqa: E731
            if mask(g) != mask(w):
                out.append(f"line {i + 1}: {g!r} != {w!r} (the p clause masked)")
            continue
        if _TEXT_NUMBER.sub("#", g) != _TEXT_NUMBER.sub("#", w):
            out.append(f"line {i + 1}: {g!r} != {w!r}")
            continue
        first = _TEXT_NUMBER.search(w)
        label = w[: first.start()].strip() if first else w.strip()
        for k, (mg, mw) in enumerate(zip(_TEXT_NUMBER.finditer(g), _TEXT_NUMBER.finditer(w), strict=True)):
            check = resampled.get((label, k))
            if check is None:
                if mg.group(0) != mw.group(0):
                    out.append(f"line {i + 1}, number {k}: {mg.group(0)!r} != {mw.group(0)!r}")
                continue
            token = mg.group(0)
            try:
                check(float(token.lstrip("< ").replace(",", "")), token.startswith("<"))
            except AssertionError as exc:
                out.append(f"line {i + 1} ({label!r}, number {k}): {exc}")
    return out
