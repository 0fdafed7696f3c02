"""CSV and TSV cells that a spreadsheet would evaluate as formulas, made inert — and restored on reading.

Policy (OWASP, "CSV Injection"): in every CSV or TSV file clfeval writes, a text
cell — header names included — that starts with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return gets one ``'`` in front, so that a spreadsheet shows
it as text instead of running it (``=cmd|' /C calc'!A0`` is written
``'=cmd|' /C calc'!A0``). A text cell that starts with ``'`` gets one too, so
that the rule can always be undone. Text cells that are plain numbers
(``-1``, ``+0.5``, ``-2e-3``) and numeric columns are written as they are.

Such a file ends its header with the column ``clfeval:escaped`` (whose cells
are empty): the marker by which clfeval recognises its own files. Reading a
CSV or TSV file whose header holds that column drops it and removes the one
``'`` that the policy put in front of a cell, giving back exactly the values
written. Any other file is read as it is: a leading ``'`` in a user's own file
is part of the label.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pyarrow as pa

from clfeval.core import arrowcompute as pc

__all__ = ["MARKER", "escape_text", "restore_text", "escape_table", "restore_table"]

MARKER = "clfeval:escaped"
"""Name of the last header column of every CSV/TSV file clfeval writes."""

_TRIGGER = r"^[=+@\t\r'-]"
_NUMBER = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"
_TRIGGER_RE = re.compile(_TRIGGER)
_NUMBER_RE = re.compile(_NUMBER)


def _needs_prefix(text: str) -> bool:
    return bool(_TRIGGER_RE.match(text)) and not _NUMBER_RE.match(text)


def escape_text(text: str) -> str:
    """One cell as written: ``'`` in front when the policy says so.

    >>> escape_text("=1+1"), escape_text("-1"), escape_text("'quoted"), escape_text("spam")
    ("'=1+1", '-1', "''quoted", 'spam')
    """
    return "'" + text if _needs_prefix(text) else text


def restore_text(text: str) -> str:
    """The inverse of :func:`escape_text` (a cell it could not have written stays as it is).

    >>> restore_text("'=1+1"), restore_text("''quoted"), restore_text("'-1"), restore_text("'plain")
    ('=1+1', "'quoted", "'-1", "'plain")
    """
    return text[1:] if text.startswith("'") and _needs_prefix(text[1:]) else text


def _is_text(t: pa.DataType) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t)


def _mask(col: pa.ChunkedArray) -> pa.ChunkedArray:
    hit = pc.and_(pc.match_substring_regex(col, _TRIGGER), pc.invert(pc.match_substring_regex(col, _NUMBER)))
    return pc.fill_null(hit, False)


def _escape_column(col: pa.ChunkedArray) -> pa.ChunkedArray:
    if pa.types.is_dictionary(col.type) and _is_text(col.type.value_type):
        col = col.cast(col.type.value_type)
    if not _is_text(col.type):
        return col
    prefixed = pc.binary_join_element_wise(pa.scalar("'", type=col.type), col, pa.scalar("", type=col.type))
    return pc.if_else(_mask(col), prefixed, col)


def _restore_column(col: pa.ChunkedArray) -> pa.ChunkedArray:
    if not _is_text(col.type):
        return col
    rest = pc.utf8_slice_codeunits(col, 1)
    mask = pc.and_(pc.fill_null(pc.starts_with(col, "'"), False), _mask(rest))
    return pc.if_else(mask, rest, col)


def escape_table(table: pa.Table) -> pa.Table:
    """The table as clfeval writes it to CSV/TSV: text cells and names escaped, the marker column last."""
    columns = [_escape_column(table.column(i)) for i in range(table.num_columns)]
    names = [escape_text(n) for n in table.column_names]
    columns.append(pa.nulls(table.num_rows, pa.string()))
    return pa.table(columns, names=[*names, MARKER])


def restore_table(table: pa.Table, header: Sequence[str]) -> pa.Table:
    """A table read from CSV/TSV with header ``header``: restored if it is clfeval's own file, else as it is."""
    if MARKER not in header:
        return table
    keep = [i for i, n in enumerate(table.column_names) if n != MARKER]
    return pa.table([_restore_column(table.column(i)) for i in keep],
                    names=[restore_text(table.column_names[i]) for i in keep])
