"""Shared formatting for the renderers: numbers, rich tables, Markdown tables.

Every string a renderer shows — labels, file and column names, notes, our own
titles — goes through this module, which makes it inert:

* text: control characters are shown as escapes (:func:`shown`), strings
  become rich ``Text`` objects (never parsed as rich markup or emoji codes),
  and long strings are laid out line by line (:class:`_LongText`), so that
  rendering stays linear in their length;
* Markdown: :func:`md_escape` escapes what Markdown or HTML would interpret.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from clfeval.core import shown

from ._plain import PlainTable, PlainText, is_plain

__all__ = ["num", "rich_table", "md_table", "md_escape", "shown", "UNDEF"]

UNDEF = "undef"


def num(value: Any, digits: int = 4) -> str:
    """A number as printed: integers as is, floats to ``digits`` decimals (from 1e15 on in scientific notation),
    NaN as 'undef'.

    >>> num(0.12345), num(2_000_000.0), num(1e308), num(float("nan"))
    ('0.1235', '2000000', '1.0000e+308', 'undef')
    """
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    try:
        v = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(v):
        return UNDEF
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if abs(v) >= 1e15:  # beyond 2^53 a float's digits are not all meaningful: 1e308 is not 309 digits wide
        return f"{v:.{digits}e}"
    if v.is_integer() and abs(v) >= 1e6:
        return str(int(v))
    return f"{v:.{digits}f}"


# --- inert strings -------------------------------------------------------------

#: Strings longer than this are laid out line by line in text output (see :class:`_LongText`).
LONG_TEXT = 2048


class _LongText:
    """A long rich ``Text`` rendered line by line.

    rich renders a wrapped ``Text`` as one segment holding all its lines, which
    its line splitter then copies once per line: quadratic in the length (a
    2 MB label took half a minute). Yielding every line as its own segments
    gives the same output in linear time.
    """

    def __init__(self, text: Any) -> None:
        self.text = text

    def __rich_console__(self, console: Any, options: Any) -> Iterator[Any]:
        from rich.segment import Segment

        t = self.text
        lines = t.wrap(console, options.max_width, justify=t.justify or options.justify or "default",
                       overflow=t.overflow or options.overflow or "fold", tab_size=t.tab_size or 8,
                       no_wrap=t.no_wrap if t.no_wrap is not None else bool(options.no_wrap))
        for i, line in enumerate(lines):
            if i:
                yield Segment("\n")
            yield from line.render(console)
        if t.end:
            yield Segment(t.end)

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        return self.text.__rich_measure__(console, options)


def rich_text(text: Any, style: str = "") -> Any:
    """A user-safe rich renderable of a string: control characters escaped, no markup, linear layout.

    In plain mode (:func:`clfeval.render._plain.plain_mode`, plain text output) the string without rich: a
    :class:`~clfeval.render._plain.PlainText`.
    """
    if is_plain():
        return PlainText(shown(text), style)
    return shown_rich_text(shown(text), style)


def shown_rich_text(text: str, style: str = "") -> Any:
    """The rich ``Text`` of a string already :func:`shown`."""
    from rich.text import Text

    t = Text(text, style=style)
    return _LongText(t) if len(t) > LONG_TEXT else t


def rich_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str | None = None,
               caption: str | None = None, numeric_from: int = 1, key: int = 1) -> Any:
    """A rich Table; columns from ``numeric_from`` on are right-aligned. Every cell is :func:`rich_text`.

    ``key``: the leading columns that name a row, repeated in every part when a wide table is folded
    (:func:`clfeval.render.fold`). In plain mode (plain text output) a table without title or caption is a
    :class:`~clfeval.render._plain.PlainTable` of the same strings.
    """
    shown_columns = [shown(c) for c in columns]
    shown_rows = [[shown(x if isinstance(x, str) else num(x)) for x in r] for r in rows]
    if is_plain() and title is None and caption is None:
        return PlainTable(shown_columns, shown_rows, numeric_from, key)
    return shown_rich_table(shown_columns, shown_rows, title=title, caption=caption, numeric_from=numeric_from,
                            key=key)


def shown_rich_table(columns: Sequence[str], rows: Sequence[Sequence[str]], *, title: str | None = None,
                     caption: str | None = None, numeric_from: int = 1, key: int = 1) -> Any:
    """The rich ``Table`` of strings already :func:`shown` (``key``: its row-naming columns, as ``KEY_ATTR``)."""
    from rich import box
    from rich.table import Table

    t = Table(title=title and shown_rich_text(shown(title)), caption=caption and shown_rich_text(shown(caption)),
              box=box.SIMPLE_HEAD, title_justify="left", caption_justify="left", pad_edge=False, show_edge=False)
    for i, c in enumerate(columns):
        t.add_column(shown_rich_text(c), justify="right" if i >= numeric_from else "left", overflow="fold",
                     no_wrap=i >= numeric_from)
    for r in rows:
        t.add_row(*[shown_rich_text(x) for x in r])
    setattr(t, KEY_ATTR, key)
    return t


#: The attribute of a rich ``Table`` holding how many leading columns name a row (1 when absent).
KEY_ATTR = "clfeval_key_columns"


# Markdown: what a CommonMark / GitHub renderer would interpret, and the HTML it would pass through.
_MD_INLINE = re.compile(
    r"\\(?=[!-/:-@\[-`{-~])"       # a backslash that would escape the next character
    r"|[`*\[\]|~$]"                 # code spans, emphasis, links and images, table cells, strikethrough, math
    r"|(?<![^\W_])_|_(?![^\W_])"     # underscores that could open or close emphasis (not inside a word)
    r"|<(?=[A-Za-z/!?])"             # the start of an HTML tag, comment or autolink
    r"|&(?=[A-Za-z0-9#])"            # the start of an entity
)
_MD_ENTITIES = {"<": "&lt;", "&": "&amp;"}
# At the start of a paragraph or heading: headings, block quotes, list items, setext underlines.
_MD_BLOCK_START = re.compile(r"^(\s*)(?:([#>+=-])|(\d+)([.)]))")


def _md_inline(m: re.Match[str]) -> str:
    return _MD_ENTITIES.get(m.group(0)) or "\\" + m.group(0)


def _md_block_start(m: re.Match[str]) -> str:
    if m.group(2):
        return m.group(1) + "\\" + m.group(2)
    return m.group(1) + m.group(3) + "\\" + m.group(4)


def md_escape(text: Any, *, context: str = "inline") -> str:
    """A string made inert in Markdown: shown as written, never interpreted.

    Control characters are escaped as in text output (:func:`shown`);
    backticks, ``*``, ``[``, ``]``, ``|``, ``~``, ``$`` and an ``_`` that is
    not inside a word get a backslash; ``<`` opening a tag and ``&`` opening
    an entity become ``&lt;`` / ``&amp;``; a backslash that would escape the
    next character is doubled. ``context="paragraph"`` also escapes a leading
    ``#``, ``>``, ``+``, ``-``, ``=`` or list number; ``context="heading"``
    a trailing ``#`` (which would close the heading). Characters that
    Markdown shows as they are stay unchanged.

    >>> print(md_escape("<img src=x onerror=alert(1)> | *a* `b` zero_division"))
    &lt;img src=x onerror=alert(1)> \\| \\*a\\* \\`b\\` zero_division
    >>> print(md_escape("# 1. not a heading", context="paragraph"))
    \\# 1. not a heading
    >>> print(md_escape("1. Part one #", context="heading"))
    1. Part one \\#
    """
    out = _MD_INLINE.sub(_md_inline, shown(text))
    if context == "paragraph":
        return _MD_BLOCK_START.sub(_md_block_start, out, count=1)
    if context == "heading":
        return re.sub(r"(?<!\\)#(?=#*\s*$)", r"\\#", out)
    return out


def md_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], *, numeric_from: int = 1) -> str:
    """A GitHub-flavoured Markdown table."""
    head = "| " + " | ".join(md_escape(c) for c in columns) + " |"
    sep = "| " + " | ".join("---:" if i >= numeric_from else "---" for i in range(len(columns))) + " |"
    body = ["| " + " | ".join(md_escape(x if isinstance(x, str) else num(x)) for x in r) + " |" for r in rows]
    return "\n".join([head, sep, *body])


# --- blocks: one description of a result's layout, rendered as text or Markdown ----

from dataclasses import dataclass, field  # noqa: E402


@dataclass
class TableBlock:
    """A table with a title; rendered as a rich table or a Markdown table."""

    title: str | None
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    caption: str | None = None
    numeric_from: int = 1
    #: The leading columns that name a row (``A``, ``B`` of a pair): repeated in every part of a folded table.
    key: int = field(default=1, kw_only=True)


@dataclass
class TextBlock:
    """A paragraph (``heading`` makes it a section heading).

    ``own_markup``: the text is clfeval's own Markdown (it holds no user
    string), written to Markdown as is; every other text is escaped.
    """

    text: str
    heading: bool = False
    style: str | None = None
    own_markup: bool = False


Block = TableBlock | TextBlock


def blocks_to_rich(blocks: Sequence[Block]) -> list[Any]:
    """Rich renderables of blocks (for text output); every string is :func:`rich_text`."""
    out: list[Any] = []
    for i, b in enumerate(blocks):
        if i and (isinstance(b, TableBlock) or b.heading):
            out.append(rich_text(""))
        if isinstance(b, TableBlock):
            if b.title:
                out.append(rich_text(b.title, style="bold"))
            out.append(rich_table(b.columns, b.rows, numeric_from=b.numeric_from, key=b.key))
            if b.caption:
                out.append(rich_text(b.caption, style="dim"))
        elif b.heading:
            out.append(rich_text(b.text, style="bold"))
        else:
            out.append(rich_text(b.text, style=b.style or ""))
    return out


def blocks_to_markdown(blocks: Sequence[Block], title: str | None = None) -> str:
    """Markdown of blocks: headings, tables with bold titles, paragraphs; every string is :func:`md_escape`-d."""
    parts: list[str] = []
    if title:
        parts.append(f"# {md_escape(title, context='heading')}")
    for b in blocks:
        if isinstance(b, TableBlock):
            if b.title:
                parts.append(f"**{md_escape(b.title)}**")
            parts.append(md_table(b.columns, b.rows, numeric_from=b.numeric_from))
            if b.caption:
                parts.append(f"*{md_escape(b.caption)}*")
        else:
            text = b.text if b.own_markup else md_escape(b.text, context="heading" if b.heading else "paragraph")
            parts.append(f"## {text}" if b.heading else text)
    return "\n\n".join(parts) + "\n"


def closing(blocks: list[Block], undefined: Sequence[str], notes: Sequence[str], sig: Mapping[str, Any],
            *keys: str) -> list[Block]:
    """The end of a decision's layout: what is undefined and why, the notes, the signature line.

    The line shows the value of each of ``keys`` in the signature (``"metric="``: as ``metric=macro_f1``).
    """
    for text in undefined:
        blocks.append(TextBlock(text, style="dim"))
    for note in notes:
        blocks.append(TextBlock(note, style="dim"))
    parts = [f"clfeval {sig['version']}"] + [f"{k}{sig[k.rstrip('=')]}" if k.endswith("=") else str(sig[k])
                                             for k in keys if sig.get(k.rstrip("=")) not in (None, "")]
    blocks.append(TextBlock(" · ".join(parts), style="dim"))
    return blocks


def register_blocks(result_type: type, blocks: Any) -> None:
    """Register the text and Markdown renderers of a result type from its layout ``blocks(result)``."""
    from clfeval.render import register

    register(result_type, text=lambda r: blocks_to_rich(blocks(r)), markdown=lambda r: blocks_to_markdown(blocks(r)))
