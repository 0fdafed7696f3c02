"""Input bytes: where a table comes from, how its text is decoded, and where a row is.

A :class:`Source` is a file on disk or bytes already read (standard input, a
pipe): both can be read more than once, so that an error found late can still
name its row and line. Text is UTF-8 (a leading byte-order mark is dropped, as
every CSV reader users know does) or, on request, Latin-1; bytes that are not
valid UTF-8 are refused with the file, row, line and byte offset.

Rows are counted from 1 in every format and every message: data rows, after
the header of a CSV/TSV file; blank lines are not rows. The line of a row is
its first physical line (a quoted value may span several lines).
"""

from __future__ import annotations

import codecs
import io as _io
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from clfeval.errors import DataError, InputFileError, UsageError

__all__ = ["check_text_bytes",
           "Source", "ENCODINGS", "STDIN", "check_encoding", "read_header", "check_unique_names", "check_roles",
           "utf8_error", "utf8_valid", "row_ref", "row_line", "stdin_source", "existing_file"]

ENCODINGS = ("utf-8", "latin-1")
STDIN = "<stdin>"
_BOM = codecs.BOM_UTF8
_CHUNK = 1 << 20
SPOOL_AT = 64 << 20
"""Standard input beyond this many bytes is copied to an unnamed temporary file instead of held in memory."""


#: The largest CSV block without a smaller memory budget (a row must fit in one block): 256 MiB.
BLOCK_CAP = 256 << 20


