"""Reader for the Reuters-21578 collection (Distribution 1.0) and its ModApte split.

The original distribution is a gzipped tar archive holding 22 SGML files,
``reut2-000.sgm`` … ``reut2-021.sgm``, with 21,578 ``<REUTERS>`` stories in
all. The SGML is not well-formed XML, so elements are located by plain string
search (``str.find`` on the tag names) and attributes, ``<D>`` entries and
entities by small regular expressions; reading the whole corpus from the
archive takes well under a second on an idle core.

Decoding decisions
------------------
* Files are read as latin-1 (one byte is outside ASCII in the whole corpus,
  ``0xFC`` in ``reut2-017.sgm``).
* The entities ``&lt;`` ``&gt;`` ``&amp;`` ``&quot;`` ``&apos;`` and numeric
  entities ``&#N;`` / ``&#xN;`` are decoded in one pass (so ``&amp;lt;`` becomes
  ``&lt;``, not ``<``). Numeric entities that name a control character (C0
  other than tab, newline and carriage return; DEL; C1) become one space: they
  are wire-service framing (``&#2;`` starts, ``&#3;`` ends every text) or line
  noise standing in for a lost character (``country's&#127;ate``), and a space
  never glues two words together. Unknown named entities are left as written.
* ``title``, ``dateline`` and ``body`` are stripped of surrounding whitespace.
  Stories whose ``<TEXT>`` has no ``<BODY>`` (``TYPE="BRIEF"`` and
  ``TYPE="UNPROC"``) get as ``body`` whatever text ``<TEXT>`` holds outside its
  ``<TITLE>``, ``<DATELINE>`` and ``<AUTHOR>`` elements. One story, NEWID
  12793 (TOPICS="NO", UNPROC), has no text at all.
* A category listed twice in one story's ``<TOPICS>`` is kept once (NEWID 5467
  lists ``corn`` twice, NEWID 19918 lists ``trade`` twice).

ModApte counts
--------------
The shared copy of the archive has 9,603 TOPICS="YES" TRAIN and 3,299
TOPICS="YES" TEST stories (as the collection's README says) and 90 categories
that occur in both. Stories carrying at least one of them: 3,019 test stories
(the published number) but 7,770 training stories, one more than the published
7,769. The one extra story is NEWID 1199 (OLDID 16519, ``reut2-001.sgm``), a
``TYPE="BRIEF"`` story labelled ``trade`` ("ROSTENKOWSKI SAYS HE WILL OPPOSE
PROTECTIONIST TRADE BILL IN U.S. HOUSE", body "Blah blah blah."). It is the only
TOPICS="YES" TRAIN/TEST story whose ``<REUTERS>`` tag carries the extra
attribute ``CSECS="540385847"`` between CGISPLIT and OLDID, so a reader that
expects the usual attribute list misses it; dropping it gives exactly the
published 7,769, and it is the one single-label ``trade`` story that makes the
8-class subset 5,502 instead of the published 5,501 training stories (test:
2,190 either way). That this is how the published counts arose is our
inference from the data, not documented anywhere we know of.
``modapte(stories, exclude_newids=PUBLISHED_MODAPTE_EXCLUDED)`` reproduces the
published sizes; the default follows the definition and keeps the story.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from clfeval.errors import DataError, InputFileError, UsageError
from clfeval.text._archive import MAX_ARCHIVE_BYTES, MAX_MEMBER_BYTES, read_archive, read_directory
from clfeval.text._download import DOWNLOAD_DEADLINE, MAX_DOWNLOAD_BYTES

__all__ = [
    "UCI_URL",
    "REUTERS_SHA256",
    "REUTERS_FILES",
    "N_STORIES",
    "PUBLISHED_MODAPTE_EXCLUDED",
    "Story",
    "ModApte",
    "SingleLabelSplit",
    "parse_sgml",
    "read_reuters",
    "modapte",
    "largest_categories",
    "single_label_subset",
    "texts",
    "story_text",
    "label_matrix",
    "ids",
    "MAX_MEMBER_BYTES",
    "MAX_ARCHIVE_BYTES",
    "MAX_DOWNLOAD_BYTES",
    "DOWNLOAD_DEADLINE",
]

UCI_URL = (
    "https://archive.ics.uci.edu/ml/machine-learning-databases/"
    "reuters21578-mld/reuters21578.tar.gz"
)
"""Where the original distribution is published (UCI KDD archive)."""

REUTERS_SHA256 = "1c5d1b60efe0d696841aaf000e9135d5f967d989b1639d326e9aaa5c3bf628e7"
"""SHA-256 of the original ``reuters21578.tar.gz`` (as on the UCI archive)."""

ARCHIVE_NAME = "reuters21578.tar.gz"
REUTERS_FILES = tuple(f"reut2-{i:03d}.sgm" for i in range(22))
"""The 22 SGML files of the collection, in order."""

N_STORIES = 21578
"""Number of ``<REUTERS>`` stories in the complete collection."""

PUBLISHED_MODAPTE_EXCLUDED = (1199,)
"""NEWIDs to exclude from :func:`modapte` to get the published 7,769 training
stories (see the module notes: NEWID 1199 is the TRAIN story whose tag carries a
``CSECS`` attribute)."""

_EXPECTED = (
    "expected the Reuters-21578 distribution: a reuters21578.tar.gz archive or a "
    "directory holding the 22 files reut2-000.sgm … reut2-021.sgm"
)

# --------------------------------------------------------------------------- #
# Story and SGML parsing
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, slots=True)
class Story:
    """One ``<REUTERS>`` element of the collection.

    Attributes
    ----------
    newid, oldid : int
        The ``NEWID`` (1 … 21578, unique) and ``OLDID`` attributes.
    lewissplit : str
        ``LEWISSPLIT``: ``"TRAIN"``, ``"TEST"`` or ``"NOT-USED"``.
    cgisplit : str
        ``CGISPLIT``: ``"TRAINING-SET"`` or ``"PUBLISHED-TESTSET"``.
    topics_attr : str
        The ``TOPICS`` attribute: ``"YES"``, ``"NO"`` or ``"BYPASS"``.
    topics : tuple of str
        The ``<D>`` entries of ``<TOPICS>`` in file order, each once.
    title, dateline, body : str
        Decoded text of ``<TITLE>``, ``<DATELINE>`` and ``<BODY>``; for texts
        without ``<BODY>``, ``body`` is the rest of ``<TEXT>``.
    text_type : str
        The ``TYPE`` attribute of ``<TEXT>`` (``"NORM"`` when absent, as the DTD
        defaults it; otherwise ``"BRIEF"`` or ``"UNPROC"`` in this corpus).
    """

    newid: int
    oldid: int
    lewissplit: str
    cgisplit: str
    topics_attr: str
    topics: tuple[str, ...]
    title: str
    dateline: str
    body: str
    text_type: str

    @property
    def text(self) -> str:
        """Title and body joined by a newline (just the non-empty one if the other is empty)."""
        if self.title and self.body:
            return self.title + "\n" + self.body
        return self.title or self.body


_ATTR_RE = re.compile(r'([A-Za-z]+)\s*=\s*"([^"]*)"')
_D_RE = re.compile(r"<D>(.*?)</D>", re.S)
_NON_BODY_RE = re.compile(r"<(TITLE|DATELINE|AUTHOR)>.*?</\1>", re.S)
_ENTITY_RE = re.compile(r"&(?:#([0-9]+)|#[xX]([0-9a-fA-F]+)|([A-Za-z]+));")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}


def _entity(match: re.Match[str]) -> str:
    dec, hexa, name = match.groups()
    if name is not None:
        return _NAMED.get(name, match.group(0))
    code = int(dec) if dec is not None else int(hexa, 16)
    if (code < 32 and code not in (9, 10, 13)) or 127 <= code <= 159:
        return " "
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return match.group(0)
    return chr(code)


def _decode(s: str) -> str:
    return _ENTITY_RE.sub(_entity, s) if "&" in s else s


def _find_tag(s: str, open_: str, start: int = 0) -> int:
    """Index of the next ``open_`` (like ``"<TEXT"``) that is a whole tag name, or -1."""
    n = len(open_)
    i = s.find(open_, start)
    while i != -1 and s[i + n : i + n + 1] not in (">", " ", "\t", "\n", "\r"):
        i = s.find(open_, i + n)
    return i


def _element(s: str, tag: str) -> tuple[str, str] | None:
    """``(attribute text, raw content)`` of the first complete ``<tag …>…</tag>``."""
    i = _find_tag(s, "<" + tag)
    if i == -1:
        return None
    j = s.find(">", i)
    k = s.find("</" + tag + ">", j) if j != -1 else -1
    return None if k == -1 else (s[i + len(tag) + 1 : j], s[j + 1 : k])


def _field(s: str, tag: str) -> str:
    element = _element(s, tag)
    return _decode(element[1]).strip() if element else ""


def _int_attr(attrs: dict[str, str], name: str, source: str, index: int) -> int:
    value = attrs.get(name)
    if value is None or not (value.strip().isascii() and value.strip().isdigit()):
        raise DataError(
            f"{source}: story {index + 1} (<REUTERS{' ' if attrs else ''}"
            f"{' '.join(f'{k}={v!r}' for k, v in attrs.items())}>) has "
            f"{name}={value!r}; expected a non-negative integer {name} attribute "
            "on every <REUTERS> element."
        )
    return int(value)


def _story(attr_text: str, content: str, source: str, index: int) -> Story:
    attrs = dict(_ATTR_RE.findall(attr_text))
    newid = _int_attr(attrs, "NEWID", source, index)
    oldid = _int_attr(attrs, "OLDID", source, index)
    topics_element = _element(content, "TOPICS")
    topics = (
        tuple(dict.fromkeys(_decode(d).strip() for d in _D_RE.findall(topics_element[1])))
        if topics_element
        else ()
    )
    text_attr_text, text = _element(content, "TEXT") or ("", "")
    text_attrs = dict(_ATTR_RE.findall(text_attr_text))
    body_element = _element(text, "BODY")
    body = body_element[1] if body_element else _NON_BODY_RE.sub("\n", text)
    return Story(
        newid=newid,
        oldid=oldid,
        lewissplit=attrs.get("LEWISSPLIT", ""),
        cgisplit=attrs.get("CGISPLIT", ""),
        topics_attr=attrs.get("TOPICS", "YES"),
        topics=topics,
        title=_field(text, "TITLE"),
        dateline=_field(text, "DATELINE"),
        body=_decode(body).strip(),
        text_type=text_attrs.get("TYPE", "NORM"),
    )


def parse_sgml(text: str, source: str = "<string>") -> list[Story]:
    """Parse the ``<REUTERS>`` stories of one SGML file's text.

    Parameters
    ----------
    text : str
        The file's contents (decode files as latin-1).
    source : str, default "<string>"
        Name used in error messages.

    Returns
    -------
    list of Story
        In file order.

    Raises
    ------
    DataError
        If a ``<REUTERS`` element is not closed or lacks an integer ``NEWID`` or
        ``OLDID``.

    Examples
    --------
    >>> sgml = '''<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET"
    ...   OLDID="5544" NEWID="1"><TOPICS><D>cocoa</D></TOPICS>
    ... <TEXT>&#2;<TITLE>BAHIA &lt;BA> COCOA</TITLE><BODY>Showers continued.
    ...  Reuter
    ... &#3;</BODY></TEXT></REUTERS>'''
    >>> [s] = parse_sgml(sgml)
    >>> s.newid, s.topics, s.title, s.text_type
    (1, ('cocoa',), 'BAHIA <BA> COCOA', 'NORM')
    >>> s.text
    'BAHIA <BA> COCOA\\nShowers continued.\\n Reuter'
    """
    stories: list[Story] = []
    start = _find_tag(text, "<REUTERS")
    while start != -1:
        open_end = text.find(">", start)
        close = text.find("</REUTERS>", open_end) if open_end != -1 else -1
        following = _find_tag(text, "<REUTERS", start + 8)
        if close == -1 or (following != -1 and following < close):
            last = f"NEWID={stories[-1].newid}" if stories else "none"
            line = text.count("\n", 0, start) + 1
            raise DataError(
                f"{source}: story {len(stories) + 1}, opened on line {line}, is not closed by "
                f"</REUTERS> before the next story or the end of the text (last "
                f"complete story: {last}): the file looks truncated or corrupt; "
                + _EXPECTED + "."
            )
        stories.append(
            _story(text[start + 8 : open_end], text[open_end + 1 : close], source,
                   len(stories))
        )
        start = following
    return stories


# --------------------------------------------------------------------------- #
# Reading the corpus
# --------------------------------------------------------------------------- #


def read_reuters(path: str | os.PathLike[str]) -> list[Story]:
    """Read all stories of Reuters-21578 from the archive or an extracted directory.

    Parameters
    ----------
    path : str or path-like
        The original ``reuters21578.tar.gz`` (any tar compression works), or a
        directory holding ``reut2-000.sgm`` … ``reut2-021.sgm``.

    Returns
    -------
    list of Story
        File by file, in file order (for the original corpus: NEWID 1 … 21578).

    Raises
    ------
    InputFileError
        If ``path`` does not exist.
    DataError
        If it is not a readable tar archive or directory, lacks one of the 22
        files, a file holds no story or a truncated one, or NEWIDs repeat.

    Notes
    -----
    The count of stories is not checked here (so small synthetic corpora can be
    read); :func:`fetch_reuters` checks for all 21,578.
    """
    p = Path(os.fspath(path))
    if not p.exists():
        raise InputFileError(
            f"{p}: no such file or directory; {_EXPECTED}. Give the path of the "
            "archive, or call fetch_reuters(dest_dir) to download it."
        )
    is_dir = p.is_dir()
    raw = read_directory(p, REUTERS_FILES, _EXPECTED) if is_dir else read_archive(p, REUTERS_FILES, _EXPECTED)
    stories: list[Story] = []
    first_seen: dict[int, str] = {}
    for name in REUTERS_FILES:
        source = str(p / name) if is_dir else f"{p}:{name}"
        parsed = parse_sgml(raw[name].decode("latin-1"), source)
        if not parsed:
            raise DataError(
                f"{source}: holds no <REUTERS> story; " + _EXPECTED + "."
            )
        for s in parsed:
            if s.newid in first_seen:
                raise DataError(
                    f"{source}: NEWID={s.newid} already used in "
                    f"{first_seen[s.newid]}; expected every story to have a "
                    "unique NEWID."
                )
            first_seen[s.newid] = name
        stories.extend(parsed)
    return stories


# --------------------------------------------------------------------------- #
# ModApte split, category choices, single-label subset
# --------------------------------------------------------------------------- #

Part = Literal["train", "test"]


@dataclass(frozen=True, slots=True)
class ModApte:
    """The ModApte split restricted to stories with at least one of its categories.

    Attributes
    ----------
    train, test : tuple of Story
        Stories in corpus order.
    categories : tuple of str
        Categories with at least one training and one test story, sorted.
    """

    train: tuple[Story, ...]
    test: tuple[Story, ...]
    categories: tuple[str, ...]

    def xy(self, part: Part, categories: Sequence[str] | None = None
           ) -> tuple[list[str], np.ndarray]:
        """Texts and the boolean label matrix of ``part`` (``"train"`` or ``"test"``).

        ``categories`` defaults to all of :attr:`categories`; the matrix has one
        column per category, in that order.
        """
        stories = _part(self, part)
        cats = self.categories if categories is None else tuple(categories)
        return texts(stories), label_matrix(stories, cats)


@dataclass(frozen=True, slots=True)
class SingleLabelSplit:
    """Stories with exactly one label, for single-label multiclass experiments.

    Attributes
    ----------
    train, test : tuple of Story
        Stories in corpus order.
    categories : tuple of str
        The classes, in the order they were asked for.
    train_labels, test_labels : tuple of str
        The single label of each story of ``train`` / ``test``.
    """

    train: tuple[Story, ...]
    test: tuple[Story, ...]
    categories: tuple[str, ...]
    train_labels: tuple[str, ...]
    test_labels: tuple[str, ...]

    def xy(self, part: Part) -> tuple[list[str], np.ndarray]:
        """Texts and labels (a 1-D ``str`` array) of ``part`` (``"train"`` or ``"test"``)."""
        stories = _part(self, part)
        labels = self.train_labels if part == "train" else self.test_labels
        return texts(stories), np.array(labels, dtype=str)


def _part(split: ModApte | SingleLabelSplit, part: str) -> tuple[Story, ...]:
    if part == "train":
        return split.train
    if part == "test":
        return split.test
    raise UsageError(f"part must be 'train' or 'test', got {part!r}.")


def modapte(stories: Iterable[Story], *, exclude_newids: Iterable[int] = ()) -> ModApte:
    """The ModApte subset: TOPICS="YES" TRAIN/TEST stories with one of its 90 categories.

    A story is used when its ``TOPICS`` attribute is ``"YES"``, its
    ``LEWISSPLIT`` is ``"TRAIN"`` or ``"TEST"``, and it carries at least one
    category that occurs in at least one such training story and one such test
    story.

    Parameters
    ----------
    stories : iterable of Story
        Usually ``read_reuters(path)``.
    exclude_newids : iterable of int, default ()
        Stories to leave out before anything else is decided.
        ``PUBLISHED_MODAPTE_EXCLUDED`` gives the published sizes.

    Returns
    -------
    ModApte

    Notes
    -----
    On the original corpus this gives 90 categories, 7,770 training and 3,019
    test stories; with ``exclude_newids=PUBLISHED_MODAPTE_EXCLUDED`` exactly the
    published 7,769 / 3,019 (see the module notes for why NEWID 1199 is the
    difference). The collection's README defines ModApte as all 9,603 / 3,299
    TOPICS="YES" stories; the 7,769 / 3,019 version drops those with none of
    the 90 categories (mostly stories with no category at all).

    Examples
    --------
    >>> a = Story(1, 1, "TRAIN", "TRAINING-SET", "YES", ("grain", "corn"), "", "", "x", "NORM")
    >>> b = Story(2, 2, "TEST", "TRAINING-SET", "YES", ("grain",), "", "", "y", "NORM")
    >>> c = Story(3, 3, "TEST", "TRAINING-SET", "NO", ("corn",), "", "", "z", "NORM")
    >>> split = modapte([a, b, c])
    >>> split.categories, [s.newid for s in split.train], [s.newid for s in split.test]
    (('grain',), [1], [2])
    """
    excluded = set(exclude_newids)
    pool = [
        s for s in stories
        if s.topics_attr == "YES" and s.lewissplit in ("TRAIN", "TEST")
        and s.newid not in excluded
    ]
    in_train = {t for s in pool if s.lewissplit == "TRAIN" for t in s.topics}
    in_test = {t for s in pool if s.lewissplit == "TEST" for t in s.topics}
    cats = in_train & in_test

    def keep(split_name: str) -> tuple[Story, ...]:
        return tuple(
            s for s in pool
            if s.lewissplit == split_name and any(t in cats for t in s.topics)
        )

    return ModApte(train=keep("TRAIN"), test=keep("TEST"), categories=tuple(sorted(cats)))


def largest_categories(split: ModApte, n: int = 10) -> tuple[str, ...]:
    """The ``n`` categories with the most training stories, largest first.

    Ties are broken by category name. On ModApte the ten largest are earn, acq,
    money-fx, grain, crude, trade, interest, wheat (212), ship (197), corn.

    Raises
    ------
    UsageError
        If ``n`` is not between 1 and the number of categories.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not (
        1 <= n <= len(split.categories)
    ):
        raise UsageError(
            f"n must be an integer from 1 to {len(split.categories)} (the number "
            f"of categories), got {n!r}."
        )
    allowed = set(split.categories)
    counts = Counter(t for s in split.train for t in s.topics if t in allowed)
    ranked = sorted(split.categories, key=lambda c: (-counts[c], c))
    return tuple(ranked[: int(n)])


