"""The public API (issue 23): docs/reference/api.md lists it, each package exports exactly that, lazily.

* the documented names of each package equal its ``__all__``, and every one resolves;
* ``import clfeval`` (and ``import clfeval.<stage>``) imports no NumPy, pyarrow, matplotlib, click, rich (checked in a
  fresh interpreter);
* each ``_EXPORTS`` equals the package's ``if TYPE_CHECKING:`` imports (what type checkers see);
* no exported name is the name of a submodule (style.md's trap), and importing every submodule leaves the exported
  objects in place;
* the deep imports of the README still work and give the same objects.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
API = ROOT / "docs" / "reference" / "api.md"  # the contract (issue 37: one list, the reference's)
HEAVY = ("numpy", "pyarrow", "matplotlib", "click", "rich", "pandas", "scipy")


def documented() -> dict[str, list[str]]:
    """Package → the names docs/reference/api.md lists under its ``## `package``` heading, in order."""
    out: dict[str, list[str]] = {}
    current = None
    for line in API.read_text(encoding="utf-8").splitlines():
        head = re.match(r"^## `(clfeval[\w.]*)`\s*$", line)
        if head:
            current = head.group(1)
            out[current] = []
        elif current and (item := re.match(r"^- `(\w+)` — ", line)):
            out[current].append(item.group(1))
    return out


DOCUMENTED = documented()
PACKAGES = sorted(DOCUMENTED)


def test_the_documented_packages_are_every_package_with_exports():
    found = {"clfeval"} | {f"clfeval.{p.name}" for p in (SRC / "clfeval").iterdir()
                           if (p / "__init__.py").exists() and p.name not in ("cli", "ops")}
    # clfeval.ops exports nothing itself: each operation's subpackage has its section (issue 36)
    found |= {f"clfeval.ops.{p.name}" for p in (SRC / "clfeval" / "ops").iterdir() if (p / "__init__.py").exists()}
    found.add("clfeval.engines.dask")  # the engine package's Dask side (issue 38) has its own section
    assert set(PACKAGES) == found, "docs/reference/api.md has a section per package (the command line excepted)"
    assert all(DOCUMENTED[p] for p in PACKAGES), "every package section lists names"


@pytest.mark.parametrize("package", PACKAGES)
def test_documented_api_equals_the_exports(package):
    mod = importlib.import_module(package)
    assert len(mod.__all__) == len(set(mod.__all__)), f"{package}.__all__ repeats a name"
    assert DOCUMENTED[package] == list(mod.__all__), (
        f"{package}: docs/reference/api.md and __all__ differ: "
        f"only documented {sorted(set(DOCUMENTED[package]) - set(mod.__all__))}, "
        f"only exported {sorted(set(mod.__all__) - set(DOCUMENTED[package]))}")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_export_resolves_and_is_listed_by_dir(package):
    if package == "clfeval.engines.dask":
        pytest.importorskip("distributed")
    mod = importlib.import_module(package)
    for name in mod.__all__:
        value = getattr(mod, name)
        assert value is not None and not isinstance(value, type(sys)), f"{package}.{name} is {value!r}"
        assert name in dir(mod), f"dir({package}) misses {name}"
    with pytest.raises(AttributeError, match="no_such_name"):
        mod.no_such_name  # noqa: B018 (the access is what raises)


def submodules(package: str) -> set[str]:
    path = SRC / package.replace(".", "/")
    return {m.name for m in pkgutil.iter_modules([str(path)])}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_export_is_named_like_a_submodule(package):
    mod = importlib.import_module(package)
    clash = sorted(set(mod.__all__) & submodules(package))
    assert not clash, f"{package} exports {clash}, also the names of its submodules (style.md's trap)"


@pytest.mark.parametrize("package", [p for p in PACKAGES if p != "clfeval.engines.dask"])
def test_exports_survive_importing_every_submodule(package):
    mod = importlib.import_module(package)
    before = {name: getattr(mod, name) for name in mod.__all__}
    for sub in submodules(package):
        if package == "clfeval" and sub in ("dask", "cli", "__main__"):
            continue
        importlib.import_module(f"{package}.{sub}")
    assert {name: getattr(mod, name) for name in mod.__all__} == before


