"""The page model of the HTML report and its one builder (Jinja2, autoescape on).

A layout (:mod:`clfeval.render.html.layouts`) turns a result into a
:class:`Page`: the summary, sections of tables, figures and paragraphs, notes,
glossary names, signature and run block. :func:`render_page` writes it as one
self-contained file (inline CSS and SVG, system fonts, no external reference)
or as a ``<div>`` for a notebook.

Determinism: the same page gives the same bytes, except inside the run block
between ``<!-- clfeval:run -->`` and ``<!-- /clfeval:run -->`` (run id,
timings, the time the page was written).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clfeval.errors import MissingExtra
from clfeval.render._util import Block, TableBlock, TextBlock, num
from clfeval.render.html.glossary import anchor, glossary_entries, metric_of_label

__all__ = ["Figure", "Link", "Para", "Section", "Summary", "Page", "PageTable", "render_page", "sections_from_blocks",
           "signature_rows", "check_installed", "RUN_MARK", "RUN_END"]

RUN_MARK = "<!-- clfeval:run -->"
RUN_END = "<!-- /clfeval:run -->"

#: Signature keys that change from run to run: shown in the run block, not in the signature.
RUN_KEYS = ("timings", "run_id", "created", "seconds", "elapsed")


@dataclass
class Figure:
    kind = "figure"
    svg: str
    caption: str = ""


@dataclass
class Para:
    text: str
    style: str = "text"  # text | note | verdict
    kind = "para"


@dataclass
class Section:
    title: str
    items: list[Any] = field(default_factory=list)
    id: str = ""


@dataclass
class Summary:
    headline: list[dict[str, Any]] = field(default_factory=list)  # name, value, baselines [(name, value)]
    facts: list[tuple[str, str]] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)


@dataclass
class Page:
    title: str
    summary: Summary
    sections: list[Section]
    notes: list[str] = field(default_factory=list)
    signature: list[tuple[str, str]] = field(default_factory=list)
    run: list[tuple[str, str]] = field(default_factory=list)
    subtitle: str = ""


@dataclass(frozen=True)
class Link:
    """A table cell of a card that links to a section of the same card (``target``: the section's id, without the
    prefix; empty: no link) or that holds text in a numeric column (``left``: aligned left)."""

    text: str
    target: str = ""
    left: bool = False

    def __str__(self) -> str:
        return self.text


def _cell(x: Any) -> Any:
    return x if isinstance(x, (str, Link)) else num(x)


#: First-column headers of the tables whose rows are metrics (elsewhere the first column holds user data:
#: classes, systems, folds, terms, which must never link to the glossary).
METRIC_ROWS = ("", "measure", "metric", "metrics")
#: First-column headers of the tables whose column headers are user data (the classes of a confusion matrix).
LABEL_COLUMNS = ("gold \\ pred",)


@dataclass
class PageTable(TableBlock):
    """A table of the page: cells as printed, and the glossary key (or None) of each column and row header."""

    col_keys: list[str | None] = field(default_factory=list)
    row_keys: list[str | None] = field(default_factory=list)


def _table(b: TableBlock) -> PageTable:
    """The table with every cell as printed (numbers formatted as the text output formats them)."""
    cols = [str(c) for c in b.columns]
    rows = [[_cell(x) for x in r] for r in b.rows]
    first = cols[0].strip().lower() if cols else ""
    col_keys = [None if i == 0 or first in LABEL_COLUMNS else metric_of_label(c) for i, c in enumerate(cols)]
    row_keys = [metric_of_label(r[0]) if r and first in METRIC_ROWS else None for r in rows]
    return PageTable(b.title, cols, rows, b.caption, b.numeric_from, col_keys, row_keys)


def sections_from_blocks(blocks: Sequence[Block], *, drop: Callable[[TextBlock], bool] = lambda b: False) \
        -> tuple[str, list[Section]]:
    """(page title, sections) of a text layout: a heading or a new table opens a section.

    The first heading is the page's title. ``drop`` leaves paragraphs out (those
    the page shows elsewhere: notes, the signature line).
    """
    title = ""
    sections: list[Section] = []
    current: Section | None = None
    for b in blocks:
        if isinstance(b, TextBlock):
            if drop(b):
                continue
            if b.heading:
                if not title:
                    title = b.text
                    current = None
                    continue
                current = Section(b.text)
                sections.append(current)
                continue
            if current is None:
                current = Section("")
                sections.append(current)
            current.items.append(Para(b.text,
                                      "note" if b.style == "dim" else "verdict" if b.style == "bold" else "text"))
        else:
            t = _table(b)
            opened_by_table = current is not None and current.id == "by-table"
            if current is None or not current.title or (
                    opened_by_table and any(isinstance(x, TableBlock) for x in current.items)):
                if current is not None and not current.title and not current.items:
                    sections.remove(current)
                current = Section(t.title or "", id="by-table")
                sections.append(current)
                t.title = None
            current.items.append(t)
    for i, s in enumerate(sections):
        s.id = ""
        if not s.title:
            tables = any(isinstance(x, TableBlock) for x in s.items)
            s.title = ("Results" if tables else "Overview") if i == 0 else "Details"
    return title, sections


def _flat(prefix: str, value: Any, out: list[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flat(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, (list, tuple)):
        out.append((prefix, ", ".join(str(x) for x in value) if value else "—"))
    elif isinstance(value, float):
        out.append((prefix, "undef" if math.isnan(value) else f"{value:g}"))
    else:
        out.append((prefix, "—" if value is None else str(value)))


def signature_rows(signature: dict[str, Any] | None) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(signature rows, run rows): the signature flattened to ``key.sub = value``; what changes
    from run to run (timings, run id) goes to the run rows."""
    sig: list[tuple[str, str]] = []
    run: list[tuple[str, str]] = []
    for k, v in (signature or {}).items():
        _flat(k, v, run if k in RUN_KEYS else sig)
    return sig, run


