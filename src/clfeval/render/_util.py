"""Shared formatting for the renderers: numbers, rich tables, Markdown tables."""

from __future__ import annotations

import math
from typing import Any, Sequence

__all__ = ["num", "rich_table", "md_table", "md_escape", "UNDEF"]

UNDEF = "undef"


def num(value: Any, digits: int = 4) -> str:
    """A number as printed: integers as is, floats to ``digits`` decimals, NaN as 'undef'."""
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
    if v.is_integer() and abs(v) >= 1e6:
        return str(int(v))
    return f"{v:.{digits}f}"


def rich_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str | None = None,
               caption: str | None = None, numeric_from: int = 1) -> Any:
    """A rich Table; columns from ``numeric_from`` on are right-aligned."""
    from rich import box
    from rich.table import Table

    t = Table(title=title, caption=caption, box=box.SIMPLE_HEAD, title_justify="left", caption_justify="left",
              pad_edge=False, show_edge=False)
    for i, c in enumerate(columns):
        t.add_column(str(c), justify="right" if i >= numeric_from else "left", overflow="fold",
                     no_wrap=i >= numeric_from)
    for r in rows:
        t.add_row(*[x if isinstance(x, str) else num(x) for x in r])
    return t


def md_escape(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], *, numeric_from: int = 1) -> str:
    """A GitHub-flavoured Markdown table."""
    head = "| " + " | ".join(md_escape(c) for c in columns) + " |"
    sep = "| " + " | ".join("---:" if i >= numeric_from else "---" for i in range(len(columns))) + " |"
    body = ["| " + " | ".join(md_escape(x if isinstance(x, str) else num(x)) for x in r) + " |" for r in rows]
    return "\n".join([head, sep, *body])


# --- blocks: one description of a result's layout, rendered as text or Markdown ----

from dataclasses import dataclass  # noqa: E402


@dataclass
class TableBlock:
    """A table with a title; rendered as a rich table or a Markdown table."""

    title: str | None
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    caption: str | None = None
    numeric_from: int = 1


@dataclass
class TextBlock:
    """A paragraph (``heading`` makes it a section heading)."""

    text: str
    heading: bool = False
    style: str | None = None


Block = TableBlock | TextBlock


def blocks_to_rich(blocks: Sequence[Block]) -> list[Any]:
    """Rich renderables of blocks (for text output)."""
    from rich.text import Text

    out: list[Any] = []
    for i, b in enumerate(blocks):
        if i and (isinstance(b, TableBlock) or b.heading):
            out.append(Text(""))
        if isinstance(b, TableBlock):
            if b.title:
                out.append(Text(b.title, style="bold"))
            out.append(rich_table(b.columns, b.rows, numeric_from=b.numeric_from))
            if b.caption:
                out.append(Text(b.caption, style="dim"))
        elif b.heading:
            out.append(Text(b.text, style="bold"))
        else:
            out.append(Text(b.text, style=b.style or ""))
    return out


def blocks_to_markdown(blocks: Sequence[Block], title: str | None = None) -> str:
    """Markdown of blocks: headings, tables with bold titles, paragraphs."""
    parts: list[str] = []
    if title:
        parts.append(f"# {title}")
    for b in blocks:
        if isinstance(b, TableBlock):
            if b.title:
                parts.append(f"**{md_escape(b.title)}**")
            parts.append(md_table(b.columns, b.rows, numeric_from=b.numeric_from))
            if b.caption:
                parts.append(f"*{md_escape(b.caption)}*")
        elif b.heading:
            parts.append(f"## {b.text}")
        else:
            parts.append(b.text)
    return "\n\n".join(parts) + "\n"
