"""Which classes a table or a figure shows: one rule for text, Markdown, HTML, figures and the notebook card.

A table shows every class up to :data:`TABLE_ALL` classes; a figure every class up to :data:`FIGURE_ALL`.
Beyond, a table shows the :data:`TOP` largest classes (by support) and the :data:`HARDEST` hardest ones (lowest
F1) not among them; a figure the :data:`TOP` largest, the hardest of them marked. The sentence of
:meth:`Shown.sentence` says so and points at ``--format json``, which always has every class.

The rule lives here, below the figures and the renderers, so that both apply the same one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["TABLE_ALL", "FIGURE_ALL", "TOP", "HARDEST", "Shown", "for_table", "for_figure", "from_per_class",
           "label_threshold_classes"]

#: A table shows every class up to this many.
TABLE_ALL = 50
#: A figure draws every class up to this many (and never more).
FIGURE_ALL = 20
#: Beyond those: the largest classes by support...
TOP = 20
#: ... and, in tables, the hardest classes (lowest F1) not among them.
HARDEST = 10


@dataclass(frozen=True)
class Shown:
    """The classes an output shows, in order, out of ``total``; ``marked``: the hardest of those drawn (figures)."""

    labels: tuple[str, ...]
    total: int
    marked: tuple[str, ...] = ()
    kind: str = "table"

    @property
    def partial(self) -> bool:
        return len(self.labels) < self.total

    def sentence(self) -> str | None:
        """What is left out and where it is, or None when every class is shown."""
        if not self.partial:
            return None
        if self.kind == "table":
            how = f"the {TOP} largest by support and the {len(self.labels) - min(TOP, self.total)} hardest (lowest F1)"
        else:
            how = f"the {len(self.labels)} largest by support" + (", the hardest of them marked" if self.marked else "")
        return (f"{len(self.labels)} of {self.total:,} classes shown: {how}; every class is in the output of "
                f"--format json.")


def _f1_key(f1: float | None) -> float:
    return math.inf if f1 is None or (isinstance(f1, float) and math.isnan(f1)) else float(f1)


def _largest(labels: Sequence[str], support: Mapping[str, float], n: int) -> list[str]:
    order = sorted(range(len(labels)), key=lambda i: -float(support.get(labels[i]) or 0))  # stable: ties in label order
    return [labels[i] for i in order[:n]]


def _hardest(labels: Sequence[str], support: Mapping[str, float], f1: Mapping[str, float | None], n: int,
             leave_out: Sequence[str] = ()) -> list[str]:
    skip = set(leave_out)
    cand = [lab for lab in labels if lab not in skip and float(support.get(lab) or 0) > 0]
    cand.sort(key=lambda lab: _f1_key(f1.get(lab)))
    return cand[:n]


def for_table(labels: Sequence[str], support: Mapping[str, float], f1: Mapping[str, float | None]) -> Shown:
    """The rows of a per-class table.

    >>> s = for_table([f"c{i}" for i in range(60)], {f"c{i}": 100 - i for i in range(60)},
    ...               {f"c{i}": i / 60 for i in range(60)})
    >>> len(s.labels), s.labels[:2], s.labels[20:22], s.partial
    (30, ('c0', 'c1'), ('c20', 'c21'), True)
    """
    labels = [str(x) for x in labels]
    if len(labels) <= TABLE_ALL:
        return Shown(tuple(labels), len(labels))
    top = _largest(labels, support, TOP)
    return Shown(tuple(top + _hardest(labels, support, f1, HARDEST, top)), len(labels))


def for_figure(labels: Sequence[str], support: Mapping[str, float],
               f1: Mapping[str, float | None] | None = None) -> Shown:
    """The classes a figure draws (at most :data:`FIGURE_ALL`), in the given label order; beyond, the largest
    by support, the hardest of them (lowest F1) marked.

    >>> s = for_figure([f"c{i}" for i in range(30)], {f"c{i}": i for i in range(30)},
    ...                {f"c{i}": 1 - i / 30 for i in range(30)})
    >>> len(s.labels), s.labels[0], s.marked
    (20, 'c10', ('c29',))
    """
    labels = [str(x) for x in labels]
    if len(labels) <= FIGURE_ALL:
        return Shown(tuple(labels), len(labels), kind="figure")
    top = set(_largest(labels, support, TOP))
    chosen = [lab for lab in labels if lab in top]
    marked = tuple(_hardest(chosen, support, f1, 1)) if f1 else ()
    return Shown(tuple(chosen), len(labels), marked, kind="figure")


def from_per_class(labels: Sequence[Any], per_class: Mapping[str, Mapping[str, Any]], *, figure: bool = False,
                   support_key: str = "support", f1_key: str = "f1") -> Shown:
    """:func:`for_table` / :func:`for_figure` of a result's ``per_class`` dict (support and F1 read from it)."""
    labels = [str(x) for x in labels]
    sup = {lab: (per_class.get(lab) or {}).get(support_key) or 0 for lab in labels}
    f1_read = {lab: (per_class.get(lab) or {}).get(f1_key) for lab in labels}
    f1: dict[str, float] = {k: (math.nan if v is None else v) for k, v in f1_read.items()}
    return for_figure(labels, sup, f1) if figure else for_table(labels, sup, f1)


def label_threshold_classes(d: Mapping[str, Any], *, figure: bool = False) -> Shown:
    """The labels of a multi-label threshold choice (its ``to_dict()``) a table or figure shows: support = the
    test positives (TP + FN at the default cut), hardest = the lowest F1 at the default cut."""
    per = d["per_label"]
    labels = [str(x) for x in (d.get("labels") or per)]
    sup = {lab: per[lab]["default"]["tp"] + per[lab]["default"]["fn"] for lab in labels}
    f1 = {lab: per[lab]["default"]["f1"] for lab in labels}
    f1 = {k: (math.nan if v is None else v) for k, v in f1.items()}
    return for_figure(labels, sup, f1) if figure else for_table(labels, sup, f1)
