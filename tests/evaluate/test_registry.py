"""The registry test (issue 23), as scikit-learn's test_common: every catalogue metric × every input kind × every
engine × every output format.

Inputs: arrays, a pandas DataFrame with column names, a CSV PATH and a Parquet PATH. Engines: local in memory,
local streamed (a 4 KiB ``memory=`` budget: a PATH is read in batches, a frame is spooled to Parquet) and Dask
(the session's one LocalCluster on 127.0.0.1). Each (input, engine) computes three results that together hold
every catalogue entry — a single-label report with an order, a positive class, β = 2 and a score column; a
multi-label report; a calibration — and every metric value must equal the in-memory array path's and the
independent oracle's (scikit-learn, or a hand computation: ``tests/_helpers/oracles.py``). Each result is then
rendered as text, JSON, Markdown and HTML, and each rendering must name the metrics.
"""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import clfeval
from clfeval.core import _catalog as catalog
from clfeval.engines import Dask, Local
from clfeval.render import render
from tests._helpers.oracles import BETA, ORACLES

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")

N = 240
CLASSES = np.array(["c0", "c1", "c2"])
POSITIVE = 1  # the code of the positive class, "c1"
TAGS = ["l0", "l1", "l2"]
INPUTS = ["arrays", "frame", "csv", "parquet"]
ENGINES = ["memory", "streamed", "dask"]
FORMATS = ["text", "json", "markdown", "html"]
# A sum of per-item ratios (Jaccard) may be added up in another order when the items arrive in batches.
RELATIVE = {"jaccard": 1e-12}


@pytest.fixture(scope="module")
def case():
    """The data, as codes for the oracles and as columns for clfeval."""
    rng = np.random.default_rng(23)
    g = rng.integers(0, 3, N)
    p = np.where(rng.random(N) < 0.65, g, rng.integers(0, 3, N))
    y = (g == POSITIVE).astype(int)
    s = np.round(y + rng.normal(0, 0.9, N), 6)  # six decimals: a CSV file holds the same numbers
    prob = np.round(np.clip(1 / (1 + np.exp(-2 * (s - 0.5))), 0.02, 0.98), 6)
    G = rng.random((N, 3)) < 0.4
    G[np.arange(N), rng.integers(0, 3, N)] = True  # no empty label set (an empty CSV cell reads as missing)
    P = np.where(rng.random((N, 3)) < 0.75, G, ~G)
    P[np.arange(N), rng.integers(0, 3, N)] = True
    sets = lambda m: ["|".join(TAGS[j] for j in np.flatnonzero(row)) for row in m]  # noqa: E731
    return SimpleNamespace(k=3, g=g, p=p, y=y, s=s, prob=prob, G=G, P=P,
                           single={"gold": CLASSES[g], "pred": CLASSES[p], "score": s},
                           multi={"gold": sets(G), "pred": sets(P)},
                           calib={"gold": CLASSES[g], "prob": prob})


@pytest.fixture(scope="module")
def files(case, tmp_path_factory):
    root = tmp_path_factory.mktemp("registry")
    out = {}
    for name in ("single", "multi", "calib"):
        table = pa.table({k: list(v) if isinstance(v, list) else v for k, v in getattr(case, name).items()})
        pq.write_table(table, root / f"{name}.parquet")
        header = list(table.column_names)
        rows = zip(*(table.column(c).to_pylist() for c in header), strict=True)
        (root / f"{name}.csv").write_text("\n".join([",".join(header)] + [",".join(map(str, r)) for r in rows]) + "\n")
        out[name] = {"csv": str(root / f"{name}.csv"), "parquet": str(root / f"{name}.parquet")}
    return out


def _results(case, files, kind, engine):
    """The three results of one input kind on one engine."""
    single = dict(positive="c1", beta=BETA, order=list(CLASSES), engine=engine)
    multi = dict(multilabel=True, positive="l1", beta=BETA, engine=engine)
    calib = dict(positive="c1", engine=engine)
    if kind == "arrays":
        return (clfeval.report(case.single["gold"], case.single["pred"], scores=case.s, **single),
                clfeval.report(case.multi["gold"], case.multi["pred"], **multi),
                clfeval.calibration(case.calib["gold"], case.prob, **calib))
    if kind == "frame":
        pd = pytest.importorskip("pandas")
        data = {name: pd.DataFrame(getattr(case, name)) for name in ("single", "multi", "calib")}
    else:
        data = {name: files[name][kind] for name in ("single", "multi", "calib")}
    return (clfeval.report(data["single"], score="score", **single),
            clfeval.report(data["multi"], **multi),
            clfeval.calibration(data["calib"], prob="prob", **calib))


