"""``clfeval.cv`` and ``clfeval.holdout``: a text model trained and evaluated under an honest protocol.

Each reads its data (texts and labels as arrays, a table with column names, or a PATH: one data file, as
``clfeval cv DATA`` reads it), checks every setting before any work (:func:`experiment`: the model, the protocol,
the metrics, the threshold step), has the runner admit it (the capability table: fitting models is not
distributed, so the Dask engine refuses with the table's reason) and returns the
:class:`~clfeval.protocols.ProtocolResult` of :func:`clfeval.protocols.run_protocol`, with its engine block.
The command line builds the same :class:`Experiment`, reads the data once through :func:`read_data` and runs
each model with :func:`run_experiment` (the run log and the files it writes are its own concerns).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clfeval.engines import runner
from clfeval.errors import UsageError
from clfeval.front._block import with_engine
from clfeval.io import inputs
from clfeval.protocols import Protocol, ProtocolResult, ThresholdStep

if TYPE_CHECKING:
    import os
    from typing import TypeAlias

    import numpy.typing as npt
    import pandas
    import polars
    import pyarrow

    from clfeval.engines import Dask, Local

    #: The texts as an array (labels= then holds the labels), a table with named columns, or a PATH (one file).
    Data: TypeAlias = npt.ArrayLike | pandas.DataFrame | polars.DataFrame | pyarrow.Table | str | os.PathLike[str]
    #: Called before the first fold and after every fold: (done, total, what).
    Progress: TypeAlias = Callable[[int, int, str], None]

__all__ = ["cv", "holdout", "Experiment", "experiment", "read_data", "run_experiment"]

#: The operations' one capability: fitting models (its row in clfeval.engines._capabilities).
_FIT = "model"


@dataclass(frozen=True)
class Experiment:
    """Every setting of one ``cv`` or ``holdout`` run, checked (:func:`experiment` builds it)."""

    operation: str
    config: Any  # clfeval.text.ModelConfig
    protocol: Protocol
    seed: int
    metrics: tuple[str, ...]
    zero_division: str
    step: ThresholdStep | None
    columns: dict[str, str | None]  # text, label, id
    multilabel: bool
    sep: str
    reading: dict[str, Any]  # input_format, encoding, normalize
    threshold: dict[str, Any] | None  # objective, dev_size, positive: the settings the run log records

    def with_model(self, model: str) -> Experiment:
        """The same run with another of clfeval's text models (``--compare-model``)."""
        return dataclasses.replace(self, config=dataclasses.replace(self.config, name=model.lower()))

    def settings(self) -> dict[str, Any]:
        """The settings the run log records with the run."""
        return {"model": self.config.to_dict(), "protocol": dataclasses.asdict(self.protocol), "seed": self.seed,
                "columns": {"text": self.columns["text"], "label": self.columns["label"]},
                "zero_division": self.zero_division, "threshold": self.threshold}


def experiment(operation: str, protocol: dict[str, Any], *, text: str = "text", label: str = "label",
               id: str | None = None, model: str = "nb", ngrams: int | str = 1, stem: bool = False,
               stop_words: bool = False, multilabel: bool = False, sep: str = "|", seed: int = 0,
               metrics: Sequence[str] = (), tune_threshold: str | None = None, dev_size: float = 0.2,
               positive: str | None = None, cost_fp: float = 1.0, cost_fn: float = 1.0,
               zero_division: str | int | float = "0", input_format: str | None = None, encoding: str = "utf-8",
               normalize_labels: str | None = None) -> Experiment:
    """Every setting of a run checked before any work: the text extra, the metric names, the model, the protocol
    and the threshold step (each refusal naming its parameter)."""
    from clfeval.errors import MissingExtra

    MissingExtra.require("this command (it trains scikit-learn text models)", [("sklearn", "scikit-learn")], "text")
    if stem:
        MissingExtra.require("option --stem", [("Stemmer", "PyStemmer")], "text")
    from clfeval.protocols import check_metric_names, default_metrics
    from clfeval.text import ModelConfig

    check_metric_names(tuple(metrics), multilabel)
    cfg = ModelConfig(str(model).lower(), ngrams=int(ngrams), stem=stem, stop_words=stop_words, multilabel=multilabel)
    proto = Protocol(**protocol)
    step = None
    if tune_threshold is not None:
        step = ThresholdStep.for_objective(tune_threshold, dev_size=dev_size, positive=positive, cost_fp=cost_fp,
                                           cost_fn=cost_fn)
    elif positive is not None:
        raise UsageError(lambda p, t: f"option {p} names the positive class of {t}; give {t} too.",
                         params=["positive", "tune_threshold"])
    zd = str(zero_division).lower()
    return Experiment(operation, cfg, proto, seed, tuple(dict.fromkeys(default_metrics(multilabel) + tuple(metrics))),
                      zd, step, {"text": text, "label": label, "id": id}, multilabel, sep,
                      {"input_format": input_format, "encoding": encoding, "normalize": normalize_labels},
                      None if step is None else {"objective": step.name, "dev_size": dev_size, "positive": positive})


