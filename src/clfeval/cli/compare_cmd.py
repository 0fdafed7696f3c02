"""``clfeval compare A_FILE B_FILE [C_FILE ...]``: is the difference real?

Files are aligned by id (by row when no file has an id column) and must carry
the same gold labels; then a paired test runs on the items (see
:mod:`clfeval.significance.paired`).
"""

from __future__ import annotations

from pathlib import Path

import click

from clfeval.cli._common import check_paths, emit, existing_file, output_options, progress, reading_options
from clfeval.cli._decide import gate_exit, paired_file_options
from clfeval.errors import UsageError


def _names(paths: list[Path]) -> list[str]:
    stems = [p.stem for p in paths]
    if len(set(stems)) == len(stems):
        return stems
    return [str(p) for p in paths]


@click.command()
@click.argument("files", nargs=-1, type=click.Path(path_type=Path), metavar="A_FILE B_FILE [C_FILE ...]")
@click.option("--metric", "-m", default="accuracy", show_default=True,
              help="accuracy, error_rate, balanced_accuracy, mcc, kappa, macro_f1, macro_precision, macro_recall, "
                   "macro_f1_of_means, micro_f1, weighted_f1, …, f1:LABEL, npv:LABEL, lr_plus:LABEL, …; roc_auc / "
                   "average_precision with --score (`clfeval metrics` lists every name).")
@click.option("--test", "-t", "test", type=click.Choice(["bootstrap", "randomization", "mcnemar", "delong"]),
              default="bootstrap", show_default=True,
              help="Paired bootstrap (2δ rule), approximate randomization, McNemar (accuracy), or DeLong's test "
                   "(roc_auc of --score, or one-vs-rest with --scores-prefix).")
@click.option("--alternative", type=click.Choice(["greater", "two-sided"]), default="greater", show_default=True,
              help="H1: A better than B (one-sided), or A and B differ (two-sided; DeLong's test).")
@click.option("--margin", type=float, default=None, metavar="M",
              help="Non-inferiority (paired bootstrap): is A not worse than B by more than M (in the metric's units)?")
@click.option("--gate", is_flag=True,
              help="Exit 3 unless the test rejects its null (A better; with --margin, A not worse by more than M).")
@click.option("--scores-prefix", default=None, metavar="PREFIX",
              help="With --test delong: score columns PREFIX<label>, one per class (one-vs-rest, Holm-adjusted).")
