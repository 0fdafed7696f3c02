"""``clfeval rank RESULTS``: one call of :func:`clfeval.rank`, rendered; unmet ``--require`` conditions exit 3."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, output_options
from clfeval.cli._decide import require_exit

_EPILOG = ("The hierarchical Bayesian model (Corani et al. 2017) needs a Stan sampler and is not offered; the "
           "Bayesian signed-rank test is. Each pair's Wilcoxon p-value is the one scipy.stats.wilcoxon(a, b, "
           "zero_method='pratt', method='auto') gives for that pair alone (two-sided): exact up to 50 data sets "
           "without zeros or tied differences, else a permutation test over all sign flips up to 13, else the "
           "normal approximation; the SciPy version is stated in the output.")


@click.command(epilog=_EPILOG)
@click.argument("results", required=False, type=click.Path(path_type=Path), metavar="RESULTS")
@click.option("--runs-db", type=click.Path(path_type=Path), default=None,
              help="Rank the runs of a clfeval run log instead: grouped by data (content hash) and model; runs of "
                   "one data set must share protocol and seed. Needs --metric.")
@click.option("--system", default="system", show_default=True, help="Long table: the column naming the system.")
@click.option("--dataset", default="dataset", show_default=True, help="The column naming the data set.")
@click.option("--score", default="score", show_default=True, help="Long table: the column of scores.")
@click.option("--fold", default=None, help="A column of folds: a system's score on a data set is its mean over folds.")
@click.option("--layout", type=click.Choice(["auto", "long", "wide"]), default="auto", show_default=True,
              help="long: one row per system and data set; wide: one row per data set, one column per system; "
                   "auto: long when the --system and --score columns exist.")
@click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
              help="File format (default: from the extension).")
@click.option("--metric", "-m", default=None,
              help="A catalogue metric name (the direction comes from the catalogue; `clfeval metrics` lists them).")
@click.option("--higher-is-better/--lower-is-better", "higher_is_better", default=None,
              help="The direction of a score that is not a catalogue metric (BLEU, a loss): required then.")
@click.option("--missing", type=click.Choice(["refuse", "drop"]), default="refuse", show_default=True,
              help="A system without a score on a data set: refuse, or drop that data set (named in the output).")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="Level of the Friedman test, Nemenyi's critical difference and the Holm-adjusted tests.")
@click.option("--control", default=None, metavar="NAME",
              help="Compare every system with this one (Wilcoxon, Holm over the k − 1 comparisons); also the "
                   "default Bayesian pairs.")
@click.option("--pairs", default=None, metavar="A:B,...",
              help="Bayesian pairs (default: each system against --control, else against the best-ranked). A name "
                   "holding ',' or ':' is written in quotes: --pairs '\"lr, l2\":svm,\"a:b\":svm'.")
@click.option("--rope", type=float, default=0.01, show_default=True,
              help="Half-width of the region of practical equivalence, on the score's scale.")
@click.option("--samples", "-b", type=int, default=50_000, show_default=True, help="Posterior samples per pair.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random seed of the posterior samples.")
@click.option("--no-bayes", is_flag=True, help="Leave out the Bayesian signed-rank tests.")
@click.option("--require", "require", multiple=True, metavar="CONDITION",
              help="A condition the ranking must meet, else exit 3 (repeatable): 'p_better(B,A)>=0.95', "
                   "'in_best_group(B)'. A name holding a comma is written in quotes: 'p_better(\"lr, l2\",B)>=0.9' "
                   "(in_best_group takes the whole text between its parentheses as the name).")
@output_options
def rank(results: Path | None, **o: Any) -> None:
    """Which of k systems over N data sets are better, which are indistinguishable, and how sure?

    Average ranks, the Friedman test with the Iman–Davenport F, Nemenyi's critical difference (the CD
    diagram), Holm-adjusted Wilcoxon signed-rank tests of every pair (the recommended post-hoc test; with
    --control, against the control), effect sizes (mean and median difference, Hodges–Lehmann), and the
    Bayesian signed-rank test with a ROPE. RESULTS is a long table (system, dataset, score) or a wide one
    (dataset and one column per system) in CSV, TSV, JSONL or Parquet; or give --runs-db.
    """
    check_paths([("RESULTS", results), ("--runs-db", o["runs_db"])], [("--output", o["output"])])
    fmt, output, require, no_bayes = o.pop("fmt"), o.pop("output"), list(o.pop("require")), o.pop("no_bayes")
    from clfeval import front, significance

    o["pairs"] = significance.pairs_of_text(o["pairs"]) if o["pairs"] is not None else None
    result = front.rank(None if results is None else str(results), require=require, bayes=not no_bayes, **o)
    emit(result, fmt, output)
    require_exit(result)
