"""The private steps of ``clfeval.threshold`` on resolved PATHs: one score column, or one per label, streamed
within the memory budget."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

__all__ = ["streamed", "streamed_labels"]


def _progress(progress: Any, inp: Any) -> Any:
    return progress(inp) if progress is not None else contextlib.nullcontext(None)


def score_sources(t: Any, d: Any, score: str) -> tuple[Any, Any]:
    """The score column of TEST (and of DEV, ``--dev``) checked present, and named for messages: one rule for
    every engine."""
    from clfeval.front._scorecols import score_columns
    from clfeval.scores import ScoreSource

    score_columns(t, score, None)
    src = ScoreSource(name=score, data=f"file {t.name!r}")
    if d is None:
        return src, src
    score_columns(d, score, None)
    return src, ScoreSource(name=score, data=f"file {d.name!r}, option --dev")


def streamed(t: Any, d: Any, gold: str, score: str, positive: Any, reading: dict[str, Any], memory: int,
             common: dict[str, Any], progress: Any, tmpdir: str | None = None) -> Any:
    """One score column: both PATHs read batch by batch into rankings within ``memory``."""
    from clfeval.evaluate import gold_and_scores
    from clfeval.io import iter_predictions
    from clfeval.scores import choose_threshold_batches

    def batches(inp: Any) -> Iterator[Any]:
        with _progress(progress, inp) as update:
            yield from gold_and_scores(iter_predictions(inp, gold=gold, pred=None, require_pred=False, extra=[score],
                                                        extra_options=["--score"], progress=update, **reading), score)

    src, dev_src = score_sources(t, d, score)
    return choose_threshold_batches(batches(t), batches(d) if d is not None else None, positive=positive,
                                    memory=memory, tmpdir=tmpdir, source=src, dev_source=dev_src, **common)


def streamed_labels(t: Any, d: Any, gold: str, prefix: str, reading: dict[str, Any], memory: int,
                    common: dict[str, Any], progress: Any, tmpdir: str | None = None) -> Any:
    """One cut per label (``prefix<label>`` columns), one ranking each within ``memory``; the test PATH is read
    twice (the cuts, then the items' joint predictions)."""
    from clfeval.front._scorecols import score_columns
    from clfeval.io import iter_predictions
    from clfeval.scores import ScoreSource, check_dev_columns, choose_label_thresholds_batches, score_matrix

    def labels_of(inp: Any) -> list[str]:
        extra, _ = score_columns(inp, None, prefix)
        return [c[len(prefix):] for c in extra]

    def batches(inp: Any, labels: list[str]) -> Iterator[tuple[Any, Any]]:
        with _progress(progress, inp) as update:
            for b in iter_predictions(inp, gold=gold, pred=None, require_pred=False, multilabel=True,
                                      extra=[prefix + lab for lab in labels], progress=update, **reading):
                cols = {lab: b.extra[prefix + lab] for lab in labels}
                yield b.gold, score_matrix(cols, n=b.n, where=b.where, prefix=prefix)[0]

    labels = labels_of(t)
    if d is not None:
        check_dev_columns(labels, labels_of(d), prefix)
    return choose_label_thresholds_batches(lambda: batches(t, labels), batches(d, labels) if d is not None else None,
                                           labels=labels, sep=reading["sep"], memory=memory, tmpdir=tmpdir,
                                           source=ScoreSource(prefix=prefix, data=f"file {t.name!r}"), **common)