@click.option("--samples", "-b", type=int, default=10_000, show_default=True, help="Replicates b (1 to 1,000,000).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random seed: the same seed gives the same numbers.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="Significance level of the verdict.")
@click.option("--ci", "ci_level", type=float, default=0.95, show_default=True, help="Level of the bootstrap confidence intervals.")
@click.option("--baseline", default=None, help="Compare each other file with this one (its name or path); "
                                                "otherwise every pair is compared.")
@click.option("--gold", default="gold", show_default=True, help="Column of gold labels (the same in every file).")
@click.option("--pred", default="pred", show_default=True, help="Column of predicted labels.")
@click.option("--score", default=None, help="Column of scores, compared with --metric roc_auc or average_precision.")
@click.option("--positive", default=None, help="Positive class of a score metric.")
@paired_file_options
@reading_options
@output_options
def compare(files: tuple[Path, ...], metric: str, test: str, alternative: str, margin: float | None, gate: bool,
            scores_prefix: str | None, samples: int, seed: int, alpha: float, ci_level: float,
            baseline: str | None, gold: str, pred: str, score: str | None, positive: str | None, id_col: str | None,
            input_format: str | None, zero_division: str, beta: float, repeat: str | None, encoding: str,
            normalize_labels: str | None, fmt: str, output: Path | None) -> None:
    """Is the difference real? Compare systems on the same test items with a paired test.

    Prints both scores, the difference δ = A − B with its confidence interval, the one-sided
    p-value for "A is better than B" and one plain sentence. With three or more files, every
    pair (or each file against --baseline) is compared, with Holm-adjusted p-values. With --margin,
    NEW OLD: is the new system not worse by more than the margin? With --gate, exit 3 unless the
    test rejects its null.
    """
    from clfeval.core.validation import check_probability, check_samples
    from clfeval.io.align import align_predictions, one_repeat
    from clfeval.io.readers import read_predictions
    from clfeval.significance.paired import SCORE_METRICS, check_metric, compare as compare_two, compare_many

    if len(files) < 2:
        raise UsageError(f"compare needs at least two predictions files (A_FILE B_FILE ...); got {len(files)}.")
    check_paths([(f"{chr(65 + i)}_FILE" if i < 3 else f"file {i + 1}", f) for i, f in enumerate(files)],
                [("--output", output)])
    samples = check_samples(samples, option="--samples")
    check_probability(alpha, option="--alpha")
    check_probability(ci_level, option="--ci")
    check_metric(metric)
    _check_decision(len(files), test, metric, alternative, margin, score, scores_prefix)
    paths = [existing_file(f) for f in files]
    names = _names(paths)
    if baseline is not None:
        matches = [n for n, p in zip(names, paths) if baseline in (n, str(p), p.name, p.stem)]
        if not matches:
            raise UsageError(f"option --baseline names {baseline!r}, which is none of the files: {', '.join(names)}.")
        baseline = matches[0]
    if scores_prefix is not None:  # DeLong one-vs-rest: every class's score column of both files
        from clfeval.cli._decide import read_score_columns

        order = [0, 1] if baseline != names[0] else [1, 0]
        gold_col, cols = read_score_columns([paths[i] for i in order], gold=gold, prefix=scores_prefix, id_col=id_col,
                                            input_format=input_format, encoding=encoding, normalize=normalize_labels,
                                            repeat=repeat)
        result = compare_two(gold_col, cols[0], cols[1], metric=metric, test=test, alpha=alpha, ci=ci_level,
                             alternative=alternative, names=(names[order[0]], names[order[1]]))
        emit(result, fmt, output)
        gate_exit(result, gate)
        return
    scored = metric in SCORE_METRICS
    if scored and not score:
        raise UsageError(f"metric {metric!r} compares scores: name the score column with --score.")
    column = score if scored else pred
    read = [read_predictions(p, gold=gold, pred=column, id=id_col, input_format=input_format,
                             pred_option="--score" if scored else "--pred", encoding=encoding,
                             normalize=normalize_labels) for p in paths]
    if scored:  # numbers, checked per file so that a bad cell is named by its own row
        import dataclasses

        import pyarrow as pa

        from clfeval.scores.columns import as_scores

        read = [dataclasses.replace(r, pred=pa.chunked_array([as_scores(
            r.pred, name=column, where=lambda i, _p=r.path: f"row {i + 1} of {_p!r}")])) for r in read]
    read = [one_repeat(r, repeat) for r in read]
    gold_col, pred_cols, _ = align_predictions(read, scores=scored)
    pairs = (len(paths) - 1) if baseline is not None else len(paths) * (len(paths) - 1) // 2
    total = samples * pairs * (2 if test == "randomization" else 1)
    common = dict(metric=metric, test=test, samples=samples, seed=seed, alpha=alpha, ci=ci_level, positive=positive,
                  zero_division=zero_division, beta=beta)
    with progress("resampling", total) as advance:
        state = {"last": 0}

        def tick(done: int, _total: int) -> None:
            advance(done - state["last"])
            state["last"] = done

        if len(paths) == 2:
            order = [0, 1] if baseline != names[0] else [1, 0]
            result = compare_two(gold_col, pred_cols[order[0]], pred_cols[order[1]],
                                 names=(names[order[0]], names[order[1]]), progress=tick, alternative=alternative,
                                 margin=margin, **common)
        else:
            result = compare_many(gold_col, dict(zip(names, pred_cols)), baseline=baseline, progress=tick, **common)
    emit(result, fmt, output)
    gate_exit(result, gate)


def _check_decision(n_files: int, test: str, metric: str, alternative: str, margin: float | None, score: str | None,
                    prefix: str | None) -> None:
    """The options of DeLong's test, the margin and the alternative, checked before any file is read."""
    from clfeval.significance.delong import check_delong
    from clfeval.significance.noninferiority import check_margin
    from clfeval.significance.paired import one_sided

    if test == "delong":
        check_delong(metric, margin)
        if n_files != 2:
            raise UsageError(f"--test delong compares two systems (A_FILE B_FILE); got {n_files} files.")
        if (score is None) == (prefix is None):
            raise UsageError("--test delong ranks scores: give --score COLUMN (with --positive) or --scores-prefix "
                             "PREFIX (one column PREFIX<label> per class: one-vs-rest), exactly one of them.")
        return
    if prefix is not None:
        raise UsageError("option --scores-prefix applies to --test delong (one-vs-rest ROC-AUCs); for other tests "
                         "give one --score column with --positive.")
    one_sided(test, alternative)
    if margin is not None:
        check_margin(margin, test)
        if n_files != 2:
            raise UsageError(f"option --margin tests one new system against one old one (NEW_FILE OLD_FILE); got "
                             f"{n_files} files.")
