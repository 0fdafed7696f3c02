#!/usr/bin/env python3
"""Issue 23, item 1: internal modules get a leading underscore; private imports are allowed inside a folder and
forbidden across folders. A codemod, run once on the repository root after the branches are merged::

    python tools/privatize.py [ROOT] [--dry-run]

It is idempotent: a second run finds nothing to move and rewrites nothing (and a later run catches references
to the old names that a branch merged afterwards brought back).

1. **Renames** each non-public module ``src/clfeval/<stage>/<mod>.py`` to ``_<mod>.py`` (``git mv`` in a git
   work tree). Public are each stage's ``__init__`` and the modules of :data:`PUBLIC`. Subpackages of a stage
   (``render/html/``) and the package root's own modules (``errors``, ``_version``, ``__main__``) stay.
2. **Rewrites every reference** in ``src/``, ``tests/``, ``bench/``, ``tools/``, ``docs/`` (Markdown, mkdocstrings
   ``::: clfeval.x.y`` paths, ``docs/*.py``), ``README.md``, ``docexamples.py``, ``conftest.py``, ``mkdocs.yml``,
   ``pyproject.toml`` and ``.ci/run``: dotted paths in code and in strings (the lazy-export maps of the stage
   ``__init__`` files, the command map of ``clfeval.cli``, ``mock.patch("clfeval....")``, ``python -m
   clfeval.x.y``, ``"module:function"`` references), file paths (``src/clfeval/x/y.py``), relative imports
   (``from .y import``, ``from ..x.y import``) and imports of modules from their package (``from clfeval.x import
   y`` → ``from clfeval.x import _y as y``). ``CHANGELOG.md`` is history and keeps the names it was written with.
   In Markdown, ``from clfeval.x.y import a`` becomes ``from clfeval.x import a`` when ``a`` is exported by
   ``clfeval.x`` (readers see the public path).
3. **Cross-folder imports** of a private module inside ``src/clfeval`` become imports from the stage package
   (``from clfeval.core._tables import joint_table`` in ``clfeval/evaluate/`` → ``from clfeval.core import
   joint_table``), and the stage ``__init__`` exposes those names lazily through ``_INTERNAL`` (module → names)
   and ``_INTERNAL_MODULES`` (name → module, for ``from clfeval.core import resample as rs``), which
   ``clfeval.core.lazy.attach`` resolves like ``_EXPORTS`` but which are **not** in ``__all__`` nor in ``dir()``:
   the documented API stays equal to ``__all__``. The package root (``clfeval/__init__``, the front door that
   assembles the API from where each name is defined) and the ``if TYPE_CHECKING:`` blocks of the stage
   ``__init__`` files (which mirror their ``_EXPORTS`` strings) keep their private paths.

Imports that cannot be rewritten safely (``import clfeval.x._y`` used with its full dotted path, a name that two
private modules of a stage both define) are listed at the end for a person; ``tests/project/test_private_modules.py``
fails on them. When ``ruff`` is installed, the import blocks touched are re-sorted (``ruff check --select I
--fix``) since ``_y`` sorts differently from ``y``.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

#: Modules of a stage that stay public, with the reason. The docs/reference/api.md reference documents names by package
#: (``from clfeval.significance import power_compare``); the only module path it documents as such is the
#: lazy-export mechanism every package ``__init__`` uses.
PUBLIC = {
    "clfeval.core.lazy": "docs/reference/api.md names `clfeval.core.lazy.attach`, the mechanism of every export",
}

#: Files and folders whose text is rewritten (relative to the root); CHANGELOG.md is history and is left alone.
TEXT_GLOBS = ("src/**/*.py", "tests/**/*.py", "tests/**/*.txt", "tests/**/*.md", "tests/**/*.json",
              "bench/**/*.py", "tools/**/*.py", "docs/**/*.md", "docs/**/*.py", "README.md", "docexamples.py",
              "conftest.py", "mkdocs.yml", "pyproject.toml", ".ci/run")

INTERNAL_NOTE = ("# Names that other stages import from this package's private modules (tools/privatize.py): resolved\n"
                 "# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.\n")


# --- the plan ----------------------------------------------------------------------------------------------------

def stages(root: Path) -> dict[str, Path]:
    """``{stage name: folder}``: the folders of ``src/clfeval`` with an ``__init__.py``."""
    pkg = root / "src" / "clfeval"
    return {p.name: p for p in sorted(pkg.iterdir()) if (p / "__init__.py").is_file()}


def exported(init: Path) -> dict[str, str]:
    """``{name: module}`` of a package ``__init__``'s ``_EXPORTS`` literal (empty without one)."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
            node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == "_EXPORTS" and isinstance(node.value, ast.Dict):
            out: dict[str, str] = {}
            for k, v in zip(node.value.keys, node.value.values, strict=True):
                if isinstance(k, ast.Constant) and isinstance(v, (ast.Tuple, ast.List)):
                    out.update({e.value: k.value for e in v.elts if isinstance(e, ast.Constant)})
            return out
    return {}


