"""``clfeval cv|holdout --predictions FILE --probabilities`` (issue 41, item 2): the ``p:<label>`` columns of the file,
equal to scikit-learn models fitted here on the other folds; the refusals (no --predictions, a model without
predict_proba, label sets) before any work; without the option the file is the same as before."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn.base import clone  # noqa: E402

from clfeval.io._readers import read_frame  # noqa: E402
from clfeval.text import make_model  # noqa: E402
from tests._helpers.clihelp import run  # noqa: E402
from tests._helpers.news import make_data  # noqa: E402

TOPICS = ["fx", "grain", "oil"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return make_data(tmp_path_factory.mktemp("cli_probabilities") / "news.csv", n=60)


def experiment(command, data, *extra):
    return run(command, data, "--text", "body", "--label", "topic", "--no-log", *extra)


def refused(res, *needles):
    assert res.code == 2, (res.code, res.out, res.err)
    assert "Traceback" not in res.err and res.out == ""
    for n in needles:
        assert n in res.err, (n, res.err)


def test_cv_writes_one_probability_column_per_class_from_the_other_folds(data, tmp_path):
    out = tmp_path / "oof.csv"
    res = experiment("cv", data, "--folds", "3", "--stratified", "--seed", "2", "--model", "logreg",
                     "--predictions", out, "--probabilities")
    assert res.code == 0, res.err
    t = read_frame(out)
    assert [c for c in t.column_names if c.startswith("p:")] == [f"p:{c}" for c in TOPICS]
    p = np.column_stack([np.asarray(t.column(f"p:{c}").to_pylist(), dtype=float) for c in TOPICS])
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    src = read_frame(data).to_pylist()
    by_id = {r["id"]: r for r in src}
    ids, folds = t.column("id").to_pylist(), np.asarray([int(f) for f in t.column("fold").to_pylist()])
    for f in (1, 2, 3):
        test = [i for i, g in zip(ids, folds, strict=True) if g == f]
        train = [r for r in src if r["id"] not in set(test)]
        model = clone(make_model("logreg", seed=2)).fit([r["body"] for r in train], [r["topic"] for r in train])
        want = model.predict_proba([by_id[i]["body"] for i in test])[:, [list(model.classes_).index(c) for c in TOPICS]]
        np.testing.assert_allclose(p[folds == f], want, rtol=1e-9, atol=1e-12)


def test_holdout_probabilities_and_the_file_without_the_option_is_unchanged(data, tmp_path):
    a, b = tmp_path / "plain.parquet", tmp_path / "probs.parquet"
    assert experiment("holdout", data, "--seed", "1", "--predictions", a).code == 0
    res = experiment("holdout", data, "--seed", "1", "--predictions", b, "--probabilities")
    assert res.code == 0, res.err
    plain, withp = read_frame(a), read_frame(b)
    assert plain.column_names == ["id", "fold", "gold", "pred"] + [f"score:{c}" for c in TOPICS]
    assert withp.column_names == plain.column_names + [f"p:{c}" for c in TOPICS]
    assert withp.select(plain.column_names).equals(plain)
    assert withp.num_rows == 12  # the test items only (20 % of 60)


def test_refusals_name_the_option(data, tmp_path):
    out = tmp_path / "oof.csv"
    refused(experiment("cv", data, "--probabilities"), "--probabilities", "--predictions FILE")
    refused(experiment("cv", data, "--model", "svm", "--predictions", out, "--probabilities"),
            "the model svm (tf-idf + linear SVM) has no predict_proba", "--probabilities")
    refused(experiment("holdout", data, "--label", "tags", "--multilabel", "--predictions", out, "--probabilities"),
            "--probabilities", "label sets")
    refused(experiment("cv", data, "--compare-model", "logreg", "--predictions", out, "--probabilities"),
            "--probabilities", "--compare-model")
    assert not out.exists()
