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

__all__ = ["cv", "holdout", "Experiment", "experiment", "read_data", "read_recorded", "run_experiment"]

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
    probabilities: bool = False  # p:<label> columns of predict_proba in the predictions

    @property
    def runs(self) -> int:
        """The folds of all repeats (k-fold), or the repeats (holdout): what a progress bar counts."""
        p = self.protocol
        return p.folds * p.repeats if p.kind == "kfold" else p.repeats

    @property
    def task(self) -> str:
        """The task the run log records: the label column (and whether its cells are label sets)."""
        return f"{self.columns['label']} (label sets)" if self.multilabel else str(self.columns["label"])

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
               normalize_labels: str | None = None, probabilities: bool = False) -> Experiment:
    """Every setting of a run checked before any work: the text extra, the metric names, the model, the protocol,
    the threshold step and whether the model has the class probabilities asked for (each refusal naming its
    parameter)."""
    from clfeval.errors import MissingExtra

    MissingExtra.require("this command (it trains scikit-learn text models)", [("sklearn", "scikit-learn")], "text")
    if stem:
        MissingExtra.require("option --stem", [("Stemmer", "PyStemmer")], "text")
    from clfeval.protocols import check_metric_names, check_probabilities, default_metrics
    from clfeval.text import MODEL_NAMES, ModelConfig

    check_metric_names(tuple(metrics), multilabel)
    cfg = ModelConfig(str(model).lower(), ngrams=int(ngrams), stem=stem, stop_words=stop_words, multilabel=multilabel)
    if probabilities:
        check_probabilities(cfg.build(seed), multilabel, f"{cfg.name} ({MODEL_NAMES[cfg.name]})")
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
                      None if step is None else {"objective": step.name, "dev_size": dev_size, "positive": positive},
                      bool(probabilities))


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


def read_recorded(src: Any, exp: Experiment, logged: bool) -> tuple[list[str], list[Any], list[Any], dict[str, Any]]:
    """:func:`read_data` of a data file or standard input, and what a run log records of it (``logged``): its
    path, the SHA-256 of its bytes (a file's hashed before it is read, standard input's as read) and the task."""
    from pathlib import Path

    from clfeval.protocols import file_hash

    on_disk = isinstance(src, Path)
    data_hash = file_hash(src) if logged and on_disk else None  # the bytes about to be read
    texts, labels, ids = read_data(src, exp)
    record = {"data_path": str(src.resolve()) if on_disk else str(src), "task": exp.task,
              "data_hash": src.sha256() if logged and not on_disk else data_hash}
    return texts, labels, ids, record


def run_experiment(exp: Experiment, texts: list[str], labels: list[Any], ids: list[Any], *,
                   progress: Callable[[int, int, str], None] | None = None) -> ProtocolResult:
    """The model of ``exp`` fitted, predicted and scored fold after fold (:func:`clfeval.protocols.run_protocol`)."""
    from clfeval.protocols import run_protocol

    cfg = exp.config
    return run_protocol(cfg.build(exp.seed), texts, labels, protocol=exp.protocol, seed=exp.seed, ids=ids,
                        multilabel=exp.multilabel, sep=exp.sep, metrics=exp.metrics, zero_division=exp.zero_division,
                        threshold=exp.step, model=dict(cfg.to_dict(), description=cfg.describe()), progress=progress,
                        probabilities=exp.probabilities)


def _run(exp: Experiment, data: Any, labels: Any, engine: Any, progress: Any) -> ProtocolResult:
    run = runner(engine)
    run.admit(exp.operation, {_FIT: True}, stdin={"data": labels is None and inputs.is_stdin(data)})
    texts, labs, ids = read_data(data, exp, labels)
    result = run_experiment(exp, texts, labs, ids, progress=progress)
    located: ProtocolResult = with_engine(result, run.block("memory"))
    return located