def _nested(d, path):
    for key in path.split("."):
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def catalogue_values(result_kind: str, d: dict) -> dict[str, float]:
    """Every catalogue entry this JSON holds, found where the catalogue places it: key (``f1:c0``) → value."""
    labels = [str(x) for x in d.get("labels", [])]
    positive = _nested(d, "binary.positive")
    out: dict[str, float] = {}
    for m in catalog.METRICS:
        for place in m.where:
            if place.result != result_kind:
                continue
            for lab in (labels if "LABEL" in place.path else [None]):
                v = _nested(d, place.path.replace("LABEL", lab) if lab is not None else place.path)
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    continue
                if m.per_label:
                    who = lab if lab is not None else positive
                    if who is not None:
                        out.setdefault(f"{m.name}:{who}", float(v))
                else:
                    out.setdefault(m.name, float(v))
    return out


def _engine(name, dask_client):
    return {"memory": Local(), "streamed": Local(memory=4096), "dask": Dask(dask_client) if dask_client else None}[name]


def _oracle(key: str, case, multilabel: bool) -> float | None:
    """The oracle's value of one entry (None: no oracle for it on this result)."""
    name, _, label = key.partition(":")
    m = catalog.get(name) if not label else next(x for x in catalog.METRICS if x.name == name and x.per_label)
    if multilabel:  # scikit-learn's multi-label metrics and averages over the indicator columns
        if m.per_label or name in ("accuracy", "macro_f1_of_means"):
            return None
        return float(ORACLES[m.key](SimpleNamespace(g=case.G, p=case.P, G=case.G, P=case.P, k=3)))
    want = np.asarray(ORACLES[m.key](case), dtype=float)
    return float(want[list(CLASSES).index(label)]) if label else float(want)


def _same(a: float, b: float, rel: float = 0.0) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or (rel > 0 and math.isclose(a, b, rel_tol=rel))


@pytest.fixture(scope="module")
def reference(case, files):
    """The in-memory array path: the values every other input and engine must give."""
    single, multi, calib = _results(case, files, "arrays", Local())
    return (catalogue_values("report", single.to_dict()), catalogue_values("report", multi.to_dict()),
            catalogue_values("calibration", calib.to_dict()))


def test_the_reference_holds_every_catalogue_entry_and_matches_the_oracles(case, reference):
    single, multi, calib = reference
    keys = {k.split(":")[0] + (":LABEL" if ":" in k else "") for part in reference for k in part}
    assert keys == {m.key for m in catalog.METRICS}
    assert {k for k in single if ":" in k and k.split(":")[0] == "mcc"} == {"mcc:c1"}  # the binary block: c1 only
    checked = 0
    ranked_prob = SimpleNamespace(**{**vars(case), "s": case.prob})  # a calibration ranks the probabilities
    for values, data, multilabel in ((single, case, False), (multi, case, True), (calib, ranked_prob, False)):
        for key, got in values.items():
            want = _oracle(key, data, multilabel)
            if want is None:
                continue
            assert math.isfinite(want), key  # the data leave no entry undefined
            assert got == pytest.approx(want, rel=1e-10, abs=1e-12), key
            checked += 1
    assert checked >= len(catalog.METRICS)


@pytest.mark.parametrize("engine_name", ENGINES)
@pytest.mark.parametrize("kind", INPUTS)
def test_every_metric_on_every_input_and_engine_in_every_format(kind, engine_name, case, files, reference, request):
    client = request.getfixturevalue("dask_client") if engine_name == "dask" else None
    engine = _engine(engine_name, client)
    results = _results(case, files, kind, engine)
    for result, result_kind, want in zip(results, ("report", "report", "calibration"), reference, strict=True):
        d = result.to_dict()
        where = d.get("engine") or d.get("sections", {}).get("engine") or result.engine
        assert where["name"] == ("dask" if engine_name == "dask" else "local")
        if engine_name == "streamed" and kind != "arrays":
            assert where["mode"] == "streamed", where
        got = catalogue_values(result_kind, d)
        assert set(got) == set(want)
        for key, value in got.items():
            assert _same(value, want[key], RELATIVE.get(key.split(":")[0], 0.0)), (key, value, want[key])
        _renders(result, got)


# Shown for the positive class only (the binary block); the JSON has them for every class.
POSITIVE_ONLY = {"npv", "fnr", "prevalence", "markedness", "lr_plus", "lr_minus", "dor"}
# In the JSON but in no human format: a report computes the partial ROC-AUC and does not show it (left as found).
NOT_SHOWN = {"partial_roc_auc"}


def _renders(result, values: dict[str, float]) -> None:
    """Each format renders; JSON holds every entry with its value, the others show each value (4 decimals)."""
    for fmt in FORMATS:
        text = render(result, fmt)
        if fmt == "json":
            assert catalogue_values("calibration" if "ece" in values else "report", json.loads(text)) == values
            continue
        for key, value in values.items():
            name, _, label = key.partition(":")
            if name in NOT_SHOWN or (name in POSITIVE_ONLY and label not in ("c1", "l1")):
                continue
            assert f"{value:.4f}" in text, (fmt, key, value)
