"""Data splits: holdout, train/validation/test, k-fold — stratified, repeated, multi-label.

The protocols of :mod:`clfeval.protocols._api`, as index arrays, on scikit-learn's
splitters where they exist:

* holdout and stratified holdout (``ShuffleSplit`` / ``StratifiedShuffleSplit``),
* train / validation / test (two such splits in a row),
* repeated (stratified) holdout — R independent random splits,
* k-fold, stratified k-fold and repeated (stratified) k-fold
  (``RepeatedKFold`` / ``RepeatedStratifiedKFold``),
* multi-label data: iterative stratification (Sechidis, Tsoumakas &
  Vlahavas 2011), implemented here (:func:`iterative_stratification`).

Why not the ``iterative-stratification`` package: it implements the same
algorithm, but subclasses private scikit-learn classes
(``model_selection._split._BaseKFold``, ``_RepeatedSplits``,
``_validate_shuffle_split``), which broke it once already on a scikit-learn
signature change, and it draws from a legacy ``RandomState``. The algorithm
is short; the tests here use the package as a reference for the quality of
the folds (label-distribution deviation), not as a dependency.

Every random choice derives from one ``seed``: the same seed gives the same
splits. Asking stratification for more than the data allow (more folds than
a class has items) is refused with the class and its count.

References
----------
* Kohavi (1995), "A study of cross-validation and bootstrap for accuracy
  estimation and model selection".
* Sechidis, Tsoumakas & Vlahavas (2011), "On the stratification of
  multi-label data", ECML PKDD.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.core import check_positive_int, check_probability, check_rng, encode_labels, encode_multilabel, label_str
from clfeval.errors import DataError, UsageError

__all__ = ["Protocol", "Fold", "split", "iterative_stratification", "check_seed", "derived_seed"]




@dataclass(frozen=True)
class Protocol:
    """How items are split into training and test parts.

    Parameters
    ----------
    kind : {"kfold", "holdout"}
    folds : int
        k of k-fold cross-validation (≥ 2); 1 for holdout.
    repeats : int
        Independent repetitions with different random splits.
    stratified : bool
        Keep the class proportions in every part (multi-label data:
        iterative stratification).
    test_size : float
        Holdout: the share of items in the test part.
    val_size : float
        Holdout: the share of items in a validation part (0 = none), taken
        from the items outside the test part.

    Examples
    --------
    >>> Protocol.kfold(10, stratified=True).describe()
    'stratified 10-fold cross-validation'
    >>> Protocol.holdout(0.15, val_size=0.15, repeats=5).describe()
    'train/validation/test holdout (70/15/15 %), repeated 5 times'
    """

    kind: str
    folds: int = 10
    repeats: int = 1
    stratified: bool = False
    test_size: float = 0.2
    val_size: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("kfold", "holdout"):
            raise UsageError(f"protocol kind must be 'kfold' or 'holdout'; got {self.kind!r}.")
        check_positive_int(self.repeats, option="repeats")
        if self.kind == "kfold":
            check_positive_int(self.folds, option="folds", minimum=2)
        else:
            object.__setattr__(self, "folds", 1)
            t = check_probability(self.test_size, option="test_size")
            v = check_probability(self.val_size, option="val_size", open_interval=False)
            if v >= 1.0 or t + v >= 1.0:
                raise UsageError(lambda a, b: f"{a} ({t:g}) and {b} ({v:g}) must leave items for training: their "
                                              f"sum must be below 1.", params=["test_size", "val_size"])
            object.__setattr__(self, "test_size", t)
            object.__setattr__(self, "val_size", v)

    @classmethod
    def kfold(cls, folds: int = 10, *, stratified: bool = False, repeats: int = 1) -> Protocol:
        """k-fold cross-validation (stratified and/or repeated)."""
        return cls("kfold", folds=folds, repeats=repeats, stratified=stratified)

    @classmethod
    def holdout(cls, test_size: float = 0.2, *, val_size: float = 0.0, stratified: bool = False,
                repeats: int = 1) -> Protocol:
        """A random train/test (or train/validation/test) split, optionally repeated."""
        return cls("holdout", repeats=repeats, stratified=stratified, test_size=test_size, val_size=val_size)

    def describe(self) -> str:
        """The protocol in words."""
        strat = "stratified " if self.stratified else ""
        if self.kind == "kfold":
            text = f"{strat}{self.folds}-fold cross-validation"
        else:
            t, v = self.test_size, self.val_size
            if v:
                pct = f"{_pct(1 - t - v)}/{_pct(v)}/{_pct(t)} %"
                text = f"{strat}train/validation/test holdout ({pct})"
            else:
                text = f"{strat}holdout ({_pct(1 - t)}/{_pct(t)} %)"
        if self.repeats > 1:
            text += f", repeated {self.repeats} times"
        return text

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        if self.kind == "kfold":
            out.pop("test_size")
            out.pop("val_size")
        out["description"] = self.describe()
        return out


def _pct(x: float) -> str:
    return f"{100 * x:.4g}"


@dataclass(frozen=True, eq=False)
class Fold:
    """One training/test split. ``repeat`` and ``fold`` count from 1.

    ``validation`` holds the validation items of a train/validation/test
    holdout (else None). Index arrays are positions into the data.
    """

    repeat: int
    fold: int
    train: np.ndarray
    test: np.ndarray
    validation: np.ndarray | None = None


def derived_seed(seed: int, *keys: int) -> int:
    """A 32-bit seed for scikit-learn derived from the user's seed and a position."""
    return int(np.random.SeedSequence([seed, *keys]).generate_state(1)[0])


