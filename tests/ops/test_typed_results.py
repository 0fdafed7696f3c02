"""One typed result per operation (issue 36), over the whole front door at once.

- every case of the registry (eight operations × arrays, DataFrame with column names, PATH × their variants)
  returns its operation's one type, and nothing in it accepts an assignment (tests/_helpers/readonly.py);
- the annotations, read unevaluated (``inspect.get_annotations``), name no ``Any``: the front door's signatures,
  and every field of every result type and of each part reachable from it;
- (issue 37) every case's notebook card is at most 20 KB and shows its slices when it has them, each slice's name
  escaped, and its ids carry the card's own prefix; every case's tables (``to_frame()`` and each table part's) have
  exactly their documented columns: tests/ops/test_frames.py runs that over this registry;
- (issue 38) every row of the capability table (operation × option, one value each: tests/ops/_capability_cases.py)
  × input kind (arrays, DataFrame, Parquet directory) × engine (Local in memory, Local spilled at the smallest
  budget, Dask on the session's one LocalCluster) gives the JSON of Local in memory but for the engine information,
  or the refusal the table states, with its reason.
"""

from __future__ import annotations

import dataclasses
import html
import importlib
import inspect
import pkgutil
import re
import sys
import warnings

import pytest

import clfeval
from clfeval.engines import Dask, Local, _capabilities as caps
from clfeval.errors import UsageError
from tests._helpers.readonly import writable_places
from tests._helpers.registry import CASES, write_inputs
from tests.ops._capability_cases import CALLS, KINDS, XFAIL, Inputs, plain

#: operation → (its front-door function, the name of its one result type in ``clfeval``)
OPERATIONS = {
    "report": ("report", "Report"),
    "compare": ("compare", "Compared"),
    "threshold": ("threshold", "ThresholdResult"),
    "calibration": ("calibration", "Calibration"),
    "ranking": ("ranking", "RankingResult"),
    "error_analysis": ("error_analysis", "ErrorAnalysis"),
    "rank": ("rank", "RankResult"),
    # issue 39: the text-model protocols
    "cv": ("cv", "ProtocolResult"),
    "holdout": ("holdout", "ProtocolResult"),
    "power": ("power", "PowerResult"),
    # issue 41: likely label errors
    "label_issues": ("label_issues", "LabelIssues"),
}
ANY = re.compile(r"(?<![\w.])(typing\.)?Any(?![\w])")
IDENT = re.compile(r"[A-Za-z_][\w.]*")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("registry")
    write_inputs(root)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the front door itself never uses a deprecated name
        return {name: run(root) for name, run in CASES.items()}


def test_the_registry_covers_every_operation_and_input_kind():
    ops = {name.split("/")[0] for name in CASES}
    assert ops == set(OPERATIONS)
    for op in OPERATIONS:
        kinds = {name.split("/")[1].split("-")[0] for name in CASES if name.startswith(op + "/")}
        assert {"arrays", "frame", "path"} <= kinds, (op, kinds)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_case_returns_its_operations_one_type(name, results):
    op = name.split("/")[0]
    want = getattr(clfeval, OPERATIONS[op][1])
    assert type(results[name]) is want, (name, type(results[name]))
    assert "engine" in {f.name for f in dataclasses.fields(want)}, want  # the one engine-information field
    if name == "ranking/arrays-ovr":
        # computed in memory outside the engines: the one-vs-rest ranking by the stage function
        # clfeval.scores.ranking_ovr (rank takes engine= since issue 39)
        assert results[name].engine is None
    else:
        assert isinstance(results[name].engine, clfeval.core.EngineInfo), name


@pytest.mark.parametrize("name", sorted(CASES))
def test_nothing_nested_in_a_result_can_be_assigned(name, results):
    assert writable_places(results[name]) == []


def test_a_nested_assignment_raises_on_the_edges_issues_case():
    r = clfeval.report([0, 1, 1, 2], [0, 1, 2, 2])
    with pytest.raises(TypeError):
        r.per_class[1]["recall"] = 5  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.accuracy = 1.0  # type: ignore[misc]


@pytest.mark.parametrize("op", sorted(OPERATIONS))
def test_the_front_door_names_no_any(op):
    fn = getattr(clfeval, OPERATIONS[op][0])
    ann = inspect.get_annotations(fn)
    assert "return" in ann, f"clfeval.{fn.__name__} has no return annotation"
    bad = {k: v for k, v in ann.items() if ANY.search(str(v))}
    assert bad == {}, f"clfeval.{fn.__name__} annotates with Any: {bad}"
    missing = [p.name for p in inspect.signature(fn).parameters.values() if p.name not in ann]
    assert missing == [], f"clfeval.{fn.__name__}: parameters without annotations {missing}"
    assert OPERATIONS[op][1] in str(ann["return"]), (fn.__name__, ann["return"])