def _assigned(node: ast.stmt) -> tuple[str, ast.expr] | None:
    """``(name, value)`` of a module-level ``name = value`` or ``name: T = value``, else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id, node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return node.target.id, node.value
    return None


def internal_names(init: Path) -> set[str]:
    """The names of a stage ``__init__``'s ``_INTERNAL`` (values) and ``_INTERNAL_MODULES`` (keys)."""
    out: set[str] = set()
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        got = _assigned(node)
        if got is not None and got[0] == "_INTERNAL":
            for group in _literal(got[1]).values():
                out.update(str(n) for n in group)  # type: ignore[attr-defined]
        elif got is not None and got[0] == "_INTERNAL_MODULES":
            out.update(str(k) for k in _literal(got[1]))
    return out


def plan(root: Path) -> tuple[dict[str, str], list[tuple[Path, Path]], dict[str, dict[str, str]], set[str]]:
    """(old dotted → new dotted for every private module, files to move, exports of each stage, every private
    module of a stage after the moves)."""
    mapping: dict[str, str] = {}
    moves: list[tuple[Path, Path]] = []
    exports: dict[str, dict[str, str]] = {}
    private: set[str] = set()
    for stage, folder in stages(root).items():
        exports[stage] = exported(folder / "__init__.py")
        hidden = internal_names(folder / "__init__.py")  # names already exposed to other stages: not modules
        for path in sorted(folder.glob("*.py")):
            name = path.stem
            if name == "__init__" or name == "__main__":
                continue
            if name.startswith("_"):
                private.add(f"clfeval.{stage}.{name}")
                bare = name[1:]
                # an old reference to an already private module (a branch merged after the first run)
                if bare and not bare.startswith("_") and not (folder / f"{bare}.py").exists() \
                        and bare not in exports[stage] and bare not in hidden \
                        and f"clfeval.{stage}.{bare}" not in PUBLIC:
                    mapping[f"clfeval.{stage}.{bare}"] = f"clfeval.{stage}.{name}"
                continue
            if f"clfeval.{stage}.{name}" in PUBLIC:
                continue
            mapping[f"clfeval.{stage}.{name}"] = f"clfeval.{stage}._{name}"
            private.add(f"clfeval.{stage}._{name}")
            moves.append((path, path.with_name(f"_{name}.py")))
    return mapping, moves, exports, private


def move(root: Path, moves: list[tuple[Path, Path]], dry: bool) -> None:
    git = (root / ".git").exists() and shutil.which("git")
    for old, new in moves:
        if new.exists():
            raise SystemExit(f"privatize: cannot rename {old.relative_to(root)}: {new.relative_to(root)} exists")
        if dry:
            continue
        if git:
            done = subprocess.run(["git", "mv", str(old.relative_to(root)), str(new.relative_to(root))], cwd=root,
                                  capture_output=True, text=True)
            if done.returncode == 0:
                continue
        os.replace(old, new)


