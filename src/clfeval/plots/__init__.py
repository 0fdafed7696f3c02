"""Figures of clfeval results (matplotlib, imported only when a figure is drawn).

Each figure function takes a result object or the JSON dict a clfeval command
wrote with ``--format json`` (nothing is recomputed: results carry aggregated
data only — decimated curves, bin tables, fold values, replicate histograms)
and returns a :class:`matplotlib.figure.Figure` on an Agg canvas, to restyle,
save (:func:`save`) or inline as SVG (:func:`figure_svg`).
Every figure function also takes ``ax=``, a matplotlib Axes of the caller's (a cell of their own subplot
grid): it draws into it and returns that Axes' Figure (``plots.roc(report, ax=axes[0])``); a figure of two
panels (reliability, the Reuters study, a zoomed φ–δ) splits that cell in two.

=================  ==============================================  =====================================
kind               function                                        result
=================  ==============================================  =====================================
``confusion``      :func:`confusion_matrix`                         Report (single-label)
``per-class``      :func:`per_class`                                Report
``roc``            :func:`roc`                                      Report with scores, RankingResult
``pr``             :func:`pr`                                       Report with scores, RankingResult
``threshold``      :func:`threshold`                                ThresholdResult (one cut per label:
                                                                    :func:`label_thresholds`)
``reliability``    :func:`reliability`                              Calibration
``phi-delta``      :func:`phi_delta`                                Report, CV result, Reuters study,
                                                                    Compared (two systems, several),
                                                                    {name: Report}
``cv-spread``      :func:`cv_spread`                                cross-validation / holdout result
``bootstrap``      :func:`bootstrap`                                Compared (two systems, several,
                                                                    non-inferiority) or its JSON
``reuters``        :func:`reuters`                                  the Reuters study
``cd``             :func:`cd_diagram`                               a ranking over data sets (rank)
``bayes``          :func:`bayes_bars`                               a ranking over data sets (rank)
``forest``         :func:`forest`                                   Report by slice (``--by``)
``found-slices``   :func:`found_forest`                             Report with ``--find-slices``
``noise-matrix``   :func:`noise_matrix`                             LabelIssues (``clfeval label-issues``)
=================  ==============================================  =====================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clfeval.core.lazy import attach as _attach, names as _names

_EXPORTS = {
    "clfeval.plots._tables": ("confusion_matrix", "top_confusions", "per_class"),
    "clfeval.plots._scores": ("roc", "pr", "threshold", "label_thresholds", "reliability"),
    "clfeval.plots._phidelta": ("phi_delta",),
    "clfeval.plots._resampling": ("cv_spread", "bootstrap"),
    "clfeval.plots._study": ("reuters",),
    "clfeval.plots._cddiagram": ("cd_diagram", "bayes_bars"),
    "clfeval.plots._slices": ("forest", "found_forest"),
    "clfeval.plots._noise": ("noise_matrix",),
    "clfeval.plots._mpl": ("figure_svg", "save"),
    "clfeval.plots._read": ("read_result",),
}

__all__ = ["KINDS", *_names(_EXPORTS)]
# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.plots._errorterms": ("cell_terms",),
}
_INTERNAL_MODULES: dict[str, str] = {
    "mpl": "clfeval.plots._mpl",
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.plots import _mpl
    from clfeval.plots._errorterms import cell_terms as cell_terms
    mpl = _mpl
_getattr, __dir__ = _attach(__name__, _EXPORTS, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)

#: The figure kinds of ``clfeval plot``: kind → the function's name (``KINDS`` maps kind → function).
_KINDS = {"confusion": "confusion_matrix", "per-class": "per_class", "roc": "roc", "pr": "pr",
          "threshold": "threshold", "reliability": "reliability", "phi-delta": "phi_delta", "cv-spread": "cv_spread",
          "bootstrap": "bootstrap", "reuters": "reuters", "cd": "cd_diagram", "bayes": "bayes_bars",
          "forest": "forest", "found-slices": "found_forest", "noise-matrix": "noise_matrix"}


def __getattr__(name: str) -> Any:
    if name == "KINDS":  # built when first asked for: it holds the functions, which import matplotlib
        kinds = {kind: _getattr(fn) for kind, fn in _KINDS.items()}
        globals()["KINDS"] = kinds
        return kinds
    return _getattr(name)


if TYPE_CHECKING:
    KINDS: dict[str, Any]
    from clfeval.plots._cddiagram import bayes_bars as bayes_bars, cd_diagram as cd_diagram
    from clfeval.plots._mpl import figure_svg as figure_svg, save as save
    from clfeval.plots._noise import noise_matrix as noise_matrix
    from clfeval.plots._phidelta import phi_delta as phi_delta
    from clfeval.plots._read import read_result as read_result
    from clfeval.plots._resampling import bootstrap as bootstrap, cv_spread as cv_spread
    from clfeval.plots._scores import (
        label_thresholds as label_thresholds,
        pr as pr,
        reliability as reliability,
        roc as roc,
        threshold as threshold,
    )
    from clfeval.plots._slices import forest as forest, found_forest as found_forest
    from clfeval.plots._study import reuters as reuters
    from clfeval.plots._tables import (
        confusion_matrix as confusion_matrix,
        per_class as per_class,
        top_confusions as top_confusions,
    )