def check_seed(seed: Any) -> int:
    """The seed of a protocol: an integer >= 0 (named ``seed`` in the message otherwise)."""
    return check_positive_int(seed, option="seed", minimum=0)


def _class_counts(y: Any) -> tuple[np.ndarray, list[Any], np.ndarray]:
    (codes,), r, raw = encode_labels([y], ("label",))
    counts = np.bincount(codes, minlength=r)
    return np.asarray(codes), list(raw), counts


def _refuse_small_classes(raw: list[Any], counts: np.ndarray, need: int, why: str, hint: str = "") -> None:
    present = np.flatnonzero(counts > 0)
    small = [j for j in present if counts[j] < need]
    if small:
        j = min(small, key=lambda i: counts[i])
        others = ""
        if len(small) > 1:
            others = " (also " + ", ".join(f"{label_str(raw[i])!r}: {counts[i]}" for i in small if i != j)[:300] + ")"
        raise DataError(f"{why}; class {label_str(raw[j])!r} has only {counts[j]} item{'s' if counts[j] != 1 else ''}"
                        f"{others}.{hint.format(n=counts[j])}")


def iterative_stratification(Y: np.ndarray, proportions: Sequence[float], *, seed: Any = 0) -> np.ndarray:
    """Assign multi-label items to subsets so that every label keeps its proportions.

    Sechidis et al.'s algorithm: each subset j wants ``r_j · n`` items and
    ``r_j · n_l`` positives of every label l. Repeatedly take the label with
    the fewest positives not yet assigned (ties at random), and give each of
    its unassigned items to the subset that still wants the most positives
    of that label (ties: the subset that wants the most items, then at
    random); every assignment lowers the wants of that subset for all of
    the item's labels. Items without any label go last, each to the subset
    that wants the most items. Rare labels are therefore spread first, when
    the choice is still free.

    Parameters
    ----------
    Y : array (n, L) of bool
        Label indicators.
    proportions : sequence of float
        Share of items per subset (normalised to sum 1).
    seed : int or numpy Generator

    Returns
    -------
    array (n,) of int
        The subset of every item.

    References
    ----------
    Sechidis, Tsoumakas & Vlahavas (2011), "On the stratification of
    multi-label data", ECML PKDD, Algorithm 1.

    Examples
    --------
    Four items carry the rare label (column 0): with four subsets each gets one.

    >>> Y = np.array([[1, 0]] * 4 + [[0, 1]] * 8, dtype=bool)
    >>> s = iterative_stratification(Y, [0.25] * 4, seed=0)
    >>> np.bincount(s[:4], minlength=4).tolist(), np.bincount(s, minlength=4).tolist()
    ([1, 1, 1, 1], [3, 3, 3, 3])
    """
    rng = check_rng(seed)
    Y = np.asarray(Y, dtype=bool)
    if Y.ndim != 2:
        raise DataError(f"iterative stratification needs an indicator matrix (n, L); got shape {Y.shape}.")
    r = np.asarray(proportions, dtype=np.float64)
    if r.ndim != 1 or r.size < 2 or np.any(r < 0) or r.sum() <= 0:
        raise UsageError(f"proportions must be at least two non-negative shares; got {list(proportions)!r}.")
    r = r / r.sum()
    n, n_labels = Y.shape
    order = rng.permutation(n)  # items of a label are visited in a random order
    Yo = Y[order]
    want_items = r * n
    want_labels = np.outer(r, Yo.sum(axis=0)).astype(np.float64)  # (k, L)
    remaining = Yo.sum(axis=0).astype(np.int64)
    subset = np.full(n, -1, dtype=np.intp)
    label_lists = [np.flatnonzero(Yo[:, j]) for j in range(n_labels)]
    item_labels = [np.flatnonzero(row) for row in Yo]

    def pick(candidates: np.ndarray) -> int:
        return int(candidates[0]) if candidates.size == 1 else int(candidates[rng.integers(candidates.size)])

    while True:
        live = np.flatnonzero(remaining > 0)
        if live.size == 0:
            break
        fewest = remaining[live].min()
        label = pick(live[remaining[live] == fewest])
        for i in label_lists[label]:
            if subset[i] >= 0:
                continue
            wl = want_labels[:, label]
            best = np.flatnonzero(wl == wl.max())
            if best.size > 1:
                wi = want_items[best]
                best = best[wi == wi.max()]
            j = pick(best)
            subset[i] = j
            labs = item_labels[i]
            want_labels[j, labs] -= 1
            want_items[j] -= 1
            remaining[labs] -= 1
    for i in np.flatnonzero(subset < 0):
        j = pick(np.flatnonzero(want_items == want_items.max()))
        subset[i] = j
        want_items[j] -= 1
    out = np.empty(n, dtype=np.intp)
    out[order] = subset
    return out


