"""``clfeval reuters``: mission §9's Reuters-21578 study, re-run with clfeval's own parts.

Reads the original distribution (``--archive``), runs the nine parts of the
study (:func:`clfeval.studies._reuters.reuters_study`), prints each part's tables with
the published numbers beside ours, and records the run in the run log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import DEFAULT_RUNS_DB, emit, finish_run, message, output_options, progress, where_recorded
from clfeval.errors import InputFileError, MissingExtra


def _need_text_extra() -> None:
    MissingExtra.require("the Reuters study (scikit-learn models on Snowball-stemmed terms)",
                         [("sklearn", "scikit-learn"), ("Stemmer", "PyStemmer")], "text")


def _record(log: Any, result: Any, archive: Path, data_hash: str | None, files: Any, on_id: Any) -> int:
    d = result.to_dict()
    summary: dict[str, Any] = dict(result.summary())
    per_fold: list[dict[str, Any]] = []
    cv = result.cross_validation
    if cv is not None:
        summary["cv_micro_f1"] = cv["micro_f1"]
        summary["cv_macro_f1"] = cv["macro_f1"]
        per_fold = [dict(f, repeat=1) for f in cv["per_fold"]]
    sig = result.signature
    settings = {"model": sig.get("model"), "tokenization": {k: v for k, v in sig.get("tokenization", {}).items()
                                                            if k != "why"}, "processing": sig.get("processing"),
                "split": sig.get("split"), "parts": list(result.parts), "category": result.terms["category"]
                if result.terms else None, "samples": sig.get("samples"), "seed": sig.get("seed")}
    protocol = {"kind": "fixed split", "split": "ModApte (" + result.split["choice"] + ")",
                "train": result.split["train"], "test": result.split["test"],
                "cross_validation": None if cv is None else {"folds": cv["folds"], "splitter": cv["splitter"]}}
    return log.record("reuters", settings=settings, seed=sig.get("seed"), protocol=protocol, summary=summary,
                      per_fold=per_fold, data_path=str(archive.resolve()), data_hash=data_hash,
                      task="Reuters-21578 ModApte, ten largest categories", versions=sig.get("versions"), result=d,
                      outputs=files, on_id=on_id)


@click.command()
@click.option("--archive", required=True, type=click.Path(path_type=Path),
              help="The original reuters21578.tar.gz, or a directory holding its 22 SGML files "
                   "(`clfeval datasets fetch reuters21578` downloads it).")
@click.option("--parts", default="all", show_default=True,
              help="Which parts to run: numbers 1-9 or names separated by commas (1 binary, 2 train_vs_test, "
                   "3 cross_validation, 4 thresholds, 5 average_precision, 6 keyword_rule, 7 multiclass, "
                   "8 significance, 9 terms).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the cross-validation folds, the development split and the bootstrap.")
@click.option("--category", default="grain", show_default=True,
              help="Category of the term analysis (part 9): one of the 90 ModApte categories.")
@click.option("--split", "split_choice", type=click.Choice(["published", "definition"]), default="published",
              show_default=True,
              help="published: the published 7,769 training stories (NEWID 1199 left out, see the output); "
                   "definition: the ModApte definition's 7,770.")
@click.option("--samples", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Bootstrap replicates of the significance part (at most 1,000,000).")
@click.option("--processing", "processing_spec", default=None, metavar="SPEC",
              help="One text processing for every part instead of each part's preset (binary parts: 'binary'; "
                   "part 7: 'multiclass'): a preset name (binary, multiclass) and/or key=value items separated by "
                   "commas, keys title 1|2, brief text|title, stop none|english179|sklearn, "
                   "stem none|porter|snowball; e.g. 'title=1,brief=title,stop=english179,stem=porter'. A key left "
                   "out keeps the preset's value, or without a preset this command's default, the binary preset's: "
                   "title=2, brief=text, stop=none, stem=snowball.")
@click.option("--runs-db", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_RUNS_DB,
              show_default=True, help="The run log (SQLite) that records this run.")
@click.option("--no-log", is_flag=True, help="Do not record the run in the run log.")
@output_options
def reuters(archive: Path, parts: str, seed: int, category: str, split_choice: str, samples: int,
            processing_spec: str | None, runs_db: Path, no_log: bool, fmt: str, output: Path | None) -> None:
    """Re-run the Reuters-21578 reference study (ModApte split) and print it beside the published numbers.

    One binary multinomial Naive Bayes per each of the ten largest categories
    (title counted twice + body, Snowball-stemmed terms, add-one smoothing,
    decision at log-odds 0), the train–test gap, 10-fold cross-validation,
    threshold tuning on a development split, average precision, the keyword
    rule for grain, the single-label 8-class version (title once, NLTK's 179
    English stop words, Porter stems), a significance test of NB against the
    keyword rule, and the φ–δ analysis of terms. Each part states its text
    processing; --processing runs every part with one.
    """
    _need_text_extra()
    from clfeval.cli._experiment_cmd import run_outputs
    from clfeval.core import check_samples
    from clfeval.errors import ClfevalError
    from clfeval.io import OutputFiles, outputs as _outputs
    from clfeval.protocols import file_hash
    from clfeval.studies import parse_parts, reuters_study, study_steps
    from clfeval.text import parse_processing

    chosen = parse_parts(parts)
    try:
        processing = parse_processing(processing_spec)
    except ClfevalError as e:
        raise e.with_names({"processing": "--processing"}) from None
    check_samples(samples, option="--samples")
    if not archive.exists():
        raise InputFileError(f"the archive {str(archive)!r} (option --archive) does not exist; give the path of the "
                             f"original reuters21578.tar.gz or of a directory holding its 22 files reut2-000.sgm … "
                             f"reut2-021.sgm, or download it with `clfeval datasets fetch reuters21578 --dest DIR`.")
    existed = runs_db.exists()
    log = run_outputs([("--archive", archive)], output, None if no_log else runs_db)  # before the long part
    data_hash = file_hash(archive) if log is not None and archive.is_file() else None
    with progress("reuters: the study", study_steps(chosen)) as advance:
        last = [0]

        def tick(done: int, _total: int, _what: str) -> None:
            advance(done - last[0])
            last[0] = done

        result = reuters_study(archive, parts=chosen, seed=seed, category=category,
                               published_split=split_choice == "published", samples=samples,
                               processing=processing, progress=tick)
    _outputs.checkpoint("run finished")
    record = None if log is None else (lambda files, on_id: _record(log, result, archive, data_hash, files, on_id))
    with OutputFiles() as files:
        result = finish_run(result, fmt, output, files, record)
    if log is not None:
        message(where_recorded(f"run {result.run_id}", runs_db, existed))
    if output is not None:
        message(f"wrote {output}")
    else:
        emit(result, fmt, None)