def single_label_subset(
    split: ModApte, categories: Sequence[str] | None = None
) -> SingleLabelSplit:
    """Stories whose only label among ``split.categories`` is one of ``categories``.

    Parameters
    ----------
    split : ModApte
    categories : sequence of str, optional
        Candidate classes; defaults to ``largest_categories(split, 10)``.

    Returns
    -------
    SingleLabelSplit
        Its ``categories`` are the candidates (in the given order) that label
        at least one kept training story; test stories of a candidate without
        training stories are dropped too. With the ten largest categories,
        wheat and corn never occur alone (they come with grain), leaving 8
        classes, 5,502 training and 2,190 test stories (5,501 training with the
        published ModApte, see the module notes).

    Raises
    ------
    UsageError
        If ``categories`` is empty or names a category not in ``split``.

    Notes
    -----
    Labels are counted among the split's categories only: a story labelled
    ``earn`` and a category outside them counts as single-label ``earn``.
    """
    wanted = largest_categories(split, 10) if categories is None else tuple(categories)
    unknown = [c for c in wanted if c not in split.categories]
    if not wanted or unknown:
        detail = f"; not in the split: {unknown}" if unknown else "; got none"
        raise UsageError(
            f"categories must be a non-empty list of the split's categories{detail}."
        )
    allowed = set(split.categories)
    wanted_set = set(wanted)

    def only(s: Story) -> str | None:
        labels = {t for t in s.topics if t in allowed}
        if len(labels) == 1:
            (label,) = labels
            return label if label in wanted_set else None
        return None

    train = [(s, lab) for s in split.train if (lab := only(s)) is not None]
    present = {lab for _, lab in train}
    classes = tuple(c for c in wanted if c in present)
    test = [(s, lab) for s in split.test if (lab := only(s)) in present]
    return SingleLabelSplit(
        train=tuple(s for s, _ in train),
        test=tuple(s for s, _ in test),
        categories=classes,
        train_labels=tuple(lab for _, lab in train),
        test_labels=tuple(lab for _, lab in test),
    )