def split(protocol: Protocol, y: Any, *, seed: int, multilabel: bool = False, sep: str = "|") -> list[Fold]:
    """The training/test splits of a protocol, reproducible from ``seed``.

    Parameters
    ----------
    protocol : Protocol
    y : sequence
        One label per item (single-label), or with ``multilabel=True`` one
        label set per item (lists, or strings separated by ``sep``), or an
        indicator matrix (n, L).
    seed : int
        Every random choice derives from it: the same seed gives the same
        splits.

    Returns
    -------
    list of Fold
        In order: repeat 1 folds 1..k, repeat 2, ...

    Raises
    ------
    DataError
        Stratification asks for more than the data allow: stratified k-fold
        needs k items of every class; a stratified holdout needs two items
        of every class (one for each side) and a test (and training) part
        with room for every class.

    Examples
    --------
    >>> folds = split(Protocol.kfold(3, stratified=True), ["a"] * 6 + ["b"] * 3, seed=0)
    >>> [(f.fold, len(f.test)) for f in folds]
    [(1, 3), (2, 3), (3, 3)]
    >>> sorted(np.concatenate([f.test for f in folds]).tolist()) == list(range(9))
    True
    """
    seed = check_seed(seed)
    Y = _indicators(y, sep) if multilabel else None
    n = Y.shape[0] if Y is not None else len(y)
    if protocol.kind == "kfold":
        return _kfold_splits(protocol, y, Y, n, seed)
    return _holdout_splits(protocol, y, Y, n, seed)


def _indicators(y: Any, sep: str) -> np.ndarray:
    if isinstance(y, np.ndarray) and y.ndim == 2:
        return y.astype(bool)
    enc = encode_multilabel(y, [[]] * len(y), sep=sep, names=("labels", "labels"))
    return enc.gold


