"""``clfeval threshold TEST --dev DEV``: choose a cut on development data, measure it on the test data."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import click

from clfeval.cli._common import check_paths, emit, output_options, reading_options, sep_option
from clfeval.cli._scale import engine_options, memory_option


@click.command()
@click.argument("test", type=click.Path(path_type=Path))
@click.option("--dev", type=click.Path(path_type=Path), default=None,
              help="Development file (a held-out slice of the training data) the cut is chosen on; never the test file.")
@click.option("--gold", default="gold", show_default=True, help="Column of gold labels (label sets with --multilabel).")
@click.option("--score", default=None, help="Score column (higher = more positive); needs --positive.")
@click.option("--scores-prefix", default=None, metavar="PREFIX",
              help="Multi-label: score columns PREFIX<label>, one per label; one cut per label.")
@click.option("--positive", default=None, help="The positive class of --score.")
@click.option("--objective", default="f1", show_default=True,
              help="f1, f0.5, f2 (any f<beta>), cost, precision>=X or recall>=X.")
@click.option("--cost-fp", type=float, default=1.0, show_default=True, help="Cost of one false positive (objective cost).")
@click.option("--cost-fn", type=float, default=1.0, show_default=True, help="Cost of one false negative (objective cost).")
@click.option("--default-threshold", type=float, default=None,
              help="The default cut shown first (default: 0.5 when every score lies in [0, 1], else 0).")
@click.option("--zero-division", type=click.Choice(["0", "1", "nan"]), default="0", show_default=True,
              help="Value of 0/0 ratios.")
@click.option("--multilabel", is_flag=True, help="Gold cells are label sets (separated by --sep); use with --scores-prefix.")
@sep_option
@click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
              help="Format of both files (default: from the extensions; CSV for standard input, '-').")
@memory_option()
@engine_options
@reading_options
@output_options
def threshold(test: Path, dev: Path | None, gold: str, score: str | None, scores_prefix: str | None,
              positive: str | None, objective: str, cost_fp: float, cost_fn: float, default_threshold: float | None,
              zero_division: str, multilabel: bool, sep: str, input_format: str | None, memory: str | None,
              engine: str, scheduler: str | None, encoding: str, normalize_labels: str | None, fmt: str,
              output: Path | None) -> None:
    """Choose a threshold on DEV and apply it to TEST, beside the default and the best-in-hindsight cut.

    The rule everywhere: an item is predicted positive iff its score >= threshold. The threshold reported
    is a score of the development file (the lowest score predicted positive at that cut). Without --dev
    only the default and the hindsight cut can be shown, and the hindsight cut is optimistic.

    With --score both files stream batch by batch, exactly, whatever their size: beyond --memory sorted
    score runs spill to disk and are merged (the output says when). So does --scores-prefix (one cut per
    label, one ranking each, sharing --memory); its TEST is read twice (standard input is kept for the second
    pass), the second time for the averages that need each item's predictions of every label.

    With --engine dask (one --score column; Parquet, CSV or TSV files) both rankings stay on the cluster, the
    score axis cut into ranges merged on the workers: the same numbers as the local run.
    """
    from clfeval.cli._scale import check_engine, check_memory
    from clfeval.cli._scorefile import check_score_options
    from clfeval.scores.curves import parse_objective
    from clfeval.errors import UsageError

    check_paths([("TEST", test), ("--dev", dev)], [("--output", output)])
    check_score_options(score, scores_prefix)
    parse_objective(objective, cost_fp=cost_fp, cost_fn=cost_fn)  # option errors before reading any file
    budget = check_memory(memory)
    if score is not None and positive is None:
        raise UsageError("option --score needs --positive: the class whose scores are thresholded.")
    if scores_prefix is not None and not multilabel:
        raise UsageError("option --scores-prefix chooses one cut per label, which needs --multilabel (label sets); "
                         "multiclass items take the label of the highest score instead of a cut.")
    if multilabel and score is not None:
        raise UsageError("multi-label data needs one score column per label: use --scores-prefix, not --score.")
    if dev is not None and Path(dev).exists() and Path(test).exists() and Path(dev).resolve() == Path(test).resolve():
        raise UsageError(f"option --dev names the test file itself ({str(test)!r}): a cut chosen on the test labels "
                         f"is the hindsight cut, which this command already shows. Give a development file (a "
                         f"held-out slice of the training data).")
    dask = check_engine(engine, scheduler, {"--scores-prefix": scores_prefix is not None})
    reading = dict(encoding=encoding, normalize=normalize_labels, sep=sep)
    common = dict(objective=objective, cost_fp=cost_fp, cost_fn=cost_fn, default_threshold=default_threshold,
                  zero_division=zero_division)
    if dask:
        assert score is not None
        emit(_on_dask(test, dev, gold, score, positive, input_format, encoding, scheduler, common, normalize_labels),
             fmt, output)
        return
    if not multilabel:
        assert score is not None
        emit(_streamed(test, dev, gold, score, positive, input_format, reading, budget, common), fmt, output)
        return
    assert scores_prefix is not None
    emit(_streamed_labels(test, dev, gold, scores_prefix, input_format, reading, budget, common), fmt, output)


def _streamed_labels(test: Path, dev: Path | None, gold: str, prefix: str, input_format: str | None,
                     reading: dict[str, Any], memory: int, common: dict[str, Any]) -> Any:
    """--scores-prefix: one ranking per label within ``memory``; the test PATH is read twice (the cuts, then the
    items' joint predictions); standard input is kept (in memory, or spooled to a temporary file) and read again."""
    from clfeval.cli._common import input_path, reading_progress
    from clfeval.cli._scorefile import score_columns
    from clfeval.io.predictions import iter_predictions
    from clfeval.scores.columns import ScoreSource, score_matrix
    from clfeval.scores.thresholds import check_dev_columns, choose_label_thresholds_batches

    def opened(path: Path, option: str | None) -> tuple[Any, list[str]]:
        inp = input_path(path, option, input_format=input_format, encoding=reading["encoding"])
        extra, _ = score_columns(inp, None, prefix)
        return inp, [c[len(prefix):] for c in extra]

    def batches(inp: Any, labels: list[str]) -> Iterator[tuple[Any, Any]]:
        with reading_progress(inp) as update:
            for b in iter_predictions(inp, gold=gold, pred=None, require_pred=False, multilabel=True,
                                      extra=[prefix + lab for lab in labels], progress=update, **reading):
                cols = {lab: b.extra[prefix + lab] for lab in labels}
                yield b.gold, score_matrix(cols, n=b.n, where=b.where, prefix=prefix)[0]

    t, labels = opened(test, None)
    d = None
    if dev is not None:
        d, dev_labels = opened(dev, "--dev")
        check_dev_columns(labels, dev_labels, prefix)
    return choose_label_thresholds_batches(lambda: batches(t, labels), batches(d, labels) if d is not None else None,
                                           labels=labels, sep=reading["sep"], memory=memory,
                                           source=ScoreSource(prefix=prefix, data=f"file {t.name!r}"), **common)


def _sources(test: Path, dev: Path | None, score: str, input_format: str | None, encoding: str,
             on_dask: bool = False) -> list[tuple[Any, Any]]:
    """The resolved TEST (and --dev) PATHs, their --score column checked, and how messages name them
    (``on_dask``: standard input refused first)."""
    from clfeval.cli._common import input_path
    from clfeval.cli._scale import dask_paths
    from clfeval.cli._scorefile import score_columns
    from clfeval.scores.columns import ScoreSource

    out = []
    for path, option in [(test, None)] + ([(dev, "--dev")] if dev is not None else []):
        inp = input_path(path, option, input_format=input_format, encoding=encoding)
        if on_dask:
            dask_paths(inp, option or "TEST")
        score_columns(inp, score, None)
        out.append((inp, ScoreSource(name=score, data=f"file {inp.name!r}" + ("" if option is None else
                                                                            f", option {option}"))))
    return out


def _on_dask(test: Path, dev: Path | None, gold: str, score: str, positive: Any, input_format: str | None,
             encoding: str, scheduler: str | None, common: dict[str, Any], normalize: str | None = None) -> Any:
    """``--engine dask``: both PATHs ranked on a Dask cluster (the local run's numbers)."""
    from clfeval.cli._scale import dask_client, dask_paths
    from clfeval.dask.thresholds import threshold as dask_threshold

    (t, src), *rest = _sources(test, dev, score, input_format, encoding, on_dask=True)
    paths = dask_paths(t, "TEST")
    dev_paths, dev_src = (dask_paths(rest[0][0], "--dev"), rest[0][1]) if rest else (None, src)
    with dask_client(scheduler) as client:
        return dask_threshold(paths, dev_paths, gold=gold, score=score, positive=positive, client=client,
                              source=src, dev_source=dev_src, normalize=normalize, **common)


def _streamed(test: Path, dev: Path | None, gold: str, score: str, positive: Any, input_format: str | None,
              reading: dict[str, Any], memory: int, common: dict[str, Any]) -> Any:
    """One --score column: both files read batch by batch into rankings within ``memory``."""
    from clfeval.cli._common import reading_progress
    from clfeval.evaluate.scoredstream import gold_and_scores
    from clfeval.io.predictions import iter_predictions
    from clfeval.scores.thresholds import choose_threshold_batches

    def batches(inp: Any) -> Iterator[Any]:
        with reading_progress(inp) as update:
            yield from gold_and_scores(iter_predictions(inp, gold=gold, pred=None, require_pred=False, extra=[score],
                                                        extra_options=["--score"], progress=update, **reading), score)

    (t, src), *rest = _sources(test, dev, score, input_format, reading["encoding"])
    d, dev_src = rest[0] if rest else (None, src)
    return choose_threshold_batches(batches(t), batches(d) if d is not None else None, positive=positive,
                                    memory=memory, source=src, dev_source=dev_src, **common)
