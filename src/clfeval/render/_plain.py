"""Plain text of a result's text form without importing rich: the same characters rich prints, in the common case.

:func:`clfeval.render.render` (``fmt="text"``) asks the renderers for their items in *plain mode*
(:func:`plain_mode`): :func:`~clfeval.render._util.rich_text` and :func:`~clfeval.render._util.rich_table` then
return a :class:`PlainText` / :class:`PlainTable` (the same strings, no rich object). :func:`layout` writes them as
rich would — paragraphs wrapped by rich's rule (``rich._wrap.divide_line``), tables in the ``SIMPLE_HEAD`` box
without edges, folded into parts of consecutive columns (each after the row-naming key columns) as
:func:`clfeval.render.fold` folds them — when every part of every table fits the width and every character takes
one terminal cell; otherwise it returns None and the caller prints the items through rich
(:meth:`PlainText.to_rich`, :meth:`PlainTable.to_rich`). The tests check the two against each other
(``tests/render/test_plain_layout.py``): rich is the reference.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["PlainText", "PlainTable", "plain_mode", "is_plain", "layout", "single_cell"]

_PLAIN: ContextVar[bool] = ContextVar("clfeval_render_plain", default=False)


@contextmanager
def plain_mode() -> Iterator[None]:
    """Within: :func:`~clfeval.render._util.rich_text` and ``rich_table`` return plain items."""
    token = _PLAIN.set(True)
    try:
        yield
    finally:
        _PLAIN.reset(token)


def is_plain() -> bool:
    return _PLAIN.get()


class PlainText:
    """A paragraph (already :func:`~clfeval.core._inert.shown`); ``to_rich()`` is the rich ``Text`` of it."""

    __slots__ = ("text", "style")

    def __init__(self, text: str, style: str = "") -> None:
        self.text, self.style = text, style

    def to_rich(self) -> Any:
        from clfeval.render._util import shown_rich_text

        return shown_rich_text(self.text, self.style)


class PlainTable:
    """A table of strings (already shown); ``to_rich()`` is the rich ``Table`` of it."""

    __slots__ = ("columns", "rows", "numeric_from", "key")

    def __init__(self, columns: list[str], rows: list[list[str]], numeric_from: int, key: int = 1) -> None:
        self.columns, self.rows, self.numeric_from, self.key = columns, rows, numeric_from, key

    def to_rich(self) -> Any:
        from clfeval.render._util import shown_rich_table

        return shown_rich_table(self.columns, self.rows, numeric_from=self.numeric_from, key=self.key)


# Characters that take exactly one terminal cell in rich (``rich.cells.cell_len``; a test checks every one of
# them): printable ASCII, Latin-1 and Latin Extended, Greek, general punctuation (without its separators and
# invisible controls), arrows, mathematical operators, box drawing. Anything else sends the result to rich.
_SINGLE = re.compile("[^\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c"
                     "\u038e-\u03a1\u03a3-\u03ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2200-\u22ff\u2500-\u257f]")

#: Longer strings are laid out by rich (:class:`~clfeval.render._util._LongText`).
_LONG = 2048


def single_cell(text: str) -> bool:
    """Every character of ``text`` takes one cell (see ``_SINGLE``) and the text is not a long one."""
    return len(text) <= _LONG and _SINGLE.search(text) is None


_WORD = re.compile(r"\s*\S+\s*")  # rich._wrap.re_word


def _wrap(text: str, width: int) -> list[str]:
    """The lines of a paragraph at ``width`` cells: ``rich.text.Text.wrap`` (overflow fold) for one-cell
    characters, up to trailing whitespace."""
    breaks: list[int] = []
    offset = 0
    for m in _WORD.finditer(text):
        start, word = m.start(), m.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:  # folded across lines
            pieces = [word[i:i + width] for i in range(0, len(word), width)]
            for n, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if n == len(pieces) - 1:
                    offset = len(piece)
                else:
                    start += len(piece)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    bounds = [0, *breaks, len(text)]
    return [text[a:b][:width] for a, b in zip(bounds, bounds[1:], strict=False)]


def _table_lines(columns: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int, keep: list[int],
                 widths: list[int], first: int | None = None) -> list[str]:
    """The lines of the table of columns ``keep`` (``widths``: their content widths), header first.

    ``first``: the content width the first column is wrapped to (rich's ``Table._collapse_widths`` when the part
    does not fit: only the first column may wrap; its cells fold as paragraphs do, the others stay on their
    first line).
    """
    last = len(keep) - 1
    fmt = []
    for n, i in enumerate(keep):
        left = " " if n else ""
        right = " " if n < last else ""
        inner = first if n == 0 and first is not None else max(widths[n], 1 - len(left) - len(right))
        fmt.append((left, right, inner, i >= numeric_from))

    def lines(cells: Sequence[str], header: bool = False) -> list[str]:
        wrapped = [cells[keep[0]]] if first is None else _wrap(cells[keep[0]], first)
        at = len(wrapped) - 1 if header else 0  # the line of the other cells: rich aligns a header row's bottom
        out = []
        for k in range(len(wrapped)):
            row = []
            for n, ((left, right, inner, numeric), i) in enumerate(zip(fmt, keep, strict=True)):
                cell = wrapped[k] if n == 0 else (cells[i] if k == at else "")
                row.append(left + (cell.rjust(inner) if numeric else cell.ljust(inner)) + right)
            out.append(" ".join(row))
        return out

    total = sum(len(left) + inner + len(right) for left, right, inner, _ in fmt) + last
    return [*lines(columns, header=True), "─" * total, *(line for r in rows for line in lines(r))]


def _table(t: PlainTable, width: int) -> list[str] | None:
    """The lines of a table as :func:`clfeval.render.print_renderables` prints it (folded into parts of consecutive
    columns as :func:`clfeval.render.fold` folds it), or None (rich must)."""
    cols, rows = t.columns, t.rows
    n = len(cols)
    if n == 0 or not rows or any(len(r) != n for r in rows):
        return None
    w = [len(c) for c in cols]
    for r in rows:
        for i, cell in enumerate(r):
            if len(cell) > w[i]:
                w[i] = len(cell)

    def natural(keep: list[int]) -> int:  # a part's width: pads (none on its outer edges) and dividers
        return sum(w[i] for i in keep) + 2 * (len(keep) - 1) + (len(keep) - 1)

    whole = list(range(n))
    key = min(max(t.key, 1), n)
    if natural(whole) <= width or n < key + 2:
        parts = [whole]
    else:
        parts, current = [], list(range(key))
        for i in range(key, n):
            if len(current) > key and natural(current + [i]) > width:
                parts.append(current)
                current = list(range(key))
            current.append(i)
        parts.append(current)
    out: list[str] = []
    for k, keep in enumerate(parts):
        first = None
        if natural(keep) > width:  # rich narrows the first column, the only one that may wrap, and wraps its cells
            if keep[0] >= t.numeric_from or any(i < t.numeric_from for i in keep[1:]):
                return None  # several columns may wrap (or none): rich shares the width out, its layout not ours
            first = w[keep[0]] - (natural(keep) - width)
            if first < 1:
                return None  # the other columns alone are too wide: rich squeezes every column
        if k:
            out.append("")
        out.extend(_table_lines(cols, rows, t.numeric_from, keep, [w[i] for i in keep], first))
    return out


def layout(items: Sequence[Any], width: int) -> str | None:
    """The plain text of plain items at ``width`` columns (lines without trailing spaces), or None when an item
    needs rich (a rich object, a wide or invisible character, a long string, a table that does not fit)."""
    lines: list[str] = []
    for item in items:
        if isinstance(item, PlainText):
            if not single_cell(item.text):
                return None
            lines.extend(_wrap(item.text, width))
        elif isinstance(item, PlainTable):
            if not all(single_cell(c) for c in item.columns) or not all(single_cell(c) for r in item.rows
                                                                         for c in r):
                return None
            table = _table(item, width)
            if table is None:
                return None
            lines.extend(table)
        else:
            return None
    return "\n".join(line.rstrip() for line in lines) + "\n"
