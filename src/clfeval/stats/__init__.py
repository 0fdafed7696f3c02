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

_EXPORTS = {
    "clfeval.stats._tables": ("draw_tables",),
    "clfeval.stats._draws": ("draw_items",),
    "clfeval.stats._proportions": ("wilson", "clopper_pearson"),
    "clfeval.stats._multiplicity": ("holm", "benjamini_yekutieli"),
}
__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved lazily like
# _EXPORTS, but neither in __all__ nor in dir().
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.stats._resample": ("CountEngine",),
    "clfeval.stats._tables": ("draw_cells",),
    "clfeval.stats._draws": ("draw_swaps", "draw_swap_mask", "draw_dirichlet"),
    "clfeval.stats._proportions": ("clopper_pearson_lower", "clopper_pearson_upper"),
}
_INTERNAL_MODULES: dict[str, str] = {
    "resample": "clfeval.stats._resample",
}
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)
if TYPE_CHECKING:
    from clfeval.stats._draws import draw_items as draw_items
    from clfeval.stats._multiplicity import benjamini_yekutieli as benjamini_yekutieli, holm as holm
    from clfeval.stats._proportions import clopper_pearson as clopper_pearson, wilson as wilson
    from clfeval.stats._tables import draw_tables as draw_tables
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.stats import _resample
    from clfeval.stats._draws import (
        draw_dirichlet as draw_dirichlet,
        draw_swap_mask as draw_swap_mask,
        draw_swaps as draw_swaps,
    )
    from clfeval.stats._proportions import (
        clopper_pearson_lower as clopper_pearson_lower,
        clopper_pearson_upper as clopper_pearson_upper,
    )
    from clfeval.stats._resample import CountEngine as CountEngine
    from clfeval.stats._tables import draw_cells as draw_cells
    resample = _resample
