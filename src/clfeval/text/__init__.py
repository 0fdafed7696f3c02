"""Text classification helpers: corpus readers, model pipelines, term analysis.

Nothing here evaluates anything: these modules produce texts, labels and
scores, and the rest of clfeval counts and judges them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.text._models": ("MODEL_NAMES", "ModelConfig", "make_model", "keyword_rule"),
    "clfeval.text._datasets": ("read_reuters", "modapte", "largest_categories"),
    "clfeval.text._fetch": ("fetch_reuters",),
    "clfeval.text._export": ("reuters_subset", "export_reuters"),
    "clfeval.text._processing": ("Processing", "parse_processing"),
    "clfeval.text._terms": ("TermAnalysis", "term_phi_delta"),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.text._datasets": ("ARCHIVE_NAME", "PUBLISHED_MODAPTE_EXCLUDED", "UCI_URL", "label_matrix",
                               "single_label_subset"),
    "clfeval.text._export": ("ExportedDataset",),
    "clfeval.text._fetch": ("FetchedDataset", "REUTERS_CHECKS", "check_fetch", "fetch_dataset"),
    "clfeval.text._models": ("Tokenizer", "check_texts"),
    "clfeval.text._processing": ("PRESETS",),
    "clfeval.text._termcounts": ("Analyzer", "TermTable", "analyzer_of", "MATCH_SECONDS", "check_token_pattern"),
}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.text._datasets import (
        ARCHIVE_NAME as ARCHIVE_NAME,
        PUBLISHED_MODAPTE_EXCLUDED as PUBLISHED_MODAPTE_EXCLUDED,
        UCI_URL as UCI_URL,
        label_matrix as label_matrix,
        single_label_subset as single_label_subset,
    )
    from clfeval.text._export import ExportedDataset as ExportedDataset
    from clfeval.text._fetch import (
        REUTERS_CHECKS as REUTERS_CHECKS,
        FetchedDataset as FetchedDataset,
        check_fetch as check_fetch,
        fetch_dataset as fetch_dataset,
    )
    from clfeval.text._models import Tokenizer as Tokenizer, check_texts as check_texts
    from clfeval.text._processing import PRESETS as PRESETS
    from clfeval.text._termcounts import (
        MATCH_SECONDS as MATCH_SECONDS,
        Analyzer as Analyzer,
        TermTable as TermTable,
        analyzer_of as analyzer_of,
        check_token_pattern as check_token_pattern,
    )
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)

if TYPE_CHECKING:
    from clfeval.text._datasets import (
        largest_categories as largest_categories,
        modapte as modapte,
        read_reuters as read_reuters,
    )
    from clfeval.text._export import export_reuters as export_reuters, reuters_subset as reuters_subset
    from clfeval.text._fetch import fetch_reuters as fetch_reuters
    from clfeval.text._models import (
        MODEL_NAMES as MODEL_NAMES,
        ModelConfig as ModelConfig,
        keyword_rule as keyword_rule,
        make_model as make_model,
    )
    from clfeval.text._processing import Processing as Processing, parse_processing as parse_processing
    from clfeval.text._terms import TermAnalysis as TermAnalysis, term_phi_delta as term_phi_delta

