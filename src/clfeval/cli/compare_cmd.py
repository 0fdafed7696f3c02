"""``clfeval compare A_FILE B_FILE [C_FILE ...]``: is the difference real?

Files are aligned by id (by row when no file has an id column) and must carry
the same gold labels; then a paired test runs on the items (see
:mod:`clfeval.significance`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, existing_file, output_options, progress, reading_options
from clfeval.errors import DataError, UsageError


def _text(col: Any) -> Any:
    """A label or id column as strings (dictionary columns decoded first)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_dictionary(col.type):
        col = pa.chunked_array([c.dictionary_decode() for c in col.chunks], type=col.type.value_type)
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        return col
    if pa.types.is_floating(col.type):  # labels' text: 1.0 is "1", as the label prints
        from clfeval._jsonl import as_text_labels

        return pa.chunked_array([as_text_labels(col)])
    return pc.cast(col, pa.string())


def _first(mask: Any) -> int:
    import numpy as np

    return int(np.flatnonzero(np.asarray(mask))[0])


def align(files: list[Any], *, scores: bool = False) -> tuple[Any, list[Any], list[Any] | None]:
    """Gold labels and every file's predictions in the first file's item order.

    Items are matched by id when every file has an id column, by row when
    none has. Refuses: ids on one side only, ids missing from either side
    (naming one from each side), different row counts without ids, and gold
    labels that differ (naming the first item).
    """
    import pyarrow.compute as pc

    first = files[0]
    with_ids = [f for f in files if f.ids is not None]
    if with_ids and len(with_ids) != len(files):
        without = next(f for f in files if f.ids is None)
        raise DataError(f"file {with_ids[0].path!r} has an id column but {without.path!r} has none; items are matched "
                        f"by id when the files have ids and by row when none has. Give every file an id column "
                        f"(option --id) or none.")
    golds, preds = [first.gold], [first.pred]
    ref_ids = _text(first.ids) if with_ids else None
    for f in files[1:]:
        if ref_ids is None:
            if f.n != first.n:
                raise DataError(f"files {first.path!r} ({first.n} rows) and {f.path!r} ({f.n} rows) have no id column, "
                                f"so items are matched by row, and the numbers of rows differ. Compare predictions on "
                                f"the same test set, or add an id column to match items by id.")
            golds.append(f.gold)
            preds.append(f.pred)
            continue
        ids = _text(f.ids)
        only_first = ref_ids.filter(pc.invert(pc.is_in(ref_ids, value_set=ids)))
        only_other = ids.filter(pc.invert(pc.is_in(ids, value_set=ref_ids)))
        if len(only_first) or len(only_other):
            parts = []
            if len(only_first):
                parts.append(f"{len(only_first)} id(s) of {first.path!r} are missing from {f.path!r} "
                             f"(e.g. {only_first[0].as_py()!r})")
            if len(only_other):
                parts.append(f"{len(only_other)} id(s) of {f.path!r} are missing from {first.path!r} "
                             f"(e.g. {only_other[0].as_py()!r})")
            raise DataError("; ".join(parts) + ". Compared files must hold predictions for the same items.")
        take = pc.index_in(ref_ids, value_set=ids)
        golds.append(f.gold.take(take))
        preds.append(f.pred.take(take))
    ref_gold = _text(golds[0])
    for f, g in zip(files[1:], golds[1:]):
        diff = pc.not_equal(ref_gold, _text(g))
        if pc.any(diff).as_py():
            i = _first(diff)
            where = f"the item with id {ref_ids[i].as_py()!r}" if ref_ids is not None else f"row {i + 1}"
            count = pc.sum(diff).as_py()
            raise DataError(f"gold labels differ between {first.path!r} and {f.path!r}: {where} has gold "
                            f"{ref_gold[i].as_py()!r} in {first.path!r} and {_text(g)[i].as_py()!r} in {f.path!r} "
                            f"({count} item(s) differ). Compared files must be predictions on the same test set.")
    types = {str(p.type) for p in preds} | {str(first.gold.type)}
    gold = first.gold
    if len(types) > 1 and not scores:  # e.g. a CSV (text) beside a Parquet file (integers): compare labels as text
        gold = _text(gold)
        preds = [_text(p) for p in preds]
    return gold, preds, (ref_ids.to_pylist() if ref_ids is not None else None)


