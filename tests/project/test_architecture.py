"""Dependencies point one way: cli → render → plots → the front door → studies → protocols → significance →
evaluate → scores / text → engines → io → ops → core → errors.

Walks the imports of every module of the package (statically, with ast) and
checks each against the layer map below. A new module must be placed in a layer.
Also: nothing inside the package imports the package root (``clfeval/__init__``);
no module imports another module's private (``_``-prefixed) names; the command
line imports no numpy or SciPy (it holds no evaluation logic).

The order is style.md's (cli → render → plots → the front door → ops, studies, protocols → stats, io, engine →
core → errors) with one difference: the typed results (``clfeval.ops``) sit low, because the stages that compute
them build them. The engine package sits with io, below the statistics stages (issue 38): it runs accumulators it
is handed and knows no operation, so it imports only io, core and errors; the front door hands it each operation's
accumulator. ``tests/project/test_engine_boundary.py`` keeps the engine out of every other module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "clfeval"

# Lower number = lower layer. A module may import modules of its own layer or below. One folder, one stage.
LAYERS = {
    "clfeval._version": 0,
    "clfeval.errors": 0,
    "clfeval.core": 1,          # labels, tables, metrics, catalogue, signature, resampling engines (no scipy, sklearn)
    "clfeval.stats": 1.2,       # each statistic once: resampling draws, intervals, 2 × 2 tests, Holm / BY (issue 39)
    "clfeval.ops": 1.5,         # per operation its one typed result (issue 36): fields over the core's types only
    "clfeval.io": 2,            # sources, readers, exact JSONL, CSV safety, alignment by id, outputs, input kinds
    "clfeval.scores": 3,        # score columns, rankings, objectives, thresholds, calibration
    "clfeval.text": 3,          # Reuters reader, text models, φ–δ of terms (models apart from evaluation)
    "clfeval.evaluate": 4,      # report, its accumulator, baselines, diagnostics, intervals
    "clfeval.significance": 5,  # paired tests, DeLong, CV comparison, power, curve bands
    "clfeval.slicing": 5.5,     # every accumulator per slice, the slices' statistics, the slice search (issue 39)
    "clfeval.protocols": 6,     # splits, runner, results, run log: joins models and evaluation
    "clfeval.studies": 7,       # the Reuters study, the demos
    "clfeval.engines": 2.5,     # where operations run: the runners, the capability table, the Dask side (no operation)
    "clfeval.dask": 2.5,        # the old name of clfeval.engines.dask, kept for one release (it only re-points)
    "clfeval.front": 7.5,       # the front door: one function per operation, any input, the engine a parameter
    "clfeval.plots": 8,         # figures from results (matplotlib, imported when drawn)
    "clfeval.render": 9,        # result → text / JSON / Markdown / HTML
    "clfeval.cli": 10,          # options → library → render
    "clfeval.__main__": 11,
    "clfeval": 11,              # the package's public API re-exports
}

# Specific rules beyond the layering.
FORBIDDEN = [
    ("clfeval.core._tables", "clfeval.core._metrics"),
    ("clfeval.core._tables", "clfeval.core._catalog"),
    # models and data sets stay apart from evaluation; only protocols and studies join them
    # (text.terms, the φ–δ analysis of terms, is evaluation of features and uses core metrics)
    ("clfeval.text._models", "clfeval.core._metrics"),
    ("clfeval.text._models", "clfeval.core._catalog"),
    ("clfeval.text._models", "clfeval.scores"),
    ("clfeval.text._models", "clfeval.evaluate"),
    ("clfeval.text._datasets", "clfeval.core._metrics"),
    ("clfeval.text._datasets", "clfeval.scores"),
    ("clfeval.text._datasets", "clfeval.evaluate"),
    ("clfeval.text", "clfeval.significance"),
    # figures read the typed results (clfeval.ops, clfeval.core), never the front door (issue 36)
    ("clfeval.plots", "clfeval.engines"),
    ("clfeval.plots", "clfeval.front"),
    # renderers read the typed results too; the sliced threshold and calibration results live in ops/ (issue 36)
    ("clfeval.render", "clfeval.engines"),
    ("clfeval.render", "clfeval.front"),
]

def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer_of(name: str) -> tuple[str, int] | None:
    best = None
    for key, layer in LAYERS.items():
        if name == key or name.startswith(key + "."):
            if best is None or len(key) > len(best[0]):
                best = (key, layer)
    return best


def imports_of(path: Path, modname: str) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out = set()
    pkg = modname if path.name == "__init__.py" else modname.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("clfeval"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.startswith("clfeval"):
                if mod == "clfeval":
                    out.update(f"clfeval.{a.name}" if f"clfeval.{a.name}" in LAYERS else "clfeval" for a in node.names)
                else:
                    out.add(mod)
    return out


MODULES = sorted(SRC.rglob("*.py"))

#: Documented names a package re-exports from a stage above it: imported there for type checkers only (``if
#: TYPE_CHECKING:``), resolved lazily on first access, so nothing runs up the layers. clfeval.engines.dask's
#: per-operation functions live with the front door, because the engine knows no operation (issue 38).
REEXPORTS_FROM_ABOVE = {"clfeval.engines.dask": {"clfeval.front._dask"}}


def type_checking_only(path: Path) -> set[str]:
    """Modules a file imports only in its top-level ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(), filename=str(path))
    guarded, elsewhere = set(), set()
    blocks = [n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", None) == "TYPE_CHECKING"]
    inside = {id(m) for b in blocks for m in ast.walk(b)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            (guarded if id(node) in inside else elsewhere).add(node.module)
    return guarded - elsewhere


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_point_down(path):
    name = module_name(path)
    mine = layer_of(name)
    assert mine is not None and (mine[0] != "clfeval" or name == "clfeval"), \
        f"{name} is not placed in a layer of tests/project/test_architecture.py"
    above = REEXPORTS_FROM_ABOVE.get(name, set()) & type_checking_only(path)
    for imp in imports_of(path, name) - above:
        if imp == "clfeval" and name != "clfeval":
            raise AssertionError(f"{name} imports the package root (clfeval/__init__); import the module that "
                                 f"defines what it needs (the version: clfeval._version)")
        theirs = layer_of(imp)
        assert theirs is not None, f"{name} imports {imp}, which is not placed in a layer"
        if theirs[0] == mine[0]:
            continue
        assert theirs[1] <= mine[1], (
            f"{name} (layer {mine[1]}) imports {imp} (layer {theirs[1]}): dependencies must point down")
        for a, b in FORBIDDEN:
            forbidden = (name == a or name.startswith(a + ".")) and (imp == b or imp.startswith(b + "."))
            assert not forbidden, f"{name} must not import {imp}"


@pytest.mark.parametrize("path", [p for p in MODULES if module_name(p).startswith("clfeval.ops.")],
                         ids=lambda p: module_name(p))
def test_an_operations_result_imports_the_core_only(path):
    """A module of ``ops/<operation>/`` imports ``clfeval.core``, ``clfeval.errors`` and its own operation's package
    only (issue 36): a result is data over the core's types; what needs more is computed by the code that builds it."""
    name = module_name(path)
    own = ".".join(name.split(".")[:3])
    allowed = ("clfeval.core", "clfeval.errors", own)
    for imp in imports_of(path, name):
        assert any(imp == a or imp.startswith(a + ".") for a in allowed), f"{name} imports {imp}"


def test_nothing_imports_cli():
    for path in MODULES:
        name = module_name(path)
        if name.startswith("clfeval.cli") or name == "clfeval.__main__":
            continue
        assert not any(i.startswith("clfeval.cli") for i in imports_of(path, name)), name


def _is_module(dotted: str) -> bool:
    rel = Path(*dotted.split(".")[1:])
    return (SRC / rel).with_suffix(".py").exists() or (SRC / rel / "__init__.py").exists()


def private_imports(path: Path, modname: str) -> list[str]:
    """``from clfeval.x import _name`` and ``x._name`` on an imported clfeval module (private modules are fine)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    pkg = modname if path.name == "__init__.py" else modname.rsplit(".", 1)[0]
    bad, aliases = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if not mod.startswith("clfeval"):
                continue
            for a in node.names:
                if _is_module(f"{mod}.{a.name}"):
                    aliases[a.asname or a.name] = f"{mod}.{a.name}"
                elif a.name.startswith("_") and not (a.name.startswith("__") and a.name.endswith("__")):
                    bad.append(f"from {mod} import {a.name}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("clfeval") and a.asname:
                    aliases[a.asname] = a.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            bad.append(f"{aliases[node.value.id]}.{node.attr}")
    return bad


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_no_module_imports_another_modules_private_names(path):
    name = module_name(path)
    assert not private_imports(path, name), f"{name} uses private names of other modules: {private_imports(path, name)}"


def test_private_import_check_can_fail(tmp_path):
    fake = SRC / "cli" / "x.py"  # a path inside the package, for the module name only; the file is in tmp_path
    probe = tmp_path / "x.py"
    probe.write_text("from clfeval.io._readers import _row_ref\n"
                     "from clfeval.io import _readers as io\nio._read_header\n")
    assert private_imports(probe, module_name(fake)) == ["from clfeval.io._readers import _row_ref",
                                                         "clfeval.io._readers._read_header"]


def test_cli_holds_no_evaluation_logic():
    """The command line parses options, calls the library and renders: it imports no numpy and no pyarrow (nor
    scipy, sklearn) — reading, checking and aligning data is the library's."""
    for path in (SRC / "cli").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            for n in names:
                assert n.split(".")[0] not in {"numpy", "pyarrow", "scipy", "sklearn"}, f"{path.name} imports {n}"


def test_cli_is_a_thin_shell():
    """Options → settings → one library call → render: no function of the command line over 60 lines, and no
    ``assert`` (control flow is ``if``/``raise``; ``python -O`` strips asserts)."""
    for path in (SRC / "cli").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                assert length <= 60, f"cli/{path.name}: {node.name} has {length} lines (at most 60)"
            assert not isinstance(node, ast.Assert), f"cli/{path.name}, line {node.lineno}: assert for control flow"


def test_the_cli_rules_can_fail(tmp_path):
    """The rules above see what they forbid (a probe module, parsed as they parse the command line)."""
    probe = "import pyarrow as pa\n\ndef f(x):\n    assert x\n" + "    x += 1\n" * 60
    tree = ast.parse(probe)
    assert any(isinstance(n, ast.Import) and n.names[0].name == "pyarrow" for n in ast.walk(tree))
    assert any(isinstance(n, ast.Assert) for n in ast.walk(tree))
    f = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    assert f.end_lineno - f.lineno + 1 > 60


# Packages whose __init__ re-exports the public API for users; code inside clfeval imports the defining module.
REEXPORTING = ("clfeval", "clfeval.core", "clfeval.io", "clfeval.scores", "clfeval.text", "clfeval.evaluate",
               "clfeval.significance", "clfeval.protocols", "clfeval.studies", "clfeval.engines.dask",
               "clfeval.engines", "clfeval.front", "clfeval.plots")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_no_module_imports_from_a_reexporting_init(path):
    name = module_name(path)
    if name in REEXPORTING or name == "clfeval.__main__":
        return
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module in REEXPORTING:
            if node.module != "clfeval" and not name.startswith(node.module + "."):
                continue  # across folders a stage's names come from its package (item 1 of issue 23)
            for a in node.names:
                assert _is_module(f"{node.module}.{a.name}") or a.name == "__version__" and False, \
                    f"{name} imports {a.name!r} from {node.module}'s __init__; " \
                    "import it from the module that defines it"


def test_core_imports_no_scipy_or_scikit_learn():
    for path in (SRC / "core").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            for n in names:
                assert n.split(".")[0] not in {"scipy", "sklearn"}, f"core/{path.name} imports {n}"


def test_every_module_is_small():
    for path in MODULES:
        lines = path.read_text().count("\n")
        assert lines <= 700, f"{module_name(path)} has {lines} lines; keep a module readable in one sitting (≤ 700)"


def test_only_the_dask_engine_imports_dask():
    """Dask (and distributed) are an optional extra: only ``clfeval/dask/`` imports them."""
    for path in MODULES:
        name = module_name(path)
        if name == "clfeval.engines.dask" or name.startswith("clfeval.engines.dask."):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            for n in names:
                assert n.split(".")[0] not in {"dask", "distributed"}, f"{name} imports {n}"


def test_only_a_type_checking_reexport_from_above_is_exempt(tmp_path):
    """The exemption of REEXPORTS_FROM_ABOVE covers an import made for type checkers only: the same module imported
    at run time anywhere in the file is an import running up the layers again."""
    guarded = tmp_path / "a.py"
    guarded.write_text("from typing import TYPE_CHECKING\n"
                       "if TYPE_CHECKING:\n    from clfeval.front._dask import report\n")
    assert type_checking_only(guarded) == {"clfeval.front._dask"}
    both = tmp_path / "b.py"
    both.write_text(guarded.read_text() + "def f():\n    from clfeval.front._dask import table\n")
    assert type_checking_only(both) == set()