# --- text rewrites -------------------------------------------------------------------------------------------------

def dotted_pattern(mapping: dict[str, str]) -> re.Pattern[str] | None:
    if not mapping:
        return None
    alts = "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])({alts})(?![\w])")


def path_pattern(mapping: dict[str, str]) -> re.Pattern[str] | None:
    if not mapping:
        return None
    alts = "|".join(re.escape(k.replace(".", "/")) for k in sorted(mapping, key=len, reverse=True))
    return re.compile(rf"(?<![\w])({alts})(\.py)(?![\w])")


def rewrite_text(text: str, mapping: dict[str, str]) -> str:
    dotted, paths = dotted_pattern(mapping), path_pattern(mapping)
    if dotted is None or paths is None:
        return text
    text = dotted.sub(lambda m: mapping[m.group(1)], text)
    return paths.sub(lambda m: mapping[m.group(1).replace("/", ".")].replace(".", "/") + m.group(2), text)


def module_imports_in_text(text: str, mapping: dict[str, str]) -> str:
    """``from clfeval.x import y [as z]`` → ``from clfeval.x import _y as y|z`` for a renamed module y."""
    def repl(m: re.Match[str]) -> str:
        new = mapping.get(f"clfeval.{m.group(1)}.{m.group(2)}")
        if new is None:
            return m.group(0)
        return f"from clfeval.{m.group(1)} import {new.rsplit('.', 1)[1]} as {m.group(3) or m.group(2)}"

    return re.sub(r"from clfeval\.(\w+) import (\w+)(?: as (\w+))?(?![\w,(])", repl, text)


def public_imports_in_markdown(text: str, exports: dict[str, dict[str, str]]) -> str:
    """``from clfeval.x._y import a, b`` → ``from clfeval.x import a, b`` when x exports a and b from _y."""
    def repl(m: re.Match[str]) -> str:
        stage, mod, names = m.group(1), m.group(2), m.group(3)
        items = [n.strip() for n in names.split(",")]
        bare = [i.split(" as ")[0].strip() for i in items]
        where = exports.get(stage, {})
        if all(where.get(b) == f"clfeval.{stage}.{mod}" for b in bare):
            return f"from clfeval.{stage} import {names}"
        return m.group(0)

    return re.sub(r"from clfeval\.(\w+)\.(_\w+) import ([\w ,]+?)(?=$|\n|#)", repl, text, flags=re.M)


# --- Python imports ------------------------------------------------------------------------------------------------

class Internal:
    """What each stage ``__init__`` must expose to other stages: names (from modules) and module objects.

    Two modules that bind the same name are the same source when one imports it from the other (a re-export,
    followed statically through the files); otherwise the import is left for a person."""

    def __init__(self, root: Path, exports: dict[str, dict[str, str]], mapping: dict[str, str]) -> None:
        self.root = root
        self.mapping = mapping
        self.exports = {s: {n: mapping.get(m, m) for n, m in e.items()} for s, e in exports.items()}
        self.names: dict[str, dict[str, str]] = {}    # stage → name → module
        self.modules: dict[str, dict[str, str]] = {}  # stage → alias → module
        self.problems: list[str] = []
        self._trees: dict[str, ast.Module | None] = {}

    def _tree(self, module: str) -> ast.Module | None:
        if module not in self._trees:
            base = self.root / "src" / Path(*module.split("."))
            path = base.with_suffix(".py") if base.with_suffix(".py").exists() else base / "__init__.py"
            try:
                self._trees[module] = ast.parse(path.read_text(encoding="utf-8"))
            except (OSError, SyntaxError):
                self._trees[module] = None
        return self._trees[module]

    def source(self, module: str, name: str, depth: int = 0) -> str:
        """The module that defines ``name`` as bound in ``module`` (following top-level ``from M import name``)."""
        tree = self._tree(module)
        if tree is None or depth > 10:
            return module
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for a in node.names:
                    if (a.asname or a.name) == name and a.name == name:
                        return self.source(self.mapping.get(node.module, node.module), name, depth + 1)
        return module

    def add_name(self, stage: str, name: str, module: str, where: str) -> bool:
        exp = self.exports.get(stage, {})
        mine = self.source(module, name)
        if name in exp:
            if self.source(exp[name], name) == mine:
                return True
            self.problems.append(f"{where}: {name} of {module} is not the {name} that clfeval.{stage} exports "
                                 f"(from {exp[name]})")
            return False
        have = self.names.setdefault(stage, {}).get(name)
        if have is not None and self.source(have, name) == mine:
            return True
        if have is not None or name in self.modules.get(stage, {}):
            self.problems.append(f"{where}: clfeval.{stage} would expose {name} from {have} and from {module}")
            return False
        self.names[stage][name] = module
        return True

    def add_module(self, stage: str, alias: str, module: str, where: str) -> bool:
        have = self.modules.setdefault(stage, {}).get(alias)
        if have not in (None, module) or alias in self.names.get(stage, {}) or alias in self.exports.get(stage, {}):
            self.problems.append(f"{where}: clfeval.{stage}.{alias} would be ambiguous ({module})")
            return False
        self.modules[stage][alias] = module
        return True


