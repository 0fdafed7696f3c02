"""What the decision options share on the command line: gates (exit 3) and one-vs-rest score columns of several files."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

import click

from clfeval.errors import DataError, GateNotMet

__all__ = ["gate_exit", "require_exit", "read_score_columns", "paired_file_options"]


def paired_file_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Options of commands that read several predictions files of the same items: ids, format, the metric's
    0/0 and β, one repeat of a repeated out-of-fold file."""
    opts = [
        click.option("--id", "id_col", default=None,
                     help="Column of item ids (default: 'id' when present); items are matched by id."),
        click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
                     help="File format (default: from the extension; CSV for standard input, '-')."),
        click.option("--zero-division", type=click.Choice(["0", "1", "nan"]), default="0", show_default=True,
                     help="Value of 0/0 ratios inside the metric."),
        click.option("--beta", type=float, default=1.0, show_default=True, help="Beta of the *_fbeta metrics."),
        click.option("--repeat", "repeat", default=None,
                     help="For out-of-fold files of a repeated protocol (a 'repeat' column): use the rows of this "
                          "repeat."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def gate_exit(result: Any, gate: bool) -> None:
    """With ``--gate``: exit 3 (after the result is written) unless the test rejected its null."""
    if not gate:
        return
    from clfeval.significance.results import gate as judge

    passed, why = judge(result)
    if not passed:
        raise GateNotMet(f"the test does not reject its null hypothesis at the chosen alpha: {why}")


def require_exit(report: Any) -> None:
    """With ``--require``: exit 3 (after the report is written) listing the conditions that are not met."""
    req = report.sections.get("requirements") if hasattr(report, "sections") else None
    if req is None or req["met"]:
        return
    unmet = [c for c in req["conditions"] if not c["met"]]
    raise GateNotMet(f"{len(unmet)} of {len(req['conditions'])} required condition(s) not met: "
                     + "; ".join(c["summary"] for c in unmet) + ".")


def read_score_columns(paths: Sequence[Any], *, gold: str, prefix: str, id_col: str | None, encoding: str,
                       normalize: str | None, repeat: str | None) -> tuple[Any, list[dict[str, Any]]]:
    """Every input's score columns ``PREFIX<label>`` (one per class), aligned to the first input's items.

    ``paths`` are resolved input PATHs (:class:`clfeval.io.paths.InputPath`: their format is known).

    Returns the gold column and, per file, a mapping label → score column (numbers, checked). The files must
    have the same classes.
    """
    import dataclasses

    import pyarrow as pa

    from clfeval.io.align import align_predictions, one_repeat
    from clfeval.io.predictions import read_predictions
    from clfeval.io.readers import column_names
    from clfeval.scores.columns import as_scores

    read, labels = [], []
    for p in paths:
        src = p.sources[0]  # an input PATH (clfeval.io.paths.InputPath): its first file names the columns
        names = column_names(src, input_format=p.fmt, encoding=encoding)
        cols = [c for c in names if c.startswith(prefix) and len(c) > len(prefix)]
        if not cols:
            raise DataError(f"file {src.name!r} has no column starting with {prefix!r} (option --scores-prefix); its "
                            f"columns are: {', '.join(repr(c) for c in names)}. Score columns are named "
                            f"{prefix}<label>, one per class.")
        r = read_predictions(p, gold=gold, pred=None, id=id_col, extra=cols,
                             require_pred=False, encoding=encoding, normalize=normalize,
                             extra_options=["--scores-prefix"] * len(cols))
        where = (lambda i, _r=r: f"file {_r.path!r}, {_r.row_ref(i)}")
        r = dataclasses.replace(r, extra={c: pa.chunked_array([as_scores(v, name=c, where=where)])
                                          for c, v in r.extra.items()})
        read.append(one_repeat(r, repeat))
        labels.append([c[len(prefix):] for c in cols])
    if any(sorted(x) != sorted(labels[0]) for x in labels[1:]):
        shown = "; ".join(f"{Path(str(p)).name}: {', '.join(x)}" for p, x in zip(paths, labels))
        raise DataError(f"the files must have score columns for the same classes ({prefix}<label>): {shown}.")
    out: list[dict[str, Any]] = [{} for _ in read]
    gold_col = None
    for lab in labels[0]:
        aligned = [dataclasses.replace(r, pred=r.extra[prefix + lab]) for r in read]
        gold_col, cols, _ = align_predictions(aligned, scores=True)
        for d, c in zip(out, cols):
            d[lab] = c
    return gold_col, out