def read_data(data: Any, exp: Experiment, labels: Any = None) -> tuple[list[str], list[Any], list[Any]]:
    """Texts, labels and ids of the input, each checked: arrays (``data`` the texts, ``labels`` the labels; ids
    the row numbers from 1), a table with named columns, or a PATH (one data file, or standard input)."""
    from clfeval.protocols import read_text_data, text_data_of

    c = exp.columns
    if inputs.is_table(data):
        table = inputs.check_table(data)
        return text_data_of(table, str(c["text"]), str(c["label"]), c["id"], exp.multilabel, where="the table",
                            normalize=exp.reading["normalize"], sep=exp.sep)
    if labels is None and inputs.is_path(data):
        return read_text_data(data, str(c["text"]), str(c["label"]), c["id"], exp.multilabel,
                              exp.reading["input_format"], encoding=exp.reading["encoding"],
                              normalize=exp.reading["normalize"], sep=exp.sep)
    if labels is None:
        raise UsageError(lambda d, lab: f"with the texts as an array ({d}), give their labels as an array too "
                                        f"({lab}=...).", params=["data", "labels"])
    import pyarrow as pa

    inputs.check_items(data, "data")
    inputs.check_items(labels, "labels")
    texts, labs = list(data), list(labels)
    if len(texts) != len(labs):
        from clfeval.errors import DataError

        raise DataError(f"the texts and their labels differ in number: {len(texts)} texts, {len(labs)} labels.")
    table = pa.table({"text": pa.array(texts, type=pa.string()), "label": pa.array(labs)})
    return text_data_of(table, "text", "label", None, exp.multilabel, where="the arrays",
                        normalize=exp.reading["normalize"], sep=exp.sep)


def run_experiment(exp: Experiment, texts: list[str], labels: list[Any], ids: list[Any], *,
                   progress: Callable[[int, int, str], None] | None = None) -> ProtocolResult:
    """The model of ``exp`` fitted, predicted and scored fold after fold (:func:`clfeval.protocols.run_protocol`)."""
    from clfeval.protocols import run_protocol

    cfg = exp.config
    return run_protocol(cfg.build(exp.seed), texts, labels, protocol=exp.protocol, seed=exp.seed, ids=ids,
                        multilabel=exp.multilabel, sep=exp.sep, metrics=exp.metrics, zero_division=exp.zero_division,
                        threshold=exp.step, model=dict(cfg.to_dict(), description=cfg.describe()), progress=progress)


def _run(exp: Experiment, data: Any, labels: Any, engine: Any, progress: Any) -> ProtocolResult:
    run = runner(engine)
    run.admit(exp.operation, {_FIT: True}, stdin={"data": labels is None and inputs.is_stdin(data)})
    texts, labs, ids = read_data(data, exp, labels)
    result = run_experiment(exp, texts, labs, ids, progress=progress)
    return with_engine(result, run.block("memory"))


