"""The slice options (issue 26): ``--by`` and its companions, shared by the commands that slice."""

from __future__ import annotations

from typing import Any

import click

from clfeval.cli._common import FiniteFloatRange, stack

__all__ = ["slice_options", "compare_slice_options", "error_slice_options", "find_slice_options", "slice_arguments"]

_BY = [
    click.option("--by-bins", type=click.IntRange(min=1), default=None, metavar="N",
                 help="Cut numeric --by columns into N bins (edges stated in the output)."),
    click.option("--by-binning", type=click.Choice(["uniform", "quantile"]), default="quantile", show_default=True,
                 help="Bins of --by-bins: equal width, or quantiles of a first-pass sample."),
    click.option("--max-slices", type=click.IntRange(min=1), default=1_000, show_default=True,
                 help="Refuse more slices than this (all --by columns together)."),
    click.option("--min-slice", type=click.IntRange(min=1), default=30, show_default=True,
                 help="Slices with fewer items are shown, not tested, and never called the worst."),
]

#: --by, --by-bins, --by-binning, --max-slices, --min-slice, --slice-metric, --slice-samples.
slice_options = stack(
    click.option("--by", default=None, metavar="COLUMN[,COLUMN...]",
                 help="Evaluate per slice: one count table per value of COLUMN (per combination of several columns), "
                      "counted in the same pass; per slice the metrics, gaps to the overall value and to the rest, "
                      "tests adjusted with Holm and Benjamini-Yekutieli, and with --positive the group fairness "
                      "measures."),
    *_BY,
    click.option("--slice-metric", "slice_metrics", multiple=True, metavar="METRIC",
                 help="A metric to test across slices (repeatable; default: accuracy and each class's recall, or "
                      "with --positive its recall, precision, FPR and accuracy; F1, MCC, kappa and the macro "
                      "averages get a permutation test)."),
    click.option("--slice-samples", type=click.IntRange(min=10, max=1_000_000), default=1_000, show_default=True,
                 help="Redraws of each permutation test of --by (metrics that are no proportion of items: F1, MCC, "
                      "kappa, macro averages)."))

#: The slice options of ``compare`` (its own test and ``--samples`` run in every slice) and ``calibration``.
compare_slice_options = stack(
    click.option("--by", default=None, metavar="COLUMN[,COLUMN...]",
                 help="Per slice (per value of COLUMN, per combination of several; counted in one pass, streamed "
                      "within --memory or on Dask). compare: A vs B within every slice from its joint table, with "
                      "the test and --samples, p-values adjusted with Holm and Benjamini-Yekutieli, Simpson's "
                      "paradox named when it occurs; calibration: ECE, MCE, Brier, log loss per slice."),
    *_BY)

#: The slice options of ``errors``: every slice's analysis of its own documents, in the same pass.
error_slice_options = stack(click.option("--by", default=None, metavar="COLUMN[,COLUMN...]", help=(
    "Analyse every slice too (per value of COLUMN, per combination of several), each on its own documents: its "
    "cells, terms and examples, counted in the same pass (streamed within --memory or on Dask).")), *_BY[:3])

#: ``--find-slices`` and its bounds (issue 27): the search for the worst slices, on ``report``.
find_slice_options = stack(
    click.option("--find-slices", default=None, metavar="COLUMN[,COLUMN...]",
                 help="Search these columns for the slices where --find-metric is worst: every value, every cross of "
                      "two columns (--max-depth), counted in the same pass; found = significantly worse than the "
                      "rest after the Benjamini-Yekutieli adjustment over every slice examined, ranked by Cohen's h. "
                      "Numeric columns are binned with --by-bins."),
    click.option("--max-depth", type=click.IntRange(1, 3), default=2, show_default=True,
                 help="Columns crossed at most by --find-slices (1: single columns; 3: triples)."),
    click.option("--max-search", type=click.IntRange(min=1), default=10_000, show_default=True,
                 help="Slices --find-slices examines in all at most; a larger search is refused."),
    click.option("--find-metric", default=None, metavar="METRIC",
                 help="The proportion metric --find-slices ranks by (default: recall of --positive when given, else "
                      "accuracy): accuracy, error_rate, recall:L, precision:L, specificity:L, fpr:L, fnr:L, npv:L, "
                      "accuracy:L, error_rate:L."),
    click.option("--find-alpha", type=FiniteFloatRange(0, 1, min_open=True, max_open=True), default=0.05,
                 show_default=True, help="The false-discovery rate of --find-slices (Benjamini-Yekutieli)."))


def slice_arguments(o: dict[str, Any]) -> dict[str, Any]:
    """The options as the library's arguments (removed from ``o``)."""
    names = ("by", "by_bins", "by_binning", "max_slices", "min_slice", "find_slices", "max_depth", "max_search",
             "find_metric", "find_alpha", "slice_samples")
    out = {name: o.pop(name) for name in names if name in o}
    if "slice_metrics" in o:
        out["slice_metrics"] = list(o.pop("slice_metrics")) or None
    return out
