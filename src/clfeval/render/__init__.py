"""Renderers: a result object in, a string out.

JSON is generic (``result.to_dict()``, NaN and infinities as ``null``). Text
and Markdown renderers are registered per result type with :func:`register`.
A text renderer returns a list of rich renderables (tables, text), which
:func:`render` turns into plain text of a fixed width — or which the command
line prints with colour when stdout is a terminal. Report sections added by
later stages (``ranking``, ``ci``, ...) register their own renderers with
:func:`register_section`.
"""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clfeval.core import set_renderers
from clfeval.core.lazy import attach as _attach_internal

__all__ = ["render", "renderables", "register", "register_section", "section_renderers", "to_json", "jsonable",
           "FORMATS"]

FORMATS = ("text", "json", "markdown", "html")


@dataclass(frozen=True)
class _Entry:
    text: Callable[[Any], list[Any]] | None
    markdown: Callable[[Any], str] | None


_REGISTRY: dict[type, _Entry] = {}
_SECTIONS: dict[str, Callable[[Any], list[Any]]] = {}


def register(result_type: type, *, text: Callable[[Any], list[Any]] | None = None,
             markdown: Callable[[Any], str] | None = None) -> None:
    """Register the text and Markdown renderers of a result type."""
    _REGISTRY[result_type] = _Entry(text, markdown)


def register_section(name: str, blocks: Callable[[Any], list[Any]]) -> None:
    """Register the layout of an optional part of a report (``Report.ranking``, ``Report.ci``, ...: the
    typed part whose JSON key is ``name``).

    ``blocks(part.to_dict())`` returns a list of
    :class:`~clfeval.render._util.TableBlock` / ``TextBlock``; the report's text
    and Markdown renderers place them after the diagnostics.
    """
    _SECTIONS[name] = blocks


#: Which module registers what, so that showing a result imports only its renderers: a result type's name → the
#: module of this package that registers it; a report section → the module that registers its layout (in the
#: order the sections are shown). A type or section not listed here loads every module (it is still found).
_WHERE = {
    "Report": "_reports", "MetricCatalogue": "_catalog", "CVComparison": "_cvcompare",
    "RunComparison": "_cvcompare", "AUCInterval": "_decisions", "CurveBands": "_decisions", "DemoReport": "_demo",
    "DemoResult": "_demo", "DemoList": "_demo", "ErrorAnalysis": "_errorpages", "McNemarPower": "_power",
    "BootstrapPower": "_power", "IntervalWidth": "_power", "PowerResult": "_power", "ProtocolResult": "_protocols",
    "RunList": "_runlog",
    "Run": "_runlog", "BestRuns": "_runlog", "Ablation": "_runlog", "CheckResult": "_runlog",
    "RankingResult": "_scores", "SortedRanking": "_scores", "RankingSummary": "_scores", "ThresholdResult": "_scores",
    "Calibration": "_scores",
    "Compared": "_significance",
    "ReutersStudy": "_study", "FetchedDataset": "_study", "ExportedDataset": "_study", "FoundSlices": "_slicefind",
    "RankResult": "_rank", "LabelIssues": "_labelissues",
}
# None: a section without a layout of its own
_SECTION_WHERE: dict[str, str | None] = {"ranking": "_scores", "ranking_ci": "_decisions", "ci": "_significance",
                                         "slices": "_slices", "find_slices": "_slicefind",
                                         "errors_share": "_errorpages", "requirements": "_decisions", "engine": None}


def section_renderers(names: Any = None) -> dict[str, Callable[[Any], list[Any]]]:
    """The layouts of the report sections ``names`` (every registered section when None), in the order shown."""
    wanted = None if names is None else set(names)
    if wanted is None or wanted - set(_SECTION_WHERE):
        _load_builtin()
    else:
        for name in wanted:
            module = _SECTION_WHERE[name]
            if module is not None:
                _load(module)
    order = [n for n in _SECTION_WHERE if n in _SECTIONS] + [n for n in _SECTIONS if n not in _SECTION_WHERE]
    return {n: _SECTIONS[n] for n in order if wanted is None or n in wanted}


