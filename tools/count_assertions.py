"""Count the test suite's checks (issue 40): test functions, ``assert`` statements, ``numpy.testing`` calls and
``pytest.raises`` blocks, per directory and in total, read from the source (AST; nothing is imported or run).

Usage: python tools/count_assertions.py [PATH ...] [--json]   (from the repository root; default PATH: tests)

A speed-up of the suite must not lose a check: run it before and after, every count after ≥ before.

- ``tests``: functions (or async functions) named ``test*`` at module level or in a class named ``Test*``;
- ``asserts``: ``assert`` statements anywhere in the files (helpers and fixtures too);
- ``np_testing``: calls of ``np.testing.X`` / ``numpy.testing.X`` (any alias of numpy or of numpy.testing, and
  names imported from numpy.testing);
- ``raises``: ``pytest.raises`` used as a context manager (each ``with`` item) or called with a function
  (``pytest.raises(E, f, ...)``), any alias of pytest or of ``raises`` imported from it.
"""

from __future__ import annotations

import ast
import json
import sys
from collections import Counter
from pathlib import Path

KINDS = ("files", "tests", "asserts", "np_testing", "raises")


class _Aliases(ast.NodeVisitor):
    """The names that stand for numpy, numpy.testing, pytest, numpy.testing's functions and pytest.raises."""

    def __init__(self) -> None:
        self.numpy: set[str] = set()
        self.np_testing: set[str] = set()
        self.np_testing_funcs: set[str] = set()
        self.pytest: set[str] = set()
        self.raises: set[str] = set()

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "numpy":
                self.numpy.add(alias.asname or "numpy")
            elif alias.name == "numpy.testing":
                if alias.asname:
                    self.np_testing.add(alias.asname)
                else:  # `import numpy.testing` binds `numpy`
                    self.numpy.add("numpy")
            elif alias.name == "pytest":
                self.pytest.add(alias.asname or "pytest")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            bound = alias.asname or alias.name
            if node.module == "numpy" and alias.name == "testing":
                self.np_testing.add(bound)
            elif node.module == "numpy.testing":
                self.np_testing_funcs.add(bound)
            elif node.module == "pytest" and alias.name == "raises":
                self.raises.add(bound)


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"]; None for anything else than names and attributes."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def _is_np_testing(func: ast.expr, names: _Aliases) -> bool:
    parts = _dotted(func)
    if parts is None:
        return False
    if len(parts) == 1:
        return parts[0] in names.np_testing_funcs
    if len(parts) == 2:
        return parts[0] in names.np_testing
    return len(parts) == 3 and parts[0] in names.numpy and parts[1] == "testing"


def _is_raises(func: ast.expr, names: _Aliases) -> bool:
    parts = _dotted(func)
    if parts is None:
        return False
    if len(parts) == 1:
        return parts[0] in names.raises
    return len(parts) == 2 and parts[0] in names.pytest and parts[1] == "raises"


def _test_functions(tree: ast.Module) -> int:
    count = 0
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            count += 1
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            count += sum(isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test")
                         for item in node.body)
    return count


def count_source(source: str) -> Counter[str]:
    """The counts of one module's source text (``files`` is 1)."""
    tree = ast.parse(source)
    names = _Aliases()
    names.visit(tree)
    counts: Counter[str] = Counter(files=1, tests=_test_functions(tree))
    in_with: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                expr = item.context_expr
                if isinstance(expr, ast.Call) and _is_raises(expr.func, names):
                    counts["raises"] += 1
                    in_with.add(id(expr))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            counts["asserts"] += 1
        elif isinstance(node, ast.Call):
            if _is_np_testing(node.func, names):
                counts["np_testing"] += 1
            elif id(node) not in in_with and _is_raises(node.func, names) and len(node.args) >= 2:
                counts["raises"] += 1  # pytest.raises(E, func, *args): the call form
    for kind in KINDS:
        counts.setdefault(kind, 0)
    return counts


def count_paths(paths: list[Path], root: Path) -> dict[str, dict[str, int]]:
    """Counts per directory (relative to ``root``) and a ``total`` row."""
    per_dir: dict[str, Counter[str]] = {}
    for path in paths:
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            if "__pycache__" in file.parts:
                continue
            found = count_source(file.read_text(encoding="utf-8"))
            try:
                key = file.parent.resolve().relative_to(root).as_posix()
            except ValueError:
                key = file.parent.as_posix()
            per_dir.setdefault(key, Counter()).update(found)
    total: Counter[str] = Counter()
    for counts in per_dir.values():
        total.update(counts)
    rows = {key: {kind: per_dir[key][kind] for kind in KINDS} for key in sorted(per_dir)}
    rows["total"] = {kind: total[kind] for kind in KINDS}
    return rows


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    root = Path.cwd().resolve()
    paths = [Path(arg) for arg in argv if not arg.startswith("--")] or [Path("tests")]
    missing = [str(path) for path in paths if not path.exists()]
    if missing:
        print(f"count_assertions: no such path: {', '.join(missing)}", file=sys.stderr)
        return 2
    rows = count_paths(paths, root)
    if as_json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(key) for key in rows)
    print(f"{'directory':<{width}}  " + "  ".join(f"{kind:>10}" for kind in KINDS))
    for key, counts in rows.items():
        print(f"{key:<{width}}  " + "  ".join(f"{counts[kind]:>10}" for kind in KINDS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
