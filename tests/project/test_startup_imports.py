"""What the command line imports (issue 23, fast start): a command imports what it needs when it runs.

Each probe runs a command in a fresh interpreter the way the ``clfeval`` program does (``console_main`` installs the
pandas guard of :mod:`clfeval.core._nopandas`, then runs :func:`clfeval.cli.main`) and lists the heavy packages left
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


def imported_by(args: list[str], *, guard: bool = True, before: str = "",
                watch: tuple[str, ...] = (*HEAVY, "scipy.stats")) -> set[str]:
    """The modules of ``watch`` (by default HEAVY and ``scipy.stats``) in sys.modules after ``clfeval ARGS``."""
    code = ("import contextlib, io, sys\n"
            + ("from clfeval.core._nopandas import install\ninstall()\n" if guard else "")
            + before
            + "from clfeval.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    try:\n        main({args!r})\n"
            "    except SystemExit as exc:\n        assert not exc.code, exc.code\n"
            f"print(' '.join(m for m in {watch!r} if sys.modules.get(m) is not None))")
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


#: What a text report of a CSV once imported and no longer needs (issue 23, goal 2): rich (the plain layout of
#: render._plain writes the text), pyarrow.compute (its kernels through clfeval.core._arrowcompute), numpy.ma (asked
#: for by pa.array on NumPy arrays), the modules of --require, --ci and --score, and the spill directory's helpers.
NOT_IN_A_REPORT = ("rich", "rich.console", "pyarrow.compute", "numpy.ma", "clfeval.evaluate._requirements",
                   "clfeval.evaluate._intervals", "clfeval.scores._curves", "clfeval.stats._resample", "tempfile",
                   "shutil", "secrets")


def test_a_text_report_imports_only_what_it_uses(small_csv):
    assert imported_by(["report", str(small_csv)], watch=NOT_IN_A_REPORT) == set()
    # the probe sees them when they are used
    used = imported_by(["report", str(small_csv), "--require", "accuracy>=0", "--ci", "0.9", "--samples", "200"],
                       watch=("clfeval.evaluate._requirements", "clfeval.evaluate._intervals"))
    assert used == {"clfeval.evaluate._requirements", "clfeval.evaluate._intervals"}


def test_a_markdown_report_and_power_do_not_import_rich_or_pyarrow_compute(small_csv):
    assert imported_by(["report", str(small_csv), "-f", "markdown"], watch=NOT_IN_A_REPORT) == set()
    watch = ("rich", "pyarrow.compute", "clfeval.render._decisions", "clfeval.render._scores")
    # power's inputs are joined by id through the engine (issue 39), as compare's are (one file with itself, so
    # that a file of several repeats is refused without --repeat): the join's DuckDB path imports pyarrow.compute;
    # rich and the renderers stay out
    assert imported_by(["power", str(small_csv)], watch=watch[:1] + watch[2:]) == set()
    assert imported_by(["power", str(small_csv), str(small_csv)], watch=watch[:1] + watch[2:]) == set()


def test_help_imports_no_command(tmp_path):
    commands = tuple(f"clfeval.cli.{m}" for m in ("report_cmd", "demo_cmd", "compare_cmd", "power_cmd",
                                                   "experiment_cmd", "plot_cmd", "errors_cmd", "rank_cmd"))
    code = ("import contextlib, io, sys\nfrom clfeval.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n    try:\n        main(['--help'])\n"
            "    except SystemExit as exc:\n        assert not exc.code, exc.code\n"
            "assert 'report        Score a predictions file' in out.getvalue(), out.getvalue()\n"
            f"print(' '.join(m for m in {commands!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", "COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []


def test_the_summaries_of_help_are_the_commands_first_paragraphs():
    from clfeval.cli import COMMANDS, SUMMARIES, cli

    cli.load_all()
    assert set(SUMMARIES) == set(COMMANDS)
    for name, text in SUMMARIES.items():
        command = cli.commands[name]
        assert text.split() == (command.help or "").split("\n\n")[0].split(), name
        assert not command.hidden and not command.deprecated and command.short_help is None, name


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
    code = ("from clfeval.core._nopandas import install\ninstall()\n"
            "import numpy as np, pyarrow as pa, pyarrow.compute as pc\n"
            "import pandas as pd\n"
            "s = pd.Series(['a', 'b', 'a'], dtype='category')\n"
            "print(str(pa.array(s).type).split('<')[0], pa.Table.from_pandas(pd.DataFrame({'x': [1, 2]})).num_rows)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["dictionary", "2"], done.stdout


@pytest.mark.parametrize("columns", ["40", "80", "200"])
def test_help_from_the_summaries_is_clicks_own(columns):
    """The list of commands written from the summaries equals click's, written from the imported commands."""
    code = ("import contextlib, io\nfrom clfeval.cli import cli, main\n"
            "def helptext():\n    out = io.StringIO()\n    with contextlib.redirect_stdout(out):\n"
            "        try:\n            main(['--help'])\n        except SystemExit:\n            pass\n"
            "    return out.getvalue()\n"
            "before = helptext()\ncli.load_all()\nafter = helptext()\n"
            "assert 'Commands:' in before and before == after, (before, after)\nprint('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin", "COLUMNS": columns})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok"]
