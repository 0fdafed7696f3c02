"""What a page saves at start-up (issue 40), each checked against the slower way it replaces.

The page template compiled to Python once: ``render/html/_pagecode.py`` is what the installed Jinja2 makes of
``page.html.j2``, pages rendered through it are the pages Jinja2's own compilation renders, and a template that
no longer matches it is compiled as before. A report's layout found by its type's name, without importing every
result type. A figure drawn once for its SVG, with the bytes of matplotlib's ``savefig``."""

from __future__ import annotations

import pytest

jinja2 = pytest.importorskip("jinja2")
pytest.importorskip("matplotlib")

import clfeval  # noqa: E402
from clfeval.render.html import _pagecode, document  # noqa: E402

REGENERATE = ('PYTHONPATH=src python -c "from clfeval.render.html.document import write_compiled; '
              'write_compiled()"')


def test_the_compiled_module_is_the_templates_compilation():
    if _pagecode.JINJA2 != jinja2.__version__:
        pytest.skip(f"compiled by Jinja2 {_pagecode.JINJA2}, {jinja2.__version__} installed (the template is "
                    "compiled at run time then)")
    assert document.COMPILED.read_text(encoding="utf-8") == document.compiled_source(), \
        f"page.html.j2 changed: regenerate its compiled module ({REGENERATE})"


def _layout(rep):
    from clfeval.render.html.layouts import layout

    return layout(rep)


def test_pages_through_the_compiled_module_equal_jinja2s_own_compilation(monkeypatch):
    rep = clfeval.report(["a", "b", "b", "c", "<b>"], ["a", "b", "a", "c", "<b>"], positive="b")
    document._template.cache_clear()
    compiled = document._template()
    assert compiled.filename == _pagecode.__file__  # the module was used
    page = document.render_page(_layout(rep), generated="now")
    card = document.render_page(_layout(rep), standalone=False, id_prefix="x-", card=True)
    # the oracle: Jinja2 compiling the template file itself (what every page used before)
    own = document._environment().get_template("page.html.j2")
    monkeypatch.setattr(document, "_template", lambda: own)
    assert document.render_page(_layout(rep), generated="now") == page
    assert document.render_page(_layout(rep), standalone=False, id_prefix="x-", card=True) == card
    assert "&lt;b&gt;" in page  # autoescape holds through the compiled module


def test_a_changed_template_is_compiled_at_run_time(monkeypatch):
    monkeypatch.setattr(document, "_template_text", lambda: "changed {{ page }}")
    document._template.cache_clear()
    try:
        t = document._template()
        assert t.filename != _pagecode.__file__ and t.filename.endswith("page.html.j2")
    finally:
        document._template.cache_clear()


def test_the_quick_layouts_are_the_registrys():
    """The layouts found by type name (without importing every result type) are those the registry gives."""
    import importlib

    from clfeval.render.html import layouts

    layouts._builtin()
    for name, fn in layouts._BY_NAME.items():
        module, qualname = name.rsplit(".", 1)
        cls = getattr(importlib.import_module(module), qualname)
        assert layouts._LAYOUTS[cls] is fn


def test_a_registered_layout_wins_over_the_quick_one(monkeypatch):
    from clfeval.render.html import layouts

    rep = clfeval.report(["a", "b"], ["a", "a"])
    mine = object()
    monkeypatch.setitem(layouts._LAYOUTS, type(rep), lambda r, figs: mine)
    assert layouts.layout(rep) is mine


def test_one_draw_gives_savefigs_bytes():
    """figure_svg draws a figure with a layout engine once; savefig (two draws) gives the same SVG."""
    import io

    from clfeval import plots
    from clfeval.plots import _mpl

    rep = clfeval.report(["cat", "dog", "dog", "bird", "cat"], ["cat", "dog", "cat", "bird", "bird"])
    for fn in (plots.confusion_matrix, plots.per_class, plots.phi_delta):
        one, two = io.StringIO(), io.StringIO()
        meta = {"Date": None, "Creator": None, "Format": None, "Type": None}
        with _mpl.rc():
            fig = fn(rep.to_dict())
            assert fig.get_layout_engine() is not None  # the one-draw path is taken
            canvas = fig.canvas
            _mpl._print_svg(fig, one, meta)
            assert fig.canvas is canvas and fig.dpi == 100  # the figure keeps its canvas and dpi
            fn(rep.to_dict()).savefig(two, format="svg", metadata=meta)  # the same figure, drawn anew
        assert one.getvalue() == two.getvalue()