_TEMPLATES = Path(__file__).parent / "templates"


def check_installed() -> None:
    """Refuse the HTML report early, naming the extra to install, when Jinja2 or matplotlib is missing."""
    MissingExtra.require("the HTML report", [("jinja2", "Jinja2"), ("matplotlib", "matplotlib")], "html")


@functools.cache
def _environment() -> Any:
    """The Jinja2 environment, made once (its compiled template is reused by every page and card)."""
    check_installed()
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    env.globals["metric_of"] = metric_of_label
    env.tests["table"] = lambda x: isinstance(x, TableBlock)
    env.globals["anchor"] = lambda key: anchor(key) if key else ""
    return env


#: The page template compiled to Python (:func:`compiled_source`, written by :func:`write_compiled`): a process that
#: writes a page loads it like any module (from its bytecode cache) instead of running Jinja2's lexer, parser and code
#: generator over the template (tens of milliseconds, the larger part of the template's cost). Used only when it was
#: compiled from this very template text by the Jinja2 installed; otherwise the template is compiled as before.
COMPILED = Path(__file__).with_name("_pagecode.py")
_PAGE = "page.html.j2"


def _template_text() -> str:
    return (_TEMPLATES / _PAGE).read_text(encoding="utf-8")


def compiled_source() -> str:
    """The source of ``_pagecode.py``: the page template compiled by the installed Jinja2 with the page's
    environment, headed by the Jinja2 version and the SHA-256 of the template text it was compiled from."""
    import hashlib

    import jinja2

    text = _template_text()
    code = _environment().compile(text, _PAGE, _PAGE, raw=True, defer_init=True)
    return (f'"""The page template ({_PAGE}) compiled to Python: generated by '
            "clfeval.render.html.document.write_compiled(), never edited by hand."
            f'"""\n# ruff: noqa\n# mypy: ignore-errors\nJINJA2 = {jinja2.__version__!r}\n'
            f"TEMPLATE_SHA256 = {hashlib.sha256(text.encode()).hexdigest()!r}\n{code.rstrip()}\n")


def write_compiled() -> None:
    """Write ``_pagecode.py`` again (after a change of the template or of the Jinja2 version; a test says when)."""
    COMPILED.write_text(compiled_source(), encoding="utf-8")


@functools.cache
def _template() -> Any:
    """The page template, made once: the compiled module when it matches the template and Jinja2, else compiled."""
    env = _environment()
    import hashlib

    import jinja2

    try:
        from clfeval.render.html import _pagecode as mod
    except ImportError:  # pragma: no cover - a checkout without the generated module
        return env.get_template(_PAGE)
    if (getattr(mod, "JINJA2", None) != jinja2.__version__
            or getattr(mod, "TEMPLATE_SHA256", None) != hashlib.sha256(_template_text().encode()).hexdigest()):
        return env.get_template(_PAGE)
    return env.template_class.from_module_dict(env, vars(mod), env.make_globals(None))


def _glossary_keys(page: Page) -> list[str]:
    """The catalogue keys of the metrics the page names: in its cards, its tables' headers and metric rows."""
    keys = [metric_of_label(h["name"]) for h in page.summary.headline]
    for s in page.sections:
        for it in s.items:
            if isinstance(it, PageTable):
                keys += it.col_keys + it.row_keys
    return [k for k in keys if k]


@functools.cache
def _css() -> str:
    return (_TEMPLATES / "style.css").read_text(encoding="utf-8")


def render_page(page: Page, *, standalone: bool = True, generated: str | None = None, id_prefix: str = "",
                card: bool = False, card_note: str = "") -> str:
    """The page as HTML: a whole document (``standalone``) or a ``<div class="clfeval">`` for a notebook.

    ``id_prefix`` starts every element id and in-page link (several results shown in one notebook keep their
    own sections, glossary anchors and figures apart). ``card``: the compact notebook card (no contents,
    notes, glossary or signature; a line pointing at ``to_html()``, or ``card_note``)."""
    template = _template()  # checks Jinja2 and matplotlib are installed (MissingExtra) before any work
    import markupsafe

    for i, s in enumerate(page.sections):
        s.id = s.id or f"s{i + 1}"
        s.items = [_table(x) if isinstance(x, TableBlock) and not isinstance(x, PageTable) else x for x in s.items]
    css = _css()
    run = list(page.run) + ([("page written", generated)] if generated else [])
    glossary = [] if card else sorted(glossary_entries(_glossary_keys(page)), key=lambda g: g["title"].casefold())
    return template.render(page=page, css=css, standalone=standalone, idp=id_prefix, card=card, card_note=card_note,
                           glossary=glossary, run=run, run_mark=markupsafe.Markup(RUN_MARK),
                           run_end=markupsafe.Markup(RUN_END))
