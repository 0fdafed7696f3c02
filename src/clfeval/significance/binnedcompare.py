"""Comparing binned ROC-AUCs at any size: the paired bootstrap as multinomial draws of a joint table.

Two systems score the same items; with binned scores
(:mod:`clfeval.scores.binned`) each item falls into one cell (gold positive?,
bin of A's score, bin of B's score) of a joint table that adds across batches
and partitions. Drawing n items with replacement is drawing that table's
occupied cells from a multinomial (the count-based engine of
:mod:`clfeval.core.resample`), so a replicate costs O(occupied cells) — at most
2·B_A·B_B, whatever n. Approximate randomization swaps A's and B's bins on
Bin(count, ½) items of each cell, which needs one binning for both systems.

The AUCs compared are the binned ones; the result's notes give each one's
error bound against its exact AUC.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Sequence

from clfeval.errors import UsageError
from clfeval.scores.binned import BINNED_NOTE, BinnedJoint
from clfeval.significance.paired import compare_counts
from clfeval.significance.results import Comparison

__all__ = ["compare_binned"]


def compare_binned(joint: BinnedJoint, *, test: str = "bootstrap", samples: int = 10_000, seed: Any = None,
                   alpha: float = 0.05, ci: float = 0.95, names: Sequence[str] = ("a", "b"), positive: str = "1",
                   progress: Callable[[int, int], None] | None = None) -> Comparison:
    """Is A's binned ROC-AUC higher than B's? A paired test on the joint (gold, bin A, bin B) table.

    Parameters
    ----------
    joint : BinnedJoint
        The items counted by (positive?, A's bin, B's bin), added up over every batch.
    test : {"bootstrap", "randomization"}
        Randomization needs A and B binned alike (it swaps their bins).

    Returns
    -------
    Comparison
        As :func:`clfeval.significance.paired.compare` with ``metric="roc_auc"``;
        the notes say that the AUCs are binned, with their error bounds.

    Examples
    --------
    >>> import numpy as np
    >>> from clfeval.scores.binned import uniform_binning
    >>> b = uniform_binning(10, 0.0, 1.0)
    >>> y = np.array([True, False] * 50)
    >>> j = BinnedJoint.of(b, b, y, np.where(y, 0.9, 0.1), np.where(y, 0.55, 0.5))  # B: one bin for all
    >>> c = compare_binned(j, samples=200, seed=0)
    >>> c.a, c.b, c.p_value
    (1.0, 0.5, 0.0)
    """
    if test == "randomization" and not joint.binning_a.same(joint.binning_b):
        raise UsageError(lambda name: f"{name} randomization swaps A's and B's bins, so both need one binning (the "
                                      f"same edges); use the bootstrap, or bin both systems' scores alike.",
                         params=["test"])
    if test == "mcnemar":
        raise UsageError("McNemar's test compares accuracies; binned scores are compared by the bootstrap or "
                         "randomization.")
    eng = joint.engine()
    what = (f"counts: multinomial draws over the {eng.groups} occupied cells of the joint (gold, bin of A, bin of B) "
            f"table")
    c = compare_counts(eng, metric="roc_auc", description=what, test=test, samples=samples, seed=seed, alpha=alpha,
                       ci=ci, names=names, progress=progress)
    ha, hb = joint.histograms(positive)
    bounds = (f"Error bounds against the exact ROC-AUCs: {names[0]} ±{ha.auc_error_bound:.3g} "
              f"({ha.binning.bins} {ha.binning.kind} bins), {names[1]} ±{hb.auc_error_bound:.3g} "
              f"({hb.binning.bins} {hb.binning.kind} bins).")
    sig = dict(c.signature)
    sig["engine"] = what
    sig["score_bins"] = [ha.binning.bins, hb.binning.bins]
    sig["score_binning"] = [ha.binning.kind, hb.binning.kind]
    return dataclasses.replace(c, notes=[BINNED_NOTE, bounds, *c.notes], signature=sig)
