"""The result of ``clfeval.label_issues``: :class:`LabelIssues`, the likely label errors of a data set by
confident learning (Northcutt, Jiang & Chuang 2021), with every number of the rule that found them.

Frozen all the way down; ``to_dict()`` is the JSON of ``clfeval label-issues`` (the rule in words with the paper's
equations, the thresholds, the confident joint, the calibrated joint, the noise matrix, the estimated number of
errors, the flagged items and the signature), ``to_frame()`` one row per flagged item.

>>> r = LabelIssues(labels=["a", "b"], n=2, n_given=[1, 1], thresholds=[1.0, 1.0], confident_joint=[[1, 0], [0, 1]],
...                 calibrated_joint=[[1.0, 0.0], [0.0, 1.0]], joint=[[0.5, 0.0], [0.0, 0.5]],
...                 noise_matrix=[[1.0, 0.0], [0.0, 1.0]], cells=[], estimated_errors=0, flagged=[],
...                 rank_by="self_confidence")
>>> r.estimated_errors, r.to_dict()["rule"]["method"]
(0, 'prune by noise rate')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clfeval.core import Display, EngineInfo, FrozenDict, FrozenList, freeze, number, thaw

__all__ = ["LabelIssues", "FlaggedItem", "RULE", "REFERENCE", "TIES", "ROUNDING", "ZERO_DIVISION"]

REFERENCE = ("Northcutt, Jiang & Chuang (2021), 'Confident learning: estimating uncertainty in dataset labels', "
             "Journal of Artificial Intelligence Research 70, 1373-1411")
#: The rule in words, with the paper's equations, one entry a step (the JSON's ``rule.steps``).
RULE = (
    "thresholds: t_j = (1 / n_j) * sum over the items x given label j of p(j | x), the mean self-confidence of the "
    "n_j items given label j (summed exactly and compared exactly: p(j | x) * n_j >= the sum); undefined for a "
    "label no item is given",
    "confident joint: an item x given label i counts in C[i][j] for the j with the largest p(j | x) among the "
    "classes with p(j | x) >= t_j; an item at or above no threshold is not counted",
    "calibrated joint: C~[i][j] = C[i][j] / sum_j' C[i][j'] * n_i (a row with no count stays 0); the joint "
    "Q = C~ / sum C~",
    "noise matrix: P(given = i | true = j) = Q[i][j] / sum_i' Q[i'][j]",
    "label errors in cell (i, j), i != j: round(n * Q[i][j]); the estimated number of label errors is their sum",
    "prune by noise rate: in every cell (i, j), i != j, the round(n * Q[i][j]) items given label i with the "
    "largest margin p(j | x) - p(i | x) are flagged, suggested label j",
)
TIES = ("equal probabilities in the confident joint: the lower class index (the order of the probability columns); "
        "equal margins in a cell: the smaller id, then the earlier row; an item flagged by two cells is flagged "
        "once, with the suggested label of the cell where its margin is largest (equal: the lower class); equal "
        "ranking values: the smaller id, then the earlier row")
ROUNDING = ("round(n * Q[i][j]) is rounded half up, computed exactly in integers (n * Q[i][j] = n * n_i * C[i][j] / "
            "(sum_j' C[i][j'] * S), S the items given a label whose row of C counts), and at most n_i")
ZERO_DIVISION = ("0/0: a label no item is given has no threshold (nothing is counted in its column); a row of C "
                 "with no count stays 0 in C~ and Q; a column of Q that sums to 0 (a class no item is confidently "
                 "in) leaves its column of the noise matrix undefined (null)")


def _frozen(obj: Any, *names: str) -> None:
    for name in names:
        object.__setattr__(obj, name, freeze(getattr(obj, name)))


@dataclass(frozen=True)
class FlaggedItem:
    """One likely label error.

    Attributes
    ----------
    row : int
        Its 0-based position in the input.
    id : str, int or None
        Its id (None without an id column).
    given : str
        The label it is given (the gold label).
    suggested : str
        The label of the cell that flagged it (its likely true label).
    self_confidence : float
        p̂_ỹ(x): the probability of its given label.
    normalized_margin : float
        p̂_ỹ(x) − max_{j≠ỹ} p̂_j(x) (negative: another class is more probable than the given one).
    """

    row: int
    id: str | int | None
    given: str
    suggested: str
    self_confidence: float
    normalized_margin: float

    def to_dict(self) -> dict[str, object]:
        return {"row": self.row, "id": self.id, "given": self.given, "suggested": self.suggested,
                "self_confidence": number(self.self_confidence), "normalized_margin": number(self.normalized_margin)}


@dataclass(frozen=True)
class LabelIssues(Display):
    """Likely label errors by confident learning (prune by noise rate), and the rule's numbers.

    Attributes
    ----------
    labels : sequence of str
        The classes, in the order of the probability columns (the rows and columns of every matrix).
    n : int
        Items.
    n_given : sequence of int
        n_i: the items given each label.
    thresholds : sequence of float or None
        t_j, the mean self-confidence of the items given label j (None: no item is given it).
    confident_joint : sequence of sequences of int
        C_ij (rows: the given label, columns: the likely true label).
    calibrated_joint : sequence of sequences of float
        C̃_ij = C_ij / Σ_j C_ij · n_i.
    joint : sequence of sequences of float
        Q = C̃ / Σ C̃.
    noise_matrix : sequence of sequences of float or None
        P(ỹ=i | y*=j) = Q_ij / Σ_i Q_ij (None in a column no item is confidently in).
    cells : sequence of mappings
        Per off-diagonal cell with a count: ``given``, ``suggested``, ``count`` (round(n·Q_ij)) and ``flagged``
        (the items the cell flags, before an item flagged by two cells is kept in one).
    estimated_errors : int
        Σ_{i≠j} round(n·Q_ij).
    flagged : sequence of FlaggedItem
        The flagged items, ranked by ``rank_by`` ascending (ties: id, then row).
    rank_by : str
        ``self_confidence`` or ``normalized_margin``.
    undefined : sequence of mappings
        What is undefined (``field``) and why (``reason``).
    notes : sequence of str
        What the numbers assume.
    signature : mapping
        Version, settings and library versions (no seed: nothing is random).
    engine : EngineInfo or None
        Where it ran (the front door's engine block).
    """

    labels: Sequence[str]
    n: int
    n_given: Sequence[int]
    thresholds: Sequence[float | None]
    confident_joint: Sequence[Sequence[int]]
    calibrated_joint: Sequence[Sequence[float]]
    joint: Sequence[Sequence[float]]
    noise_matrix: Sequence[Sequence[float | None]]
    cells: Sequence[Mapping[str, str | int]]
    estimated_errors: int
    flagged: Sequence[FlaggedItem]
    rank_by: str
    undefined: Sequence[Mapping[str, str]] = field(default_factory=FrozenList)
    notes: Sequence[str] = field(default_factory=FrozenList)
    signature: Mapping[str, object] = field(default_factory=FrozenDict)
    engine: EngineInfo | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "flagged", tuple(self.flagged))
        _frozen(self, "labels", "n_given", "thresholds", "confident_joint", "calibrated_joint", "joint",
                "noise_matrix", "cells", "undefined", "notes", "signature")
        if self.engine is not None and not isinstance(self.engine, EngineInfo):
            object.__setattr__(self, "engine", EngineInfo.of(self.engine))

    @property
    def n_flagged(self) -> int:
        """The number of flagged items."""
        return len(self.flagged)

    def rule(self) -> dict[str, Any]:
        """The rule as the JSON states it: method, reference, steps, ties, rounding."""
        return {"method": "prune by noise rate", "reference": REFERENCE, "steps": list(RULE), "ties": TIES,
                "rounding": ROUNDING, "ranking": f"flagged items by {self.rank_by.replace('_', ' ')}, ascending "
                                                 f"(self-confidence p(given | x); normalized margin p(given | x) - "
                                                 f"max over other j of p(j | x))"}

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``clfeval label-issues``."""
        def grid(m: Sequence[Sequence[Any]]) -> list[list[Any]]:
            return [[number(v) for v in row] for row in m]

        return {"n": self.n, "labels": list(self.labels), "rule": self.rule(),
                "n_given": dict(zip(self.labels, self.n_given, strict=True)),
                "thresholds": {lab: number(t) for lab, t in zip(self.labels, self.thresholds, strict=True)},
                "confident_joint": [list(r) for r in self.confident_joint],
                "calibrated_joint": grid(self.calibrated_joint), "joint": grid(self.joint),
                "noise_matrix": grid(self.noise_matrix), "cells": [dict(c) for c in self.cells],
                "estimated_errors": self.estimated_errors, "n_flagged": self.n_flagged,
                "flagged": [f.to_dict() for f in self.flagged], "zero_division": ZERO_DIVISION,
                "undefined": [dict(u) for u in self.undefined], "notes": list(self.notes),
                "signature": thaw(self.signature)}

    def to_frame(self) -> Any:
        """One row per flagged item, in the ranking's order. Columns (``FRAME_COLUMNS['LabelIssues']`` of
        :mod:`clfeval.render._frames`): ``rank``, ``row``, ``id``, ``given``, ``suggested``, ``self_confidence``,
        ``normalized_margin`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
