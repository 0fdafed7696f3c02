"""Midrank counts: for every item, the number of items of the other class scored below it (ties ½).

These are DeLong's structural components before division (Sun & Xu 2014):
with the items laid out positives first (:func:`positives_first`), a
positive's count is #{negatives below} + ½·#{negatives tied} and a
negative's the same count of positives (:func:`below_counts`). Two ways to
get them, chosen by the data:

* **a sort** (:func:`sort_order`): ``np.argsort`` on small inputs; on large
  ones a plain ``np.sort`` of int64 keys that hold each score's order in
  their top bits and the item's label in their low bits (several times
  faster than ``np.argsort``), with the few keys whose top bits collide
  re-sorted by value;
* **heavy ties, no sort**: when a sample of the scores shows few distinct
  values (rounded scores, a handful of levels), the scores are hashed into
  their distinct values (pyarrow's ``dictionary_encode``, one pass), only the
  distinct values are sorted, and the counts per class and value
  (``np.bincount``) give every item's count by cumulative sums: O(N + U log U)
  for U distinct values, instead of a sort of N keys.

Both are exact: counts are integers (scaled by 2 when there are ties) and
tests check them against the O(m·n) double sum.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PACKED_MIN", "TIES_MIN", "positives_first", "sort_order", "below_counts", "tie_groups"]

#: Above this many items the packed-key sort is used instead of ``np.argsort``.
PACKED_MIN = 1 << 15
#: From this many items on, a sample of the scores is looked at for heavy ties (the no-sort path).
TIES_MIN = 1 << 15
#: Sample size for the tie check, and the share of distinct values in it below which ties are heavy.
_SAMPLE = 1 << 16
_HEAVY = 0.5
#: The no-sort path is kept only while the distinct values are at most this share of the items.
_MOST_DISTINCT = 0.25


def positives_first(y: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(labels, items, m): item i gets label ``labels[i]`` — positives 0..m−1 and negatives m..N−1, each
    class in item order — and ``items[j]`` is the item with label j."""
    m = int(np.count_nonzero(y))
    items = np.concatenate([np.flatnonzero(y), np.flatnonzero(~y)])
    cp = np.cumsum(y, dtype=np.int64)
    labels = np.where(y, cp - 1, m + np.arange(y.shape[0], dtype=np.int64) - cp)
    return labels, items, m