def cv(data: Data, labels: npt.ArrayLike | None = None, *, text: str = "text", label: str = "label",
       id: str | None = None, model: str = "nb", ngrams: int = 1, stem: bool = False, stop_words: bool = False,
       multilabel: bool = False, sep: str = "|", folds: int = 10, stratified: bool = False, repeats: int = 1,
       seed: int = 0, metrics: Sequence[str] = (), tune_threshold: str | None = None, dev_size: float = 0.2,
       positive: str | None = None, cost_fp: float = 1.0, cost_fn: float = 1.0, zero_division: str = "0",
       input_format: str | None = None, encoding: str = "utf-8", normalize_labels: str | None = None,
       engine: Local | Dask | None = None, progress: Progress | None = None) -> ProtocolResult:
    """k-fold cross-validation of one of clfeval's text models: what ``clfeval cv DATA`` computes.

    Every item is tested once per repeat by a model that never saw it; the vocabulary, idf and everything else
    fitted (a decision threshold with ``tune_threshold``) is fitted on the training folds only.

    Parameters
    ----------
    data : array of str, DataFrame or PATH
        The texts (``labels`` then holds their labels; ids are the row numbers from 1), a table with named
        columns, or a data file (CSV, TSV, JSONL or Parquet).
    labels : array, optional
        With texts as an array: one label per text (a label set with ``multilabel``).
    text, label, id : str
        The columns of a table or PATH (``id``: default ``'id'`` when present, else the row number from 1).
    model : {"nb", "bnb", "logreg", "svm"}
    ngrams, stem, stop_words, multilabel, sep
        The model's features and the labels' form (see ``clfeval cv --help``).
    folds, stratified, repeats, seed
        The protocol: k, stratification, repeats, the seed of every split.
    metrics : sequence of str
        Metrics reported beside the default ones.
    tune_threshold, dev_size, positive, cost_fp, cost_fn
        A decision threshold chosen inside every training fold on a development split.
    zero_division : {"0", "1", "nan"}
    input_format, encoding, normalize_labels
        How a PATH is read.
    engine : Local, optional
        The local engine (the default); ``Dask`` is refused: fitting models is not distributed.
    progress : callable (done, total, what), optional

    Returns
    -------
    ProtocolResult
        Its ``to_dict()`` is the JSON of ``clfeval cv --no-log --format json``.

    Examples
    --------
    >>> import clfeval
    >>> texts = ["cheap pills now", "meeting at noon", "win cash now", "lunch at noon"] * 5
    >>> r = clfeval.cv(texts, ["spam", "ham", "spam", "ham"] * 5, folds=5, seed=0)
    >>> r.spread["accuracy"].mean, r.engine.name
    (1.0, 'local')
    """
    exp = experiment("cv", {"kind": "kfold", "folds": folds, "stratified": stratified, "repeats": repeats},
                     text=text, label=label, id=id, model=model, ngrams=ngrams, stem=stem, stop_words=stop_words,
                     multilabel=multilabel, sep=sep, seed=seed, metrics=metrics, tune_threshold=tune_threshold,
                     dev_size=dev_size, positive=positive, cost_fp=cost_fp, cost_fn=cost_fn,
                     zero_division=zero_division, input_format=input_format, encoding=encoding,
                     normalize_labels=normalize_labels)
    return _run(exp, data, labels, engine, progress)


def holdout(data: Data, labels: npt.ArrayLike | None = None, *, text: str = "text", label: str = "label",
            id: str | None = None, model: str = "nb", ngrams: int = 1, stem: bool = False, stop_words: bool = False,
            multilabel: bool = False, sep: str = "|", test_size: float = 0.2, val_size: float = 0.0,
            stratified: bool = False, repeats: int = 1, seed: int = 0, metrics: Sequence[str] = (),
            tune_threshold: str | None = None, dev_size: float = 0.2, positive: str | None = None,
            cost_fp: float = 1.0, cost_fn: float = 1.0, zero_division: str = "0", input_format: str | None = None,
            encoding: str = "utf-8", normalize_labels: str | None = None, engine: Local | Dask | None = None,
            progress: Progress | None = None) -> ProtocolResult:
    """Holdout evaluation of one of clfeval's text models: what ``clfeval holdout DATA`` computes.

    Train/test (``test_size``) or train/validation/test (``val_size`` > 0), optionally repeated over independent
    random splits; every other parameter is :func:`cv`'s.

    Returns
    -------
    ProtocolResult
        Its ``to_dict()`` is the JSON of ``clfeval holdout --no-log --format json``.

    Examples
    --------
    >>> import clfeval
    >>> texts = ["cheap pills now", "meeting at noon", "win cash now", "lunch at noon"] * 5
    >>> r = clfeval.holdout(texts, ["spam", "ham", "spam", "ham"] * 5, test_size=0.25, seed=0)
    >>> r.folds[0].n_train, r.folds[0].n_test
    (15, 5)
    """
    exp = experiment("holdout", {"kind": "holdout", "test_size": test_size, "val_size": val_size,
                                 "stratified": stratified, "repeats": repeats},
                     text=text, label=label, id=id, model=model, ngrams=ngrams, stem=stem, stop_words=stop_words,
                     multilabel=multilabel, sep=sep, seed=seed, metrics=metrics, tune_threshold=tune_threshold,
                     dev_size=dev_size, positive=positive, cost_fp=cost_fp, cost_fn=cost_fn,
                     zero_division=zero_division, input_format=input_format, encoding=encoding,
                     normalize_labels=normalize_labels)
    return _run(exp, data, labels, engine, progress)
