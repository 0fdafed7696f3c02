"""Gold labels encoded once, for the rankings, cuts and indicator matrices derived from them.

A report with scores needs the gold labels three ways: as the two labels a
cut decides between, as "is positive" for a ranking of one score column,
and as an (n, L) indicator for one-vs-rest rankings. :class:`EncodedGold`
holds them encoded once — from :func:`clfeval.core._labels.encode_pair` when the
predictions are given, or encoded here — and :func:`binary_gold`,
:func:`indicator_gold` and the cut of :mod:`clfeval.scores._curves` accept it in
place of the raw labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from clfeval.core._labels import encode_labels, encode_multilabel, label_str, resolve_label
from clfeval.errors import DataError

__all__ = ["EncodedGold", "binary_gold", "indicator_gold"]


@dataclass(frozen=True, eq=False)
class EncodedGold:
    """Gold labels, encoded.

    Single-label: ``codes`` holds each item's raw code and ``raw`` the label
    of each code (the raw code space may hold labels that occur only in the
    predictions). Multi-label: ``indicator`` is the (n, L) gold matrix over
    ``labels``.
    """

    codes: np.ndarray | None = None
    raw: tuple[Any, ...] = ()
    indicator: np.ndarray | None = None
    labels: tuple[Any, ...] = ()
    name: str = "gold"

    @classmethod
    def of(cls, gold: Any, *, multilabel: bool = False, sep: str = "|", name: str = "gold") -> EncodedGold:
        """Encode raw gold labels (an :class:`EncodedGold` is returned as it is)."""
        if isinstance(gold, EncodedGold):
            return gold
        if multilabel:
            enc = encode_multilabel(gold, [[]] * len(gold), sep=sep)
            return cls(indicator=enc.gold, labels=tuple(enc.labels), name=name)
        (codes,), _, raw = encode_labels([gold], (name,))
        return cls(codes=codes, raw=tuple(raw), name=name)

    @property
    def n(self) -> int:
        items = self.indicator if self.codes is None else self.codes
        assert items is not None, "an EncodedGold holds codes or an indicator"
        return int(items.shape[0])

    @cached_property
    def present(self) -> np.ndarray:
        """Raw codes that occur in gold, in code order (single-label)."""
        if self.codes is None:
            raise DataError(f"{self.name} holds label sets; one positive class needs single-label data.")
        return np.flatnonzero(np.bincount(self.codes, minlength=len(self.raw)) > 0)

    @property
    def occurring(self) -> list[Any]:
        """The labels that occur in gold (single-label), in code order."""
        return [self.raw[j] for j in self.present]

    def positive_code(self, positive: Any) -> int:
        """The raw code of ``positive``, which must occur in gold."""
        i = resolve_label(positive, self.occurring, option="positive", source=f"the {self.name} labels")
        return int(self.present[i])

    def is_positive(self, positive: Any) -> tuple[np.ndarray, str, list[str]]:
        """(``gold == positive`` per item, the positive's string form, the labels present)."""
        if self.codes is not None and self.codes.shape[0] == 0:
            raise DataError(f"{self.name} holds no items; a ranking needs at least one item.")
        code = self.positive_code(positive)
        assert self.codes is not None  # positive_code has refused label sets
        is_pos: np.ndarray = self.codes == code
        return is_pos, label_str(self.raw[code]), [label_str(x) for x in self.occurring]

    def over(self, score_labels: Sequence[Any], *, prefix: str = "") -> np.ndarray:
        """Gold as an (n, L) boolean matrix over the score columns' labels.

        A gold label without a score column is an error (its items could not
        be ranked); a score column whose label never occurs in gold is allowed.
        """
        ind: np.ndarray | None
        if self.codes is None:
            gold_labels, ind, n = list(self.labels), self.indicator, self.n
        else:
            present = self.present
            gold_labels = self.occurring
            n = self.n
            remap = np.full(len(self.raw), -1, dtype=np.intp)
            remap[present] = np.arange(present.size)
            ind = np.zeros((n, present.size), dtype=bool)
            if n:
                ind[np.arange(n), remap[self.codes]] = True
        assert ind is not None  # self.n above has checked that the gold holds codes or an indicator
        out = np.zeros((n, len(score_labels)), dtype=bool)
        used = set()
        for j, lab in enumerate(score_labels):
            try:
                i = resolve_label(lab, gold_labels, option="score column")
            except DataError:
                continue
            out[:, j] = ind[:, i]
            used.add(i)
        missing = [label_str(gold_labels[i]) for i in range(len(gold_labels)) if i not in used]
        if missing:
            shown = ", ".join(repr(f"{prefix}{m}") for m in missing[:20])
            raise DataError(f"gold labels {', '.join(map(repr, missing[:20]))} have no score column (expected columns "
                            f"{shown}); every gold label needs one score column to be ranked.")
        return out


def binary_gold(gold: Any, positive: Any, *, name: str = "gold") -> tuple[np.ndarray, str, list[str]]:
    """Gold labels (or :class:`EncodedGold`) → a boolean "is positive" array, the positive's string form and the labels
    present.

    Raises :class:`~clfeval.errors.DataError` when ``positive`` does not occur.

    >>> binary_gold(["a", "b", "a"], "a")[0].tolist()
    [True, False, True]
    """
    if isinstance(gold, np.ndarray) and gold.dtype == np.bool_ and gold.ndim == 1 and gold.size:
        occurring_b = [v for v in (False, True) if (gold.any() if v else not gold.all())]
        i = resolve_label(positive, occurring_b, option="positive", source=f"the {name} labels")
        y = gold if occurring_b[i] else ~gold
        return y, label_str(occurring_b[i]), [label_str(x) for x in occurring_b]
    return EncodedGold.of(gold, name=name).is_positive(positive)


def indicator_gold(gold: Any, score_labels: Sequence[Any], *, multilabel: bool, sep: str = "|",
                   prefix: str = "") -> np.ndarray:
    """Gold labels (or :class:`EncodedGold`) as an (n, L) boolean matrix over the score columns' labels.

    >>> indicator_gold(["a", "b"], ["a", "b"], multilabel=False).tolist()
    [[True, False], [False, True]]
    """
    return EncodedGold.of(gold, multilabel=multilabel, sep=sep).over(score_labels, prefix=prefix)