def module_of(path: Path, root: Path) -> str:
    rel = path.relative_to(root / "src").with_suffix("")
    parts = list(rel.parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


STAGES: set[str] = set()  # filled by main(): the stage folders


def stage_of(module: str) -> str | None:
    """The stage folder of a dotted module name (None for the package root and its own modules)."""
    parts = module.split(".")
    return parts[1] if len(parts) >= 2 and parts[0] == "clfeval" and parts[1] in STAGES else None


def absolute(node: ast.ImportFrom, module: str, is_init: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_init else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def type_checking_lines(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            for sub in node.body:
                out.update(range(sub.lineno, (sub.end_lineno or sub.lineno) + 1))
    return out


def format_from(module: str, names: list[tuple[str, str | None]], indent: str, tail: str) -> str:
    items = [f"{n} as {a}" if a and a != n else n for n, a in names]
    one = f"from {module} import {', '.join(items)}"
    if len(indent) + len(one) + len(tail) <= 120:
        return one
    lines, line = [], indent + "    "
    for item in items:
        piece = item + ","
        if len(line) + len(piece) + 1 > 120 and line.strip():
            lines.append(line.rstrip())
            line = indent + "    "
        line += piece + " "
    lines.append(line.rstrip())
    return f"from {module} import (\n" + "\n".join(lines) + f"\n{indent})"


def rewrite_python(path: Path, text: str, root: Path, mapping: dict[str, str], private: set[str],
                   internal: Internal | None) -> str:
    """Relative imports, module imports from a package, and (in src, internal given) cross-folder imports."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    in_src = internal is not None
    module = module_of(path, root) if in_src else ""
    mine = stage_of(module) if in_src else None
    is_init = path.name == "__init__.py"
    guarded = type_checking_lines(tree) if is_init else set()
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    edits: list[tuple[int, int, str]] = []
    where = f"{path.relative_to(root)}"

    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and in_src and mine is not None and internal is not None:
            for a in node.names:
                target_stage = stage_of(a.name)
                if a.name not in private or target_stage in (None, mine) or node.lineno in guarded:
                    continue
                side_effect = "noqa: F401" in lines[node.lineno - 1] and len(node.names) == 1 and not a.asname
                bare = a.name.rsplit(".", 1)[1][1:]
                if (side_effect or a.asname) and target_stage is not None \
                        and internal.add_module(target_stage, bare, a.name, where):
                    start = offsets[node.lineno - 1] + node.col_offset
                    end = offsets[(node.end_lineno or node.lineno) - 1] + (node.end_col_offset or 0)
                    edits.append((start, end, f"from clfeval.{target_stage} import {bare}"
                                              + (f" as {a.asname}" if a.asname and a.asname != bare else "")))
                else:
                    internal.problems.append(f"{where}:{node.lineno}: `import {a.name}` across folders: import "
                                             f"the names it needs from clfeval.{target_stage}")
            continue
        if not isinstance(node, ast.ImportFrom) or any(a.name == "*" for a in node.names):
            continue
        old = absolute(node, module, is_init) if node.level and in_src else (node.module or "")
        if node.level and not in_src:
            continue
        new_module = mapping.get(old, old)
        names: list[tuple[str, str | None]] = [(a.name, a.asname) for a in node.names]
        changed = bool(node.level) and new_module != old
        target_stage = stage_of(new_module)
        cross = (in_src and mine is not None and target_stage is not None and target_stage != mine
                 and node.lineno not in guarded)
        if target_stage is not None and new_module == f"clfeval.{target_stage}":
            # from clfeval.x import y, z: a module y becomes `_y as y` in its folder, or is exposed lazily across
            renamed: list[tuple[str, str | None]] = []
            for n, a in names:
                sub = f"clfeval.{target_stage}.{n}"
                if sub in private and cross and internal is not None \
                        and internal.add_module(target_stage, n[1:], sub, where):  # `from clfeval.x import _y`
                    renamed.append((n[1:], a or n))
                    changed = True
                elif sub not in mapping:
                    renamed.append((n, a))
                elif cross and internal is not None and internal.add_module(target_stage, n, mapping[sub], where):
                    renamed.append((n, a))
                else:
                    renamed.append((mapping[sub].rsplit(".", 1)[1], a or n))
                    changed = True
            names = renamed
        elif cross and internal is not None and new_module in private and target_stage is not None:
            if all([internal.add_name(target_stage, n, new_module, f"{where}:{node.lineno}") for n, _ in names]):
                new_module = f"clfeval.{target_stage}"
                changed = True
        if not changed:
            continue
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[(node.end_lineno or node.lineno) - 1] + (node.end_col_offset or 0)
        indent = re.match(r"\s*", lines[node.lineno - 1]).group(0)  # type: ignore[union-attr]
        tail = lines[(node.end_lineno or node.lineno) - 1][node.end_col_offset or 0:].rstrip("\n")
        edits.append((start, end, format_from(new_module, names, indent, tail)))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


# --- stage __init__ files, lazy.py, render ---------------------------------------------------------------------------

LAZY_OLD_SIG = ("def attach(package: str, exports: Mapping[str, Iterable[str]],\n"
                "           subpackages: Iterable[str] = ()) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:")
LAZY_NEW_SIG = ("def attach(package: str, exports: Mapping[str, Iterable[str]], subpackages: Iterable[str] = (), *,\n"
                "           internal: Mapping[str, Iterable[str]] | None = None,\n"
                "           internal_modules: Mapping[str, str] | None = None,\n"
                "           ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:")


def patch_lazy(root: Path, dry: bool) -> bool:
    """``attach(..., internal=, internal_modules=)``: names other stages import, resolved but not listed."""
    path = root / "src" / "clfeval" / "core" / "lazy.py"
    text = path.read_text(encoding="utf-8")
    if "internal_modules" in text:
        return False
    steps = [
        (LAZY_OLD_SIG, LAZY_NEW_SIG),
        ('    """The module ``__getattr__`` and ``__dir__`` of ``package``, exporting ``exports`` (module → names) '
         'lazily."""\n',
         '    """The module ``__getattr__`` and ``__dir__`` of ``package``, exporting ``exports`` (module → names) '
         'lazily.\n\n    ``internal`` (module → names) and ``internal_modules`` (name → module) resolve the same way '
         'but are\n    not exported: what other stages import from this package\'s private modules (issue 23: private '
         'imports\n    stay inside a folder), kept out of ``__all__`` and ``dir()``.\n    """\n'),
        ("    subs = frozenset(subpackages)\n",
         "    subs = frozenset(subpackages)\n"
         "    hidden = {name: module for module, group in (internal or {}).items() for name in group}\n"
         "    modules = dict(internal_modules or {})\n"),
        ("        module = where.get(name)\n        if module is not None:\n",
         "        module = where.get(name) or hidden.get(name)\n        if module is not None:\n"),
        ("        elif name in subs:\n",
         "        elif name in modules:\n            value = importlib.import_module(modules[name])\n"
         "        elif name in subs:\n"),
    ]
    for old, new in steps:
        if old not in text:
            raise SystemExit(f"privatize: src/clfeval/core/lazy.py changed; cannot find:\n{old}")
        text = text.replace(old, new, 1)
    if not dry:
        path.write_text(text, encoding="utf-8")
    return True


def _literal(node: ast.AST) -> dict[str, object]:
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _entry(module: str, names: list[str]) -> str:
    """One ``"module": ("a", "b"),`` line of ``_INTERNAL``, wrapped within 120 columns."""
    head = f'    "{module}": ('
    items = [f'"{n}"' for n in names]
    if len(names) == 1:
        return f"{head}{items[0]},),\n"
    out, line = [], head
    for i, item in enumerate(items):
        piece = item + (", " if i < len(items) - 1 else "),")
        if len(line) + len(piece.rstrip()) > 120:
            out.append(line.rstrip())
            line = " " * len(head)
        line += piece
    out.append(line)
    return "\n".join(out) + "\n"


def update_init(init: Path, stage: str, internal: Internal, dry: bool) -> bool:
    """Write (or extend) ``_INTERNAL`` / ``_INTERNAL_MODULES`` of a stage ``__init__`` and pass them to attach."""
    names = internal.names.get(stage, {})
    mods = internal.modules.get(stage, {})
    text = init.read_text(encoding="utf-8")
    tree = ast.parse(text)
    have_names: dict[str, list[str]] = {}
    have_mods: dict[str, str] = {}
    block: tuple[int, int] | None = None
    for node in tree.body:
        got = _assigned(node)
        is_tc = (isinstance(node, ast.If) and block is not None and node.lineno == block[1] + 1
                 and getattr(node.test, "id", None) == "TYPE_CHECKING")
        if got is not None and got[0] == "_INTERNAL":
            have_names = {k: list(v) for k, v in _literal(got[1]).items()}  # type: ignore[call-overload]
        elif got is not None and got[0] == "_INTERNAL_MODULES":
            have_mods = {str(k): str(v) for k, v in _literal(got[1]).items()}
        elif not is_tc:  # the type checkers' block written right after the two maps is rewritten with them
            continue
        end = node.end_lineno or node.lineno
        block = (node.lineno, end) if block is None else (block[0], end)
    for name, module in names.items():
        if name not in have_names.setdefault(module, []):
            have_names[module].append(name)
    have_mods.update(mods)
    if not have_names and not have_mods:
        return False
    body = ("_INTERNAL: dict[str, tuple[str, ...]] = {\n"
            + "".join(_entry(m, sorted(ns)) for m, ns in sorted(have_names.items()) if ns) + "}\n")
    body += ("_INTERNAL_MODULES: dict[str, str] = {\n"
             + "".join(f"    {a!r}: {m!r},\n" for a, m in sorted(have_mods.items())) + "}\n")
    body = body.replace("'", '"')
    # the same names for type checkers (mypy checks their use across stages; they stay out of __all__)
    checked = [f"    from {m} import {n} as {n}\n" for m, ns in sorted(have_names.items()) for n in sorted(ns)]
    checked += [f"    from {m.rpartition('.')[0]} import {m.rpartition('.')[2]}\n" for m in sorted(have_mods.values())]
    checked += [f"    {a} = {m.rpartition('.')[2]}\n" for a, m in sorted(have_mods.items())]  # module aliases
    if checked:
        body += "if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers\n" + "".join(checked)
    lines = text.splitlines(keepends=True)
    if block is not None:
        start = block[0] - 1
        if start >= 2 and lines[start - 1].startswith("# lazily like _EXPORTS"):
            start -= 2
        new_text = "".join(lines[:start]) + INTERNAL_NOTE + body + "".join(lines[block[1]:])
    else:
        m = re.search(r"^(\S+), __dir__ = _?attach\(__name__, _EXPORTS(?:, \w+)?\)\n", text, flags=re.M)
        if m is not None:
            new_text = text[:m.start()] + INTERNAL_NOTE + body + text[m.start():]
        elif re.search(r"^def __getattr__|^__getattr__\b", text, flags=re.M):
            raise SystemExit(f"privatize: {init} has a __getattr__ of its own: expose {sorted(names)} "
                             f"{sorted(mods)} by hand")
        else:  # a package without lazy exports (clfeval.render): a __getattr__ for the internal names only
            new_text = (text.rstrip("\n") + "\n\n\n" + INTERNAL_NOTE + body
                        + "__getattr__, _ = _attach_internal(__name__, {}, internal=_INTERNAL, "
                          "internal_modules=_INTERNAL_MODULES)\n")
            new_text = _add_import(new_text, "from clfeval.core.lazy import attach as _attach_internal\n")
    new_text = re.sub(r"^(\S+, __dir__ = _?attach\(__name__, _EXPORTS(?:, \w+)?)\)$",
                      r"\1, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)", new_text, flags=re.M)
    if "TYPE_CHECKING:  # _INTERNAL" in new_text and not re.search(r"^from typing import .*\bTYPE_CHECKING\b",
                                                                    new_text, flags=re.M):
        new_text = _add_import(new_text, "from typing import TYPE_CHECKING\n")
    if new_text == text:
        return False
    if not dry:
        init.write_text(new_text, encoding="utf-8")
    return True


def _add_import(text: str, line: str) -> str:
    """``line`` after the last top-level import of a module (once)."""
    if line in text:
        return text
    tree = ast.parse(text)
    last = max((n.end_lineno or n.lineno for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))),
               default=0)
    lines = text.splitlines(keepends=True)
    return "".join(lines[:last]) + line + "".join(lines[last:])


