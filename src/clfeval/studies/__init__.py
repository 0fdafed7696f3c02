"""Studies that join models and evaluation: the Reuters-21578 study (mission §9) and the worked-example demos."""

from __future__ import annotations

from typing import TYPE_CHECKING

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.studies.demo": ("DemoResult", "run_demo", "demo_modes"),
    "clfeval.studies.demo_report": ("DemoReport",),
    "clfeval.studies.reuters": ("ReutersStudy", "reuters_study"),
}

__all__ = _names(_EXPORTS)
__getattr__, __dir__ = _attach(__name__, _EXPORTS)

if TYPE_CHECKING:
    from clfeval.studies.demo import DemoResult as DemoResult, demo_modes as demo_modes, run_demo as run_demo
    from clfeval.studies.demo_report import DemoReport as DemoReport
    from clfeval.studies.reuters import ReutersStudy as ReutersStudy, reuters_study as reuters_study

