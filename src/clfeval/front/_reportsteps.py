"""The private steps of ``clfeval.report`` on a resolved PATH: streamed counts, streamed rankings, every item in
memory (a cut on the scores, intervals of a ranking), or the Dask engine's partitions."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from clfeval.errors import DataError, LabelListError

if TYPE_CHECKING:
    from clfeval.front._scorecols import ScoredFile
    from clfeval.io import Predictions

__all__ = ["named_by", "streamed_scores", "in_memory", "on_dask"]


def named_by(path: str, make: Callable[[], Any]) -> Any:
    """``make()``, its data errors named by the file (unless they name it already)."""
    try:
        return make()
    except LabelListError:
        raise
    except DataError as exc:
        if str(exc).startswith(("file ", "directory ", "pattern ")):
            raise
        raise exc.prefixed(f"file {path!r}: ") from None


def _progress(progress: Any, inp: Any) -> Any:
    return progress(inp) if progress is not None else contextlib.nullcontext(None)


def streamed_scores(inp: Any, cols: dict[str, Any], settings: dict[str, Any], reading: dict[str, Any], memory: int,
                    bins: int | None, binning: str, progress: Any, tmpdir: str | None = None) -> Any:
    """Counts and the ranking of the score columns, batch by batch: exact beyond memory (or binned)."""
    from clfeval.evaluate import report_scored_batches, score_binning
    from clfeval.front._scorecols import score_columns
    from clfeval.io import iter_predictions, unique_batches

    score, prefix = cols["score"], cols["prefix"]
    extra, _ = score_columns(inp, score, prefix)
    s = dict(settings)

    def reader(update: Any = None) -> Any:
        return iter_predictions(inp, gold=cols["gold"], pred=cols["pred"], id=cols["id"], multilabel=s["multilabel"],
                                extra=extra, extra_options=["--score"] if score is not None else None, progress=update,
                                **reading)

    cut = None
    if bins is not None:
        with _progress(progress, inp) as update:
            cut = named_by(inp.name, lambda: score_binning(reader(update), score, bins=bins, kind=binning))
    with _progress(progress, inp) as update:
        labels = [c[len(prefix):] for c in extra] if prefix is not None else None
        return named_by(inp.name, lambda: report_scored_batches(
            unique_batches(reader(update), budget=memory), score=score, prefix=prefix, labels=labels, memory=memory,
            binning=cut, tmpdir=tmpdir, source=f"the gold labels of {inp.name!r}", **s))


def in_memory(inp: Any, cols: dict[str, Any], threshold: float | None, settings: dict[str, Any],
              reading: dict[str, Any]) -> tuple[Any, Any, Any]:
    """Every item in memory: a cut on the scores, intervals of rankings or of label sets.
    Returns the report, the gold labels and the scores (for the ranking's intervals)."""
    from clfeval.evaluate import report as make_report
    from clfeval.front._scorecols import read_scored
    from clfeval.io import read_predictions

    scores = None
    preds: ScoredFile | Predictions
    score, prefix, pred = cols["score"], cols["prefix"], cols["pred"]
    if score is not None or prefix is not None or threshold is not None:
        sf = read_scored(inp, gold=cols["gold"], score=score, prefix=prefix,
                         pred=None if threshold is not None else pred,
                         id_col=cols["id"], multilabel=settings["multilabel"], **reading)
        preds, scores = sf, sf.scores
    else:
        preds = read_predictions(inp, gold=cols["gold"], pred=pred, id=cols["id"], multilabel=settings["multilabel"],
                                 normalize=reading["normalize"], sep=reading["sep"], encoding=reading["encoding"])
    rep = named_by(inp.name, lambda: make_report(preds.gold, preds.pred, ids=preds.ids, scores=scores,
                                                 threshold=threshold, **settings))
    if threshold is not None and pred in getattr(preds, "columns", ()):
        rep = dataclasses.replace(rep, notes=[*rep.notes, (
            f"--threshold {threshold:g} decided the predictions from the scores (positive iff score ≥ {threshold:g}); "
            f"the file's predictions column {pred!r} was not used.")])
    return rep, preds.gold, scores


def on_dask(client: Any, memory: Any, inp: Any, cols: dict[str, Any], settings: dict[str, Any], bins: int | None,
            binning: str, normalize: str | None, top_n: int) -> Any:
    """The PATH's partitions counted (and ranked) on a Dask cluster; intervals and training-label baselines from
    the counted table, as locally."""
    from clfeval.evaluate import report_from_table
    from clfeval.front._dask import report as dask_report

    s = settings
    rep = named_by(inp.name, lambda: dask_report(
        inp, gold=cols["gold"], pred=cols["pred"], score=cols["score"], positive=s["positive"],
        multilabel=s["multilabel"], sep=s["sep"], order=s["order"], beta=s["beta"],
        zero_division=s["zero_division"], score_bins=bins, score_binning=binning, client=client, id=cols["id"],
        normalize=normalize, top_n=top_n, memory=memory))
    if s["ci"] is None and s.get("train_labels") is None:
        return rep
    again = named_by(inp.name, lambda: report_from_table(
        rep.table, positive=s["positive"], beta=s["beta"], zero_division=s["zero_division"],
        order=s["order"] is not None, sep=s["sep"], top_n=top_n, train_labels=s.get("train_labels"), ci=s["ci"],
        samples=s["samples"], seed=s["seed"], ci_method=s.get("ci_method", "auto") or "auto"))
    extra = {k: v for k, v in rep.parts().items() if getattr(again, k) is None}
    return dataclasses.replace(again, **extra)
