"""The result of ``clfeval.power``: :class:`PowerResult`, holding one of its three typed parts.

* :class:`McNemarPower`: two systems, a metric that counts right and wrong items (accuracy, error rate, the micro
  averages): the exact power of McNemar's test at the observed discordant share;
* :class:`BootstrapPower`: two systems, any other count metric: the smallest detectable difference from the paired
  bootstrap standard error (a normal approximation);
* :class:`IntervalWidth`: one system: the width of its metric's bootstrap interval, and the n for a target width.

Frozen all the way down (lists as read-only lists, mappings read-only); ``to_dict()`` is the JSON of
``clfeval power``, with the engine block of the front door. The numbers are computed by
:mod:`clfeval.significance._power`, which builds the parts.

>>> w = IntervalWidth("accuracy", 100, 0.8, 0.95, [0.72, 0.88], 0.16, None, None, 2000, "...", [])
>>> r = PowerResult(width=w)
>>> r.kind, r.n, r.to_dict()["width"]
('width', 100, 0.16)
>>> r.width.notes.append("x")
Traceback (most recent call last):
...
TypeError: a result's list is read-only: results are frozen (to_dict() gives a copy to change)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clfeval.core import Display, EngineInfo, FrozenDict, FrozenList, freeze, number, thaw

__all__ = ["PowerResult", "McNemarPower", "BootstrapPower", "IntervalWidth"]


def _frozen(obj: Any, *names: str) -> None:
    for name in names:
        object.__setattr__(obj, name, freeze(getattr(obj, name)))


@dataclass(frozen=True)
class McNemarPower(Display):
    """Exact power of McNemar's test at the observed discordant share.

    Attributes
    ----------
    metric : str
        The metric (accuracy, error rate or a micro average: each counts right and wrong items).
    n, n_ab, n_ba : int
        Paired items; items right for A only; items right for B only.
    discordant, observed_delta : float
        The discordant share p_d = (n_ab + n_ba) / n and the observed δ = (n_ab − n_ba) / n.
    alpha, power : float
        Level of the test and the power wanted.
    alternative : str
        ``greater`` (H1: A better) or ``two-sided``.
    delta : float or None
        The difference to detect, when given.
    detectable_delta : float
        The smallest accuracy difference δ = p10 − p01 detected with
        probability ``power`` at the current n (the discordant share kept).
    power_at_n : float or None
        Exact power for ``delta`` at the current n (when ``delta`` is given).
    required_n, stays_from, checked_up_to : int or None
        The smallest n with exact power ≥ ``power`` for ``delta``; the n from
        which power stays ≥ ``power`` (for every n up to ``checked_up_to``).
    explanation : str
        One sentence.
    undefined : sequence of mappings
        The fields left undefined (``field``) and why (``reason``).
    notes : sequence of str
        What the numbers assume.
    signature : mapping
        Version and settings.
    """

    metric: str
    n: int
    n_ab: int
    n_ba: int
    discordant: float
    observed_delta: float
    alpha: float
    power: float
    alternative: str
    delta: float | None
    detectable_delta: float
    power_at_n: float | None
    required_n: int | None
    stays_from: int | None
    checked_up_to: int | None
    explanation: str
    undefined: Sequence[Mapping[str, str]]
    notes: Sequence[str]
    signature: Mapping[str, object]

    def __post_init__(self) -> None:
        _frozen(self, "undefined", "notes", "signature")

    def to_dict(self) -> dict[str, Any]:
        return {"test": "mcnemar (exact)", "metric": self.metric, "n": self.n, "n_ab": self.n_ab, "n_ba": self.n_ba,
                "discordant": self.discordant, "observed_delta": self.observed_delta, "alpha": self.alpha,
                "power": self.power, "alternative": self.alternative, "delta": self.delta,
                "detectable_delta": number(self.detectable_delta), "power_at_n": number(self.power_at_n),
                "required_n": self.required_n, "stays_from": self.stays_from, "checked_up_to": self.checked_up_to,
                "explanation": self.explanation, "undefined": [dict(u) for u in self.undefined],
                "notes": list(self.notes), "signature": thaw(self.signature)}


@dataclass(frozen=True)
class BootstrapPower(Display):
    """Smallest detectable δ and the n needed, from the paired bootstrap standard error of δ (normal approximation).

    Attributes
    ----------
    metric : str
        The count metric.
    n : int
        Paired items.
    delta_observed, se : float
        The observed δ = M(A) − M(B) and its paired bootstrap standard error.
    alpha, power : float
        Level of the test and the power wanted.
    alternative : str
        ``greater`` (H1: A better) or ``two-sided``.
    delta : float or None
        The difference to detect, when given.
    detectable_delta : float
        (z_{1−α} + z_power)·SE.
    required_n : int or None
        The n for ``delta``: n·((z_{1−α} + z_power)·SE / δ)², rounded up.
    samples : int
        Bootstrap replicates.
    explanation : str
        One sentence.
    undefined : sequence of mappings
        The fields left undefined (``field``) and why (``reason``).
    notes : sequence of str
        What the numbers assume.
    signature : mapping
        Version, settings, seed and samples.
    """

    metric: str
    n: int
    delta_observed: float
    se: float
    alpha: float
    power: float
    alternative: str
    delta: float | None
    detectable_delta: float
    required_n: int | None
    samples: int
    explanation: str
    undefined: Sequence[Mapping[str, str]]
    notes: Sequence[str]
    signature: Mapping[str, object]

    def __post_init__(self) -> None:
        _frozen(self, "undefined", "notes", "signature")

    def to_dict(self) -> dict[str, Any]:
        return {"test": "paired bootstrap standard error (normal approximation)", "metric": self.metric, "n": self.n,
                "delta_observed": number(self.delta_observed), "se": number(self.se), "alpha": self.alpha,
                "power": self.power, "alternative": self.alternative, "delta": self.delta,
                "detectable_delta": number(self.detectable_delta), "required_n": self.required_n,
                "samples": self.samples, "explanation": self.explanation,
                "undefined": [dict(u) for u in self.undefined], "notes": list(self.notes),
                "signature": thaw(self.signature)}


@dataclass(frozen=True)
class IntervalWidth(Display):
    """The bootstrap percentile interval of one metric at the current n, and the n for a target width.

    Attributes
    ----------
    metric : str
        The count metric.
    n : int
        Items.
    value : float
        The metric now.
    level : float
        Level of the interval.
    ci : sequence of float
        The percentile interval (low, high).
    width : float
        high − low.
    target_width : float or None
        The width wanted, when given.
    required_n : int or None
        The n for ``target_width``: n·(width / target)², rounded up.
    samples : int
        Bootstrap replicates.
    explanation : str
        One sentence.
    undefined : sequence of mappings
        The fields left undefined (``field``) and why (``reason``).
    notes : sequence of str
        What the numbers assume.
    signature : mapping
        Version, settings, seed and samples.
    """

    metric: str
    n: int
    value: float
    level: float
    ci: Sequence[float]
    width: float
    target_width: float | None
    required_n: int | None
    samples: int
    explanation: str
    undefined: Sequence[Mapping[str, str]]
    notes: Sequence[str] = field(default_factory=FrozenList)
    signature: Mapping[str, object] = field(default_factory=FrozenDict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ci", tuple(float(x) for x in self.ci))
        _frozen(self, "undefined", "notes", "signature")

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "n": self.n, "value": number(self.value), "level": self.level,
                "ci": [number(x) for x in self.ci], "width": number(self.width), "target_width": self.target_width,
                "required_n": self.required_n, "samples": self.samples, "explanation": self.explanation,
                "undefined": [dict(u) for u in self.undefined], "notes": list(self.notes),
                "signature": thaw(self.signature)}


#: The parts a :class:`PowerResult` may hold, in the order ``kind`` names them.
KINDS = ("mcnemar", "bootstrap", "width")


@dataclass(frozen=True)
class PowerResult(Display):
    """Is the test set big enough? The one result of ``clfeval.power``: exactly one of its parts is set.

    Attributes
    ----------
    mcnemar : McNemarPower or None
        Two systems, a metric of right and wrong items: the exact McNemar power.
    bootstrap : BootstrapPower or None
        Two systems, another count metric: the paired bootstrap standard error.
    width : IntervalWidth or None
        One system: the width of its metric's interval.
    engine : EngineInfo or None
        Where the counts were made (the front door's engine block).
    """

    mcnemar: McNemarPower | None = None
    bootstrap: BootstrapPower | None = None
    width: IntervalWidth | None = None
    engine: EngineInfo | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        held = [k for k in KINDS if getattr(self, k) is not None]
        if len(held) != 1:
            raise ValueError(f"a PowerResult holds exactly one part; got {', '.join(held) or 'none'}")
        if self.engine is not None and not isinstance(self.engine, EngineInfo):
            object.__setattr__(self, "engine", EngineInfo.of(self.engine))

    @property
    def kind(self) -> str:
        """Which part is set: ``mcnemar``, ``bootstrap`` or ``width``."""
        return next(k for k in KINDS if getattr(self, k) is not None)

    @property
    def part(self) -> McNemarPower | BootstrapPower | IntervalWidth:
        """The part that is set."""
        part: McNemarPower | BootstrapPower | IntervalWidth | None = getattr(self, self.kind)
        assert part is not None
        return part

    @property
    def metric(self) -> str:
        """The metric."""
        return self.part.metric

    @property
    def n(self) -> int:
        """The items counted."""
        return self.part.n

    @property
    def required_n(self) -> int | None:
        """The n needed for the difference (two systems) or the width (one system) asked for; None when not asked
        or undefined."""
        return self.part.required_n

    @property
    def explanation(self) -> str:
        """One sentence."""
        return self.part.explanation

    @property
    def signature(self) -> Mapping[str, object]:
        """Version and settings (seed and samples when random)."""
        return self.part.signature

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``clfeval power`` (its part's; the engine block added)."""
        return self.part.to_dict()

    def to_frame(self) -> Any:
        """The question's numbers as one row. Columns (``FRAME_COLUMNS['PowerResult']`` of
        :mod:`clfeval.render._frames`): ``kind``, ``metric``, ``n``, ``observed``, ``detectable_delta``, ``width``,
        ``target``, ``required_n`` (pandas: the ``frame`` extra)."""
        from clfeval.core import frame_of

        return frame_of(self)
