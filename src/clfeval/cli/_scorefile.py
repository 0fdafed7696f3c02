"""Reading score columns from a predictions file: one ``--score`` column or every ``--scores-prefix`` column."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from clfeval.cli._common import input_path
from clfeval.errors import DataError, UsageError


@dataclass(frozen=True)
class ScoredFile:
    """Gold labels, optional predictions, and scores (one column, or a mapping label → column)."""

    path: str
    gold: Any
    pred: Any
    ids: Any
    scores: Any
    where: Callable[[int], str]
    score_name: str
    columns: tuple[str, ...]
    source: Any = None


def check_score_options(score: str | None, prefix: str | None, *, score_option: str = "--score",
                        prefix_option: str = "--scores-prefix") -> None:
    if (score is None) == (prefix is None):
        raise UsageError(f"give {score_option} COLUMN (one score column) or {prefix_option} PREFIX (one column "
                         f"PREFIX<label> per label), exactly one of them.")


def score_columns(inp: Any, score: str | None, prefix: str | None, *, score_option: str = "--score",
                  prefix_option: str = "--scores-prefix") -> tuple[list[str], list[str]]:
    """The score columns an input's (first) file has for ``--score`` / ``--scores-prefix``, and all its columns."""
    from clfeval.io.readers import column_names

    names = column_names(inp.sources[0], input_format=inp.fmt, encoding=inp.sources[0].encoding)
    spath = inp.sources[0].name
    shown = ", ".join(repr(c) for c in names)
    if score is not None:
        if score not in names:
            raise DataError(f"file {spath!r} has no score column {score!r} (option {score_option}); its columns are: "
                            f"{shown}. Name the column with {score_option}.")
        return [score], names
    assert prefix is not None
    extra = [c for c in names if c.startswith(prefix) and len(c) > len(prefix)]
    if not extra:
        raise DataError(f"file {spath!r} has no column starting with {prefix!r} (option {prefix_option}); its "
                        f"columns are: {shown}. Score columns are named {prefix}<label>, one per label.")
    return extra, names


def read_scored(path: Path | str, *, gold: str, score: str | None, prefix: str | None, pred: str | None = None,
                id_col: str | None = None, multilabel: bool = False, input_format: str | None = None,
                option: str = "FILE", score_option: str = "--score", prefix_option: str = "--scores-prefix",
                encoding: str = "utf-8", normalize: str | None = None, sep: str = "|") -> ScoredFile:
    """Read gold (and pred when named) and the score columns; missing columns name the option."""
    from clfeval.io.predictions import read_predictions

    inp = input_path(path, None if option == "FILE" else option, input_format=input_format, encoding=encoding)
    spath = inp.name
    extra, names = score_columns(inp, score, prefix, score_option=score_option, prefix_option=prefix_option)
    preds = read_predictions(inp, gold=gold, pred=pred, id=id_col, multilabel=multilabel, extra=extra,
                             require_pred=pred is not None, normalize=normalize, sep=sep,
                             extra_options=[score_option] if score is not None else None)

    def where(i: int) -> str:
        return preds.where(i)

    from clfeval.scores.columns import ScoreSource, as_scores

    if score is not None:
        scores: Any = as_scores(preds.extra[score], name=score, where=where)
        name = score
    else:
        scores = {c[len(prefix):]: as_scores(preds.extra[c], name=c, where=where) for c in extra}
        name = prefix
    data = f"file {spath!r}" + ("" if option == "FILE" else f", option {option}")
    source = ScoreSource(name=score, where=where, prefix=prefix or "", data=data)
    return ScoredFile(spath, preds.gold, preds.pred, preds.ids, scores, where, name, tuple(names), source)
