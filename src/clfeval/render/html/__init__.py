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
    """The result as a ``<div class="clfeval">`` with its own style (for notebooks, ``_repr_html_``).

    A report shows its compact card (:func:`clfeval.render.html.layouts.report_card`: summary, confusion
    matrix, per-class table); other results their sections with figures. ``result.to_html()`` is the page.
    """
    from clfeval.evaluate import Report
    from clfeval.render.html.document import render_page
    from clfeval.render.html.layouts import Figures, layout, report_card

    prefix = f"clfeval{next(_FRAGMENTS)}-"  # one notebook shows many results: each keeps its own ids
    if isinstance(result, Report):
        return render_page(report_card(result), standalone=False, id_prefix=prefix, card=True)
    return render_page(layout(result, Figures(prefix=f"{prefix}fig")), standalone=False, id_prefix=prefix)
