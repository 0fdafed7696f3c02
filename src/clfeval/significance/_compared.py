"""What :func:`clfeval.compare` returns, whatever its inputs: one type, :class:`Compared`.

Which test ran depends on the inputs (two systems or more, a margin, DeLong's test, slices), and each test has
its own result type with its own fields. The front door returns them all as one :class:`Compared` whose typed
optional parts say which: exactly one of ``pair`` (:class:`~clfeval.significance._results.Comparison`),
``many`` (:class:`~clfeval.significance._results.MultiComparison`), ``delong``
(:class:`~clfeval.significance._delong.DeLongComparison`), ``delong_ovr``
(:class:`~clfeval.significance._delong.DeLongOvR`), ``noninferiority``
(:class:`~clfeval.significance._noninferiority.NonInferiority`) and ``sliced``
(:class:`~clfeval.significance._slicecompare.SlicedComparison`) is set, and :attr:`Compared.kind` names it.
Its JSON, text and page are those of that part. The tests called directly (``delong_compare``,
``delong_ovr``, ``noninferiority``, ``significance.paired.compare``) keep their own single types.

>>> import clfeval
>>> r = clfeval.compare(["a", "b", "a", "b"], ["a", "b", "a", "a"], ["a", "a", "b", "a"], samples=200)
>>> type(r).__name__, r.kind, r.pair.a, r.many is None
('Compared', 'pair', 0.75, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clfeval.significance._delong import DeLongComparison, DeLongOvR
    from clfeval.significance._noninferiority import NonInferiority
    from clfeval.significance._results import Comparison, MultiComparison
    from clfeval.significance._slicecompare import SlicedComparison

__all__ = ["Compared", "compared", "KINDS"]

#: The parts of a :class:`Compared`, in the order they are looked for.
KINDS = ("pair", "many", "delong", "delong_ovr", "noninferiority", "sliced")


@dataclass(frozen=True)
class Compared:
    """The result of :func:`clfeval.compare`: exactly one typed part set (:attr:`kind` names it).

    ``to_dict()``, ``str()``, ``to_html()`` and ``to_frame()`` are those of the part; the part's fields are
    read through (``r.a``, ``r.p_value``, ``r.engine``) as well as from the part itself (``r.pair.a``).
    """

    pair: Comparison | None = None
    many: MultiComparison | None = None
    delong: DeLongComparison | None = None
    delong_ovr: DeLongOvR | None = None
    noninferiority: NonInferiority | None = None
    sliced: SlicedComparison | None = None

    def __post_init__(self) -> None:
        held = [k for k in KINDS if getattr(self, k) is not None]
        if len(held) != 1:
            raise ValueError(f"a Compared holds exactly one part; got {', '.join(held) or 'none'}")

    @property
    def kind(self) -> str:
        """Which part is set: ``pair``, ``many``, ``delong``, ``delong_ovr``, ``noninferiority`` or ``sliced``."""
        return next(k for k in KINDS if getattr(self, k) is not None)

    @property
    def result(self) -> Any:
        """The part that is set (the test's own result)."""
        return getattr(self, self.kind)

    def to_dict(self) -> dict[str, Any]:
        """The JSON of the part (unchanged by the wrapping)."""
        out: dict[str, Any] = self.result.to_dict()
        return out

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in KINDS:  # (copy, pickle: before the fields exist)
            raise AttributeError(name)
        return getattr(self.result, name)

    def __str__(self) -> str:
        return str(self.result)

    def _repr_html_(self) -> str | None:
        out: str | None = self.result._repr_html_()
        return out

    def to_html(self) -> str:
        """The whole HTML page of the part."""
        return str(self.result.to_html())

    def to_frame(self) -> Any:
        """The part's table as a pandas DataFrame."""
        return self.result.to_frame()


def compared(result: Any) -> Compared:
    """``result`` (any comparison the front door computed) as a :class:`Compared`."""
    if isinstance(result, Compared):
        return result
    from clfeval.significance._delong import DeLongComparison, DeLongOvR
    from clfeval.significance._noninferiority import NonInferiority
    from clfeval.significance._results import Comparison, MultiComparison
    from clfeval.significance._slicecompare import SlicedComparison

    for kind, cls in (("pair", Comparison), ("many", MultiComparison), ("delong", DeLongComparison),
                      ("delong_ovr", DeLongOvR), ("noninferiority", NonInferiority), ("sliced", SlicedComparison)):
        if isinstance(result, cls):
            part: dict[str, Any] = {kind: result}
            return Compared(**part)
    raise TypeError(f"compare computed a {type(result).__name__}, which is none of the comparison results")

