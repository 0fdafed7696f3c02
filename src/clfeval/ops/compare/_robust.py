"""Does a verdict survive the likely label errors? The robustness block of :func:`clfeval.compare` with
``label_issues=``: the same comparison (test, metric, samples, seed) with the flagged items removed, and with their
gold label replaced by the suggested one."""

from __future__ import annotations

from dataclasses import dataclass

from clfeval.core import number

__all__ = ["RobustVariant", "Robustness", "survival_sentence"]


@dataclass(frozen=True)
class RobustVariant:
    """One comparison of the robustness block: the same test on the items with the flagged ones removed, or
    relabelled.

    Attributes
    ----------
    n : int
        Test items compared.
    a, b : float
        M(A) and M(B) on them.
    delta : float
        δ = M(A) − M(B).
    ci : tuple of float
        The two-sided interval of δ the comparison shows as its estimate (BCa, else percentile): a different
        procedure from the test.
    bound : float or None
        The test's own one-sided bound of δ (lower when higher is better; > 0 exactly when p < α), the interval
        the verdict follows; None for randomization, which has none.
    p_value : float
        The test's p-value.
    rejected : bool
        Whether the test rejects at α (p < α), as ``Compared.rejected``.
    verdict : str
        The test's plain sentence, worded by the same function as every comparison's verdict.
    """

    n: int
    a: float
    b: float
    delta: float
    ci: tuple[float, float]
    bound: float | None
    p_value: float
    rejected: bool
    verdict: str

    def to_dict(self) -> dict[str, object]:
        return {"n": self.n, "a": number(self.a), "b": number(self.b), "delta": number(self.delta),
                "ci": [number(v) for v in self.ci], "bound": None if self.bound is None else number(self.bound),
                "p_value": number(self.p_value), "rejected": self.rejected,
                "verdict": self.verdict}


@dataclass(frozen=True)
class Robustness:
    """Whether the verdict survives the likely label errors (``compare(..., label_issues=...)``).

    Attributes
    ----------
    n_flagged : int
        Items the label-issues result flags.
    n_matched : int
        Of them, the items of the compared data (matched by id).
    removed : RobustVariant
        The comparison with the matched flagged items removed.
    relabelled : RobustVariant
        The comparison with their gold label replaced by the suggested one.
    sentence : str
        In one sentence: the difference survives, or the verdict flips (when removed, relabelled, or both).
    """

    n_flagged: int
    n_matched: int
    removed: RobustVariant
    relabelled: RobustVariant
    sentence: str

    def to_dict(self) -> dict[str, object]:
        return {"n_flagged": self.n_flagged, "n_matched": self.n_matched, "removed": self.removed.to_dict(),
                "relabelled": self.relabelled.to_dict(), "sentence": self.sentence}


def survival_sentence(rejected: bool, removed: bool, relabelled: bool, n: int) -> str:
    """The block's sentence from whether the original, the removed and the relabelled comparisons reject."""
    errors = f"{n} likely label error{'' if n == 1 else 's'}"
    flips = [w for w, r in (("removed", removed), ("relabelled", relabelled)) if r != rejected]
    if not flips:
        what = "the difference survives" if rejected else "the verdict survives (still no significant difference)"
        return f"{what.capitalize()}: removing or relabelling the {errors} keeps the verdict."
    return f"It flips when the {errors} {'are' if n != 1 else 'is'} {' or '.join(flips)}."