def _entry(result: Any) -> _Entry:
    mro = type(result).__mro__
    for attempt in range(3):
        for cls in mro:
            if cls in _REGISTRY:
                return _REGISTRY[cls]
        if attempt == 0:
            for cls in mro:
                if cls.__name__ in _WHERE:
                    _load(_WHERE[cls.__name__])
        elif attempt == 1:
            _load_builtin()
    raise TypeError(f"no renderer registered for {type(result).__name__}")


def jsonable(value: Any) -> Any:
    """Plain JSON data: numpy → Python, NaN/±inf → None, tuples → lists, dict keys → str."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    np = sys.modules.get("numpy")  # a value cannot be a NumPy one unless NumPy is imported
    if np is not None and isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if np is not None and isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return jsonable(value.to_dict())
    return value


def to_json(data: Any, *, indent: int | None = 2) -> str:
    """JSON text of plain data or of a result (via ``to_dict``), with NaN as null."""
    import json  # (not imported by text output)

    return json.dumps(jsonable(data), indent=indent, allow_nan=False, ensure_ascii=False) + "\n"


#: Width of text output without a terminal (piped, written to a file, ``render(..., "text")``).
PIPED_WIDTH = 100


def _natural(console: Any, table: Any) -> int:
    from rich.measure import Measurement

    return Measurement.get(console, console.options.update(width=100_000), table).maximum


def _part(table: Any, columns: list[int]) -> Any:
    """The table with only ``columns`` (every row kept)."""
    import copy
    import dataclasses

    part = copy.copy(table)
    part.columns = [dataclasses.replace(table.columns[i], _index=n) for n, i in enumerate(columns)]
    part.rows = list(table.rows)
    return part


class _Widths:
    """Natural widths of parts of a table (column 0 and consecutive columns), from each column measured once per
    role — first, in the middle, last — as rich measures them (``Table._measure_column``; the padding of a cell
    depends on the role), plus the part's borders (``Table._extra_width``). Equal to measuring each part
    (:func:`_natural`) for tables without a fixed or minimum width, which are measured whole instead."""

    def __init__(self, console: Any, table: Any) -> None:
        self.console, self.table = console, table
        self.options = console.options.update(width=100_000)
        self.cache: dict[tuple[int, str], int] = {}
        self.exact = table.width is not None or table.min_width is not None

    def column(self, i: int, role: str) -> int:
        key = (i, role)
        if key not in self.cache:
            cols = {"first": [i, i], "middle": [0, i, 0], "last": [0, i]}[role]
            part = _part(self.table, cols)
            where = {"first": 0, "middle": 1, "last": 1}[role]
            self.cache[key] = part._measure_column(self.console, self.options, part.columns[where]).maximum
        return self.cache[key]

    def __call__(self, columns: list[int]) -> int:
        if self.exact or len(columns) < 2:
            return _natural(self.console, _part(self.table, columns))
        extra = _part(self.table, columns)._extra_width
        inner = sum(self.column(i, "middle") for i in columns[1:-1])
        return self.column(columns[0], "first") + inner + self.column(columns[-1], "last") + extra


def fold(console: Any, table: Any, width: int) -> list[Any]:
    """A table that fits ``width`` columns: whole when it fits; else folded into parts of consecutive columns,
    each repeating the key columns that name a row (the first column, or the first ``key`` of
    :func:`clfeval.render._util.rich_table`: A and B of a pair), so that every number is printed whole and every
    part says whose it is. A first column too wide for the width is wrapped (its cells fold), never a number.
    """
    from clfeval.render._util import KEY_ATTR

    n = len(table.columns)
    key = min(max(int(getattr(table, KEY_ATTR, 1)), 1), n)
    if _natural(console, table) <= width or n < key + 2:
        return [table]
    natural = _Widths(console, table)
    parts: list[list[int]] = []
    current = list(range(key))
    for i in range(key, n):
        if len(current) > key and natural(current + [i]) > width:
            parts.append(current)
            current = list(range(key))
        current.append(i)
    parts.append(current)
    return [_part(table, cols) for cols in parts]


def print_renderables(console: Any, items: list[Any]) -> None:
    """Print rich renderables within the console's width: paragraphs wrap, tables fold (:func:`fold`).

    A table wider than the console is printed in parts of consecutive columns, each with the row names, one
    beneath the other; numbers are never cut or squeezed.
    """
    from rich.table import Table

    for r in items:
        if isinstance(r, Table):
            for n, part in enumerate(fold(console, r, console.width)):
                if n:
                    console.print("")
                console.print(part, crop=False)
        else:
            console.print(r)


def renderables(result: Any) -> list[Any]:
    """The rich renderables of a result's text form."""
    entry = _entry(result)
    if entry.text is None:
        raise TypeError(f"no text renderer for {type(result).__name__}")
    return entry.text(result)


