"""The signature of a result: which clfeval, which libraries, which settings, which seed.

Every result of clfeval (a report, a ranking, a calibration table, a threshold
choice, a comparison, a protocol run, the Reuters study, a demo) carries a
``signature`` built here, so that the same keys mean the same thing
everywhere:

``version``
    the clfeval version (what the renderers print at the foot of a result);
the settings
    the options that shaped the numbers, named by the result (for example
    ``zero_division``, ``beta``, ``test``, ``metric``, ``protocol``);
``samples`` and ``seed``
    only for results that draw random numbers: the number of replicates and
    the seed (``None`` when a ``numpy.random.Generator`` was passed instead
    of an integer seed);
``versions``
    the library versions: ``python``, ``clfeval``, ``numpy``, ``scipy`` and
    ``pyarrow`` always, and ``scikit-learn`` (and ``PyStemmer``) when the
    result trained or used scikit-learn models.

Versions are read from the installed distributions' metadata (nothing is
imported to read them) and cached for the process.
"""

from __future__ import annotations

import functools
import numbers
import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from clfeval._version import __version__

__all__ = ["build_signature", "versions", "ALWAYS", "OPTIONAL"]

#: Distributions whose versions every signature records.
ALWAYS = ("numpy", "scipy", "pyarrow")
#: Distributions recorded when a result uses them (``uses=``).
OPTIONAL = ("scikit-learn", "PyStemmer")


def _normal(name: str) -> str:
    """A distribution's name as its ``.dist-info`` directory spells it (PEP 503 / 427: ``scikit-learn`` →
    ``scikit_learn``), lower case."""
    return re.sub(r"[-_.]+", "_", name).lower()


@functools.cache
def _dist_infos(entry: str) -> dict[str, str]:
    """``{normalised name: metadata directory}`` of one ``sys.path`` entry (first seen wins)."""
    out: dict[str, str] = {}
    try:
        names = sorted(os.listdir(entry or "."))
    except OSError:
        return out
    for name in names:
        if name.endswith(".dist-info"):
            out.setdefault(_normal(name[:-len(".dist-info")].split("-")[0]), os.path.join(entry or ".", name))
    return out


def _metadata_version(directory: str) -> str | None:
    try:
        with open(os.path.join(directory, "METADATA"), encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("Version:"):
                    return line[len("Version:"):].strip()
                if not line.strip():  # the end of the headers
                    break
    except OSError:
        pass
    return None


@functools.cache
def _dist_version(dist: str) -> str | None:
    """The installed version of a distribution: read from the first ``sys.path`` entry holding its
    ``.dist-info`` (as :func:`importlib.metadata.version` does, without importing it: it costs a command's start);
    anything unusual (an egg, a zip, no such directory) asks :mod:`importlib.metadata`."""
    key = _normal(dist)
    for entry in sys.path:
        if not isinstance(entry, str) or entry.endswith(".zip"):
            continue
        directory = _dist_infos(entry).get(key)
        if directory is not None:
            found = _metadata_version(directory)
            if found:
                return found
            break
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def versions(uses: Sequence[str] = ()) -> dict[str, str]:
    """Library versions: python, clfeval, numpy, scipy, pyarrow, and each of ``uses`` that is installed.

    >>> sorted(versions())
    ['clfeval', 'numpy', 'pyarrow', 'python', 'scipy']
    >>> versions(["no-such-distribution"])
    Traceback (most recent call last):
    ...
    ValueError: unknown optional library 'no-such-distribution'; expected one of scikit-learn, PyStemmer
    """
    out = {"python": sys.version.split()[0], "clfeval": __version__}
    for dist in ALWAYS:
        out[dist] = _dist_version(dist) or "not installed"
    for dist in uses:
        if dist not in OPTIONAL:
            raise ValueError(f"unknown optional library {dist!r}; expected one of {', '.join(OPTIONAL)}")
        v = _dist_version(dist)
        if v is not None:
            out[dist] = v
    return out


def build_signature(settings: Mapping[str, Any] | None = None, *, seed: Any = None, samples: int | None = None,
              random: bool = False, uses: Sequence[str] = ()) -> dict[str, Any]:
    """The signature of a result: ``version``, the settings, ``samples`` and ``seed`` when random, ``versions``.

    Parameters
    ----------
    settings : mapping, optional
        The options that shaped the numbers, in the order they should appear.
    seed : int or numpy.random.Generator, optional
        Recorded (as an int, or ``None`` for a generator) when ``random`` or
        when given.
    samples : int, optional
        Number of random replicates, recorded when given.
    random : bool
        The result drew random numbers: ``seed`` is recorded even when it is
        ``None``.
    uses : sequence of str
        Optional libraries the result used (``scikit-learn``, ``PyStemmer``).

    Examples
    --------
    >>> s = build_signature({"zero_division": "0"})
    >>> list(s)
    ['version', 'zero_division', 'versions']
    >>> s = build_signature({"test": "bootstrap"}, seed=3, samples=100)
    >>> s["seed"], s["samples"], list(s)[-1]
    (3, 100, 'versions')
    """
    sig: dict[str, Any] = {"version": __version__}
    if settings:
        sig.update(settings)
    if samples is not None:
        sig["samples"] = int(samples)
    if random or seed is not None:
        sig["seed"] = int(seed) if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) else None
    sig["versions"] = versions(uses)
    return sig
