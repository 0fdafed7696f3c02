"""What one PATH names: a file, a directory, a glob pattern, or standard input.

Every command that reads predictions takes one PATH per input:

* a **file** (CSV, TSV, JSONL or Parquet, by extension or ``--input-format``);
* a **directory**: every file below it, in the order of their relative paths —
  a Parquet dataset (also hive-partitioned: ``model=a/day=1/part-0.parquet``
  adds the columns ``model`` and ``day``, their values as text) or a folder of
  CSV, TSV or JSON Lines files; names starting with ``.`` or ``_`` (``_SUCCESS``,
  ``_metadata``, ``.part-0.crc``) and empty files are skipped;
* a **glob pattern**, quoted so that clfeval expands it (``'preds/part-*.parquet'``;
  ``**`` matches any number of directories), in sorted order. A wildcard never
  matches a name starting with ``.`` or ``_`` (Spark's ``_temporary`` attempts,
  as in the directory form); a component the user typed is always read
  (``'sp/_temporary/*/*.csv'``, ``'_*/x.csv'``);
* ``-``: standard input (CSV unless ``--input-format`` says otherwise).

Each file and directory is read once: a second path to one already visited
(a symbolic link to a sibling directory, a hard link) is skipped and listed in
:attr:`InputPath.aliases`; a symbolic link to a directory that holds it (a loop)
is refused, as is anything under the PATH that cannot be listed or read.

The files of one PATH are of one format; they are read one after the other
(:mod:`clfeval.io._batches`), and their rows are one input.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from clfeval.errors import DataError, InputFileError, UsageError
from clfeval.io._readers import detect_format
from clfeval.io._source import Source

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
    aliases : tuple of (str, str)
        Second paths to a file or directory already read (a symbolic or hard link), skipped: (the path
        skipped, the path read).
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
    aliases: tuple[tuple[str, str], ...] = ()

    @property
    def alias_note(self) -> str | None:
        """One sentence naming the second paths skipped (None when there are none)."""
        if not self.aliases:
            return None
        shown = "; ".join(f"{a!r} is {b!r}" for a, b in self.aliases[:5])
        more = f" (and {len(self.aliases) - 5} more)" if len(self.aliases) > 5 else ""
        return (f"{self.described}: skipped {len(self.aliases)} second path(s) to files or directories already "
                f"read ({shown}{more}); each file is read once.")

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


def _hidden(name: str) -> bool:
    return name.startswith((".", "_"))


class _Tree:
    """One walk over what a PATH names: each directory and file visited once (by device and inode).

    A symbolic link to a directory that holds it (an ancestor) is refused; any other second path to a
    file or directory already visited is skipped and remembered as an alias; a directory that cannot be
    listed or a file that cannot be read is refused, naming it.
    """

    def __init__(self, given: str, where: str) -> None:
        self.given, self.where = given, where
        self.seen: dict[tuple[int, int], str] = {}
        self.aliases: list[tuple[str, str]] = []
        self.files: list[Path] = []
        self.paths: set[str] = set()

    def _unreadable(self, path: Path, exc: OSError, what: str) -> InputFileError:
        why = "permission denied" if isinstance(exc, PermissionError) else (exc.strerror or str(exc))
        return InputFileError(f"{self.given!r}{self.where}: the {what} {str(path)!r} cannot be "
                              f"{'listed' if what == 'directory' else 'read'} ({why}); every file under a PATH is "
                              f"read, so none may be left out silently. Make it readable, or move it out of the "
                              f"input.")

    def ancestors(self, root: Path) -> set[tuple[int, int]]:
        """Device and inode of the root's real directory and of every directory above it."""
        out: set[tuple[int, int]] = set()
        d = Path(os.path.realpath(root))
        while True:
            with contextlib.suppress(OSError):
                st = d.stat()
                out.add((st.st_dev, st.st_ino))
            if d.parent == d:
                return out
            d = d.parent

    def entries(self, d: Path) -> list[os.DirEntry[str]]:
        try:  # names in order, but real directories and files before symbolic links (the link is the alias)
            with os.scandir(d) as it:
                return sorted(it, key=lambda e: (e.is_symlink(), e.name))
        except OSError as exc:
            raise self._unreadable(d, exc, "directory") from None

    def stat(self, p: Path) -> os.stat_result | None:
        """The target's status (None: a broken symbolic link, refused)."""
        try:
            return p.stat()
        except FileNotFoundError:
            if p.is_symlink():
                raise InputFileError(f"{self.given!r}{self.where}: {str(p)!r} is a symbolic link to "
                                     f"{os.readlink(p)!r}, which does not exist; remove the link or restore its "
                                     f"target.") from None
            return None
        except OSError as exc:
            raise self._unreadable(p, exc, "file") from None

    def enter(self, p: Path, st: os.stat_result, ancestors: set[tuple[int, int]]) -> bool:
        """Whether to walk into the directory ``p`` (False: a second path to one already walked)."""
        key = (st.st_dev, st.st_ino)
        if key in ancestors and p.is_symlink():
            raise UsageError(f"{self.given!r}{self.where}: the symbolic link {str(p)!r} points to "
                             f"{os.readlink(p)!r}, a directory that holds the link itself, so the tree under the "
                             f"PATH never ends; remove the link, or give the directories to read one by one.")
        if key in self.seen:
            self.aliases.append((str(p), self.seen[key]))
            return False
        self.seen[key] = str(p)
        return True

    def add_file(self, p: Path, st: os.stat_result) -> None:
        if str(p) in self.paths:
            return
        if not stat.S_ISREG(st.st_mode):
            kind = "a FIFO" if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "a device"
            raise InputFileError(f"{self.given!r}{self.where} holds {str(p)!r}, which is {kind}, not a file; a "
                                 f"directory or pattern is read file by file (move it out of the input).")
        key = (st.st_dev, st.st_ino)
        if key in self.seen:
            self.aliases.append((str(p), self.seen[key]))
            return
        try:
            with open(p, "rb"):
                pass
        except OSError as exc:
            raise self._unreadable(p, exc, "file") from None
        self.seen[key] = str(p)
        self.paths.add(str(p))
        self.files.append(p)

    def walk(self, d: Path, ancestors: set[tuple[int, int]]) -> None:
        """Every file below ``d`` (names starting with ``.`` or ``_`` skipped), in name order."""
        for e in self.entries(d):
            if _hidden(e.name):
                continue
            p = d / e.name
            st = self.stat(p)
            if st is None:
                continue
            if stat.S_ISDIR(st.st_mode):
                if self.enter(p, st, ancestors):
                    self.walk(p, ancestors | {(st.st_dev, st.st_ino)})
            else:
                self.add_file(p, st)

    def match(self, d: Path, parts: list[str], ancestors: set[tuple[int, int]], walked: set[tuple]) -> None:
        """Files below ``d`` that match the pattern's components ``parts`` (``**``: any number of directories;
        a name starting with ``.`` or ``_`` matches only a component that starts so itself)."""
        head, rest = parts[0], parts[1:]
        st: os.stat_result | None
        if head == "**":
            st = d.stat()
            key = (st.st_dev, st.st_ino, len(parts))
            if key in walked:
                return
            walked.add(key)
            if rest:
                self.match(d, rest, ancestors, walked)
            for e in self.entries(d):
                if _hidden(e.name):
                    continue
                p = d / e.name
                sub = self.stat(p)
                if sub is None:
                    continue
                if stat.S_ISDIR(sub.st_mode):
                    k = (sub.st_dev, sub.st_ino)
                    if k in ancestors and p.is_symlink():
                        self.enter(p, sub, ancestors)  # refused
                    if k in self.seen and self.seen[k] != str(p):
                        self.aliases.append((str(p), self.seen[k]))
                        continue
                    self.seen.setdefault(k, str(p))
                    self.match(p, parts, ancestors | {k}, walked)
                elif not rest:
                    self.add_file(p, sub)
            return
        if not is_glob(head):
            names = [head]
        else:
            names = [e.name for e in self.entries(d)
                     if fnmatch.fnmatchcase(e.name, head) and (not _hidden(e.name) or head[:1] == e.name[:1])]
        for name in names:
            p = d / name
            st = self.stat(p)
            if st is None:
                continue
            if stat.S_ISDIR(st.st_mode):
                if rest:
                    k = (st.st_dev, st.st_ino)
                    if k in ancestors and p.is_symlink():
                        self.enter(p, st, ancestors)  # refused
                    self.match(p, rest, ancestors | {k}, walked)
            elif not rest:
                self.add_file(p, st)


