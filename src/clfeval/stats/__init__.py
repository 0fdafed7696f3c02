"""Each statistic once (issue 39): the resampling draws, the intervals, the 2 × 2 tests and the multiplicity
adjustments every stage uses, one module each.

This is the only folder whose code draws a resample (``tests/project/test_architecture.py`` walks the calls:
NumPy's ``multinomial``, ``binomial``, ``hypergeometric``, ``dirichlet``, ``choice``, ``integers``,
``permutation``, ``shuffle`` and ``random`` outside it are refused, but for the few listed there with their reason
— fold assignment, synthetic demo data, a figure's jitter). It imports ``clfeval.core`` and ``clfeval.errors``
only, NumPy always and SciPy lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS: dict[str, tuple[str, ...]] = {"clfeval.stats._tables": ("draw_tables",)}
# slicing (issue 39): the one 2 × 2 slice-vs-rest test and the permutation redraws of slice tables
_EXPORTS |= {"clfeval.stats._twobytwo": ("two_by_two",), "clfeval.stats._permute": ("draw_slice", "split_tables")}
__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)
if TYPE_CHECKING:
    from clfeval.stats._tables import draw_tables as draw_tables
if TYPE_CHECKING:  # slicing (issue 39)
    from clfeval.stats._permute import draw_slice as draw_slice, split_tables as split_tables
    from clfeval.stats._twobytwo import two_by_two as two_by_two