def block_cap_for(memory: int) -> int:
    """The largest CSV block a run with ``memory`` bytes reads: min(256 MiB, memory / 4), at least 64 KiB.

    >>> block_cap_for(1 << 30) >> 20, block_cap_for(4 << 20) >> 20
    (256, 1)
    """
    return max(1 << 16, min(BLOCK_CAP, int(memory) // 4))


def check_encoding(encoding: str) -> str:
    """``"utf-8"`` or ``"latin-1"`` (common spellings of either accepted); anything else is a usage error."""
    try:
        name = codecs.lookup(encoding).name
    except (LookupError, TypeError):
        name = None
    if name == "utf-8":
        return "utf-8"
    if name == "iso8859-1":
        return "latin-1"
    raise UsageError(f"option --encoding must be one of {', '.join(ENCODINGS)}; got {encoding!r}.")


class Source:
    """The bytes of one input table: a regular file (read by path), or bytes in memory.

    Build one with :meth:`of` (a path; pipes and FIFOs are read into memory,
    devices refused) or :meth:`from_bytes` (standard input). ``str(source)``
    is the name messages use.
    """

    __slots__ = ("name", "path", "data", "encoding", "origin", "spool", "block_cap")

    def __init__(self, name: str, path: Path | None, data: bytes | None, encoding: str = "utf-8",
                 origin: tuple[int, int, int] = (0, 0, 0), spool: Any = None) -> None:
        self.name = name
        self.path = path
        self.data = data
        self.encoding = check_encoding(encoding)
        self.origin = origin  # (rows, lines, bytes) of the file before these bytes: a part of a larger file
        self.spool = spool  # the unnamed temporary file holding standard input, kept open while in use
        self.block_cap = BLOCK_CAP  # the largest CSV block (a row must fit in one): see block_cap_for

    @classmethod
    def from_bytes(cls, data: bytes, *, name: str = STDIN, encoding: str = "utf-8",
                   origin: tuple[int, int, int] = (0, 0, 0)) -> Source:
        """Bytes already read, e.g. standard input; ``origin`` = (rows, lines, bytes) before them when they
        are a part of a larger file (messages then count rows, lines and byte offsets in the whole file)."""
        return cls(name, None, bytes(data), encoding, origin)

    @classmethod
    def from_stream(cls, stream: IO[bytes], *, name: str = STDIN, encoding: str = "utf-8",
                    memory: int = SPOOL_AT) -> Source:
        """A stream read to its end (standard input): kept in memory up to ``memory`` bytes, beyond that
        copied to an unnamed temporary file (removed by the system when clfeval exits, even on ``kill -9``),
        so that memory stays bounded and the bytes can be read again to name a row in a message."""
        import shutil
        import tempfile

        head = stream.read(memory + 1)
        if len(head) <= memory:
            return cls.from_bytes(head, name=name, encoding=encoding)
        spool = tempfile.TemporaryFile()
        try:
            spool.write(head)
            del head
            shutil.copyfileobj(stream, spool, _CHUNK)
            spool.flush()
        except BaseException:
            spool.close()
            raise
        fd_dir = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"
        return cls(name, Path(f"{fd_dir}/{spool.fileno()}"), None, encoding, spool=spool)

    @classmethod
    def of(cls, path: str | os.PathLike[str] | Source, *, encoding: str = "utf-8") -> Source:
        """The source named by ``path`` (a :class:`Source` is returned with the given encoding).

        Raises
        ------
        InputFileError
            A missing, unreadable or non-file path (exit 2).
        """
        if isinstance(path, Source):
            if check_encoding(encoding) == path.encoding:
                return path
            return cls(path.name, path.path, path.data, encoding, path.origin, path.spool)
        p = Path(path)
        name = str(p)
        try:
            st = p.stat()
        except FileNotFoundError:
            raise InputFileError(f"file {name!r} does not exist.") from None
        except OSError as exc:
            raise InputFileError(f"file {name!r} cannot be opened: {exc.strerror or exc}.") from None
        if stat.S_ISDIR(st.st_mode):
            raise InputFileError(f"{name!r} is a directory; expected a predictions file.")
        if not os.access(p, os.R_OK):
            raise InputFileError(f"file {name!r} cannot be read (permission denied).")
        if stat.S_ISREG(st.st_mode):
            return cls(name, p, None, encoding)
        if stat.S_ISFIFO(st.st_mode) or stat.S_ISSOCK(st.st_mode):  # a pipe: /dev/stdin, <(command)
            with open(p, "rb") as fh:
                got = cls.from_stream(fh, name=name, encoding=encoding)
                return got
        raise InputFileError(f"{name!r} is a device, not a file; give a predictions file, or pipe the data into "
                             f"clfeval and name standard input as '-'.")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Source({self.name!r})"

    @property
    def is_stdin(self) -> bool:
        """Standard input (in memory, or spooled to a temporary file)."""
        return self.name == STDIN and (self.path is None or self.spool is not None)

    @property
    def stem(self) -> str:
        """The name without its extension (``stdin`` for standard input)."""
        return "stdin" if self.is_stdin else Path(self.name).stem

    @property
    def suffix(self) -> str:
        return "" if self.is_stdin else Path(self.name).suffix

    def size(self) -> int:
        return len(self.data) if self.data is not None else self.path.stat().st_size  # type: ignore[union-attr]

    def open_binary(self) -> IO[bytes]:
        return _io.BytesIO(self.data) if self.data is not None else open(self.path, "rb")  # type: ignore[arg-type]

    def head(self, n: int) -> bytes:
        with self.open_binary() as fh:
            return fh.read(n)

    def open_text(self, newline: str | None = "", errors: str = "strict") -> IO[str]:
        """The text, decoded strictly (UTF-8 without its byte-order mark, or Latin-1); ``errors="surrogateescape"``
        keeps bytes that are not UTF-8 apart (for counting lines, which they cannot change)."""
        codec = "utf-8-sig" if self.encoding == "utf-8" else "latin-1"
        return _io.TextIOWrapper(self.open_binary(), encoding=codec, errors=errors, newline=newline)

    def contains(self, needle: bytes) -> bool:
        """Whether ``needle`` (one byte, or a short string) occurs anywhere in the bytes: a memchr-speed scan
        in blocks, so that a large file is never held in memory (nor mapped into it)."""
        if self.data is not None:
            return needle in self.data
        tail = b""
        with open(self.path, "rb") as fh:  # type: ignore[arg-type]
            for block in iter(lambda: fh.read(16 * _CHUNK), b""):
                if needle in tail + block[:len(needle)] or needle in block:
                    return True
                tail = block[-(len(needle) - 1):] if len(needle) > 1 else b""
        return False

    def matches(self, regex: str) -> bool:
        """Whether the regular expression (RE2, on bytes) matches anywhere: pyarrow's C++ scan of the mapped file."""
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        buf = pa.py_buffer(self.data) if self.data is not None else pa.memory_map(str(self.path)).read_buffer()
        offsets = pa.py_buffer(np.array([0, buf.size], dtype=np.int64).tobytes())
        whole = pa.Array.from_buffers(pa.large_binary(), 1, [None, offsets, buf])
        return bool(pc.match_substring_regex(whole, regex)[0].as_py())

    def arrow(self) -> Any:
        """What pyarrow's readers take: the path of a file, or a buffer reader over the bytes."""
        import pyarrow as pa

        if self.data is not None:
            return pa.BufferReader(pa.py_buffer(self.data))
        return str(self.path)

    def arrow_utf8(self) -> Any:
        """A pyarrow input whose bytes are UTF-8 (Latin-1 transcoded on the fly)."""
        import pyarrow as pa

        if self.encoding == "utf-8":
            return self.arrow()
        stream = pa.input_stream(self.arrow())
        return pa.transcoding_input_stream(stream, "latin-1", "utf-8")

    def sha256(self) -> str:
        """``sha256:<hex>`` of the bytes (what the run log records as the data's hash)."""
        import hashlib  # only for a signature's digest

        h = hashlib.sha256()
        with self.open_binary() as fh:
            for chunk in iter(lambda: fh.read(_CHUNK), b""):
                h.update(chunk)
        return "sha256:" + h.hexdigest()


# --- header and column names ------------------------------------------------------

def check_text_bytes(src: Source, fmt: str) -> None:
    """Refuse UTF-16 text and compressed files by their first bytes, naming what they are (not as bad UTF-8)."""
    head = src.head(64)
    if head[:2] == b"\x1f\x8b":
        raise DataError(f"file {src.name!r} is gzip-compressed; clfeval reads uncompressed {fmt.upper()} (a "
                        f"member of a directory as a single file): decompress it first (gunzip -k).")
    even, odd = head[0::2], head[1::2]
    utf16 = head[:2] in (b"\xff\xfe", b"\xfe\xff") or (
        len(head) >= 8 and (even.count(0) >= len(even) * 3 // 4 or odd.count(0) >= len(odd) * 3 // 4))
    if utf16:
        raise DataError(f"file {src.name!r} is UTF-16 text (it starts with a UTF-16 byte-order mark, or every other "
                        f"byte is zero); clfeval reads UTF-8 or, with --encoding latin-1, Latin-1. Convert it to "
                        f"UTF-8 first (iconv -f UTF-16 -t UTF-8).")


def read_header(source: Source, delimiter: str) -> list[str]:
    """The column names of a CSV/TSV file: its first record (a byte-order mark dropped)."""
    import csv

    check_text_bytes(source, "csv" if delimiter == "," else "tsv")
    try:
        with source.open_text() as fh:
            try:  # the header record: a quoted name may hold a newline (clfeval's score:<label> columns)
                return next(csv.reader(fh, delimiter=delimiter), [])
            except csv.Error:  # an unclosed quote: the first line, as pyarrow will see it
                fh.seek(0)
                return next(csv.reader([fh.readline()], delimiter=delimiter), [])
    except UnicodeDecodeError:
        raise utf8_error(source, "csv" if delimiter == "," else "tsv") from None


def check_unique_names(names: Sequence[str], where: str, what: str = "header") -> None:
    """Refuse a name that occurs twice, naming it and both positions (1-based)."""
    seen: dict[str, int] = {}
    for i, name in enumerate(names, start=1):
        if name in seen:
            raise DataError(f"{where}: the {what} names the column {name!r} twice (columns {seen[name]} and {i}); "
                            f"column names must be unique, so that an option such as --gold names one column. "
                            f"Rename one of them.")
        seen[name] = i


def check_roles(roles: Sequence[tuple[str, str | None]]) -> None:
    """Refuse one column given two roles (``--gold x --pred x``), naming both options."""
    seen: dict[str, str] = {}
    for option, column in roles:
        if column is None:
            continue
        if column in seen:
            raise UsageError(f"options {seen[column]} and {option} both name the column {column!r}; a column has one "
                             f"role (gold labels, predictions, ids, scores). Name another column with one of them.")
        seen[column] = option


def check_option_column(option: str, name: str | None, columns: Sequence[str]) -> None:
    """A column option that starts with a byte-order mark: say so (clfeval strips the mark from files)."""
    if name and name.startswith("\ufeff") and name not in columns:
        raise DataError(f"option {option} names {name!r}, which starts with an invisible byte-order mark (U+FEFF); "
                        f"clfeval drops the mark at the start of a file, so the column is {name[1:]!r}: say "
                        f"{option} {name[1:]}.")


# --- where a row is -----------------------------------------------------------------

def records(source: Source, delimiter: str, errors: str = "strict") -> Iterator[tuple[int, list[str]]]:
    """(first line, fields) of every non-blank CSV record, the header included (``errors``: of the decoding)."""
    import csv

    with source.open_text(errors=errors) as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        before = 0
        try:
            for fields in reader:
                start = before + 1
                before = reader.line_num
                if fields:
                    yield start, fields
        except (csv.Error, UnicodeDecodeError):
            return


def json_lines(source: Source, errors: str = "strict") -> Iterator[tuple[int, str]]:
    """(line number, text) of every non-blank line of a JSON Lines file (``errors``: of the decoding)."""
    with source.open_text(newline="\n", errors=errors) as fh:
        try:
            for number, text in enumerate(fh, start=source.origin[1] + 1):
                if text.strip(" \t\r\n"):
                    yield number, text
        except UnicodeDecodeError:
            return


def row_line(source: Source, fmt: str, index: int) -> int | None:
    """The first line of data row ``index`` (0-based), or None (Parquet, or past the end).

    Bytes that are not UTF-8 further on do not hide the line (a streamed read names a row of its first
    batch before it reaches them): lines are counted with such bytes kept apart, never decoded.
    """
    if fmt in ("csv", "tsv"):
        for k, (line, _) in enumerate(records(source, "," if fmt == "csv" else "\t", "surrogateescape")):
            if k == index + 1:
                return line
        return None
    if fmt == "jsonl":
        for k, (line, _) in enumerate(json_lines(source, "surrogateescape")):
            if k == index:
                return line
    return None


def row_ref(source: Source | None, fmt: str, index: int) -> str:
    """``row N (line L)``: the 1-based data row of ``index`` and, in text formats, its line."""
    line = row_line(source, fmt, index) if source is not None else None
    row = index + 1 + (source.origin[0] if source is not None else 0)
    return f"row {row} (line {line})" if line is not None else f"row {row}"


# --- bytes that are not UTF-8 ---------------------------------------------------

def _first_bad_utf8(source: Source) -> int | None:
    """Byte offset of the first byte that is not valid UTF-8, or None."""
    dec = codecs.getincrementaldecoder("utf-8")("strict")
    offset = 0
    with source.open_binary() as fh:
        while True:
            chunk = fh.read(_CHUNK)
            pending = len(dec.getstate()[0])
            try:
                dec.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                return offset - pending + exc.start
            if not chunk:
                return None
            offset += len(chunk)


def utf8_valid(source: Source) -> bool:
    """Whether every byte of the source is valid UTF-8 (one streaming pass)."""
    return _first_bad_utf8(source) is None


class _Head(_io.RawIOBase):
    """The first ``n`` bytes of a binary file, as a stream (so that a long prefix is never held in memory)."""

    def __init__(self, fh: IO[bytes], n: int) -> None:
        self.fh, self.left = fh, n

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        data = self.fh.read(min(len(b), self.left)) if self.left > 0 else b""
        b[: len(data)] = data
        self.left -= len(data)
        return len(data)


def _prefix_lines(source: Source, offset: int) -> Iterator[str]:
    """The text before ``offset`` line by line, the last line ending in "x" (standing for the byte at offset)."""
    with _io.TextIOWrapper(_io.BufferedReader(_Head(source.open_binary(), offset)), encoding="utf-8-sig",
                           errors="replace", newline="") as text:
        last = None
        for line in text:
            if last is not None:
                yield last
            last = line
        if last is None or not last.endswith(("\n", "\r")):
            yield (last or "") + "x"
        else:  # the byte at offset starts a line
            yield last
            yield "x"


def _position(source: Source, fmt: str, offset: int) -> tuple[int, int | None]:
    """(line, data row or 0 for the header / None) of the byte at ``offset``."""
    import csv

    newlines = 0

    def counted(lines: Iterator[str]) -> Iterator[str]:
        nonlocal newlines
        for line in lines:
            newlines += line.count("\n")
            yield line

    lines = counted(_prefix_lines(source, offset))
    row: int | None = None
    if fmt in ("csv", "tsv"):
        try:
            row = sum(1 for r in csv.reader(lines, delimiter="," if fmt == "csv" else "\t") if r) - 1
        except csv.Error:
            row = None
    elif fmt == "jsonl":
        row = sum(1 for t in lines if t.strip(" \t\r\n"))
    for _ in lines:  # count the remaining lines
        pass
    rows_before, lines_before, _ = source.origin
    return newlines + 1 + lines_before, (row + rows_before if row is not None and row > 0 else row)


def utf8_error(source: Source, fmt: str, *, column: str | None = None, row: int | None = None) -> DataError:
    """The message for text that is not valid UTF-8: file, row, line and byte offset, and the fix."""
    fix = ("clfeval reads text as UTF-8; if the file is Latin-1 (ISO-8859-1), read it with --encoding latin-1, "
           "otherwise convert it to UTF-8.")
    offset = _first_bad_utf8(source) if fmt != "parquet" else None
    col = f" column {column!r}," if column else ""
    if offset is None:
        where = f", {row_ref(source, fmt, row)}" if row is not None else ""
        return DataError(f"file {source.name!r}{where}:{col} the text is not valid UTF-8 (for example an escaped lone "
                         f"surrogate such as \\ud800). {fix}")
    line, data_row = _position(source, fmt, offset)
    with source.open_binary() as fh:
        fh.seek(offset)
        bad = fh.read(4)
    offset += source.origin[2]
    if data_row == 0:
        where = f"the header (line {line})"
    elif data_row is not None:
        where = f"row {data_row} (line {line})"
    else:
        where = f"line {line}"
    return DataError(f"file {source.name!r}, {where}, byte offset {offset}:{col} the bytes {bad!r} are not valid "
                     f"UTF-8. {fix}")


def first_invalid_utf8_row(column: Any) -> int | None:
    """Index of the first value of a string column that is not valid UTF-8 (bisection; error path only)."""
    import pyarrow as pa

    def valid(arr: Any) -> bool:
        try:
            arr.validate(full=True)
        except pa.ArrowInvalid:
            return False
        return True

    base = 0
    for chunk in getattr(column, "chunks", [column]):
        if not valid(chunk):
            lo, hi = 0, len(chunk)  # the first bad value lies in [lo, hi)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if valid(chunk.slice(lo, mid - lo)):
                    lo = mid
                else:
                    hi = mid
            return base + lo
        base += len(chunk)
    return None


def stdin_source(what: str, *, named_by: str | None = None, memory: str | int | None = None) -> Source:
    """Standard input ('-', given as ``what``: "option --dev", "the input file") as a :class:`Source`, read once.

    ``named_by`` says what already named it (a second ``-`` is refused); its bytes are held in memory up to a
    quarter of the ``memory`` budget (at most :data:`SPOOL_AT`), beyond that spooled to an unnamed temporary file.
    """
    import sys

    if named_by is not None:
        raise UsageError(f"standard input ('-') can be read only once, and {named_by} already names it; "
                         f"give {what} as a file.")
    try:
        stream, tty = sys.stdin.buffer, sys.stdin.isatty()
    except (AttributeError, ValueError, OSError):  # no standard input, or a closed one
        stream, tty = None, False
    if stream is None or tty:
        raise UsageError(f"{what} is '-' (standard input), but standard input is "
                         f"{'a terminal' if stream is not None else 'closed'}; pipe the data in, as in "
                         f"cat preds.csv | clfeval report -.")
    if memory is not None:
        from clfeval.core import parse_memory

        memory = max(1 << 16, min(SPOOL_AT, parse_memory(memory) // 4))
    try:
        return Source.from_stream(stream, memory=SPOOL_AT if memory is None else memory)
    except OSError as exc:
        raise InputFileError(f"standard input ('-', {what}) cannot be read: {exc}.") from None


def existing_file(path: str | os.PathLike[str], option: str | None = None) -> Path:
    """A path that must name an existing file (else an :class:`InputFileError`, exit 2, naming it and ``option``)."""
    p = Path(path)
    where = f" (option {option})" if option else ""
    if not p.exists():
        raise InputFileError(f"file {str(p)!r}{where} does not exist.")
    if p.is_dir():
        raise InputFileError(f"{str(p)!r}{where} is a directory; expected a file.")
    return p
