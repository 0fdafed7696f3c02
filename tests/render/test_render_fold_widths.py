"""The folding of wide tables measures each column once per role (render._Widths); these check it against rich's
own measurement of every part (render._natural), on the tables of real results."""

from __future__ import annotations

import io
import random

import pytest

rich_console = pytest.importorskip("rich.console")
from rich.table import Table  # noqa: E402

import clfeval  # noqa: E402
from clfeval import render  # noqa: E402


def tables_of(result):
    return [r for r in render.renderables(result) if isinstance(r, Table)]


def console():
    return rich_console.Console(file=io.StringIO(), width=100, color_system=None, force_terminal=False,
                                legacy_windows=False, soft_wrap=False, emoji=False, highlight=False)


@pytest.mark.parametrize("k", [3, 12, 31])
def test_widths_of_parts_are_richs(k):
    rng = random.Random(k)
    labels = [f"class-{i}" + "x" * rng.randrange(6) for i in range(k)]
    gold = [rng.choice(labels) for _ in range(400)]
    pred = [g if rng.random() < 0.7 else rng.choice(labels) for g in gold]
    c = console()
    checked = 0
    for table in tables_of(clfeval.report(gold, pred)):
        widths = render._Widths(c, table)
        n = len(table.columns)
        for start in range(1, n):
            for stop in range(start + 1, min(n, start + 6) + 1):
                cols = [0, *range(start, stop)]
                assert widths(cols) == render._natural(c, render._part(table, cols)), (cols, table.title)
                checked += 1
    assert checked > 0


def test_a_table_with_a_minimum_width_is_measured_whole():
    t = Table(min_width=300)
    for name in ("a", "b", "c"):
        t.add_column(name)
    t.add_row("1", "2", "3")
    c = console()
    assert render._Widths(c, t)([0, 1, 2]) == render._natural(c, t) == 300
