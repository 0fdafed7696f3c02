"""Plain text output without rich (render._plain): the same characters rich prints, checked against rich itself.

``render(result, "text")`` lays out the renderers' paragraphs and tables without importing rich whenever rich's
layout of them is plain (render._plain.layout); rich is the reference here: every case below is printed both ways.
"""

from __future__ import annotations

import io
import random

import pytest

rich_console = pytest.importorskip("rich.console")
from rich.cells import cell_len  # noqa: E402

import clfeval  # noqa: E402
from clfeval import render  # noqa: E402
from clfeval.render import _plain  # noqa: E402
from clfeval.render._util import shown_rich_table, shown_rich_text  # noqa: E402


def by_rich(items, width):
    """What render(..., "text") printed before the plain layout: rich's console, lines right-stripped."""
    buf = io.StringIO()
    console = rich_console.Console(file=buf, width=width, color_system=None, force_terminal=False,
                                   legacy_windows=False, soft_wrap=False, emoji=False, highlight=False)
    render.print_renderables(console, items)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"


def ranges_of_single():
    """The code points _plain treats as one cell, from its pattern's ranges."""
    body = _plain._SINGLE.pattern[2:-1]
    out, i = [], 0
    while i < len(body):
        lo = body[i]
        if i + 2 < len(body) and body[i + 1] == "-":
            out.append((ord(lo), ord(body[i + 2])))
            i += 3
        else:
            out.append((ord(lo), ord(lo)))
            i += 1
    return out


def test_every_one_cell_character_is_one_cell_for_rich():
    ranges = ranges_of_single()
    assert len(ranges) > 5
    for lo, hi in ranges:
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            assert _plain.single_cell(ch), hex(cp)
            assert cell_len(ch) == 1, hex(cp)


@pytest.mark.parametrize("text", ["中文", "e\u0301", "\u200b", "🙂", "a\u2028b", "x" * 3000])
def test_wide_invisible_and_long_text_goes_to_rich(text):
    assert not _plain.single_cell(text)
    assert _plain.layout([_plain.PlainText(text)], 100) is None


WORDS = ["a", "the", "F1", "macro-F1", "δ", "φ", "−0.25", "—", "recall:spam", "x" * 30, "y" * 130, "", " ", "  ",
         "≥", "naïve", "μ", "→", "1,000", "(n = 10)", "·"]


def random_text(rng, n):
    return "".join(rng.choice(WORDS) + rng.choice([" ", " ", "  ", "", " \u00a0"]) for _ in range(n))


@pytest.mark.parametrize("seed", range(40))
def test_paragraphs_wrap_as_rich_wraps_them(seed):
    rng = random.Random(seed)
    width = rng.choice([1, 2, 5, 17, 40, 80, 100, 133])
    texts = [random_text(rng, rng.randrange(0, 60)) for _ in range(4)]
    plain = _plain.layout([_plain.PlainText(t) for t in texts], width)
    assert plain is not None
    assert plain == by_rich([shown_rich_text(t) for t in texts], width)


def random_table(rng):
    k = rng.randrange(1, 14)
    numeric_from = rng.choice([1, 1, 2, k])
    columns = [rng.choice(["class", "gold \\ pred", "", "precision", "F1", "support", "δ", "x" * rng.randrange(1, 40)])
               for _ in range(k)]
    first = lambda: rng.choice(["class0", "", "macro (mean of per-class values)", "a b c d e f", "w" * 50,  # noqa: E731
                                "label with words " * rng.randrange(1, 8)])
    cell = lambda: rng.choice(["0.8090", "1,223 of 10,000", "undef", "—", "12", "", "p = 0.0047 < 0.01"])  # noqa: E731
    rows = [[first() if i < numeric_from else cell() for i in range(k)] for _ in range(rng.randrange(1, 8))]
    return columns, rows, numeric_from


def test_tables_are_laid_out_as_rich_lays_them_out():
    laid = 0
    for seed in range(200):
        rng = random.Random(1000 + seed)
        columns, rows, numeric_from = random_table(rng)
        width = rng.choice([30, 60, 80, 100, 100, 140])
        plain = _plain.layout([_plain.PlainTable(columns, rows, numeric_from)], width)
        if plain is None:  # rich's own layout: a table that does not fit even folded, beyond a wrapped first column
            continue
        laid += 1
        assert plain == by_rich([shown_rich_table(columns, rows, numeric_from=numeric_from)], width), seed
    assert laid >= 120, laid


def results():
    rng = random.Random(3)
    out = []
    for k, n in ((2, 60), (3, 200), (12, 400), (31, 600)):
        labels = [f"class-{i}" + "x" * rng.randrange(6) for i in range(k)]
        gold = [rng.choice(labels) for _ in range(n)]
        pred = [g if rng.random() < 0.7 else rng.choice(labels) for g in gold]
        out.append(clfeval.report(gold, pred))
    out.append(clfeval.report(["naïve δ", "b", "b", "中文"], ["naïve δ", "b", "中文", "b"]))  # a wide label: rich
    return out


@pytest.mark.parametrize("width", [60, 100, 160])
def test_reports_print_as_rich_prints_them(width):
    for result in results():
        assert render.render(result, "text", width=width) == by_rich(render.renderables(result), width)


def test_a_report_is_written_without_rich():
    with _plain.plain_mode():
        items = render.renderables(results()[2])
    assert _plain.layout(items, 100) is not None
    assert render.renderables(results()[2])[0].__class__.__module__.startswith("rich")  # the public form stays rich


def test_a_folded_table_repeats_its_key_columns_as_rich_does():
    """A table whose rows are named by two columns (A and B of a pair) repeats both in every folded part."""
    laid = folded = 0
    for seed in range(60):
        rng = random.Random(5000 + seed)
        k = rng.randrange(4, 14)
        columns = ["A", "B"] + [rng.choice(["mean d", "Hodges–Lehmann", "Wilcoxon p", "x" * rng.randrange(1, 20)])
                                for _ in range(k - 2)]
        rows = [[f"sys{rng.randrange(100)}", f"other{rng.randrange(10)}"]
                + [rng.choice(["0.8090", "undef", "1.0000e+308", "6/0/0"]) for _ in range(k - 2)]
                for _ in range(rng.randrange(1, 6))]
        width = rng.choice([30, 50, 80, 100])
        plain = _plain.layout([_plain.PlainTable(columns, rows, 2, key=2)], width)
        rich = by_rich([shown_rich_table(columns, rows, numeric_from=2, key=2)], width)
        if plain is None:
            continue
        laid += 1
        assert plain == rich, seed
        heads = [line for line in plain.splitlines() if line.startswith("A ")]
        assert all(h.split()[:2] == ["A", "B"] for h in heads), seed
        assert len(heads) == sum(line.startswith("─") for line in plain.splitlines()) >= 1
        folded += len(heads) > 1
    assert laid >= 40 and folded >= 10, (laid, folded)