def type_checking_imports(path: Path) -> dict[str, set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imp in node.body:
                if isinstance(imp, ast.ImportFrom):
                    out.setdefault(imp.module, set()).update(a.name for a in imp.names)
    return out


@pytest.mark.parametrize("package", [p for p in PACKAGES if p != "clfeval.render"])
def test_type_checkers_see_the_exports(package):
    mod = importlib.import_module(package)
    path = Path(mod.__file__)
    exports = {module: set(names) for module, names in mod._EXPORTS.items()}
    seen = type_checking_imports(path)
    # the internal names other stages import (tools/privatize.py) have a TYPE_CHECKING block of their own
    for module, names in getattr(mod, "_INTERNAL", {}).items():
        seen[module] = seen.get(module, set()) - set(names)
    for module in getattr(mod, "_INTERNAL_MODULES", {}).values():
        parent, _, leaf = module.rpartition(".")
        seen[parent] = seen.get(parent, set()) - {leaf}
    assert {k: v for k, v in seen.items() if v} == exports, f"{path}: the TYPE_CHECKING block and _EXPORTS differ"


def modules_after(code: str) -> set[str]:
    """Top-level packages of HEAVY imported by ``code`` in a fresh interpreter."""
    probe = f"import sys\n{code}\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_import_clfeval_imports_nothing_heavy():
    assert modules_after("import clfeval; clfeval.__version__; dir(clfeval)") == set()


def test_importing_a_stage_package_imports_nothing_heavy():
    stages = [p for p in PACKAGES if p not in ("clfeval", "clfeval.render")]
    assert modules_after("\n".join(f"import {p}" for p in stages)) == set()


def test_the_import_probe_can_fail():
    """The probe sees NumPy when something does import it: the first use of a name."""
    assert "numpy" in modules_after("import clfeval; clfeval.confusion_table")


def test_results_still_show_themselves():
    """str() and _repr_html_ find the renderers, imported when a result is first shown."""
    code = ("import clfeval; r = clfeval.report(['a', 'b', 'a'], ['a', 'a', 'a']); "
            "assert 'Confusion matrix' in str(r), str(r); assert '<table' in r._repr_html_()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr


def test_the_readme_deep_imports_are_the_package_names():
    from clfeval.evaluate import check_requirements
    from clfeval.evaluate._requirements import check_requirements as deep_requirements
    from clfeval.protocols import compare_results, compare_runs, cross_validate, holdout, write_predictions
    from clfeval.protocols._api import cross_validate as deep_cv
    from clfeval.protocols._runcompare import compare_runs as deep_runs
    from clfeval.significance import (
        curve_bands,
        cv_compare,
        delong_auc,
        interval_width,
        mcnemar_exact_power,
        power_compare,
    )
    from clfeval.significance._curvebands import curve_bands as deep_bands
    from clfeval.significance._cvcompare import cv_compare as deep_cvc
    from clfeval.significance._delong import delong_auc as deep_delong
    from clfeval.significance._power import power_compare as deep_power

    assert check_requirements is deep_requirements and cross_validate is deep_cv and compare_runs is deep_runs
    assert curve_bands is deep_bands and cv_compare is deep_cvc and delong_auc is deep_delong
    assert power_compare is deep_power
    assert callable(compare_results) and callable(holdout) and callable(write_predictions)
    assert callable(interval_width) and callable(mcnemar_exact_power)
    pytest.importorskip("sklearn")
    from clfeval.text import make_model
    from clfeval.text._models import make_model as deep_model

    assert make_model is deep_model


def test_subpackages_are_attributes_of_the_root():
    code = "import clfeval; print(clfeval.significance.power_compare.__module__, clfeval.plots.__name__)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert done.stdout.split() == ["clfeval.significance._power", "clfeval.plots"], done.stderr


def test_version_and_help_import_no_command():
    """`clfeval --version` loads no command module; neither it nor `--help` (which reads each command's short
    help) imports NumPy, pyarrow, rich, SciPy or pandas."""
    for arg in ("--version", "--help"):
        code = ("import sys, contextlib, io\nfrom clfeval.cli import main\n"
                f"with contextlib.redirect_stdout(io.StringIO()):\n    try:\n        main([{arg!r}])\n"
                "    except SystemExit:\n        pass\n"
                "print(' '.join(sorted(m for m in sys.modules if m.startswith('clfeval.cli.') or "
                "m.split('.')[0] in ('numpy', 'pyarrow', 'rich', 'scipy', 'pandas'))))")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                              env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, done.stderr
        loaded = done.stdout.split()
        assert all(m.startswith("clfeval.cli.") for m in loaded), (arg, loaded)
        if arg == "--version":
            assert loaded == ["clfeval.cli._common"], loaded


def test_every_command_is_listed_and_walkable():
    """The lazy command map: ``cli.commands`` walked (tests, docs) holds every command of ``COMMANDS``."""
    code = ("import sys\nfrom clfeval.cli import COMMANDS, cli\n"
            "assert 'report' in cli.commands and 'clfeval.cli._report_cmd' not in sys.modules\n"
            "print(sorted(cli.commands) == sorted(COMMANDS), len(dict(cli.commands.items())) == len(COMMANDS))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert done.stdout.split() == ["True", "True"], done.stdout + done.stderr
