"""``clfeval reuters``: mission §9's Reuters-21578 study, re-run with clfeval's own parts: the original distribution
(``--archive``) read, the study's parts run (:func:`clfeval.studies._reuters.reuters_study`) and printed beside the
published numbers, the run recorded in the run log (:mod:`clfeval.studies._reuters_run`)."""

from __future__ import annotations

from pathlib import Path

import click

from clfeval.cli._common import DEFAULT_RUNS_DB, emit, finish_run, message, output_options, progress, ticks


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
              show_default=True, help="published: the published 7,769 training stories (NEWID 1199 left out, see the "
                                      "output); definition: the ModApte definition's 7,770.")
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

    One binary multinomial Naive Bayes per each of the ten largest categories (title counted twice + body,
    Snowball-stemmed terms, add-one smoothing, decision at log-odds 0), the train–test gap, 10-fold cross-validation,
    threshold tuning on a development split, average precision, the keyword rule for grain, the single-label 8-class
    version (title once, NLTK's 179 English stop words, Porter stems), a significance test of NB against the keyword
    rule, and the φ–δ analysis of terms. Each part states its text processing; --processing runs every part with one.
    """
    import clfeval.studies as studies
    from clfeval.cli._common import where_recorded
    from clfeval.core import check_samples
    from clfeval.io import OutputFiles, outputs as _outputs
    from clfeval.text import parse_processing

    studies.need_text_extra()
    chosen = studies.parse_parts(parts)
    processing = parse_processing(processing_spec)  # its errors name --processing (main's option_names)
    check_samples(samples, option="--samples")
    existed = runs_db.exists()
    log, data_hash = studies.open_reuters_run(archive, output, None if no_log else runs_db)  # before the long part
    with progress("reuters: the study", studies.study_steps(chosen)) as advance:
        result = studies.reuters_study(archive, parts=chosen, seed=seed, category=category, samples=samples,
                                       published_split=split_choice == "published", processing=processing,
                                       progress=ticks(advance))
    _outputs.checkpoint("run finished")
    record = None if log is None else studies.reuters_record(log, result, archive, data_hash)
    with OutputFiles() as files:
        result = finish_run(result, fmt, output, files, record)
    if log is not None:
        message(where_recorded(f"run {result.run_id}", runs_db, existed))
    message(f"wrote {output}") if output is not None else emit(result, fmt, None)
