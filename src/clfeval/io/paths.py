"""What one PATH names: a file, a directory, a glob pattern, or standard input.

Every command that reads predictions takes one PATH per input:

* a **file** (CSV, TSV, JSONL or Parquet, by extension or ``--input-format``);
* a **directory**: every file below it, in the order of their relative paths —
  a Parquet dataset (also hive-partitioned: ``model=a/day=1/part-0.parquet``
  adds the columns ``model`` and ``day``, their values as text) or a folder of
  CSV, TSV or JSON Lines files; names starting with ``.`` or ``_`` (``_SUCCESS``,
  ``_metadata``, ``.part-0.crc``) and empty files are skipped;
* a **glob pattern**, quoted so that clfeval expands it (``'preds/part-*.parquet'``;
  ``**`` matches any number of directories), in sorted order;
* ``-``: standard input (CSV unless ``--input-format`` says otherwise).

The files of one PATH are of one format; they are read one after the other
(:mod:`clfeval.io.batches`), and their rows are one input.
"""

from __future__ import annotations

import glob as _glob
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from clfeval.errors import DataError, InputFileError, UsageError
from clfeval.io.readers import detect_format
from clfeval.io.source import Source

__all__ = ["InputPath", "resolve_path", "is_glob"]

_MAGIC = set("*?[")


def is_glob(text: str) -> bool:
    """Whether a path is a glob pattern (holds ``*``, ``?`` or ``[``)."""
    return any(ch in _MAGIC for ch in text)


@dataclass(frozen=True)
class InputPath:
    """The files one PATH names, their format, and the hive partition columns of a directory.

    Attributes
    ----------
    given : str
        The PATH as the user wrote it (``-`` for standard input).
    kind : {"file", "directory", "glob", "stdin"}
    sources : tuple of Source
        The files, in reading order.
    fmt : str
        Their format (``csv``, ``tsv``, ``jsonl``, ``parquet``).
    partitions : tuple of str
        Hive partition columns (``key=value`` directories), in path order.
    """

    given: str
    kind: str
    sources: tuple[Source, ...]
    fmt: str
    partitions: tuple[str, ...] = ()
    values: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        """How messages name the input: the file, or the PATH as given."""
        return self.sources[0].name if self.kind in ("file", "stdin") else self.given

    @property
    def described(self) -> str:
        """The input as messages name it: ``file 'x.csv'``, ``directory 'preds'``, ``pattern 'preds/*.csv'``."""
        if self.kind in ("file", "stdin"):
            return f"file {self.name!r}"
        return f"{'directory' if self.kind == 'directory' else 'pattern'} {self.given!r}"

    @property
    def stem(self) -> str:
        """A short name for the input (a file's stem, a directory's name, ``stdin``)."""
        if self.kind in ("file", "stdin"):
            return self.sources[0].stem
        text = self.given.rstrip("/\\")
        if self.kind == "glob":
            return text
        return Path(text).name or text

    @property
    def size(self) -> int:
        """Bytes of every file together."""
        return sum(s.size() for s in self.sources)

    def partition_values(self, source: Source) -> dict[str, str]:
        """The hive partition values of one file (column → text)."""
        return self.values.get(source.name, {})


