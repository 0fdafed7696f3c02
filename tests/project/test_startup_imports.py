"""What the command line imports (issue 23, fast start): a command imports what it needs when it runs.

Each probe runs a command in a fresh interpreter the way the ``clfeval`` program does (``console_main`` installs the
pandas guard of :mod:`clfeval.cli._nopandas`, then runs :func:`clfeval.cli.main`) and lists the heavy packages left
in ``sys.modules``. Times are measured by ``bench/latency.py``, never here; this guards the imports that the gains
came from, so that they cannot silently come back.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"

#: Packages that no text report of a CSV needs.
HEAVY = ("scipy", "sklearn", "matplotlib", "jinja2", "pandas", "dask", "distributed", "statsmodels")


def imported_by(args: list[str], *, guard: bool = True, before: str = "") -> set[str]:
    """Top-level packages of HEAVY (and ``scipy.stats``) in sys.modules after ``clfeval ARGS``."""
    code = ("import contextlib, io, sys\n"
            + ("from clfeval.cli._nopandas import install\ninstall()\n" if guard else "")
            + before
            + "from clfeval.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    try:\n        main({args!r})\n"
            "    except SystemExit as exc:\n        assert not exc.code, exc.code\n"
            f"print(' '.join(m for m in {HEAVY + ('scipy.stats',)!r} if sys.modules.get(m) is not None))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


@pytest.fixture(scope="module")
def small_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("startup") / "preds.csv"
    rows = [(i, f"c{i % 3}", f"c{(i * 7) % 3}") for i in range(30)]
    path.write_text("id,gold,pred\n" + "".join(f"{i},{g},{p}\n" for i, g, p in rows), encoding="utf-8")
    return path


def test_a_text_report_imports_nothing_heavy(small_csv):
    assert imported_by(["report", str(small_csv)]) == set()


def test_the_probe_sees_what_pyarrow_imports_without_the_guard(small_csv):
    """Without the guard pyarrow imports pandas on its first conversion (the probe can fail)."""
    pytest.importorskip("pandas")
    assert "pandas" in imported_by(["report", str(small_csv)], guard=False)


def test_power_and_mcnemar_do_not_import_scipy_stats(small_csv):
    """The exact binomial sums come from scipy.special's ufuncs (the ones scipy.stats.binom calls)."""
    assert "scipy.stats" not in imported_by(["power", str(small_csv), str(small_csv)])
    assert "scipy.stats" not in imported_by(["compare", str(small_csv), str(small_csv), "--test", "mcnemar"])


def test_a_deliberate_import_of_pandas_goes_through():
    """An ``import pandas`` statement under the guard imports pandas, and pyarrow converts pandas objects again."""
    pytest.importorskip("pandas")
    code = ("from clfeval.cli._nopandas import install\ninstall()\n"
            "import numpy as np, pyarrow as pa, pyarrow.compute as pc\n"
            "import pandas as pd\n"
            "s = pd.Series(['a', 'b', 'a'], dtype='category')\n"
            "print(str(pa.array(s).type).split('<')[0], pa.Table.from_pandas(pd.DataFrame({'x': [1, 2]})).num_rows)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["dictionary", "2"], done.stdout
