"""MkDocs hooks of the clfeval site (``hooks:`` in mkdocs.yml).

Tables the code owns are generated at build time, never copied into the pages: a page holds a marker line and
the build puts the table in its place. ``tests/project/test_docs.py`` checks that the markers are there and that
:func:`expand` gives the code's tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _exit_codes() -> str:
    from clfeval.errors import exit_codes_markdown

    return exit_codes_markdown()


def _capabilities() -> str:
    from clfeval.engines._capabilities import markdown

    return markdown()


#: marker → the function that gives its table
TABLES: dict[str, Callable[[], str]] = {
    "<!-- clfeval:exit-codes -->": _exit_codes,
    "<!-- clfeval:capabilities -->": _capabilities,
}


def expand(markdown: str) -> str:
    """``markdown`` with every marker line replaced by its generated table."""
    for marker, make in TABLES.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown


def on_page_markdown(markdown: str, page: Any = None, config: Any = None, files: Any = None) -> str:
    return expand(markdown)