def _ops_dataclasses() -> list[type]:
    """Every dataclass defined in clfeval.ops (each operation's result type and its parts) and the core's
    EngineInfo, which every result holds."""
    import clfeval.ops

    found: list[type] = [clfeval.core.EngineInfo]
    for mod in pkgutil.walk_packages(clfeval.ops.__path__, "clfeval.ops."):
        m = importlib.import_module(mod.name)
        found += [c for c in vars(m).values()
                  if isinstance(c, type) and dataclasses.is_dataclass(c) and c.__module__ == m.__name__]
    return found


def _reachable(start: type, pool: dict[str, type]) -> set[type]:
    """The dataclasses reachable from ``start`` through the names its field annotations mention."""
    seen: set[type] = set()
    todo = [start]
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        module = sys.modules[cls.__module__]
        for klass in cls.__mro__:
            if not dataclasses.is_dataclass(klass):
                continue
            for text in inspect.get_annotations(klass).values():
                for ident in IDENT.findall(str(text)):
                    target = getattr(module, ident.rsplit(".", 1)[-1], None) or pool.get(ident.rsplit(".", 1)[-1])
                    if isinstance(target, type) and dataclasses.is_dataclass(target):
                        todo.append(target)
    return seen


def test_no_result_field_is_annotated_any():
    pool = {c.__name__: c for c in _ops_dataclasses()}
    classes = set(pool.values())
    for _fn, name in OPERATIONS.values():
        classes |= _reachable(getattr(clfeval, name), pool)
    bad = {}
    for cls in classes:
        for klass in cls.__mro__:
            if dataclasses.is_dataclass(klass):
                for field, text in inspect.get_annotations(klass).items():
                    if ANY.search(str(text)):
                        bad[f"{klass.__module__}.{klass.__qualname__}.{field}"] = text
    assert bad == {}, bad
    assert len(classes) >= 20  # the eight result types and their parts, not an empty walk


def test_every_result_field_is_documented():
    """Each field of each result type and part is described: in the class docstring (its Attributes) or by a
    ``#:`` comment on its line."""
    undocumented = []
    for cls in _ops_dataclasses():
        try:
            source = inspect.getsource(cls)
        except (OSError, TypeError):
            continue
        doc = " ".join(k.__doc__ or "" for k in cls.__mro__)  # a field inherited is documented where it is defined
        for f in dataclasses.fields(cls):
            if f.name.startswith("_") or re.search(rf"\b{f.name}\b", doc):
                continue
            if re.search(rf"#:.*\n\s*{f.name}\s*:|{f.name}\s*:[^\n]*#", source):
                continue
            undocumented.append(f"{cls.__module__}.{cls.__qualname__}.{f.name}")
    assert undocumented == [], undocumented


