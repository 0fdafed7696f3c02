"""The scripts of ``bench/`` and ``tools/`` import what the package has (a rename inside the package, such as the
private-module codemod, must not leave a benchmark that fails only when someone runs it). Every
``from clfeval... import name`` in them -- in their code or in the Python they hand to a child interpreter as a
string -- is resolved here."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FROM = re.compile(r"^\s*from (clfeval(?:\.\w+)*) import ([\w, ]+?)\s*(?:#.*)?$", re.M)
SCRIPTS = sorted([*ROOT.glob("bench/*.py"), *ROOT.glob("tools/*.py")])
#: Imports that name an OLDER tree's module on purpose, each the fallback of an import that resolves here:
#: bench/checkouts.py runs the new tree's bench scripts on an old checkout too.
OLD_TREES = {("clfeval.cli._nopandas", "install"): "the pandas guard before issue 39 moved it to core/_nopandas.py"}


def imports(text: str) -> list[tuple[str, str]]:
    out = []
    for module, names in FROM.findall(text):
        for part in names.split(","):
            name = part.strip().split(" as ")[0].strip()
            if name and not module.startswith("clfeval.x"):  # clfeval.x: the codemod's examples
                out.append((module, name))
    return out


def test_each_old_tree_import_is_a_fallback_of_one_that_resolves():
    """An exempted import sits beside the current one (``try: <current> except ImportError: <old>``)."""
    text = (ROOT / "bench" / "slices_speed.py").read_text(encoding="utf-8")
    assert ("clfeval.core._nopandas", "install") in imports(text)
    importlib.import_module("clfeval.core._nopandas").install  # noqa: B018 (it resolves)
    for module, _ in OLD_TREES:
        with pytest.raises(ImportError):
            importlib.import_module(module)


def test_the_pattern_finds_imports_in_code_and_in_strings():
    text = ('import x\nfrom clfeval.engines import read_scored, report  # note\n'
            '_S = """\nfrom clfeval import a as b\n"""')
    assert imports(text) == [("clfeval.engines", "read_scored"), ("clfeval.engines", "report"), ("clfeval", "a")]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_clfeval_import_of_a_script_resolves(script):
    for module, name in imports(script.read_text(encoding="utf-8")):
        if (module, name) in OLD_TREES:
            continue
        mod = importlib.import_module(module)
        if not hasattr(mod, name):
            importlib.import_module(f"{module}.{name}")  # a submodule


def test_the_render_step_of_html_speed_runs_on_a_small_file(tmp_path):
    """The step that the bench runs in a child interpreter, on a small file of the bench's columns."""
    import importlib.util

    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    spec = importlib.util.spec_from_file_location("html_speed", ROOT / "bench" / "html_speed.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rng = np.random.default_rng(0)
    cols: dict[str, object] = {"gold": [f"c{i}" for i in rng.integers(0, 3, 300)],
                               "pred": [f"c{i}" for i in rng.integers(0, 3, 300)]}
    cols.update({f"score:c{k}": rng.random(300) for k in range(3)})
    pq.write_table(pa.table(cols), tmp_path / "preds.parquet")
    step = bench.render_step(str(tmp_path / "preds.parquet"))
    assert set(step) == {"text", "html"} and all(cpu >= 0 and wall > 0 for cpu, wall in step.values())


#: Peers that only ``bench/peers.py`` and ``bench/label_issues.py`` race (the ``bench`` extra) or that only tests
#: use as oracles: the package never imports them, not even lazily inside a function (issues 40, 41).
PEERS = ("sliceline", "fairlearn", "cleanlab")
SRC = ROOT / "src" / "clfeval"


def peer_imports(text: str, filename: str = "<probe>") -> list[str]:
    """Every import of a peer in ``text``: ``import x``, ``from x import ...``, ``importlib.import_module("x")``
    and ``__import__("x")``, wherever they stand (top level, functions, ``if TYPE_CHECKING:`` blocks)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(text, filename=filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
        found.extend(n for n in names if n.split(".")[0] in PEERS)
    return found


def test_the_peer_check_sees_every_form_of_import():
    probe = ("import sliceline\nfrom fairlearn.metrics import MetricFrame\nimport numpy\n"
             "def f():\n    import cleanlab.filter as cf\n    return importlib.import_module('sliceline.slicefinder')\n"
             "__import__('fairlearn')\nfrom .sliceline import x\n")
    assert sorted(peer_imports(probe)) == ["cleanlab.filter", "fairlearn", "fairlearn.metrics", "sliceline",
                                           "sliceline.slicefinder"]


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_the_package_imports_no_peer(path):
    """sliceline, fairlearn and cleanlab are peers to race (``bench``) or oracles (``test``), never dependencies."""
    assert not peer_imports(path.read_text(encoding="utf-8"), str(path)), f"{path.relative_to(ROOT)} imports a peer"


def test_the_bench_extra_holds_the_peers_and_only_it_names_sliceline_and_cleanlab():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    name = lambda req: re.split(r"[\[<>=!~; ]", req, maxsplit=1)[0].lower()  # noqa: E731
    assert {"sliceline", "fairlearn", "pandas", "cleanlab"} <= {name(r) for r in extras["bench"]}
    for extra, reqs in extras.items():
        if extra != "bench":
            for peer in ("sliceline", "cleanlab"):  # cleanlab: AGPL, raced by bench/label_issues.py only
                assert peer not in {name(r) for r in reqs}, f"the {extra} extra names {peer}"
