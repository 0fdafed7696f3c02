"""The report's glossary: one entry per metric shown, read from the metric catalogue, and the links to it.

Every text here comes from :mod:`clfeval.core._catalog` (definition, formula,
undefined case, direction); this module only finds which catalogue entry a
table's label names (:func:`metric_of_label`) and writes the entries of the
metrics a page shows (:func:`glossary_entries`).

A label names an entry by any of the entry's forms: its name or key
(``macro_f1``, ``f1:spam``), its title (``macro-F1``), the parts of the title
in parentheses (``PR-AUC``), its formula when short (``δ = TPR − FPR``) or
the formula's left-hand side (``FPR``, ``ECE``), or one of its aliases
(``Matthews correlation``). Case, hyphens,
underscores and the small words *and*, *of*, *the* do not count. A label with
a trailing parenthesis (``recall (sensitivity)``, ``F1 (news)``) is tried
whole, then without it; ``F2`` is F-beta.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterable
from typing import Any

from clfeval.core import catalog

__all__ = ["glossary_entries", "metric_of_label", "anchor", "DIRECTIONS"]

#: How a direction reads in the glossary.
DIRECTIONS = {"higher": "higher is better", "lower": "lower is better", "none": "no better direction"}

_SMALL = {"and", "of", "the"}
_WORD = re.compile(r"[^\w+−]+")
_PAREN = re.compile(r"\s*\(([^()]*)\)\s*$")
_FBETA = re.compile(r"^f\d+(\.\d+)?$")


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _norm(text: str) -> str:
    """A label for matching: words with ASCII letters lowercased (Δ, a difference, never becomes δ), no
    punctuation, no small words."""
    return " ".join(w for w in _WORD.sub(" ", str(text).translate(_ASCII_LOWER).replace("_", " ")).split()
                    if w not in _SMALL)


def _forms(m: catalog.Metric) -> list[str]:
    title = m.title
    forms = [m.key, m.name, title, *m.aliases]
    forms += _PAREN.findall(title)
    stripped = _PAREN.sub("", title)
    if stripped != title:
        forms.append(stripped)
    lhs = m.formula.split(" = ", 1)[0]
    if lhs != m.formula and len(lhs) <= 24:
        forms.append(lhs)
    if len(m.formula) <= 40:
        forms.append(m.formula)  # "δ = TPR − FPR" names δ; "δ = A − B" does not
    return forms


@functools.lru_cache(maxsize=1)
def _index() -> dict[str, str]:
    """Normalised form → catalogue key; the first entry in catalogue order wins (the overall ``accuracy``
    before the per-label accuracy of a class)."""
    out: dict[str, str] = {}
    for m in catalog.METRICS:
        for form in _forms(m):
            key = _norm(form)
            if key:
                out.setdefault(key, m.key)
    return out


def metric_of_label(label: Any) -> str | None:
    """The catalogue key a table's column or row label names (``"F1"`` → ``f1:LABEL``), or None.

    >>> metric_of_label("recall (sensitivity)"), metric_of_label("F2"), metric_of_label("class")
    ('recall:LABEL', 'fbeta:LABEL', None)
    >>> metric_of_label("Matthews correlation"), metric_of_label("macro-F1 (F1 of macro-P, macro-R)")
    ('mcc', 'macro_f1_of_means')
    """
    text = str(label).strip()
    if not text or len(text) > 80:
        return None
    found = catalog.find(text)
    if found is not None:
        return found[0].key
    index = _index()
    candidates = [text]
    bare = text
    while _PAREN.search(bare):  # "PR-AUC (average precision) (order only)" → "PR-AUC"
        bare = _PAREN.sub("", bare)
    if " of " in bare:  # "F1 of class 'spam'", "F1 of spam": a per-label metric of one class
        head = bare.split(" of ", 1)[0]
        if _index().get(_norm(head), "").endswith(":LABEL") or _FBETA.match(_norm(head)):
            candidates.append(head)
    if bare != text:
        candidates.append(bare)
    for c in candidates:
        key = _norm(c)
        if key in index:
            return index[key]
        if _FBETA.match(key):
            return "fbeta:LABEL"
    return None


def anchor(key: str) -> str:
    """The id of a glossary entry in the page: ``g-`` and the metric's name (``g-f1``, ``g-macro_f1``); a
    per-label metric whose name is also an overall metric's (the accuracy of one class) gets ``-of-class``."""
    m = catalog.by_key(key)
    overall = m.per_label and any(o.name == m.name and not o.per_label for o in catalog.METRICS)
    return f"g-{m.name}-of-class" if overall else f"g-{m.name}"


def glossary_entries(keys: Iterable[str]) -> list[dict[str, str]]:
    """Glossary entries of the named catalogue keys, in the order given, each once.

    Each entry has ``key`` (``f1:LABEL``), ``anchor``, ``title``, ``definition``, ``formula``,
    ``undefined`` and ``direction``, all from the catalogue.

    >>> e = glossary_entries(["f1:LABEL", "f1:LABEL"])
    >>> len(e), e[0]["formula"], e[0]["direction"]
    (1, 'F1 = 2·TP / (2·TP + FP + FN)', 'higher is better')
    """
    out, seen = [], set()
    for key in keys:
        if key in seen:
            continue
        seen.add(key)
        m = catalog.by_key(key)
        out.append({"key": m.key, "anchor": anchor(m.key), "title": m.title, "definition": m.definition,
                    "formula": m.formula, "undefined": m.undefined, "direction": DIRECTIONS[m.direction]})
    return out
