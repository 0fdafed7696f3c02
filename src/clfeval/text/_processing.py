"""Text processing as one value: how a story becomes text, and the text terms.

A :class:`Processing` names four choices, each a key of the ``--processing``
spec of ``clfeval reuters``:

``title`` (1 or 2)
    How many times the title goes before the body.
``brief`` (``text`` or ``title``)
    What a Reuters ``TYPE="BRIEF"`` story contributes besides its title:
    ``text``, whatever its ``<TEXT>`` holds (usually "Blah blah blah."), or
    ``title``, nothing (the title only).
``stop`` (``none``, ``english179`` or ``sklearn``)
    The stop list removed before stemming: none; the 179 English words of
    NLTK's ``stopwords`` corpus (vendored in ``clfeval/text/data``, see the
    README there for its source and terms); scikit-learn's 318 English words.
``stem`` (``none``, ``porter`` or ``snowball``)
    PyStemmer's ``porter`` (Porter 1980) or ``english`` (Snowball's Porter2).

Tokens are always the lowercase maximal runs of letters (``[a-z]+`` on
Reuters-21578). Two named presets: ``binary`` (title twice, BRIEF stories
kept as they are, no stop list, Snowball) reproduces the published binary
Naive Bayes table; ``multiclass`` (title once, BRIEF stories by their title,
the 179-word list, Porter) reproduces the published single-label figures
(see docs/guide/reuters.md and docs/reuters-notes.md).

A key a spec leaves out takes the command's own default: ``clfeval reuters``
the ``binary`` preset's value (its --processing gives every part one
processing), ``clfeval errors`` none (no stop list, no stems; it reads the
``stop`` and ``stem`` keys only, refusing ``title`` and ``brief``).

Examples
--------
>>> p = parse_processing("multiclass")
>>> p.spec
'title=1,brief=title,stop=english179,stem=porter'
>>> parse_processing("stop=english179").spec  # unnamed keys keep the binary preset's values (the default)
'title=2,brief=text,stop=english179,stem=snowball'
>>> len(stop_words("english179")), "the" in stop_words("english179")
(179, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from typing import Any

from clfeval.errors import UsageError

__all__ = ["STOP_LISTS", "STEMMERS", "PRESETS", "Processing", "parse_processing", "stop_words", "TERM_KEYS",
           "NO_TERM_PROCESSING"]

STOP_LISTS: dict[str, str] = {
    "none": "no stop list",
    "english179": "the 179-word English stop list of NLTK's stopwords corpus",
    "sklearn": "scikit-learn's English stop list (318 words)",
}
"""The stop lists by name (``none`` removes nothing)."""

STEMMERS: dict[str, str | None] = {"none": None, "porter": "porter", "snowball": "english"}
"""Stemmer names → PyStemmer algorithms (``snowball`` is PyStemmer's ``english``, Porter2)."""

_STEM_WORDS = {"none": "unstemmed", "porter": "Porter stems (PyStemmer 'porter')",
               "snowball": "Snowball (Porter2) stems (PyStemmer 'english')"}
_KEYS = {"title": ("1", "2"), "brief": ("text", "title"), "stop": tuple(STOP_LISTS), "stem": tuple(STEMMERS)}


@cache
def stop_words(name: str) -> frozenset[str]:
    """The words of the stop list ``name`` (one of :data:`STOP_LISTS`).

    >>> sorted(stop_words("none")), len(stop_words("sklearn"))
    ([], 318)
    """
    if name == "none":
        return frozenset()
    if name == "english179":
        text = resources.files("clfeval.text").joinpath("data/english179.txt").read_text(encoding="utf-8")
        return frozenset(w for w in text.split("\n") if w)
    if name == "sklearn":
        from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

        return frozenset(ENGLISH_STOP_WORDS)
    raise UsageError(f"unknown stop list {name!r}; the stop lists are: "
                     + ", ".join(f"{k} ({v})" for k, v in STOP_LISTS.items()) + ".")


@dataclass(frozen=True)
class Processing:
    """How a story becomes text and the text becomes terms (see the module notes).

    Parameters
    ----------
    title : 1 or 2
    brief : {"text", "title"}
    stop : {"none", "english179", "sklearn"}
    stem : {"none", "porter", "snowball"}
    """

    title: int = 2
    brief: str = "text"
    stop: str = "none"
    stem: str = "snowball"

    def __post_init__(self) -> None:
        for key, allowed in _KEYS.items():
            value = str(getattr(self, key))
            if value not in allowed or (key == "title" and isinstance(self.title, bool)):
                raise UsageError(lambda name, key=key, value=value, allowed=allowed: (
                    f"option {name}: {key}={value} is not one of {' | '.join(allowed)}; "
                    f"the keys are {_KEY_HELP}."), params=["processing"])
        object.__setattr__(self, "title", int(self.title))

    @property
    def spec(self) -> str:
        """The canonical spec, ``title=…,brief=…,stop=…,stem=…``."""
        return f"title={self.title},brief={self.brief},stop={self.stop},stem={self.stem}"

    @property
    def preset(self) -> str | None:
        """The name of the preset this is, or None."""
        return next((k for k, v in PRESETS.items() if v == self), None)

    @property
    def stemmer(self) -> str | None:
        """The PyStemmer algorithm, or None without stemming."""
        return STEMMERS[self.stem]

    def text_description(self) -> str:
        """How a story is assembled, in words."""
        head = "title, newline, title again, newline, body (the title counted twice)" if self.title == 2 else \
            "title, newline, body"
        brief = ("; TYPE=\"BRIEF\" stories: the title only (no \"Blah blah blah\" filler)" if self.brief == "title"
                 else "; TYPE=\"BRIEF\" stories: their title and whatever their <TEXT> holds")
        return head + brief

    def describe(self) -> str:
        """One line: text, tokens, stop list, stems.

        Examples
        --------
        >>> print(PRESETS["binary"].describe())
        title twice + body; [a-z]+ tokens, lowercase; no stop list; Snowball (Porter2) stems (PyStemmer 'english')
        """
        return "; ".join([self.text_line(), "[a-z]+ tokens, lowercase", STOP_LISTS[self.stop],
                          _STEM_WORDS[self.stem]])

    def text_line(self) -> str:
        """The story assembly, short: ``title twice + body`` or ``title once + body (BRIEF …)``."""
        text = "title twice + body" if self.title == 2 else "title once + body"
        return text + (" (BRIEF stories: the title only)" if self.brief == "title" else "")

    def story_text(self, story: Any) -> str:
        """The text of one :class:`~clfeval.text._datasets.Story` under this processing."""
        from clfeval.text._datasets import story_text

        return story_text(story, title=self.title, brief="title" if self.brief == "title" else "text")

    def tokenizer(self) -> Any:
        """A :class:`~clfeval.text._models.Tokenizer` for these tokens (needs the text extra)."""
        from clfeval.text._models import Tokenizer

        return Tokenizer(stem=self.stem != "none", stemmer=self.stemmer or "porter",
                         stop_list=None if self.stop == "none" else self.stop)

    def to_dict(self) -> dict[str, Any]:
        """``title``, ``brief``, ``stop``, ``stem``, ``spec``, ``preset``, ``description``."""
        return dict(asdict(self), spec=self.spec, preset=self.preset, description=self.describe())


PRESETS: dict[str, Processing] = {
    "binary": Processing(title=2, brief="text", stop="none", stem="snowball"),
    "multiclass": Processing(title=1, brief="title", stop="english179", stem="porter"),
}
"""The named presets: ``binary`` reproduces the published binary table, ``multiclass`` the single-label part."""

_KEY_HELP = ("title 1|2, brief text|title, stop none|english179|sklearn, stem none|porter|snowball, or a preset "
             "(binary, multiclass) first, e.g. 'title=1,brief=title,stop=english179,stem=porter' or "
             "'multiclass,stem=snowball'")


TERM_KEYS = ("stop", "stem")
"""The keys that say how a text becomes terms (``title`` and ``brief`` say how a Reuters story becomes text)."""

NO_TERM_PROCESSING = Processing(title=2, brief="text", stop="none", stem="none")
"""The default of a command that reads only :data:`TERM_KEYS` (``clfeval errors``): no stop list, no stems."""

_KEY_WHAT = {"title": "how many times a Reuters story's title goes before its body",
             "brief": "what a Reuters BRIEF story contributes besides its title"}


def parse_processing(spec: str | Processing | None, *, base: Processing | None = None,
                     keys: tuple[str, ...] | None = None, command: str = "") -> Processing | None:
    """A :class:`Processing` from a spec: a preset name and/or ``key=value`` items, separated by commas.

    ``None`` stays None (each part keeps its own preset). A preset may come
    first; the keys the spec leaves out keep its values, or without a preset
    those of ``base``: the command's own default (by default the ``binary``
    preset, the Reuters study's processing of its binary parts). ``keys``:
    the keys the command reads (default all); another key is refused, naming
    ``command``.

    Examples
    --------
    >>> parse_processing("binary") == PRESETS["binary"], parse_processing(None)
    (True, None)
    >>> parse_processing("stop=english179", base=NO_TERM_PROCESSING, keys=TERM_KEYS).stem
    'none'
    >>> parse_processing("stem=lancaster")
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option processing: stem=lancaster is not one of none | porter | snowball; ...
    """
    if spec is None or isinstance(spec, Processing):
        return spec
    allowed = tuple(_KEYS) if keys is None else keys
    if not isinstance(spec, str) or not spec.strip():
        raise UsageError(lambda name: f"option {name} must be a preset or key=value items; the keys are "
                                      f"{_key_help(allowed)}; got {spec!r}.", params=["processing"])
    items = [x.strip() for x in spec.split(",") if x.strip()]
    base = PRESETS["binary"] if base is None else base
    if items and "=" not in items[0] and items[0].lower() not in _KEYS:
        name = items.pop(0).lower()
        if name not in PRESETS:
            raise UsageError(lambda opt: f"option {opt}: unknown preset {name!r}; the presets are binary and "
                                         f"multiclass, the keys {_key_help(allowed)}.", params=["processing"])
        base = PRESETS[name]
    values = asdict(base)
    seen: set[str] = set()
    for item in items:
        key, sep, value = (p.strip().lower() for p in item.partition("="))
        if key in _KEYS and key not in allowed:
            raise UsageError(lambda opt, key=key: f"option {opt}: the key {key} ({_KEY_WHAT[key]}) is the Reuters "
                                                  f"study's; {command or 'this command'} reads only the keys "
                                                  f"{' and '.join(allowed)} (its texts are taken as given): leave "
                                                  f"{key} out.", params=["processing"])
        if not sep or key not in _KEYS or key in seen:
            why = "is given twice" if key in seen else "is not key=value with a known key"
            raise UsageError(lambda opt, item=item, why=why: f"option {opt}: {item!r} {why}; the keys are "
                                                             f"{_key_help(allowed)}.", params=["processing"])
        seen.add(key)
        values[key] = value
    return Processing(**values)


def _key_help(keys: tuple[str, ...]) -> str:
    if set(keys) == set(_KEYS):
        return _KEY_HELP
    return (", ".join(f"{k} {'|'.join(_KEYS[k])}" for k in keys) + ", or a preset (binary, multiclass) first, e.g. "
            "'stop=english179,stem=porter' or 'multiclass,stem=snowball'")