def patch_render(root: Path, mapping: dict[str, str], dry: bool) -> bool:
    """``clfeval.render`` finds its renderer modules by bare name (``_WHERE``, ``_SECTION_WHERE``, the loop over
    its modules that skipped the helpers by their underscore)."""
    path = root / "src" / "clfeval" / "render" / "__init__.py"
    if not path.exists():
        return False
    text = path.read_text(encoding="utf-8")
    bare = {k.rsplit(".", 1)[1]: v.rsplit(".", 1)[1] for k, v in mapping.items() if k.startswith("clfeval.render.")}
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    edits = []
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
            node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id in ("_WHERE", "_SECTION_WHERE") \
                and isinstance(node.value, ast.Dict):
            for v in node.value.values:
                if isinstance(v, ast.Constant) and v.value in bare:
                    start = offsets[v.lineno - 1] + v.col_offset
                    end = offsets[(v.end_lineno or v.lineno) - 1] + (v.end_col_offset or 0)
                    edits.append((start, end, f'"{bare[v.value]}"'))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    text = text.replace('        if not mod.name.startswith("_"):\n',
                        '        if mod.name != "_util":  # every module but the helpers registers renderers\n')
    if dry or text == path.read_text(encoding="utf-8"):
        return text != path.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    return True


ARCH_ANCHOR = ("        if isinstance(node, ast.ImportFrom) and not node.level and node.module in REEXPORTING:\n"
               "            for a in node.names:\n")
