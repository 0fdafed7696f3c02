"""clfeval.core.lazy.attach: internal names (issue 23) resolve from their module, stay out of dir(), are not cached."""

import sys
import types

import pytest

from clfeval.core.lazy import attach


@pytest.fixture
def fake_package(monkeypatch):
    pkg = types.ModuleType("fakepkg")
    pub = types.ModuleType("fakepkg._pub")
    pub.shown = lambda: "shown"
    priv = types.ModuleType("fakepkg._priv")
    priv.helper = lambda: "original"
    for m in (pkg, pub, priv):
        monkeypatch.setitem(sys.modules, m.__name__, m)
    pkg.__getattr__, pkg.__dir__ = attach("fakepkg", {"fakepkg._pub": ("shown",)},
                                          internal={"fakepkg._priv": ("helper",)},
                                          internal_modules={"priv": "fakepkg._priv"})
    return pkg, priv


def test_internal_names_resolve_but_are_not_listed(fake_package):
    pkg, priv = fake_package
    assert pkg.shown() == "shown" and pkg.helper() == "original"
    assert pkg.priv is priv
    assert "shown" in dir(pkg) and "helper" not in dir(pkg) and "priv" not in dir(pkg)


def test_an_internal_name_replaced_in_its_module_reaches_every_caller(fake_package, monkeypatch):
    pkg, priv = fake_package
    assert pkg.helper() == "original"  # resolved once: a cached value would hide the replacement below
    monkeypatch.setattr(priv, "helper", lambda: "replaced")
    assert pkg.helper() == "replaced"
    assert "helper" not in vars(pkg)  # never cached on the package
    assert "shown" not in vars(pkg) and pkg.shown() == "shown" and "shown" in vars(pkg)  # exports are cached


def test_an_unknown_name_is_an_attribute_error(fake_package):
    pkg, _ = fake_package
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        pkg.nothing  # noqa: B018
