"""How results show themselves in a notebook (``_repr_html_``) and in ``print`` (``__str__``).

Results do not import the renderers (they sit above them): :class:`Display`
looks them up here, in a registry that :mod:`clfeval.render` fills when it is
imported. The package ``__init__`` names that module (:func:`set_loader`) without importing it, so the
renderers (rich, NumPy) load when a result is first shown, not when clfeval is imported.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["Display", "set_renderers", "set_loader", "frame_of"]

_RENDERERS: dict[str, Callable[..., Any]] = {}
_LOADER: list[str] = []


def set_renderers(*, text: Callable[[Any], str], html: Callable[[Any], str],
                  page: Callable[[Any], str] | None = None, frame: Callable[..., Any] | None = None) -> None:
    """Register the functions that turn a result into text, into an HTML fragment (the notebook's card), into
    a whole HTML page and into a pandas DataFrame (its table)."""
    _RENDERERS["text"] = text
    _RENDERERS["html"] = html
    if page is not None:
        _RENDERERS["page"] = page
    if frame is not None:
        _RENDERERS["frame"] = frame


def set_loader(module: str) -> None:
    """Name the module whose import registers the renderers (imported when a result is first shown)."""
    _LOADER[:] = [module]


def _renderer(kind: str) -> Callable[..., Any] | None:
    if kind not in _RENDERERS and _LOADER:
        importlib.import_module(_LOADER[0])
    return _RENDERERS.get(kind)


def frame_of(obj: Any, table: str | None = None) -> Any:
    """The table ``table`` of a result or of a part of one (None: its main table) as a pandas DataFrame, through the
    registered frame renderer (:func:`clfeval.render._frames.to_frame`; its ``FRAME_COLUMNS`` document the
    columns)."""
    fn = _renderer("frame")
    if fn is None:
        raise TypeError(f"no table renderer for {type(obj).__name__}")
    return fn(obj) if table is None else fn(obj, table)


class Display:
    """Mixin: ``str(result)`` is the text report; ``result._repr_html_()`` what a notebook shows (a report: a
    compact card); ``result.to_html()`` the whole self-contained HTML page (``--format html``);
    ``result.to_frame()`` its table as a pandas DataFrame."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A result's ``to_dict()`` carries its engine block (the ``engine`` field the front door fills) under
        ``"engine"``; results made by the private steps have none."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("to_dict")
        if own is None or getattr(own, "_engine_block", False):
            return

        @functools.wraps(own)
        def to_dict(self: Any, *args: Any, **kwargs: Any) -> Any:
            out = own(self, *args, **kwargs)
            block = getattr(self, "engine", None)
            if isinstance(block, Mapping) and isinstance(out, dict):
                from clfeval.core._results import thaw  # a plain copy: the result's own block is read-only

                out = {**out, "engine": thaw(dict(block))}
            return out

        to_dict._engine_block = True  # type: ignore[attr-defined]
        cls.to_dict = to_dict  # type: ignore[attr-defined]

    def __str__(self) -> str:
        fn = _renderer("text")
        return fn(self) if fn is not None else repr(self)

    def _repr_html_(self) -> str | None:
        fn = _renderer("html")
        return fn(self) if fn is not None else None

    def to_html(self) -> str:
        """The whole HTML report of this result: one self-contained page (needs the ``html`` extra)."""
        fn = _renderer("page")
        if fn is None:
            raise TypeError(f"no HTML renderer for {type(self).__name__}")
        return str(fn(self))

    def to_frame(self) -> Any:
        """The result's main table as a pandas DataFrame: a report's per-class table, a comparison's pairs of
        systems, a threshold's cuts, calibration bins, a ranking's summary or classes, the error cells, the
        systems' average ranks, the folds of a cross-validation. Its parts that are tables have their own
        ``to_frame()``; every column is documented in :data:`clfeval.render._frames.FRAME_COLUMNS`. pandas is
        imported only here (the ``frame`` extra)."""
        return frame_of(self)