def sort_order(s: np.ndarray, labels: np.ndarray, items: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(order, starts): the labels of the items in ascending order of score, and the tie groups.

    ``s`` holds the scores in item order, ``labels`` a permutation of 0..N−1 and
    ``items`` its inverse. ``starts`` flags the sorted positions that begin a
    group of equal scores (None when every score is distinct).

    Large inputs: each score's bits are mapped to an int64 of the same order,
    its low ⌈log2 N⌉ bits are replaced by the item's label and the keys are
    sorted with ``np.sort`` (much faster than ``np.argsort``). Items whose
    remaining top bits agree — equal scores, or distinct scores closer than
    about 2^-(52 - log2 N) relative — are the only ones whose values are read
    again: a run of them that is out of order is re-sorted by value. Equal
    scores keep any order.
    """
    n = s.shape[0]
    if n < PACKED_MIN:
        sv = s[items]
        order = np.argsort(sv, kind="stable")
        sv = sv[order]
        if n > 1 and np.any(sv[1:] == sv[:-1]):
            starts = np.empty(n, dtype=bool)
            starts[0] = True
            np.not_equal(sv[1:], sv[:-1], out=starts[1:])
            return order, starts
        return order, None
    k = int(n - 1).bit_length()
    key = (s + 0.0).view(np.int64)  # a copy, with -0.0 made +0.0 (they tie)
    tmp = key >> 63
    tmp &= np.int64(0x7FFFFFFFFFFFFFFF)
    key ^= tmp  # negative floats: flip the magnitude bits, so integer order = float order
    key >>= k
    key <<= k
    key |= labels
    key.sort()
    order = np.bitwise_and(key, np.int64((1 << k) - 1), out=tmp)
    key >>= k  # the top bits alone
    near = np.flatnonzero(key[1:] == key[:-1])  # sorted positions p and p + 1 share their top bits
    if near.size == 0:
        return order, None
    sl = s[items]  # scores in label order (two increasing runs of items: a cheap gather)
    if near.size > n // 8:  # many ties: read every value once
        sv = sl[order]
        v0, v1 = sv[near], sv[near + 1]
    else:
        v0, v1 = sl[order[near]], sl[order[near + 1]]
    bad = near[v1 < v0]
    if bad.size:
        lo = np.searchsorted(key, key[bad], side="left")
        hi = np.searchsorted(key, key[bad], side="right")
        lo, first = np.unique(lo, return_index=True)
        sizes = hi[first] - lo
        pos = np.repeat(lo - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        sub = order[pos]
        order[pos] = sub[np.lexsort((sl[sub], key[pos]))]
        v0, v1 = sl[order[near]], sl[order[near + 1]]
    tied = near[v0 == v1]
    if tied.size == 0:
        return order, None
    starts = np.ones(n, dtype=bool)
    starts[tied + 1] = False
    return order, starts


def below_counts(s: np.ndarray, layout: tuple[np.ndarray, np.ndarray, int]) -> tuple[np.ndarray, int]:
    """Per item, in label order (positives first), the number of other-class items scored below it.

    Returned as integers ``c`` with a scale ``h`` (1, or 2 when there are
    ties): a positive has ``c / h`` = #{negatives below} + ½·#{negatives
    tied}, a negative the same count of positives. Integers, so sums are exact.
    """
    labels, items, m = layout
    n = s.shape[0]
    if n >= TIES_MIN:
        ranks = tie_groups(s)
        if ranks is not None:
            return _below_tied(ranks, layout)
    itype = np.int32 if n < (1 << 30) else np.int64
    order, starts = sort_order(s, labels, items)
    yo = order < m
    cneg = np.cumsum(~yo, dtype=itype)  # negatives at or before each sorted position
    cpos = np.arange(1, n + 1, dtype=itype)
    cpos -= cneg
    if starts is None:
        val, scale = np.where(yo, cneg, cpos), 1
    else:
        gs = np.flatnonzero(starts)
        ge = np.append(gs[1:], n) - 1
        sizes = ge - gs + 1
        neg_before = cneg[gs] - (~yo[gs])
        pos_before = cpos[gs] - yo[gs]
        twice_neg = np.repeat(2 * neg_before + (cneg[ge] - neg_before), sizes)
        twice_pos = np.repeat(2 * pos_before + (cpos[ge] - pos_before), sizes)
        val, scale = np.where(yo, twice_neg, twice_pos), 2
    out = np.empty(n, dtype=itype)
    out[order] = val
    return out, scale


def tie_groups(s: np.ndarray) -> np.ndarray | None:
    """The dense rank of each score among the distinct scores (ties share a rank), or None when ties are not heavy.

    A strided sample of the scores decides: when under half of it is distinct,
    the scores are hashed into their distinct values (one pass), only those
    are sorted, and each item gets the rank of its value; -0.0 and 0.0 tie.
    None also when the whole column turns out to have more than a quarter of
    its items distinct (the sort is then faster).

    >>> tie_groups(np.array([0.5, 0.1, 0.5, -0.0, 0.0, 0.1] * 6000)).tolist()[:6]
    [2, 1, 2, 0, 0, 1]
    """
    n = s.shape[0]
    sample = s[:: max(1, n // _SAMPLE)]
    if np.unique(sample).size > _HEAVY * sample.size:
        return None
    import pyarrow as pa
    import pyarrow.compute as pc

    enc = pc.dictionary_encode(pa.array(s))
    values = enc.dictionary.to_numpy(zero_copy_only=False)
    if values.size > _MOST_DISTINCT * n:
        return None
    order = np.argsort(values, kind="stable")
    sv = values[order]
    step = np.zeros(values.size, dtype=np.int64)
    step[1:] = sv[1:] != sv[:-1]  # a new rank where the sorted value changes (-0.0 == 0.0: one rank)
    dense = np.empty(values.size, dtype=np.int64)
    dense[order] = np.cumsum(step)
    codes = enc.indices.to_numpy(zero_copy_only=False)
    return dense[codes]


def _below_tied(ranks: np.ndarray, layout: tuple[np.ndarray, np.ndarray, int]) -> tuple[np.ndarray, int]:
    """:func:`below_counts` from dense ranks: per value, the items of each class; cumulative sums below."""
    _, items, m = layout
    n = ranks.shape[0]
    itype: type[np.signedinteger] = np.int32 if n < (1 << 30) else np.int64
    r = ranks[items]  # label order: positives first
    size = int(r.max()) + 1 if n else 0
    pos = np.bincount(r[:m], minlength=size).astype(itype)
    neg = np.bincount(r[m:], minlength=size).astype(itype)
    twice_neg = 2 * (np.cumsum(neg, dtype=itype) - neg) + neg  # 2·#{negatives below} + #{negatives tied}
    twice_pos = 2 * (np.cumsum(pos, dtype=itype) - pos) + pos
    return np.concatenate([twice_neg[r[:m]], twice_pos[r[m:]]]), 2
