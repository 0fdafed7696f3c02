"""Comparing binned ROC-AUCs at any size: the paired bootstrap as multinomial draws of a joint table.

Two systems score the same items; with binned scores
(:mod:`clfeval.scores._binned`) each item falls into one cell (gold positive?,
bin of A's score, bin of B's score) of a joint table that adds across batches
and partitions. Drawing n items with replacement is drawing that table's
occupied cells from a multinomial (the count-based engine of
:mod:`clfeval.stats._resample`), so a replicate costs O(occupied cells) — at most
2·B_A·B_B, whatever n. Approximate randomization swaps A's and B's bins on
Bin(count, ½) items of each cell, which needs one binning for both systems.

The AUCs compared are the binned ones; the result's notes give each one's
error bound against its exact AUC.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from clfeval.core import label_str
from clfeval.errors import DataError, UsageError
from clfeval.ops.compare import Compared
from clfeval.scores import BINNED_NOTE, BinnedJoint, Binning, as_scores, batch_is_positive, binning_of
from clfeval.significance._paired import compare_counts

__all__ = ["compare_binned", "joint_of_batches", "compare_binned_batches"]


def compare_binned(joint: BinnedJoint, *, test: str = "bootstrap", samples: int = 10_000, seed: Any = None,
                   alpha: float = 0.05, ci: float = 0.95, names: Sequence[str] = ("a", "b"), positive: str = "1",
                   progress: Callable[[int, int], None] | None = None) -> Compared:
    """Is A's binned ROC-AUC higher than B's? A paired test on the joint (gold, bin A, bin B) table.

    Parameters
    ----------
    joint : BinnedJoint
        The items counted by (positive?, A's bin, B's bin), added up over every batch.
    test : {"bootstrap", "randomization"}
        Randomization needs A and B binned alike (it swaps their bins).

    Returns
    -------
    Compared
        Of kind ``pair``, as :func:`clfeval.significance._paired.compare` with ``metric="roc_auc"``;
        the notes say that the AUCs are binned, with their error bounds.

    Examples
    --------
    >>> import numpy as np
    >>> from clfeval.scores._binned import uniform_binning
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


def joint_of_batches(batches: Iterable[Any], binning_a: Binning, binning_b: Binning, *, positive: Any,
                     score: str = "scores") -> BinnedJoint:
    """The joint (gold positive?, bin of A, bin of B) table of matched batches (``gold``, ``preds`` = the two
    systems' score columns, item for item: :class:`clfeval.io._join.Aligned`), added batch by batch."""
    total: BinnedJoint | None = None
    positives = 0
    for b in batches:
        y = batch_is_positive(b.gold, positive)
        if y.size == 0:
            continue
        sa, sb = (as_scores(col, name=score, n=y.size) for col in b.preds[:2])
        part = BinnedJoint.of(binning_a, binning_b, y, sa, sb)
        positives += int(y.sum())
        total = part if total is None else total + part
    if total is None:
        raise DataError("there are no items to compare.")
    if positives == 0:
        raise DataError(lambda name: f"{name} names the label {label_str(positive)!r}, which does not occur in the "
                                     f"gold labels.", params=["positive"])
    return total


def compare_binned_batches(first_passes: Sequence[Iterable[Any]], batches: Iterable[Any], *, bins: int,
                           kind: str = "quantile", positive: Any, score: str = "scores", test: str = "bootstrap",
                           **settings: Any) -> Any:
    """Binned ROC-AUCs of two systems compared from streamed inputs, at any size.

    ``first_passes`` are the two systems' batches (a score column as ``pred``, rows
    named by ``where``), read once to cut each system's bins (one binning over
    both with ``test="randomization"``, which swaps bins); ``batches`` the
    matched items (:class:`clfeval.io._join.Aligned`). ``settings`` as
    :func:`compare_binned`.
    """
    if len(first_passes) != 2:
        raise UsageError(f"binned scores compare two systems at a time; got {len(first_passes)}.")

    def scores(batches: Iterable[Any]) -> Iterable[np.ndarray]:
        return (as_scores(b.pred, name=score, n=b.n, where=b.where) for b in batches)

    if test == "randomization":
        one = binning_of(itertools.chain(*(scores(fp) for fp in first_passes)), bins=bins, kind=kind)
        binnings = [one, one]
    else:
        binnings = [binning_of(scores(fp), bins=bins, kind=kind) for fp in first_passes]
    joint = joint_of_batches(batches, binnings[0], binnings[1], positive=positive, score=score)
    return compare_binned(joint, test=test, positive=label_str(positive), **settings)
