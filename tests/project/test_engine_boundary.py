"""The engine is a runner that knows no operation, and no operation knows the engine (issue 38).

Walks every module of the package (statically, with ast). Outside the engine package (``clfeval/engines/``):
- no ``isinstance`` test on an engine type (``Local``, ``Dask``);
- no read of an engine's attributes (``name``, ``client``, ``memory``, ``budget``, ``tmpdir``, ``connected``,
  ``check``) on a value called ``engine`` or ``eng``;
- no import of the engine package's private modules;
- no refusal about an engine (an exception raised with a text that names the Dask or the local engine): the
  capability table (``clfeval/engines/_capabilities.py``) is the only place that refuses.
Inside it, the engine type tests are in the runner only (``clfeval/engines/_runner.py``), at most five.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "clfeval"
ENGINE = SRC / "engines"
RUNNER = ENGINE / "_runner.py"
TYPES = {"Local", "Dask"}
ATTRIBUTES = {"name", "client", "memory", "budget", "tmpdir", "connected", "check"}
ENGINE_VALUES = {"engine"}
# a runner (clfeval.engines.runner(engine), named ``eng`` in the front door) offers admit, holds, memory (the
# budget its engine block states), spooled, session, accumulate and block; what is behind it stays behind it
RUNNER_VALUES = {"eng"}
RUNNER_HIDES = (ATTRIBUTES - {"memory"}) | {"engine"}
REFUSAL = re.compile(r"\b(?:the )?(?:Dask|dask|local|Local) engine\b|engine (?:dask|local)\b")


def _name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(parts)


def _outside() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if ENGINE not in p.parents)


def _type_tests(tree: ast.AST) -> list[int]:
    """Lines of ``isinstance(x, Local)``, ``isinstance(x, (Local, Dask))``, ``isinstance(x, Dask | Local)``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                and len(node.args) == 2:
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
            if names & TYPES:
                out.append(node.lineno)
    return out


def _reads(tree: ast.AST) -> list[str]:
    """``engine.budget`` and the like (an engine's attributes), ``run.engine`` / ``eng.client`` (what a runner
    keeps behind it), with their lines."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            hidden = ATTRIBUTES if node.value.id in ENGINE_VALUES else \
                RUNNER_HIDES if node.value.id in RUNNER_VALUES else set()
            if node.attr in hidden:
                out.append(f"{node.value.id}.{node.attr} (line {node.lineno})")
    return out


def _texts(node: ast.AST) -> str:
    """Every string constant under ``node`` (f-string pieces included), joined."""
    return " ".join(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str))


@pytest.mark.parametrize("path", _outside(), ids=_name)
def test_no_module_outside_the_engine_package_knows_the_engine(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    name = _name(path)
    assert not _type_tests(tree), f"{name} tests an engine's type on line(s) {_type_tests(tree)}: hand the runner " \
                                  f"(clfeval.engines.runner) what the operation does instead"
    assert not _reads(tree), f"{name} reads what is behind the engine or the runner: {_reads(tree)}"
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("clfeval.engines."):
            private = [p for p in node.module.split(".")[2:] if p.startswith("_")]
            assert not private, f"{name}:{node.lineno} imports the engine package's internals ({node.module})"
        if isinstance(node, ast.Raise) and node.exc is not None:
            said = _texts(node.exc)
            assert not REFUSAL.search(said), f"{name}:{node.lineno} refuses about an engine ({said[:80]!r}): " \
                                             f"add a row to the capability table instead"


def test_engine_type_tests_are_few_and_all_in_the_runner():
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        lines = _type_tests(ast.parse(path.read_text(), filename=str(path)))
        if lines:
            found[_name(path)] = lines
    assert set(found) <= {_name(RUNNER)}, f"engine type tests outside the runner: {found}"
    assert sum(map(len, found.values())) <= 5, found


def test_the_checks_can_fail():
    """Each check finds what it looks for in a module that breaks it."""
    bad = ast.parse("from clfeval.engines._spec import Local\n"
                    "def f(engine):\n"
                    "    if isinstance(engine, (Local, Dask)):\n"
                    "        return engine.budget\n"
                    "    raise UsageError('the Dask engine does not run this')\n")
    assert _type_tests(bad) == [3]
    assert _reads(bad) == ["engine.budget (line 4)"]
    assert sorted(_reads(ast.parse("eng.engine.budget\neng.client\neng.memory\neng.accumulate"))) == [
        "eng.client (line 2)", "eng.engine (line 1)"]  # a runner's memory and methods are its interface
    raised = next(n for n in ast.walk(bad) if isinstance(n, ast.Raise))
    assert REFUSAL.search(_texts(raised.exc))
    assert not REFUSAL.search("the local reader names the file")


def test_the_old_names_keep_working_for_one_release_and_warn():
    """clfeval.dask moved to clfeval.engines.dask and the operations out of clfeval.engines (issue 38): both old
    spellings still give the same objects, each with a DeprecationWarning naming the new place."""
    import importlib
    import sys

    import clfeval
    import clfeval.engines
    from clfeval.engines import dask as moved

    sys.modules.pop("clfeval.dask", None)
    with pytest.warns(DeprecationWarning, match="clfeval.engines.dask"):
        old = importlib.import_module("clfeval.dask")
    assert old is moved and old.report is moved.report
    for name in ("report", "compare", "ranking", "threshold", "calibration", "error_analysis"):
        with pytest.warns(DeprecationWarning, match=f"clfeval.{name}"):
            assert getattr(clfeval.engines, name) is getattr(clfeval, name)
