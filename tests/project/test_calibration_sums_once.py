"""Issue 38, item 1: calibration's bin sums are written once, in ``ops/calibration/_sums.py``.

The calibration modules (every module whose name says ``calibrat``: the local ``Calibrator``, the sliced one, the
Dask calibration, the result) bin nothing and sum nothing themselves: no ``bincount``, ``grouped_sums``,
``ExactSums``, ``floor``, ``searchsorted``, ``percentile`` or ``log1p`` outside the accumulator's module, and the
three that count import the one accumulator, ``CalibrationSums``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "clfeval"
HOME = SRC / "ops" / "calibration" / "_sums.py"
ARITHMETIC = {"bincount", "grouped_sums", "ExactSums", "floor", "searchsorted", "percentile", "log1p"}
USERS = [SRC / "scores" / "_calibration.py", SRC / "slicing" / "_slicecalibration.py",
         SRC / "front" / "_dask.py"]
CALIBRATION = sorted({p for p in SRC.rglob("*.py") if "calibrat" in str(p.relative_to(SRC)) and p != HOME}
                     | {SRC / "front" / "_dask.py"})  # the Dask functions of each operation, calibration's among them


# bincounts that count something else than bins: the gold labels present in a batch (label codes)
NOT_BINS = {("scores/_calibration.py", "_is_positive", "bincount")}


def bin_arithmetic(text: str, module: str = "") -> list[str]:
    """The calls (``f(...)`` or ``x.f(...)``) of the bin arithmetic in a module's source, but :data:`NOT_BINS`."""
    out = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Call):
                f = child.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
                if name in ARITHMETIC and (module, function, name) not in NOT_BINS:
                    out.append(f"line {child.lineno}: {name}")
            visit(child, inner)

    visit(ast.parse(text), "")
    return sorted(out, key=lambda s: int(s.split()[1].rstrip(":")))


def test_the_check_finds_a_second_copy():
    copy = "import numpy as np\nidx = np.minimum(np.floor(p * b).astype(int), b - 1)\nc = np.bincount(idx[y])\n"
    assert bin_arithmetic(copy) == ["line 2: floor", "line 3: bincount"]
    assert bin_arithmetic("s = ExactSums(3)\nt = grouped_sums(p, idx, 3)\n") == ["line 1: ExactSums",
                                                                                 "line 2: grouped_sums"]
    assert bin_arithmetic(HOME.read_text(encoding="utf-8")), "the accumulator's own module must hold the arithmetic"
    # a bin's bincount in the function that may count labels is still found
    labels = "def _is_positive(codes):\n    return np.bincount(codes)\ndef update(idx):\n    return np.bincount(idx)\n"
    assert bin_arithmetic(labels, "scores/_calibration.py") == ["line 4: bincount"]


def test_the_calibration_modules_are_found():
    names = {p.relative_to(SRC).as_posix() for p in CALIBRATION}
    assert {u.relative_to(SRC).as_posix() for u in USERS} <= names


@pytest.mark.parametrize("path", CALIBRATION, ids=lambda p: p.relative_to(SRC).as_posix())
def test_no_calibration_module_bins_or_sums_itself(path):
    found = bin_arithmetic(path.read_text(encoding="utf-8"), path.relative_to(SRC).as_posix())
    assert not found, (f"{path.relative_to(SRC)} bins or sums calibration items itself ({', '.join(found)}): use "
                       f"clfeval.ops.calibration.CalibrationSums")


@pytest.mark.parametrize("path", USERS, ids=lambda p: p.relative_to(SRC).as_posix())
def test_each_calibration_counts_with_the_one_accumulator(path):
    imported = {(n.module, a.name) for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(n, ast.ImportFrom) for a in n.names}
    assert ("clfeval.ops.calibration", "CalibrationSums") in imported
