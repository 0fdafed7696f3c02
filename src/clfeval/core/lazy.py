"""Lazy exports of a package (PEP 562): a name is imported from its module the first time it is asked for.

A package ``__init__`` lists what it offers, module by module, and hands the list to :func:`attach`::

    _EXPORTS = {"clfeval.significance._power": ("power_compare", "interval_width")}
    __all__ = names(_EXPORTS)
    __getattr__, __dir__ = attach(__name__, _EXPORTS)
    if TYPE_CHECKING:  # what type checkers and editors read; tests/project/test_api.py keeps it equal to _EXPORTS
        from clfeval.significance._power import interval_width, power_compare

``import clfeval.significance`` then costs nothing; ``clfeval.significance.power_compare`` imports
:mod:`clfeval.significance._power` (and NumPy with it) when it is first used. The subpackages named in
``subpackages`` are reachable as attributes too (``clfeval.plots`` after ``import clfeval``).

No exported name may be the name of a submodule of its package: importing the submodule would
silently rebind the package's attribute to the module (tests/project/test_api.py checks this).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

V = TypeVar("V")

__all__ = ["attach", "names", "LazyDict"]


def names(exports: Mapping[str, Iterable[str]]) -> list[str]:
    """Every exported name, in the order of the listing."""
    return [name for group in exports.values() for name in group]


def attach(package: str, exports: Mapping[str, Iterable[str]], subpackages: Iterable[str] = (), *,
           internal: Mapping[str, Iterable[str]] | None = None,
           internal_modules: Mapping[str, str] | None = None,
           moved: Mapping[str, tuple[str, str, str]] | None = None,
           ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package``, exporting ``exports`` (module → names) lazily.

    ``internal`` (module → names) and ``internal_modules`` (name → module) resolve the same way but are not
    exported: what other stages import from this package's private modules (issue 23: private imports stay
    inside a folder), kept out of ``__all__`` and ``dir()``. An internal name is looked up in its module each
    time (never cached on the package, hence never in its ``dir()``), so that replacing it in its module (a
    test's ``monkeypatch``) reaches every caller.

    ``moved`` (old name → (module, new name, where to import it now)): names kept importable for one release
    after their type merged into another (issue 36); each access warns (:class:`DeprecationWarning`, naming the
    new place) and gives the new object. The package lists them in ``__all__`` after its exports.
    """
    where = {name: module for module, group in exports.items() for name in group}
    subs = frozenset(subpackages)
    hidden = {name: module for module, group in (internal or {}).items() for name in group}
    modules = dict(internal_modules or {})
    old = dict(moved or {})

    def __getattr__(name: str) -> Any:
        if name in old:
            import warnings

            warnings.warn(f"{package}.{name} is deprecated and will be removed in the next release; use "
                          f"{old[name][2]}", DeprecationWarning, stacklevel=2)
            return getattr(importlib.import_module(old[name][0]), old[name][1])
        module = where.get(name)
        if module is None and name in hidden:
            return getattr(importlib.import_module(hidden[name]), name)
        if module is None and name in modules:
            return importlib.import_module(modules[name])
        if module is not None:
            value = getattr(importlib.import_module(module), name)
        elif name in subs:
            value = importlib.import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)  # cached: __getattr__ runs once per name
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where) | subs | set(old))

    return __getattr__, __dir__


class LazyDict(dict[str, V]):
    """A mapping whose values are imported when first looked up: ``lazy`` maps each name to
    ``"module:attribute"`` (the command line's commands); walking it (tests, documentation) imports every one."""

    def __init__(self, lazy: dict[str, str]) -> None:
        super().__init__()
        self.lazy = lazy

    def __missing__(self, name: str) -> V:
        if name not in self.lazy:
            raise KeyError(name)
        module, attr = self.lazy[name].split(":")
        value: V = getattr(importlib.import_module(module), attr)
        self[name] = value
        return value

    def _all(self) -> LazyDict[V]:
        for name in self.lazy:
            self[name]  # noqa: B018 - imported by __missing__
        return self

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in self.lazy

    def __iter__(self) -> Any:
        return dict.__iter__(self._all())

    def __len__(self) -> int:
        return dict.__len__(self._all())

    def keys(self) -> Any:
        return dict.keys(self._all())

    def values(self) -> Any:
        return dict.values(self._all())

    def items(self) -> Any:
        return dict.items(self._all())
