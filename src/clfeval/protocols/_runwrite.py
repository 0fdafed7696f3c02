"""A run's outputs and its record: what ``clfeval cv`` and ``clfeval holdout`` write after the models are run.

Every output is checked before the long part (:func:`open_run_log`); after it, the out-of-fold predictions, the
error analysis and ``--output`` are staged and put in place just before the run's record commits
(:func:`write_run`; :meth:`clfeval.protocols._runlog.RunLog.record`), so that a record never names a file that is
not there. Rendering is the caller's (a function given here): this stage renders nothing itself.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clfeval.errors import UsageError
from clfeval.io import OutputFiles, check_paths, detect_format, resolve_output
from clfeval.protocols._errorsof import errors_format, errors_of_run
from clfeval.protocols._predictions import write_predictions
from clfeval.protocols._runcompare import compare_results
from clfeval.protocols._runlog import RunLog, predictions_dir

__all__ = ["Written", "open_run_log", "check_compare_model", "errors_page", "write_run"]

#: Renders a result (a run, a comparison, an error analysis) in the caller's format.
Render = Callable[[Any], str]


@dataclass(frozen=True)
class Written:
    """What a run wrote: the result to show (with its run id), the lines to tell, what was recorded."""

    result: Any
    messages: tuple[str, ...]
    recorded: str | None  # "run 3", "runs 3 (nb) and 4 (svm)"; None without a run log


def open_run_log(inputs: list[tuple[str, str | os.PathLike[str] | None]], output: Path | None,
                 runs_db: Path | None, *, predictions_out: Path | None = None,
                 errors_out: Path | None = None) -> RunLog | None:
    """Check every output of a recorded run before the long part; returns the run log (or None).

    The outputs are ``--predictions``, ``--output``, ``--errors``, the run log and its predictions folder; none
    may be an input, lie inside an input directory, or be another output. An existing run log is looked at
    (read-only) and refused if it is not a clfeval run log.
    """
    outputs: list[Any] = [("--predictions", predictions_out), ("--output", output), ("--errors", errors_out)]
    if errors_out is not None:
        errors_format(errors_out)
    if runs_db is not None:
        outputs += [("--runs-db", runs_db),
                    resolve_output(predictions_dir(runs_db), option="--runs-db", directory=True)]
    check_paths(inputs, outputs)
    log = None if runs_db is None else RunLog(runs_db)
    if predictions_out is not None:
        try:
            detect_format(predictions_out)
        except UsageError:
            raise UsageError(f"option --predictions: cannot tell the format of {str(predictions_out)!r} from its "
                             f"extension; use .csv, .tsv, .jsonl or .parquet.") from None
    return log


def check_compare_model(compare_model: str | None, model: str, predictions_out: Path | None,
                        errors_out: Path | None = None, probabilities: bool = False) -> None:
    """``--compare-model``: another model than ``--model``, and neither ``--predictions`` nor ``--errors`` (each
    of one model's predictions); ``--probabilities``: columns of the ``--predictions`` file, of one model."""
    if probabilities and compare_model is not None:
        raise UsageError("option --probabilities writes one model's class probabilities into the --predictions "
                         "file; leave out --compare-model for it (or run cv once per model).")
    if probabilities and predictions_out is None:
        raise UsageError("option --probabilities adds a p:<label> column per class to the out-of-fold predictions "
                         "file; give that file with --predictions FILE.")
    if compare_model is None:
        return
    if compare_model.lower() == model.lower():
        raise UsageError(f"option --compare-model {compare_model} is the model of --model; give another model "
                         f"(the second run uses every other option of the first).")
    if predictions_out is not None:
        raise UsageError("option --predictions writes one model's predictions; with --compare-model both runs' "
                         "out-of-fold predictions are kept in the run log (or run cv once per model).")
    if errors_out is not None:
        raise UsageError("option --errors analyses one model's predictions; leave out --compare-model for it.")


def errors_page(path: Path | None, result: Any, texts: list[str], ids: list[Any], experiment: Any,
                render: Callable[[Any, str], str]) -> tuple[Path, str] | None:
    """``--errors``: the analysis of the pooled predictions, in the model's stop list and stems (``experiment``:
    its config, seed and sep), rendered by ``render(analysis, format)`` in the format of the file's extension
    (None without a path)."""
    if path is None:
        return None
    config, seed, sep = experiment.config, experiment.seed, experiment.sep
    spec = f"stop={'sklearn' if config.stop_words else 'none'},stem={'porter' if config.stem else 'none'}"
    analysis = errors_of_run(result, texts, ids, processing=spec, seed=seed, multilabel=config.multilabel, sep=sep)
    return path, render(analysis, errors_format(path))


def _stage_text(files: OutputFiles, path: Path, text: str, option: str) -> None:
    files.stage(path, lambda p: Path(p).write_text(text, encoding="utf-8", newline=""), option=option)


def write_run(command: str, results: Sequence[Any], configs: Sequence[Any], *, settings: dict[str, Any],
              log: RunLog | None, record: dict[str, Any], render: Render, output: Path | None = None,
              predictions: Path | None = None, page: tuple[Path, str] | None = None,
              metric: str = "macro_f1") -> Written:
    """Write one run's outputs and record it (two runs: their comparison, each run recorded), outputs in place
    just before the record that names them commits; ``record``: data_path, data_hash and task of the record."""
    if len(results) == 2:
        return _write_comparison(command, results, configs, settings, log, record, render, output, metric)
    result = dataclasses.replace(results[0], predictions_path=None if predictions is None else str(predictions))
    final = [result]

    def stage(files: OutputFiles, run_id: int | None) -> None:
        final[0] = result if run_id is None else dataclasses.replace(result, run_id=run_id)
        if output is not None:
            _stage_text(files, output, render(final[0]), "--output")

    with OutputFiles() as files:
        if predictions is not None:
            write_predictions(result, predictions, files=files)
        if page is not None:
            _stage_text(files, page[0], page[1], "--errors")
        if log is None:
            stage(files, None)
            files.publish()
        else:
            log.record_result(command, result, settings=settings, outputs=files,
                              on_id=lambda run_id: stage(files, run_id), **record)
    told = ([] if predictions is None else [f"wrote the out-of-fold predictions to {predictions}"]) + \
        ([] if page is None else [f"wrote the error analysis to {page[0]}"])
    return Written(final[0], tuple(told), None if log is None else f"run {final[0].run_id}")


def _write_comparison(command: str, results: Sequence[Any], configs: Sequence[Any], settings: dict[str, Any],
                      log: RunLog | None, record: dict[str, Any], render: Render, output: Path | None,
                      metric: str) -> Written:
    """``--compare-model``: compare the two runs, record both (the second with ``--output`` staged, showing both
    run ids), and return the comparison."""
    comparison = compare_results(results[0], results[1], metric=metric, names=(configs[0].name, configs[1].name))
    if log is None:
        with OutputFiles() as files:
            if output is not None:
                _stage_text(files, output, render(comparison), "--output")
            files.publish()
        return Written(comparison, (), None)
    ids: list[int] = []
    with OutputFiles() as files:
        log.record_result(command, results[0], settings=dict(settings, model=configs[0].to_dict()), outputs=files,
                          on_id=ids.append, **record)
    with OutputFiles() as files:
        def stage(run_id: int) -> None:
            ids.append(run_id)
            if output is not None:
                _stage_text(files, output, render(_with_ids(comparison, ids[0], run_id)), "--output")

        log.record_result(command, results[1], settings=dict(settings, model=configs[1].to_dict()), outputs=files,
                          on_id=stage, **record)
    return Written(_with_ids(comparison, ids[0], ids[1]), (),
                   f"runs {ids[0]} ({configs[0].name}) and {ids[1]} ({configs[1].name})")


def _with_ids(comparison: Any, id_a: int | None, id_b: int | None) -> Any:
    return dataclasses.replace(comparison, a=dataclasses.replace(comparison.a, run_id=id_a),
                               b=dataclasses.replace(comparison.b, run_id=id_b))