def test_the_strict_mypy_override_covers_the_front_door_and_the_results():
    """pyproject.toml's strict override (the core's) holds clfeval/__init__, every module that defines a front-door
    function and every ops package of a result type; .ci/run runs mypy at 0 errors over the package."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    strict = [o for o in config["tool"]["mypy"]["overrides"] if o.get("disallow_untyped_defs")]
    assert len(strict) == 1
    modules = set(strict[0]["module"])
    want = {"clfeval", "clfeval.core", "clfeval.ops"}
    for fn, name in OPERATIONS.values():
        want.add(getattr(clfeval, fn).__module__)
        package = getattr(clfeval, name).__module__.rsplit(".", 1)[0]
        want |= {package, package + ".*"}
    assert want - modules == set()
    assert strict[0].get("disallow_any_generics") and strict[0].get("disallow_untyped_calls")


def test_every_public_name_of_before_the_change_still_resolves():
    """Every name of every package's ``__all__`` before issue 36 (dumped from that commit) stays importable for
    one release: a moved type as itself, a merged one as a warning alias of the one type."""
    import json
    from pathlib import Path

    before = json.loads((Path(__file__).resolve().parents[1] / "_helpers" / "golden" / "api"
                         / "all_before_issue36.json").read_text(encoding="utf-8"))
    missing = []
    for package, names in before.items():
        module = importlib.import_module(package)
        for name in names:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                if not hasattr(module, name):
                    missing.append(f"{package}.{name}")
    assert sum(map(len, before.values())) > 200
    assert missing == []


def _slice_names(r) -> list[str]:
    """The names of the slices a result has (by=, find_slices=), in its order; [] when it has none."""
    names: list[str] = []
    for attr in ("slices", "find_slices"):
        part = getattr(r, attr, None)
        if part is None or isinstance(part, (list, tuple)):  # a comparison by slice: its rows
            rows = part or ()
        else:
            rows = next((getattr(part, f) for f in ("slices", "rows", "found") if hasattr(part, f)), ())
        names += [row.slice for row in rows]
    return names


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_cases_card_is_at_most_20_kb_and_shows_its_slices(name, results):
    r = results[name]
    card = r._repr_html_()
    assert card is not None and len(card.encode("utf-8")) <= 20_000, (name, len(card.encode("utf-8")))
    slices = _slice_names(r)
    if name.endswith("-by"):
        assert slices, name  # the cases that slice have slices to show
    if getattr(r, "find_slices", None) is not None:  # a search: its section, even when it found nothing
        assert "Slices found where" in card and f"{r.find_slices.examined} slices examined" in card, name
    for s in slices[:20]:  # each of the flagged and the 20 worst (these cases have fewer than 20)
        assert html.escape(str(s), quote=False) in card, (name, s)
    ids = re.findall(r'\bid="([^"]+)"', card)
    prefix = re.match(r"clfeval\d+-", ids[0]).group(0) if ids else ""
    assert all(i.startswith(prefix) for i in ids), name  # one card's ids, apart from every other card's
    for href in re.findall(r'href="#([^"]+)"', card):
        assert href in ids, (name, href)  # every in-card link lands in this card


#: The engines of the parity test, by name: Local in memory, Local at the smallest budget (every input spooled,
#: every ranking spilled), Dask on the session's LocalCluster (tests/conftest.py ``dask_client``).
ENGINES = ("memory", "spilled", "dask")


@pytest.fixture(scope="module")
def capability_inputs(tmp_path_factory):
    """The one data set of the parity test, and the Local-in-memory JSON of each cell, computed once."""
    return Inputs(tmp_path_factory.mktemp("capabilities")), {}


def test_the_capability_cases_cover_every_row_of_the_table_exactly():
    rows = [(c.operation, c.option) for c in caps.TABLE]
    assert len(set(rows)) == len(rows) == len(caps.TABLE)
    assert sorted(CALLS) == sorted(rows)  # a new row without its case fails here, as a case without its row
    for row, kinds in CALLS.items():
        assert set(kinds) == set(KINDS), row
        for kind, call in kinds.items():
            assert callable(call) or (isinstance(call, str) and len(call) > 20), (row, kind)  # a skip names why
    assert {(op, opt, kind) for op, opt, kind, _ in XFAIL} <= {(op, opt, kind) for (op, opt), ks in CALLS.items()
                                                               for kind, call in ks.items() if callable(call)}
    assert {engine for *_, engine in XFAIL} <= set(ENGINES)


def _cells():
    for c in caps.TABLE:
        for kind in KINDS:
            for engine in ENGINES:
                why = XFAIL.get((c.operation, c.option, kind, engine))
                marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
                yield pytest.param(c.operation, c.option, kind, engine, marks=marks,
                                   id=f"{c.operation}-{c.option}-{kind}-{engine}".replace(" ", "_"))


@pytest.mark.parametrize("operation, option, kind, engine", _cells())
def test_every_row_of_the_capability_table_on_every_input_and_engine(operation, option, kind, engine,
                                                                      capability_inputs, request):
    """The table's refusal (UsageError with its reason) where it states one, else the JSON of Local in memory."""
    x, memory = capability_inputs
    call = CALLS[(operation, option)][kind]
    if isinstance(call, str):
        pytest.skip(f"{operation} {option!r} with {kind}: {call}")
    row = next(c for c in caps.TABLE if (c.operation, c.option) == (operation, option))
    eng = {"memory": Local, "spilled": lambda: Local(memory=4096),
           "dask": lambda: Dask(request.getfixturevalue("dask_client"))}[engine]()
    reason = row.reason("dask" if engine == "dask" else "local")
    if reason is not None:
        with pytest.raises(UsageError) as err:
            call(x, eng)
        assert reason in str(err.value), (reason, str(err.value))
        return
    if (operation, option, kind) not in memory:
        base = call(x, Local())
        assert base.engine.to_dict()["name"] == "local"
        memory[operation, option, kind] = plain(base)
    if engine == "memory":
        return
    got = call(x, eng)
    assert got.engine.to_dict()["name"] == ("dask" if engine == "dask" else "local")
    assert plain(got) == memory[operation, option, kind]
