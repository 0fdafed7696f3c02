"""How results show themselves in a notebook (``_repr_html_``) and in ``print`` (``__str__``).

Results do not import the renderers (they sit above them): :class:`Display`
looks them up here, in a registry that :mod:`clfeval.render` fills when it is
imported. The package ``__init__`` names that module (:func:`set_loader`) without importing it, so the
renderers (rich, NumPy) load when a result is first shown, not when clfeval is imported.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any, Callable

__all__ = ["Display", "set_renderers", "set_loader"]

_RENDERERS: dict[str, Callable[[Any], str]] = {}
_LOADER: list[str] = []


def set_renderers(*, text: Callable[[Any], str], html: Callable[[Any], str]) -> None:
    """Register the functions that turn a result into text and into an HTML fragment."""
    _RENDERERS["text"] = text
    _RENDERERS["html"] = html


def set_loader(module: str) -> None:
    """Name the module whose import registers the renderers (imported when a result is first shown)."""
    _LOADER[:] = [module]


def _renderer(kind: str) -> Callable[[Any], str] | None:
    if kind not in _RENDERERS and _LOADER:
        importlib.import_module(_LOADER[0])
    return _RENDERERS.get(kind)


class Display:
    """Mixin: ``str(result)`` is the text report; ``result._repr_html_()`` the HTML sections."""

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
            if isinstance(block, dict) and isinstance(out, dict):
                out = {**out, "engine": block}
            return out

        to_dict._engine_block = True  # type: ignore[attr-defined]
        cls.to_dict = to_dict  # type: ignore[attr-defined]

    def __str__(self) -> str:
        fn = _renderer("text")
        return fn(self) if fn is not None else repr(self)

    def _repr_html_(self) -> str | None:
        fn = _renderer("html")
        return fn(self) if fn is not None else None