def one_repeat(preds: Any, repeat: str | None) -> Any:
    """The rows of one repeat of a repeated out-of-fold file (or the file itself).

    Rows of different repeats are the same items predicted again, not new
    items: resampling them as independent items would understate the
    variance, so a file with several repeats needs ``--repeat``.
    """
    import dataclasses

    import pyarrow as pa
    import pyarrow.compute as pc

    if preds.repeats is None:
        if repeat is not None:
            raise UsageError(f"option --repeat {repeat} was given, but {preds.path!r} has no 'repeat' column.")
        return preds
    values = sorted({str(v) for v in pc.unique(preds.repeats).to_pylist()}, key=lambda v: (len(v), v))
    if repeat is None:
        if len(values) == 1:
            return preds
        raise DataError(f"file {preds.path!r} holds {len(values)} repeats of the same items (column 'repeat': "
                        f"{', '.join(values[:10])}); rows of different repeats are not independent test items, so a "
                        f"paired test on all of them would be overconfident. Choose one with --repeat "
                        f"(for example --repeat {values[0]}).")
    if repeat not in values:
        raise DataError(f"option --repeat {repeat}: file {preds.path!r} has repeats {', '.join(values[:20])}.")
    mask = pc.equal(pc.cast(preds.repeats, pa.string()), repeat)
    keep = {k: v.filter(mask) for k, v in preds.extra.items()}
    return dataclasses.replace(
        preds, gold=preds.gold.filter(mask), pred=None if preds.pred is None else preds.pred.filter(mask),
        ids=None if preds.item_ids is None else preds.item_ids.filter(mask), extra=keep,
        repeats=None, item_ids=None)


def _names(paths: list[Path]) -> list[str]:
    stems = [p.stem for p in paths]
    if len(set(stems)) == len(stems):
        return stems
    return [str(p) for p in paths]


@click.command()
@click.argument("files", nargs=-1, type=click.Path(path_type=Path), metavar="A_FILE B_FILE [C_FILE ...]")
@click.option("--metric", "-m", default="accuracy", show_default=True,
              help="accuracy, error_rate, balanced_accuracy, mcc, kappa, macro_f1, macro_precision, macro_recall, "
                   "macro_f1_of_means, micro_f1, weighted_f1, …, f1:LABEL; roc_auc / average_precision with --score.")
@click.option("--test", "-t", "test", type=click.Choice(["bootstrap", "randomization", "mcnemar"]), default="bootstrap",
              show_default=True, help="Paired bootstrap (2δ rule), approximate randomization, or McNemar (accuracy).")
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
@click.option("--id", "id_col", default=None, help="Column of item ids (default: 'id' when present); items are matched by id.")
@click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
              help="File format (default: from the extension; CSV for standard input, '-').")
@click.option("--zero-division", type=click.Choice(["0", "1", "nan"]), default="0", show_default=True,
              help="Value of 0/0 ratios inside the metric.")
@click.option("--beta", type=float, default=1.0, show_default=True, help="Beta of the *_fbeta metrics.")
@click.option("--repeat", "repeat", default=None,
              help="For out-of-fold files of a repeated protocol (a 'repeat' column): compare the rows of this repeat.")
@reading_options
@output_options
def compare(files: tuple[Path, ...], metric: str, test: str, samples: int, seed: int, alpha: float, ci_level: float,
            baseline: str | None, gold: str, pred: str, score: str | None, positive: str | None, id_col: str | None,
            input_format: str | None, zero_division: str, beta: float, repeat: str | None, encoding: str,
            normalize_labels: str | None, fmt: str, output: Path | None) -> None:
    """Is the difference real? Compare systems on the same test items with a paired test.

    Prints both scores, the difference δ = A − B with its confidence interval, the one-sided
    p-value for "A is better than B" and one plain sentence. With three or more files, every
    pair (or each file against --baseline) is compared, with Holm-adjusted p-values.
    """
    from clfeval._validation import check_probability, check_samples
    from clfeval.io import read_predictions
    from clfeval.significance import SCORE_METRICS, check_metric, compare as compare_two, compare_many

    if len(files) < 2:
        raise UsageError(f"compare needs at least two predictions files (A_FILE B_FILE ...); got {len(files)}.")
    check_paths([(f"{chr(65 + i)}_FILE" if i < 3 else f"file {i + 1}", f) for i, f in enumerate(files)],
                [("--output", output)])
    samples = check_samples(samples, option="--samples")
    check_probability(alpha, option="--alpha")
    check_probability(ci_level, option="--ci")
    check_metric(metric)
    paths = [existing_file(f) for f in files]
    names = _names(paths)
    if baseline is not None:
        matches = [n for n, p in zip(names, paths) if baseline in (n, str(p), p.name, p.stem)]
        if not matches:
            raise UsageError(f"option --baseline names {baseline!r}, which is none of the files: {', '.join(names)}.")
        baseline = matches[0]
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

        from clfeval._scores import as_scores

        read = [dataclasses.replace(r, pred=pa.chunked_array([as_scores(
            r.pred, name=column, where=lambda i, _p=r.path: f"row {i + 1} of {_p!r}")])) for r in read]
    read = [one_repeat(r, repeat) for r in read]
    gold_col, pred_cols, _ = align(read, scores=scored)
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
                                 names=(names[order[0]], names[order[1]]), progress=tick, **common)
        else:
            result = compare_many(gold_col, dict(zip(names, pred_cols)), baseline=baseline, progress=tick, **common)
    emit(result, fmt, output)