def _glob_root(given: str) -> tuple[Path, list[str]]:
    """The directory a pattern starts from (its components before the first wildcard) and the rest."""
    parts = Path(given).parts
    k = next(i for i, p in enumerate(parts) if is_glob(p))
    root = Path(*parts[:k]) if k else Path(".")
    return root, list(parts[k:])


def _one_format(files: list[Path], given: str, input_format: str | None) -> str:
    if input_format is not None:
        return detect_format(files[0], input_format)
    seen: dict[str, Path] = {}
    for f in files:
        try:
            fmt = detect_format(f)
        except UsageError as exc:
            if "compressed" in str(exc):
                raise
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


def _partitioned(given: str, kind: str, root: Path | None, files: list[Path], fmt: str, encoding: str,
                 aliases: tuple[tuple[str, str], ...] = ()) -> InputPath:
    sources = [Source.of(f, encoding=encoding) for f in files]
    values: dict[str, dict[str, str]] = {}
    keys: tuple[str, ...] = ()
    if root is not None:
        first: tuple[str, ...] | None = None
        for f, src in zip(files, sources, strict=False):
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
    return InputPath(given, kind, tuple(sources), fmt, keys, values, aliases)


def _no_match(given: str, where: str) -> InputFileError:
    hint = ""
    if "[" in given:
        hint = (" A '[' in a pattern starts a set of characters (as in part-[0-9].csv): to match a '[' in a file "
                "name, write '[[]' (and ']' as '[]]').")
    return InputFileError(f"the pattern {given!r}{where} matches no file; check the pattern (quote it, so that "
                          f"clfeval, not the shell, expands it).{hint}")