def _kfold_splits(p: Protocol, y: Any, Y: np.ndarray | None, n: int, seed: int) -> list[Fold]:
    from sklearn.model_selection import RepeatedKFold, RepeatedStratifiedKFold

    k = p.folds
    if n < k:
        raise DataError(f"{k}-fold cross-validation needs at least {k} items, one per test fold; the data have {n}.")
    out: list[Fold] = []
    if p.stratified and Y is not None:
        for r in range(p.repeats):
            s = iterative_stratification(Y, [1.0 / k] * k, seed=np.random.default_rng([seed, r]))
            for j in range(k):
                out.append(Fold(r + 1, j + 1, np.flatnonzero(s != j), np.flatnonzero(s == j)))
        return out
    if p.stratified:
        codes, raw, counts = _class_counts(y)
        _refuse_small_classes(raw, counts, k,
                              f"stratified {k}-fold cross-validation needs at least {k} items of every class "
                              f"(one in each test fold)",
                              " Use {n} folds or fewer (--folds {n}), merge or drop the class, or leave out "
                              "stratification.")
        splitter: Any = RepeatedStratifiedKFold(n_splits=k, n_repeats=p.repeats, random_state=seed)
        pieces = splitter.split(np.zeros(n), codes)
    else:
        splitter = RepeatedKFold(n_splits=k, n_repeats=p.repeats, random_state=seed)
        pieces = splitter.split(np.zeros(n))
    for i, (tr, te) in enumerate(pieces):
        out.append(Fold(i // k + 1, i % k + 1, np.sort(tr), np.sort(te)))
    return out


def _holdout_splits(p: Protocol, y: Any, Y: np.ndarray | None, n: int, seed: int) -> list[Fold]:
    from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit

    t, v = p.test_size, p.val_size
    n_test = math.ceil(t * n)
    n_val = math.ceil(v * n) if v else 0
    if n_test < 1 or n - n_test - n_val < 1:
        raise DataError(f"a holdout with test_size {t:g} and val_size {v:g} of {n} items leaves an empty part; "
                        f"use more items or other sizes.")
    out: list[Fold] = []
    if p.stratified and Y is not None:
        for r in range(p.repeats):
            s = iterative_stratification(Y, [1.0 - t - v, v, t] if v else [1.0 - t, t],
                                         seed=np.random.default_rng([seed, r]))
            test = np.flatnonzero(s == (2 if v else 1))
            val = np.flatnonzero(s == 1) if v else None
            out.append(Fold(r + 1, 1, np.flatnonzero(s == 0), test, val))
        return out
    codes = None
    if p.stratified:
        codes, raw, counts = _class_counts(y)
        k = int(np.count_nonzero(counts))
        _refuse_small_classes(raw, counts, 3 if v else 2,
                              "a stratified holdout needs at least " + ("3 items of every class (training, validation "
                                                                       "and test)" if v else "2 items of every class "
                                                                       "(one for training, one for testing)"))
        if n_test < k or (v and n_val < k):
            part = "test" if n_test < k else "validation"
            size = n_test if n_test < k else n_val
            raise DataError(f"a stratified holdout needs room for each of the {k} classes in the {part} part, "
                            f"which holds only {size} items; raise its size or leave out stratification.")
    for r in range(p.repeats):
        if codes is not None:
            outer: Any = StratifiedShuffleSplit(n_splits=1, test_size=n_test, random_state=derived_seed(seed, r, 0))
            tr, te = next(outer.split(np.zeros(n), codes))
        else:
            tr, te = next(ShuffleSplit(n_splits=1, test_size=n_test,
                                       random_state=derived_seed(seed, r, 0)).split(np.zeros(n)))
        val = None
        if v:
            if codes is not None:
                inner: Any = StratifiedShuffleSplit(n_splits=1, test_size=n_val, random_state=derived_seed(seed, r, 1))
                a, b = next(inner.split(np.zeros(tr.size), codes[tr]))
            else:
                a, b = next(ShuffleSplit(n_splits=1, test_size=n_val,
                                         random_state=derived_seed(seed, r, 1)).split(np.zeros(tr.size)))
            tr, val = tr[a], np.sort(tr[b])
        out.append(Fold(r + 1, 1, np.sort(tr), np.sort(te), val))
    return out
