"""``error_analysis(label_issues=...)``: the likely gold errors of ``clfeval.label_issues``, read and marked.

The flagged items come from a :class:`~clfeval.ops.label_issues.LabelIssues` result, its JSON (``clfeval
label-issues --format json``) or its ``--flagged`` file (CSV or Parquet with columns ``id`` and ``suggested``);
they are matched to the predictions by id, as text (the counter keys every item by ``str`` of its id). The
counter (:class:`~clfeval.evaluate._errorcount.ErrorCounter`) marks them in every cell; here the flags are read
and the result gains its ``label_issues`` block and the note of the flagged ids not found.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

from clfeval.errors import DataError, InputFileError, UsageError

__all__ = ["label_flags", "marked"]


def label_flags(source: Any, *, keyed: bool, tabular: bool, multilabel: bool, sliced: bool
                ) -> tuple[dict[str, str], dict[str, Any]]:
    """The flagged ids (id → suggested label) of ``source`` and where they came from, in words; refused, naming
    the option, without ids, with label sets or with ``by``."""
    if not keyed:
        what = "name the id column with" if tabular else "give the items' ids with"
        raise UsageError(lambda li, i: f"option {li} marks the likely gold errors by id: {what} {i}.",
                         params=["label_issues", "id" if tabular else "ids"])
    if multilabel:
        raise UsageError(lambda li: f"option {li} marks single-label gold errors (label-issues refuses label "
                                    f"sets); leave it out with label sets.", params=["label_issues"])
    if sliced:
        raise UsageError(lambda li, b: f"option {li} is not available with {b} yet: mark the likely gold errors "
                                       f"of the whole analysis, or of each slice's rows on their own.",
                         params=["label_issues", "by"])
    from clfeval.ops.label_issues import LabelIssues

    if isinstance(source, LabelIssues):
        if any(f.id is None for f in source.flagged):
            raise UsageError(lambda li: f"option {li}: this label-issues result has no ids (it was computed without "
                                        f"an id column), so its items cannot be matched to the predictions; run it "
                                        f"with id= (--id).", params=["label_issues"])
        return {str(f.id): str(f.suggested) for f in source.flagged}, {"source": "a LabelIssues result"}
    if not isinstance(source, (str, os.PathLike)):
        raise UsageError(lambda li: f"option {li} takes a LabelIssues result or the path of its JSON or --flagged "
                                    f"file; got {type(source).__name__}.", params=["label_issues"])
    path = Path(source)
    if not path.is_file():
        raise InputFileError(lambda li: f"option {li}: file {str(path)!r} does not exist.", params=["label_issues"])
    ext = path.suffix.lower()
    if ext == ".json":
        flags = _from_json(path)
    elif ext in (".csv", ".parquet", ".pq"):
        flags = _from_table(path, ext)
    else:
        raise UsageError(lambda li: f"option {li} reads the JSON of label-issues (.json) or its --flagged file "
                                    f"(.csv or .parquet); got {path.name!r}.", params=["label_issues"])
    return flags, {"source": path.name}


def _from_json(path: Path) -> dict[str, str]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"label-issues file {path.name!r} is not JSON ({exc}).") from None
    items = doc.get("flagged") if isinstance(doc, dict) else None
    if not isinstance(items, list) or not all(isinstance(x, dict) and "suggested" in x for x in items):
        raise DataError(f"label-issues file {path.name!r} has no 'flagged' list of items with 'id' and 'suggested' "
                        f"(the JSON of clfeval label-issues --format json).")
    if any(x.get("id") is None for x in items):
        raise DataError(f"label-issues file {path.name!r} has flagged items without an id (label-issues was run "
                        f"without --id), so they cannot be matched to the predictions.")
    return {str(x["id"]): str(x["suggested"]) for x in items}


def _from_table(path: Path, ext: str) -> dict[str, str]:
    import pyarrow as pa

    try:
        if ext == ".csv":
            import pyarrow.csv as pcsv

            table = pcsv.read_csv(path, convert_options=pcsv.ConvertOptions(
                column_types={"id": pa.string(), "suggested": pa.string()}))
        else:
            import pyarrow.parquet as pq

            table = pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise DataError(f"label-issues file {path.name!r} cannot be read ({exc}).") from None
    missing = [c for c in ("id", "suggested") if c not in table.column_names]
    if missing:
        raise DataError(f"label-issues file {path.name!r} has no column {' or '.join(map(repr, missing))} (the "
                        f"--flagged file of clfeval label-issues has id and suggested).")
    ids, suggested = table.column("id").to_pylist(), table.column("suggested").to_pylist()
    if any(i is None for i in ids):
        raise DataError(f"label-issues file {path.name!r} has flagged items without an id (label-issues was run "
                        f"without --id), so they cannot be matched to the predictions.")
    return {str(i): str(s) for i, s in zip(ids, suggested, strict=True)}


def marked(result: Any, counter: Any, marks: dict[str, Any]) -> Any:
    """``result`` with its ``label_issues`` block, and a note naming the flagged ids not found."""
    from clfeval.ops.errors import LabelIssueMarks

    flags = counter.flags or {}
    found = len(counter.flags_found)
    missing = [i for i in flags if i not in counter.flags_found]
    notes = list(result.notes)
    if missing:
        shown = ", ".join(repr(i) for i in sorted(missing)[:5]) + (", ..." if len(missing) > 5 else "")
        notes.append(f"{len(missing):,} of the {len(flags):,} ids label-issues flagged are not among the predictions' "
                     f"ids ({shown}): they are not marked")
    return dataclasses.replace(result, notes=tuple(notes),
                               label_issues=LabelIssueMarks(marks["source"], len(flags), found, len(missing)))