ARCH_PATCH = ("        if isinstance(node, ast.ImportFrom) and not node.level and node.module in REEXPORTING:\n"
              "            if node.module != \"clfeval\" and not name.startswith(node.module + \".\"):\n"
              "                continue  # across folders a stage's names come from its package (item 1 of issue 23)\n"
              "            for a in node.names:\n")


def patch_architecture(root: Path, dry: bool) -> bool:
    """tests/project/test_architecture.py asked code to import from the defining module, never from a package
    ``__init__``; across folders the package is now the only way (item 1), inside a folder the rule holds."""
    path = root / "tests" / "project" / "test_architecture.py"
    if not path.exists():
        return False
    text = path.read_text(encoding="utf-8")
    if ARCH_PATCH in text or ARCH_ANCHOR not in text:
        return False
    if not dry:
        path.write_text(text.replace(ARCH_ANCHOR, ARCH_PATCH, 1), encoding="utf-8")
    return True


# --- the run ---------------------------------------------------------------------------------------------------------

def files(root: Path) -> Iterable[Path]:
    seen: set[Path] = set()
    me = Path(__file__).resolve()
    for pattern in TEXT_GLOBS:
        for path in sorted(root.glob(pattern)):
            if path.is_file() and path.resolve() != me and path not in seen and "__pycache__" not in path.parts:
                seen.add(path)
                yield path