def cv(data: Data, labels: npt.ArrayLike | None = None, *, text: str = "text", label: str = "label",
       id: str | None = None, model: str = "nb", ngrams: int = 1, stem: bool = False, stop_words: bool = False,
       multilabel: bool = False, sep: str = "|", folds: int = 10, stratified: bool = False, repeats: int = 1,
       seed: int = 0, metrics: Sequence[str] = (), tune_threshold: str | None = None, dev_size: float = 0.2,
       positive: str | None = None, cost_fp: float = 1.0, cost_fn: float = 1.0, zero_division: str = "0",
       input_format: str | None = None, encoding: str = "utf-8", normalize_labels: str | None = None,
       probabilities: bool = False, engine: Local | Dask | None = None,
       progress: Progress | None = None) -> ProtocolResult:
    """k-fold cross-validation of one of clfeval's text models: what ``clfeval cv DATA`` computes.

    Every item is tested once per repeat by a model that never saw it; the vocabulary, idf and everything else
    fitted (a decision threshold with ``tune_threshold``) is fitted on the training folds only.

    Parameters
    ----------
    data : array of str, DataFrame or PATH
        The texts (``labels`` then holds their labels; ids are the row numbers from 1), a table with named
        columns, or a data file (CSV, TSV, JSONL or Parquet).
    labels : array, optional
        With texts as an array: one label per text (a label set with ``multilabel``: lists, or text joined by
        ``sep``).
    text : str
        The column of the documents in a table or PATH.
    label : str
        The column of the labels in a table or PATH.
    id : str, optional
        The column of item ids (default: ``'id'`` when present, else the row number from 1).
    model : {"nb", "bnb", "logreg", "svm"}
        Multinomial Naive Bayes (add-one), Bernoulli NB, tf-idf + logistic regression, tf-idf + linear SVM.
    ngrams : int
        1: unigrams; 2: unigrams and bigrams.
    stem : bool
        Porter-stem the tokens (PyStemmer).
    stop_words : bool
        Drop English stop words (scikit-learn's list).
    multilabel : bool
        Each item carries a set of labels (one classifier per label).
    sep : str
        The separator of labels within a multi-label cell.
    folds : int
        k of k-fold cross-validation.
    stratified : bool
        Keep the class proportions in every part (multi-label: iterative stratification).
    repeats : int
        Repeat the protocol with different random splits.
    seed : int
        The seed of every random split.
    metrics : sequence of str
        Metrics reported beside the default ones (``f1:LABEL``, ...).
    tune_threshold : str, optional
        Choose the decision threshold inside every training fold, on a development split, for this objective:
        ``f1``, ``f0.5``, ``f2``, ``cost``, ``precision>=X`` or ``recall>=X`` (binary or multi-label data).
    dev_size : float
        With ``tune_threshold``: the share of each training fold held out to choose the cut.
    positive : str, optional
        With ``tune_threshold`` on binary data: the positive class (default: the second label).
    cost_fp : float
        With ``tune_threshold="cost"``: the cost of a false positive.
    cost_fn : float
        With ``tune_threshold="cost"``: the cost of a false negative.
    zero_division : {"0", "1", "nan"}
        The value of 0/0 ratios; ``nan`` leaves them out of averages.
    input_format : str, optional
        The format of a PATH: ``csv``, ``tsv``, ``jsonl`` or ``parquet`` (default: from its extension).
    encoding : {"utf-8", "latin-1"}
        The text encoding of a CSV, TSV or JSONL PATH.
    normalize_labels : str, optional
        ``nfc``: Unicode-normalise text labels (NFC) so that labels that only print alike are one class.
    probabilities : bool
        Add to ``predictions`` a column ``p:<label>`` per class (in the order of the labels): the model's
        ``predict_proba`` for each item, from the model that did not see it; each row sums to 1. Single-label
        data and a model with class probabilities (nb, bnb, logreg; svm has none and is refused).
    engine : Local, optional
        The local engine (the default); ``Dask`` is refused with the capability table's reason: fitting models
        is not distributed.
    progress : callable (done, total, what), optional
        Called before the first fold and after every fold.

    Returns
    -------
    ProtocolResult
        Its ``to_dict()`` is the JSON of ``clfeval cv --no-log --format json`` and the engine block.

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
                     normalize_labels=normalize_labels, probabilities=probabilities)
    return _run(exp, data, labels, engine, progress)


def holdout(data: Data, labels: npt.ArrayLike | None = None, *, text: str = "text", label: str = "label",
            id: str | None = None, model: str = "nb", ngrams: int = 1, stem: bool = False, stop_words: bool = False,
            multilabel: bool = False, sep: str = "|", test_size: float = 0.2, val_size: float = 0.0,
            stratified: bool = False, repeats: int = 1, seed: int = 0, metrics: Sequence[str] = (),
            tune_threshold: str | None = None, dev_size: float = 0.2, positive: str | None = None,
            cost_fp: float = 1.0, cost_fn: float = 1.0, zero_division: str = "0", input_format: str | None = None,
            encoding: str = "utf-8", normalize_labels: str | None = None, probabilities: bool = False,
            engine: Local | Dask | None = None, progress: Progress | None = None) -> ProtocolResult:
    """Holdout evaluation of one of clfeval's text models: what ``clfeval holdout DATA`` computes.

    Train/test (``test_size``) or train/validation/test (``val_size`` > 0), optionally repeated over independent
    random splits.

    Parameters
    ----------
    data : array of str, DataFrame or PATH
        The texts (``labels`` then holds their labels; ids are the row numbers from 1), a table with named
        columns, or a data file (CSV, TSV, JSONL or Parquet).
    labels : array, optional
        With texts as an array: one label per text (a label set with ``multilabel``: lists, or text joined by
        ``sep``).
    text : str
        The column of the documents in a table or PATH.
    label : str
        The column of the labels in a table or PATH.
    id : str, optional
        The column of item ids (default: ``'id'`` when present, else the row number from 1).
    model : {"nb", "bnb", "logreg", "svm"}
        Multinomial Naive Bayes (add-one), Bernoulli NB, tf-idf + logistic regression, tf-idf + linear SVM.
    ngrams : int
        1: unigrams; 2: unigrams and bigrams.
    stem : bool
        Porter-stem the tokens (PyStemmer).
    stop_words : bool
        Drop English stop words (scikit-learn's list).
    multilabel : bool
        Each item carries a set of labels (one classifier per label).
    sep : str
        The separator of labels within a multi-label cell.
    test_size : float
        The share of the items held out for testing.
    val_size : float
        The share of the items held out for validation (train/validation/test; 0: none).
    stratified : bool
        Keep the class proportions in every part (multi-label: iterative stratification).
    repeats : int
        Repeat the protocol with different random splits.
    seed : int
        The seed of every random split.
    metrics : sequence of str
        Metrics reported beside the default ones (``f1:LABEL``, ...).
    tune_threshold : str, optional
        Choose the decision threshold inside every training fold, on a development split, for this objective:
        ``f1``, ``f0.5``, ``f2``, ``cost``, ``precision>=X`` or ``recall>=X`` (binary or multi-label data).
    dev_size : float
        With ``tune_threshold``: the share of each training fold held out to choose the cut.
    positive : str, optional
        With ``tune_threshold`` on binary data: the positive class (default: the second label).
    cost_fp : float
        With ``tune_threshold="cost"``: the cost of a false positive.
    cost_fn : float
        With ``tune_threshold="cost"``: the cost of a false negative.
    zero_division : {"0", "1", "nan"}
        The value of 0/0 ratios; ``nan`` leaves them out of averages.
    input_format : str, optional
        The format of a PATH: ``csv``, ``tsv``, ``jsonl`` or ``parquet`` (default: from its extension).
    encoding : {"utf-8", "latin-1"}
        The text encoding of a CSV, TSV or JSONL PATH.
    normalize_labels : str, optional
        ``nfc``: Unicode-normalise text labels (NFC) so that labels that only print alike are one class.
    probabilities : bool
        Add to ``predictions`` a column ``p:<label>`` per class (in the order of the labels): the model's
        ``predict_proba`` for each item, from the model that did not see it; each row sums to 1. Single-label
        data and a model with class probabilities (nb, bnb, logreg; svm has none and is refused).
    engine : Local, optional
        The local engine (the default); ``Dask`` is refused with the capability table's reason: fitting models
        is not distributed.
    progress : callable (done, total, what), optional
        Called before the first fold and after every fold.

    Returns
    -------
    ProtocolResult
        Its ``to_dict()`` is the JSON of ``clfeval holdout --no-log --format json`` and the engine block.

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
                     normalize_labels=normalize_labels, probabilities=probabilities)
    return _run(exp, data, labels, engine, progress)
