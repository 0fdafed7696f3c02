"""Studies that join models and evaluation: the Reuters-21578 study (mission §9) and the worked-example demos."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.studies._demo": ("DemoResult", "run_demo", "demo_modes"),
    "clfeval.studies._demo_report": ("DemoReport",),
    "clfeval.studies._reuters": ("ReutersStudy", "reuters_study"),
}

__all__ = _names(_EXPORTS)
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.studies._reuters": ("PARTS", "PART_TITLES", "parse_parts", "study_steps"),
    "clfeval.studies._reuters_run": ("need_text_extra", "open_reuters_run", "reuters_record"),
}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.studies._reuters import (
        PART_TITLES as PART_TITLES,
        PARTS as PARTS,
        parse_parts as parse_parts,
        study_steps as study_steps,
    )
    from clfeval.studies._reuters_run import (
        need_text_extra as need_text_extra,
        open_reuters_run as open_reuters_run,
        reuters_record as reuters_record,
    )
__getattr__, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)

if TYPE_CHECKING:
    from clfeval.studies._demo import DemoResult as DemoResult, demo_modes as demo_modes, run_demo as run_demo
    from clfeval.studies._demo_report import DemoReport as DemoReport
    from clfeval.studies._reuters import ReutersStudy as ReutersStudy, reuters_study as reuters_study

