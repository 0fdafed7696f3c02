"""Text classification helpers: corpus readers, model pipelines, term analysis.

Nothing here evaluates anything: these modules produce texts, labels and
scores, and the rest of clfeval counts and judges them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.text.models": ("MODEL_NAMES", "ModelConfig", "make_model", "keyword_rule"),
    "clfeval.text.datasets": ("read_reuters", "modapte", "largest_categories"),
    "clfeval.text.fetch": ("fetch_reuters",),
    "clfeval.text.processing": ("Processing", "parse_processing"),
    "clfeval.text.terms": ("TermAnalysis", "term_phi_delta"),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.text.datasets import (
        largest_categories as largest_categories,
        modapte as modapte,
        read_reuters as read_reuters,
    )
    from clfeval.text.fetch import fetch_reuters as fetch_reuters
    from clfeval.text.models import (
        MODEL_NAMES as MODEL_NAMES,
        ModelConfig as ModelConfig,
        keyword_rule as keyword_rule,
        make_model as make_model,
    )
    from clfeval.text.processing import Processing as Processing, parse_processing as parse_processing
    from clfeval.text.terms import TermAnalysis as TermAnalysis, term_phi_delta as term_phi_delta

