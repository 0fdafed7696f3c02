"""A single-label subset of Reuters-21578 as a data file of ids, texts and labels (``clfeval datasets export``).

``r8`` is the subset of the ``reuters`` study's multiclass part (:func:`clfeval.studies._reuters_multiclass.
multiclass_part`): the ModApte stories whose only label among the 90 ModApte categories is one of the ten
largest; wheat and corn never occur alone, which leaves eight classes (earn, acq, crude, trade, money-fx,
interest, ship, grain). With the published split (NEWID 1199 left out, :data:`~clfeval.text._datasets.
PUBLISHED_MODAPTE_EXCLUDED`, as the study does by default) that is 5,501 training and 2,190 test stories; with
the ModApte definition 5,502 and 2,190 (the module notes of :mod:`clfeval.text._datasets` say why). Each story's
text is the one the study classifies: the multiclass preset's (its title, then its body; a ``TYPE="BRIEF"``
story by its title only; :data:`clfeval.text._processing.PRESETS`).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from clfeval.errors import UsageError

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["SUBSETS", "EXPORT_FORMATS", "ExportedDataset", "reuters_subset", "export_reuters"]

#: The subsets clfeval exports, and what each holds.
SUBSETS = {"r8": "the single-label stories of the eight classes of the reuters study's multiclass part"}
#: The formats an export is written in, by the extension of its file.
EXPORT_FORMATS = {".csv": "csv", ".parquet": "parquet"}
_SPLITS = ("train", "test", "all")


@dataclass(frozen=True)
class ExportedDataset:
    """What :func:`export_reuters` wrote.

    Attributes
    ----------
    dataset, subset, split : str
        ``reuters21578``, ``r8``, and ``train``, ``test`` or ``all``.
    path : str
        The file written.
    published_split : bool
        Whether NEWID 1199 was left out (the published ModApte sizes).
    counts : dict
        Per ModApte part written (``train``, ``test``): the number of stories of each class.
    columns : tuple of str
        The file's columns.
    """

    dataset: str
    subset: str
    split: str
    path: str
    published_split: bool
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    columns: tuple[str, ...] = ()

    @property
    def rows(self) -> int:
        """The stories written."""
        return sum(n for part in self.counts.values() for n in part.values())

    def describe(self) -> str:
        """One line: how many stories of which parts went where."""
        parts = ", ".join(f"{p} {sum(c.values()):,}" for p, c in self.counts.items())
        return f"{self.rows:,} stories of {self.dataset} {self.subset} ({parts}) to {self.path}"

    def to_dict(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "subset": self.subset, "split": self.split, "path": self.path,
                "published_split": self.published_split, "rows": self.rows, "columns": list(self.columns),
                "counts": {p: dict(c) for p, c in self.counts.items()}}


def _check(subset: str, split: str) -> None:
    if subset not in SUBSETS:
        raise UsageError(lambda p: f"option {p} {subset!r} is not a subset clfeval exports; the one there is: r8 "
                                   f"({SUBSETS['r8']}).", params=["subset"])
    if split not in _SPLITS:
        raise UsageError(lambda p: f"option {p} must be train, test or all (the ModApte parts to write); got "
                                   f"{split!r}.", params=["split"])


def _stories(archive: str | os.PathLike[str], published_split: bool) -> dict[str, tuple[Any, tuple[str, ...]]]:
    """Per ModApte part, the R8 stories and their labels (the study's multiclass part's definition)."""
    from clfeval.text._datasets import (
        PUBLISHED_MODAPTE_EXCLUDED,
        largest_categories,
        modapte,
        read_reuters,
        single_label_subset,
    )

    split = modapte(read_reuters(archive), exclude_newids=PUBLISHED_MODAPTE_EXCLUDED if published_split else ())
    sl = single_label_subset(split, largest_categories(split, 10))
    return {"train": (sl.train, sl.train_labels), "test": (sl.test, sl.test_labels)}


def reuters_subset(archive: str | os.PathLike[str], *, subset: str = "r8", split: str = "all",
                   published_split: bool = True) -> pa.Table:
    """A single-label subset of Reuters-21578 as a table: ``id`` (the NEWID), ``text``, ``label`` and, with
    ``split="all"``, ``split`` (``train`` or ``test``); training stories first, each part in corpus order.

    Parameters
    ----------
    archive : str or path-like
        The original ``reuters21578.tar.gz`` or a directory holding its 22 SGML files.
    subset : {"r8"}
        The stories whose only ModApte label is one of the eight classes of the ``reuters`` study's multiclass
        part (see the module notes).
    split : {"train", "test", "all"}
        The ModApte part(s) to keep.
    published_split : bool
        Leave out NEWID 1199, as the study does by default: 5,501 training stories (False: 5,502).

    Returns
    -------
    pyarrow.Table
    """
    import pyarrow as pa

    from clfeval.text._processing import PRESETS

    _check(subset, split)
    parts = _stories(archive, published_split)
    keep = ("train", "test") if split == "all" else (split,)
    proc = PRESETS["multiclass"]
    cols: dict[str, list[Any]] = {"id": [], "text": [], "label": [], "split": []}
    for part in keep:
        stories, labels = parts[part]
        cols["id"].extend(s.newid for s in stories)
        cols["text"].extend(proc.story_text(s) for s in stories)
        cols["label"].extend(labels)
        cols["split"].extend([part] * len(stories))
    table = pa.table({"id": pa.array(cols["id"], type=pa.int64()), "text": pa.array(cols["text"], type=pa.string()),
                      "label": pa.array(cols["label"], type=pa.string()),
                      "split": pa.array(cols["split"], type=pa.string())})
    return table if split == "all" else table.drop_columns(["split"])


def export_reuters(archive: str | os.PathLike[str], to: str | os.PathLike[str], *, subset: str = "r8",
                   split: str = "all", published_split: bool = True) -> ExportedDataset:
    """Write `reuters_subset` to ``to``, a ``.csv`` or ``.parquet`` file (the format from the extension).

    Every setting and the output are checked before the archive is read: the output may not be the archive
    (or lie inside its directory), and it appears whole or not at all. The CSV follows clfeval's
    formula-injection policy for the files it writes (:func:`clfeval.io._readers.write_frame`); ``clfeval``
    reads both formats back to the same rows.

    Returns
    -------
    ExportedDataset
        Where the file is and how many stories of each class of each part it holds.

    Examples
    --------
    >>> export_reuters("reuters21578.tar.gz", "r8.xlsx")
    Traceback (most recent call last):
    ...
    clfeval.errors.UsageError: option to 'r8.xlsx': the extension '.xlsx' names no format clfeval exports; ...
    """
    from clfeval.io import check_paths, write_frame

    _check(subset, split)
    suffix = PurePath(to).suffix
    fmt = EXPORT_FORMATS.get(suffix.lower())
    if fmt is None:
        raise UsageError(lambda p: f"option {p} {os.fspath(to)!r}: the extension {suffix!r} names no format clfeval "
                                   f"exports; give the file the extension .csv or .parquet (the format follows "
                                   f"it).", params=["to"])
    check_paths([("archive", archive)], [("to", to)])
    table = reuters_subset(archive, subset=subset, split=split, published_split=published_split)
    write_frame(table, to, output_format=fmt, option="to")
    labels = table.column("label").to_pylist()
    parts = table.column("split").to_pylist() if split == "all" else [split] * len(labels)
    counts: dict[str, dict[str, int]] = {}
    for part in ("train", "test"):
        c = Counter(lab for lab, p in zip(labels, parts, strict=True) if p == part)
        if c:
            counts[part] = dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))
    return ExportedDataset("reuters21578", subset, split, os.fspath(to), published_split, counts,
                           tuple(table.column_names))