# --------------------------------------------------------------------------- #
# Arrays for modelling
# --------------------------------------------------------------------------- #


def story_text(story: Story, *, title: int = 1, brief: Literal["text", "title"] = "text") -> str:
    """The text a story is classified by: its title ``title`` times, then its body.

    Parts are joined by newlines; empty ones are left out.

    Parameters
    ----------
    story : Story
    title : 1 or 2
        How many times the title goes before the body.
    brief : {"text", "title"}
        For ``TYPE="BRIEF"`` stories (a headline and no ``<BODY>``): ``"text"``
        keeps whatever their ``<TEXT>`` holds as the body (usually the filler
        "Blah blah blah."), ``"title"`` keeps the title only. Other stories
        are not affected.

    Examples
    --------
    >>> s = Story(1, 1, "TRAIN", "TRAINING-SET", "YES", ("trade",), "TRADE BILL", "", "Blah blah blah.", "BRIEF")
    >>> story_text(s), story_text(s, title=2), story_text(s, brief="title")
    ('TRADE BILL\\nBlah blah blah.', 'TRADE BILL\\nTRADE BILL\\nBlah blah blah.', 'TRADE BILL')
    """
    if title not in (1, 2) or isinstance(title, bool):
        raise UsageError(f"title must be 1 or 2 (how many times the title goes before the body), got {title!r}.")
    if brief not in ("text", "title"):
        raise UsageError(f"brief must be 'text' or 'title' (what a TYPE=\"BRIEF\" story keeps), got {brief!r}.")
    body = "" if brief == "title" and story.text_type == "BRIEF" else story.body
    return "\n".join(p for p in (story.title,) * title + (body,) if p)


