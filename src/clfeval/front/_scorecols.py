"""Score columns of a PATH: one named column, or every column ``PREFIX<label>``, checked against its first file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clfeval.errors import DataError, UsageError

__all__ = ["check_score_options", "score_columns", "read_scored", "ScoredFile"]


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


def check_score_options(score: str | None, prefix: str | None, *, names: tuple[str, str] = ("score", "scores_prefix"),
                        required: bool = True) -> None:
    """Exactly one of a score column and a prefix (or neither, when not ``required``)."""
    if (score is not None and prefix is not None) or (required and score is None and prefix is None):
        raise UsageError(lambda s, p: f"give {s} COLUMN (one score column) or {p} PREFIX (one column PREFIX<label> "
                                      f"per label), exactly one of them.", params=list(names))


def score_columns(inp: Any, score: str | None, prefix: str | None, *,
                  names: tuple[str, str] = ("score", "scores_prefix")) -> tuple[list[str], list[str]]:
    """The score columns an input's (first) file has for ``score`` / ``prefix``, and all its columns."""
    from clfeval.io import column_names

    cols = column_names(inp.sources[0], input_format=inp.fmt, encoding=inp.sources[0].encoding)
    spath = inp.sources[0].name
    shown = ", ".join(repr(c) for c in cols)
    if score is not None:
        if score not in cols:
            raise DataError(lambda s: f"file {spath!r} has no score column {score!r} (option {s}); its columns are: "
                                      f"{shown}. Name the column with {s}.", params=[names[0]])
        return [score], cols
    if prefix is None:
        return [], cols
    extra = [c for c in cols if c.startswith(prefix) and len(c) > len(prefix)]
    if not extra:
        raise DataError(lambda p: f"file {spath!r} has no column starting with {prefix!r} (option {p}); its "
                                  f"columns are: {shown}. Score columns are named {prefix}<label>, one per label.",
                        params=[names[1]])
    return extra, cols


def read_scored(inp: Any, *, gold: str, score: str | None, prefix: str | None, pred: str | None = None,
                id_col: str | None = None, multilabel: bool = False, option: str | None = None,
                encoding: str = "utf-8", normalize: str | None = None, sep: str = "|") -> ScoredFile:
    """Read gold (and pred when named) and the score columns of a resolved PATH into memory."""
    from clfeval.io import read_predictions
    from clfeval.scores import ScoreSource, as_scores

    spath = inp.name
    extra, cols = score_columns(inp, score, prefix)
    preds = read_predictions(inp, gold=gold, pred=pred, id=id_col, multilabel=multilabel, extra=extra,
                             require_pred=pred is not None, normalize=normalize, sep=sep, encoding=encoding,
                             extra_options=["--score"] if score is not None else None)
    where = preds.where
    if score is not None:
        scores: Any = as_scores(preds.extra[score], name=score, where=where)
        name = score
    else:
        scores = {c[len(prefix or ""):]: as_scores(preds.extra[c], name=c, where=where) for c in extra}
        name = prefix or ""
    data = f"file {spath!r}" + ("" if option is None else f", option {option}")
    source = ScoreSource(name=score, where=where, prefix=prefix or "", data=data)
    return ScoredFile(spath, preds.gold, preds.pred, preds.ids, scores, where, name, tuple(cols), source)
