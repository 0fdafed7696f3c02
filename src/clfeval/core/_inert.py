"""Inert strings: user text shown with its control characters escaped, never raw.

Every place that shows a user string — terminal, Markdown, HTML, figure labels —
passes it through :func:`shown` first, so that an escape sequence, a carriage
return or a bidirectional override in a label cannot act on what a person sees.
"""

from __future__ import annotations

from typing import Any

__all__ = ["shown"]


def _escape_table() -> dict[int, str]:
    table = {cp: f"\\x{cp:02x}" for cp in (*range(0x20), *range(0x7F, 0xA0))}  # C0, DEL, C1
    table.update({0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"})
    # line/paragraph separators and the bidirectional controls that reorder what a terminal shows
    for cp in (0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)):
        table[cp] = f"\\u{cp:04x}"
    return table


_ESCAPES = _escape_table()


def shown(text: Any) -> str:
    """A string as clfeval prints it: control characters escaped, never raw.

    C0 and C1 control characters and DEL become ``\\n``, ``\\t``, ``\\r`` or
    ``\\xNN``; line and paragraph separators and bidirectional controls
    (U+202E, ...) become ``\\uNNNN``. Every other character is shown as is
    (a backslash stays one backslash; JSON output carries strings exactly).
    Linear in the length of the string.

    >>> shown("a\\x1b[31mb\\nc")
    'a\\\\x1b[31mb\\\\nc'
    """
    return str(text).translate(_ESCAPES)