def texts(stories: Iterable[Story], *, title: int = 1, brief: Literal["text", "title"] = "text") -> list[str]:
    """The :func:`story_text` of each story (by default :attr:`Story.text`: title, newline, body)."""
    if title == 1 and brief == "text":
        return [s.text for s in stories]
    return [story_text(s, title=title, brief=brief) for s in stories]


def label_matrix(stories: Iterable[Story], categories: Sequence[str]) -> np.ndarray:
    """Boolean indicator matrix, shape ``(n_stories, len(categories))``.

    Examples
    --------
    >>> s = Story(1, 1, "TRAIN", "TRAINING-SET", "YES", ("grain", "corn"), "", "", "", "NORM")
    >>> label_matrix([s], ["corn", "earn", "grain"]).tolist()
    [[True, False, True]]
    """
    column = {c: j for j, c in enumerate(categories)}
    stories = list(stories)
    out = np.zeros((len(stories), len(column)), dtype=bool)
    for i, s in enumerate(stories):
        for t in s.topics:
            j = column.get(t)
            if j is not None:
                out[i, j] = True
    return out


def ids(stories: Iterable[Story]) -> np.ndarray:
    """The NEWIDs of the stories as an ``int64`` array."""
    return np.fromiter((s.newid for s in stories), dtype=np.int64)
