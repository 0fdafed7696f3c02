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
