"""Figures of clfeval results (matplotlib, imported only when a figure is drawn).

Each figure function takes a result object or the JSON dict a clfeval command
wrote with ``--format json`` (nothing is recomputed: results carry aggregated
data only — decimated curves, bin tables, fold values, replicate histograms)
and returns a :class:`matplotlib.figure.Figure` on an Agg canvas, to restyle,
save (:func:`save`) or inline as SVG (:func:`figure_svg`).

=================  ==============================================  =====================================
kind               function                                        result
=================  ==============================================  =====================================
``confusion``      :func:`confusion_matrix`                         Report (single-label)
``per-class``      :func:`per_class`                                Report
``roc``            :func:`roc`                                      Report with scores, Ranking(OvR)
``pr``             :func:`pr`                                       Report with scores, Ranking(OvR)
``threshold``      :func:`threshold`                                ThresholdChoice; LabelThresholds
                                                                    (:func:`label_thresholds`)
``reliability``    :func:`reliability`                              Calibration
``phi-delta``      :func:`phi_delta`                                Report, CV result, Reuters study,
                                                                    Comparison, {name: Report}
``cv-spread``      :func:`cv_spread`                                cross-validation / holdout result
``bootstrap``      :func:`bootstrap`                                Comparison, MultiComparison
``reuters``        :func:`reuters`                                  the Reuters study
``cd``             :func:`cd_diagram`                               a ranking over data sets (rank)
``bayes``          :func:`bayes_bars`                               a ranking over data sets (rank)
=================  ==============================================  =====================================
"""

from __future__ import annotations

from clfeval.plots._mpl import figure_svg, save
from clfeval.plots.resampling import bootstrap, cv_spread
from clfeval.plots.cddiagram import bayes_bars, cd_diagram
from clfeval.plots.scores import label_thresholds, pr, reliability, roc, threshold
from clfeval.plots.phidelta import phi_delta
from clfeval.plots.study import reuters
from clfeval.plots.tables import confusion_matrix, per_class, top_confusions

__all__ = ["KINDS", "confusion_matrix", "top_confusions", "per_class", "roc", "pr", "threshold", "label_thresholds",
           "reliability",
           "phi_delta", "cv_spread", "bootstrap", "reuters", "cd_diagram", "bayes_bars", "figure_svg", "save"]

#: The figure kinds of ``clfeval plot``.
KINDS = {
    "confusion": confusion_matrix,
    "per-class": per_class,
    "roc": roc,
    "pr": pr,
    "threshold": threshold,
    "reliability": reliability,
    "phi-delta": phi_delta,
    "cv-spread": cv_spread,
    "bootstrap": bootstrap,
    "reuters": reuters,
    "cd": cd_diagram,
    "bayes": bayes_bars,
}