def _hive(relative: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in relative.parts[:-1]:
        key, sep, value = part.partition("=")
        if sep and key:
            out[unquote(key)] = unquote(value)
    return out


def _skipped(relative: Path) -> bool:
    return any(p.startswith((".", "_")) for p in relative.parts)


def _files_below(root: Path) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")))
        for name in filenames:
            p = Path(dirpath) / name
            if not _skipped(p.relative_to(root)):
                out.append(p)
    return sorted(out, key=lambda p: p.relative_to(root).as_posix())


def _one_format(files: list[Path], given: str, input_format: str | None) -> str:
    if input_format is not None:
        return detect_format(files[0], input_format)
    seen: dict[str, Path] = {}
    for f in files:
        try:
            fmt = detect_format(f)
        except UsageError:
            raise UsageError(f"{given!r} holds {str(f)!r}, whose format cannot be told from its extension; name "
                             f"files .csv, .tsv, .jsonl or .parquet, or say --input-format csv|tsv|jsonl|parquet "
                             f"(every file of the input is then read in that format).") from None
        seen.setdefault(fmt, f)
    if len(seen) > 1:
        (a, fa), (b, fb) = list(seen.items())[:2]
        raise UsageError(f"{given!r} holds files of more than one format ({str(fa)!r} is {a.upper()}, {str(fb)!r} is "
                         f"{b.upper()}); the files of one input must share a format. Give them as separate inputs or "
                         f"keep one format in the directory.")
    return next(iter(seen))


def _partitioned(given: str, kind: str, root: Path | None, files: list[Path], fmt: str, encoding: str) -> InputPath:
    sources = [Source.of(f, encoding=encoding) for f in files]
    values: dict[str, dict[str, str]] = {}
    keys: tuple[str, ...] = ()
    if root is not None:
        first: tuple[str, ...] | None = None
        for f, src in zip(files, sources):
            hive = _hive(f.relative_to(root))
            if first is None:
                first = tuple(hive)
            elif tuple(hive) != first:
                raise DataError(f"the files of {given!r} are partitioned differently: {str(files[0])!r} has the "
                                f"partition columns {list(first) or 'none'}, {str(f)!r} has {list(hive) or 'none'}; "
                                f"a hive-partitioned dataset has the same key=value directories above every file.")
            if hive:
                values[src.name] = hive
        keys = first or ()
    return InputPath(given, kind, tuple(sources), fmt, keys, values)


def resolve_path(path: Any, *, input_format: str | None = None, encoding: str = "utf-8",
                 option: str | None = None) -> InputPath:
    """The files a PATH names (see the module docstring), checked to exist and be readable.

    Parameters
    ----------
    path : str, path or Source
        A file, a directory, a glob pattern, or a :class:`Source` (standard input, read already).
    input_format : str, optional
        The format of every file (default: by extension; standard input: CSV).
    option : str, optional
        The option that names the PATH, for messages (``--dev``).

    Raises
    ------
    InputFileError
        A missing path, a glob that matches no file, a directory without files, a device (exit 2).
    UsageError
        Files whose format cannot be told, or files of several formats in one input (exit 2).
    """
    where = f" (option {option})" if option else ""
    if isinstance(path, InputPath):
        return path
    if isinstance(path, Source):
        src = Source.of(path, encoding=encoding)
        kind = "stdin" if src.is_stdin else "file"
        return InputPath(src.name if kind == "file" else "-", kind, (src,), detect_format(src, input_format))
    given = os.fspath(path)
    p = Path(given)
    try:
        st = p.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise InputFileError(f"file {given!r}{where} cannot be opened: {exc.strerror or exc}.") from None
    if st is None:
        if not is_glob(given):
            raise InputFileError(f"file {given!r}{where} does not exist.")
        matched = sorted(Path(m) for m in _glob.glob(given, recursive=True))
        files = [m for m in matched if m.is_file() and not m.name.startswith((".", "_"))]
        if not files:
            raise InputFileError(f"the pattern {given!r}{where} matches no file; check the pattern (quote it, so "
                                 f"that clfeval, not the shell, expands it).")
        files = [f for f in files if f.stat().st_size > 0] or files[:1]
        prefix = given[:min(given.find(ch) for ch in _MAGIC if ch in given)]
        root = Path(prefix if prefix.endswith(("/", os.sep)) or not prefix else os.path.dirname(prefix) or ".")
        return _partitioned(given, "glob", root, files, _one_format(files, given, input_format), encoding)
    if stat.S_ISDIR(st.st_mode):
        files = [f for f in _files_below(p) if f.stat().st_size > 0]
        if not files:
            raise InputFileError(f"the directory {given!r}{where} holds no data files (names starting with '.' or "
                                 f"'_' and empty files are skipped).")
        return _partitioned(given, "directory", p, files, _one_format(files, given, input_format), encoding)
    src = Source.of(p, encoding=encoding)
    return InputPath(given, "file", (src,), detect_format(src, input_format))
