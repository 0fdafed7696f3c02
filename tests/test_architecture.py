"""Dependencies point one way: cli → render → protocols → evaluation → tables → encoding → errors.

Walks the imports of every module of the package (statically, with ast) and
checks each against the layer map below. A new module must be placed in a layer.
Also: nothing inside the package imports the package root (``clfeval/__init__``);
no module imports another module's private (``_``-prefixed) names; the command
line imports no numpy or SciPy (it holds no evaluation logic).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "clfeval"

# Lower number = lower layer. A module may import modules of its own layer or below.
LAYERS = {
    "clfeval._version": 0,
    "clfeval.errors": 0,
    "clfeval._validation": 1,
    "clfeval.signature": 1,
    "clfeval._labels": 1,
    "clfeval._scores": 1,
    "clfeval.outputs": 1,
    "clfeval._decimate": 1,
    "clfeval._display": 1,
    "clfeval._results": 1,
    "clfeval._input": 1,
    "clfeval._jsonl": 1,
    "clfeval._labelforms": 1,
    "clfeval._csvsafe": 1,
    "clfeval.gold": 2,
    "clfeval.objectives": 2,
    "clfeval.io": 2,
    "clfeval.align": 2,
    "clfeval.tables": 2,
    "clfeval.metrics": 3,
    "clfeval.catalog": 3,
    "clfeval.scoring": 3,
    "clfeval.diagnostics": 3,
    "clfeval.baselines": 3,
    "clfeval.curves": 3,
    "clfeval.calibration": 3,
    "clfeval._resample": 4,
    "clfeval.thresholds": 3,
    "clfeval.splits": 3,
    "clfeval.significance": 4,
    "clfeval.significance_results": 4,
    "clfeval.intervals": 4,
    "clfeval.reports": 4,
    "clfeval.delong": 4,
    "clfeval.cvcompare": 4,
    "clfeval.power": 4,
    "clfeval.curvebands": 4,
    "clfeval.text": 4,
    "clfeval.protocols": 5,
    "clfeval.protocols_spread": 5,
    "clfeval.protocols_threshold": 5,
    "clfeval.protocols_sklearn": 5,
    "clfeval.protocols_data": 5,
    "clfeval.protocols_results": 5,
    "clfeval.protocols_predictions": 5,
    "clfeval.protocols_runner": 5,
    "clfeval.runlog": 5,
    "clfeval._runstore": 5,
    "clfeval.study": 6,
    "clfeval.study_result": 6,
    "clfeval.demo": 6,
    "clfeval.plots": 7,
    "clfeval.render": 7,
    "clfeval.cli": 8,
    "clfeval.__main__": 9,
    "clfeval": 9,  # the package's public API re-exports
}

# Specific rules beyond the layering.
FORBIDDEN = [
    ("clfeval.tables", "clfeval.metrics"),
    ("clfeval.metrics", "clfeval.render"),
    ("clfeval.metrics", "clfeval.plots"),
    # models and data sets stay apart from evaluation; only protocols joins them
    # (text.terms, the φ–δ analysis of terms, is evaluation of features and uses metrics)
    ("clfeval.text.models", "clfeval.metrics"),
    ("clfeval.text.models", "clfeval.reports"),
    ("clfeval.text.models", "clfeval.significance"),
    ("clfeval.text.models", "clfeval.curves"),
    ("clfeval.text.datasets", "clfeval.metrics"),
    ("clfeval.text.datasets", "clfeval.reports"),
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


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_point_down(path):
    name = module_name(path)
    mine = layer_of(name)
    assert mine is not None and (mine[0] != "clfeval" or name == "clfeval"), \
        f"{name} is not placed in a layer of tests/test_architecture.py"
    for imp in imports_of(path, name):
        if imp == "clfeval" and name != "clfeval":
            raise AssertionError(f"{name} imports the package root (clfeval/__init__); import the module that "
                                 f"defines what it needs (the version: clfeval._version)")
        theirs = layer_of(imp)
        assert theirs is not None, f"{name} imports {imp}, which is not placed in a layer"
        if theirs[0] == mine[0]:
            continue
        assert theirs[1] <= mine[1], f"{name} (layer {mine[1]}) imports {imp} (layer {theirs[1]}): dependencies must point down"
        for a, b in FORBIDDEN:
            assert not ((name == a or name.startswith(a + ".")) and (imp == b or imp.startswith(b + "."))), f"{name} must not import {imp}"


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
    probe.write_text("from clfeval.io import _row_ref\nfrom clfeval import io\nio._read_header\n")
    assert private_imports(probe, module_name(fake)) == ["from clfeval.io import _row_ref", "clfeval.io._read_header"]


def test_cli_holds_no_evaluation_logic():
    """The command line parses options, calls the library and renders: it imports no numpy (nor scipy, sklearn)."""
    for path in (SRC / "cli").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            for n in names:
                assert n.split(".")[0] not in {"numpy", "scipy"}, f"{path.name} imports {n}"