def resolve_path(path: Any, *, input_format: str | None = None, encoding: str = "utf-8",
                 option: str | None = None, block_cap: int | None = None) -> InputPath:
    """The files a PATH names (see the module docstring), checked to exist and be readable.

    Every directory and file is visited once, by device and inode: a second path to one already seen (a
    symbolic or hard link, a bind mount) is skipped and listed in :attr:`InputPath.aliases`; a symbolic link
    to a directory that holds the link (a loop) is refused; so is a directory under the PATH that cannot be
    listed and a file that cannot be read.

    Parameters
    ----------
    path : str, path or Source
        A file, a directory, a glob pattern, or a :class:`Source` (standard input, read already).
    input_format : str, optional
        The format of every file (default: by extension; standard input: CSV).
    option : str, optional
        The option that names the PATH, for messages (``--dev``).
    block_cap : int, optional
        The largest CSV block its files are read with (a row must fit in one; default 256 MiB;
        :func:`clfeval.io._source.block_cap_for` of a memory budget), kept with each file (to Dask workers too).

    Raises
    ------
    InputFileError
        A missing path, a glob that matches no file, a directory without files, a device, a directory or
        file under the PATH that cannot be listed or read (exit 2).
    UsageError
        Files whose format cannot be told, files of several formats in one input, a symbolic-link loop (exit 2).
    """
    inp = _resolve_path(path, input_format=input_format, encoding=encoding, option=option)
    if block_cap is not None:
        for src in inp.sources:
            src.block_cap = int(block_cap)
    return inp


def _resolve_path(path: Any, *, input_format: str | None = None, encoding: str = "utf-8",
                  option: str | None = None) -> InputPath:
    """:func:`resolve_path` without the block cap."""
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
        root, parts = _glob_root(given)
        tree = _Tree(given, where)
        if root.is_dir():
            tree.match(root, parts, tree.ancestors(root), set())
        files = tree.files
        if not files:
            raise _no_match(given, where)
        order = {f: f.relative_to(root).as_posix() if root != Path(".") else f.as_posix() for f in files}
        files = sorted(files, key=order.__getitem__)
        files = [f for f in files if f.stat().st_size > 0] or files[:1]
        return _partitioned(given, "glob", root, files, _one_format(files, given, input_format), encoding,
                            tuple(tree.aliases))
    if stat.S_ISDIR(st.st_mode):
        tree = _Tree(given, where)
        ancestors = tree.ancestors(p)
        tree.seen[(st.st_dev, st.st_ino)] = given
        tree.walk(p, ancestors)
        files = sorted(tree.files, key=lambda f: f.relative_to(p).as_posix())
        files = [f for f in files if f.stat().st_size > 0]
        if not files:
            raise InputFileError(f"the directory {given!r}{where} holds no data files (names starting with '.' or "
                                 f"'_' and empty files are skipped).")
        return _partitioned(given, "directory", p, files, _one_format(files, given, input_format), encoding,
                            tuple(tree.aliases))
    src = Source.of(p, encoding=encoding)
    return InputPath(given, "file", (src,), detect_format(src, input_format))
