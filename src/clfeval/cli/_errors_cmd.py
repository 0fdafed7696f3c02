"""``clfeval errors PREDICTIONS``: the misclassified documents of every confused pair, and what they share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from clfeval.cli._common import check_paths, emit, input_path, output_options, reading_progress, sep_option
from clfeval.cli._scale import engine_and_output, engine_options, memory_option
from clfeval.cli._slices import error_slice_options


@click.command("errors")
@click.argument("predictions", type=click.Path(path_type=Path))
@click.option("--gold", default="gold", show_default=True, help="Column of gold labels.")
@click.option("--pred", default="pred", show_default=True, help="Column of predicted labels.")
@click.option("--id", "id_col", default=None,
              help="Column of item ids (examples are sampled by a keyed hash of the id; without ids, of the file "
                   "and row). With --texts: the id column of both files.")
@click.option("--text", default="text", show_default=True, help="Column of the documents' texts.")
@click.option("--texts", type=click.Path(path_type=Path), default=None,
              help="A second file with the texts (columns --id and --text), joined by id through compare's id "
                   "join (hash partitions on disk beyond --memory).")
@click.option("--score", default=None, help="Score of each item's predicted class: the most confident mistakes too.")
@click.option("--min-count", type=int, default=5, show_default=True, help="Cells listed from this many documents.")
@click.option("--examples", type=int, default=5, show_default=True,
              help="Examples per cell (and most confident mistakes, with --score); 0: none.")
@click.option("--terms", type=int, default=10, show_default=True, help="Distinctive terms per side.")
@click.option("--chars", type=int, default=300, show_default=True, help="Characters shown of each example.")
@click.option("--prior-strength", type=float, default=1000.0, show_default=True,
              help="α0 of the informative Dirichlet prior (Monroe, Colaresi & Quinn 2008).")
@click.option("--z-min", type=float, default=1.96, show_default=True, help="Terms listed from this z (uncorrected).")
@click.option("--processing", default=None, metavar="SPEC",
              help="Stop words and stemming, in the grammar of `clfeval reuters --processing`: a preset (binary, "
                   "multiclass) and/or the keys stop none|english179|sklearn and stem none|porter|snowball, e.g. "
                   "'stop=english179,stem=porter' or 'multiclass,stem=snowball'. A key left out keeps the preset's "
                   "value, or without a preset this command's default: stop=none, stem=none (the default of the "
                   "option too). The Reuters keys title and brief are refused: the texts are taken as given.")
@click.option("--token-pattern", default=None,
              help="Regular expression of a token (Python re syntax), matched lower-cased (default Unicode letters, "
                   "[^\\W\\d_]+). It must match one character or more (a pattern that can match none, such as "
                   "\\b, $, (?=a) or x*, is refused), holds no capturing group, and is matched by the regex "
                   "package within 0.5 s per document: a document that takes longer is skipped and named in a note; "
                   "past 20 such documents the run stops (exit 1).")
@click.option("--seed", type=int, default=0, show_default=True, help="Key of the examples' hash.")
@click.option("--multilabel", is_flag=True,
              help="Each cell is a set of labels (separated by --sep; JSON arrays in JSONL): every category's false "
                   "negatives and false positives are the cells.")
@click.option("--label-issues", type=click.Path(path_type=Path), default=None, metavar="RESULT",
              help="Mark the likely gold errors in every cell, shown first: the JSON of `clfeval label-issues` or its "
                   "--flagged file (CSV/Parquet: id, suggested), joined by --id.")
@sep_option
@error_slice_options
@click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
              help="Format of the predictions (default: from the extension).")
@click.option("--encoding", type=click.Choice(["utf-8", "latin-1"]), default="utf-8", show_default=True,
              help="Text encoding of CSV, TSV and JSONL input.")
@memory_option()
@engine_options
@output_options
def errors(predictions: Path, **o: Any) -> None:
    """Read the errors: for every off-diagonal cell gold → predicted with --min-count documents, largest
    first, its count and share of gold, the opposite cell, examples (bottom-k by a BLAKE2b hash keyed by
    --seed: the same however the input is split), and the terms over-represented in the mistakes against
    the correctly classified gold documents and against the correctly classified predicted ones (weighted
    log-odds ratio with an informative Dirichlet prior; z-scores uncorrected).

    Text without spaces between words (Chinese, Thai) must be tokenised first; the output says so when the
    documents yield almost no tokens. --format html: the confusion heatmap links every listed cell to its
    section (z-score bars, examples with the terms marked).

    With --multilabel (label sets) every category c has two cells: its false negatives, compared with its
    true positives (what made the model miss c) and its true negatives (what they share with the documents
    rightly left without c), and its false positives, compared with its true negatives (what drew c to
    them) and its true positives (what they share with c).
    """
    check_paths([("PREDICTIONS", predictions), ("--texts", o["texts"]), ("--label-issues", o["label_issues"])],
                [("--output", o["output"])])
    engine, fmt, output = engine_and_output(o)
    from clfeval.front import error_analysis

    data = input_path(predictions, input_format=o["input_format"], encoding=o["encoding"])
    texts = None if o["texts"] is None else input_path(o["texts"], "--texts", encoding=o["encoding"])
    o.update(texts=texts, id=o.pop("id_col"), multilabel=o["multilabel"] or None)
    emit(error_analysis(data, o.pop("pred"), **o, engine=engine, progress=reading_progress), fmt, output)
