"""The HTML report: one self-contained file per result, and the same sections for notebooks.

:func:`page` writes a whole document (inline CSS and SVG figures, system
fonts, no network or file reference, a few lines of script only to sort
tables); :func:`fragment` the same sections in a ``<div>`` for
``_repr_html_``. Jinja2 and matplotlib are imported when a page is written,
never when this package is imported.
"""

from __future__ import annotations

import datetime
import itertools
from typing import Any

from clfeval.render.html.glossary import glossary_entries

__all__ = ["page", "fragment", "glossary_entries"]


def page(result: Any, *, generated: str | None = None) -> str:
    """The result as one self-contained HTML document.

    ``generated`` (default: now, UTC) is written in the run block only, the
    part of the page that the same input does not reproduce byte for byte.
    """
    from clfeval.render.html.document import render_page
    from clfeval.render.html.layouts import layout

    when = generated or datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return render_page(layout(result), standalone=True, generated=when)


_FRAGMENTS = itertools.count(1)


def fragment(result: Any) -> str:
    """The result as its compact notebook card, a ``<div class="clfeval">`` with its own style (``_repr_html_``).

    :func:`clfeval.render.html.cards.card_of` builds it: the summary, the main table, the slices and the
    examples, no figures, glossary or signature (``result.to_html()`` is the page). Its ids carry a prefix of
    its own, so that the cards of several results share a notebook.
    """
    from clfeval.render.html.cards import render_card

    return render_card(result, f"clfeval{next(_FRAGMENTS)}-")  # one notebook shows many results: each keeps its ids