def render(result: Any, fmt: str = "text", *, width: int | None = None) -> str:
    """Render a result as ``text``, ``json``, ``markdown`` or ``html``.

    Text is plain (no colour, no control codes) at ``width`` columns
    (default :data:`PIPED_WIDTH`, 100); tables wider than that fold (:func:`fold`). HTML is one self-contained page
    (:func:`clfeval.render.html.page`; needs the ``html`` extra).
    """
    if fmt == "json":
        return to_json(result)
    if fmt == "markdown":
        entry = _entry(result)
        if entry.markdown is None:
            raise TypeError(f"no markdown renderer for {type(result).__name__}")
        out = entry.markdown(result)
        return out if out.endswith("\n") else out + "\n"
    if fmt == "html" and type(result).__name__ == "ErrorAnalysis":
        from clfeval.render._errorpages import html_page

        return html_page(result)
    if fmt == "html":
        from clfeval.render.html import page

        return page(result)
    if fmt == "text":
        from clfeval.render._plain import layout, plain_mode

        with plain_mode():  # the renderers' tables and paragraphs as plain strings, no rich object yet
            items = renderables(result)
        text = layout(items, width or PIPED_WIDTH)  # rich's layout without rich, when it applies
        if text is not None:
            return text
        from rich.console import Console

        buf = io.StringIO()
        console = Console(file=buf, width=width or PIPED_WIDTH, color_system=None, force_terminal=False,
                          legacy_windows=False, soft_wrap=False, emoji=False, highlight=False)
        print_renderables(console, [item.to_rich() if hasattr(item, "to_rich") else item for item in items])
        return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


_LOADED = False


def _load(name: str) -> None:
    import importlib

    importlib.import_module(f"clfeval.render.{name}")


def _load_builtin() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import pkgutil

    import clfeval.render as pkg

    for mod in pkgutil.iter_modules(pkg.__path__):
        if mod.name != "_util":  # every module but the helpers registers renderers
            _load(mod.name)


def _html_fragment(result: Any) -> str:
    from clfeval.render.html import fragment

    return fragment(result)


def _frame(result: Any, table: str | None = None) -> Any:
    from clfeval.render._frames import to_frame

    return to_frame(result, table)


set_renderers(text=lambda r: render(r, "text"), html=_html_fragment, page=lambda r: render(r, "html"), frame=_frame)


# Names that other stages import from this package's private modules (tools/privatize.py): resolved
# lazily like _EXPORTS, but neither in __all__ nor in dir(), so the documented API is __all__.
_INTERNAL: dict[str, tuple[str, ...]] = {
    "clfeval.render._demo": ("DemoList",),
    "clfeval.render._progress": ("progress", "reading_progress", "ticks"),
}
_INTERNAL_MODULES: dict[str, str] = {
}
if TYPE_CHECKING:  # _INTERNAL and _INTERNAL_MODULES, for type checkers
    from clfeval.render._demo import DemoList as DemoList
    from clfeval.render._progress import progress as progress, reading_progress as reading_progress, ticks as ticks
__getattr__, _ = _attach_internal(__name__, {}, internal=_INTERNAL, internal_modules=_INTERNAL_MODULES)