def ruff() -> str | None:
    here = Path(sys.executable).with_name("ruff")
    return str(here) if here.exists() else shutil.which("ruff")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", nargs="?", default=".", help="the repository root (default: the current directory)")
    ap.add_argument("--dry-run", action="store_true", help="say what would change, change nothing")
    args = ap.parse_args(argv)
    root = Path(args.root).resolve()
    STAGES.update(p.name for p in (root / "src" / "clfeval").iterdir() if (p / "__init__.py").is_file())
    if not (root / "src" / "clfeval" / "__init__.py").exists():
        print(f"privatize: {root} is not the clfeval repository (no src/clfeval/__init__.py)", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    mapping, moves, exports, private = plan(root)
    move(root, moves, args.dry_run)
    # after the move, paths of the renamed files
    internal = Internal(root, exports, mapping)
    changed: list[Path] = []
    for path in files(root):
        if args.dry_run and path in {new for _, new in moves}:
            continue
        text = path.read_text(encoding="utf-8")
        new = rewrite_text(text, mapping)
        if path.suffix == ".md":
            new = public_imports_in_markdown(new, internal.exports)
        in_src = (root / "src" / "clfeval") in path.parents
        if path.suffix == ".py":
            new = rewrite_python(path, new, root, mapping, private, internal if in_src else None)
        if not in_src:  # `from clfeval.x import y` in strings and text (probes of tests, examples)
            new = module_imports_in_text(new, mapping)
        if new != text:
            changed.append(path)
            if not args.dry_run:
                path.write_text(new, encoding="utf-8")
    lazy = patch_lazy(root, args.dry_run)
    inits = [s for s, folder in stages(root).items() if update_init(folder / "__init__.py", s, internal, args.dry_run)]
    render = patch_render(root, mapping, args.dry_run)
    arch = patch_architecture(root, args.dry_run)
    touched = sorted({p for p in changed if p.suffix == ".py"} | {stages(root)[s] / "__init__.py" for s in inits})
    tool = ruff()
    if tool and touched and not args.dry_run:
        subprocess.run([tool, "check", "--select", "I", "--fix", "--quiet", *map(str, touched)], cwd=root,
                       capture_output=True)
    print(f"privatize: {len(moves)} module(s) renamed, {len(changed)} file(s) rewritten"
          f"{', core/lazy.py taught internal names' if lazy else ''}"
          f"{', internal names exposed by ' + ', '.join(inits) if inits else ''}"
          f"{', render finds its renamed modules' if render else ''}"
          f"{', tests/project/test_architecture.py lets other folders import from a package' if arch else ''}"
          f"{' (dry run: nothing written)' if args.dry_run else ''} in {time.perf_counter() - t0:.1f} s")
    for problem in internal.problems:
        print(f"privatize: left for a person: {problem}", file=sys.stderr)
    return 1 if internal.problems else 0


if __name__ == "__main__":
    sys.exit(main())
