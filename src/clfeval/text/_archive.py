"""Reading the files of an archive or directory with every size capped before it is read.

A decompression bomb — a small archive whose member decompresses to gigabytes —
is refused by the size its tar header declares, before any of it is read; the
whole decompressed stream is capped too (tarfile reads some headers whole).
The caps come from the known sizes of the Reuters-21578 distribution: its
largest file is reut2-017.sgm (1,546,911 bytes) and its 31 files hold
27,982,337 bytes.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zlib
from collections.abc import Collection, Sequence
from pathlib import Path

from clfeval.errors import DataError, InputFileError

__all__ = ["read_archive", "read_directory", "MAX_MEMBER_BYTES", "MAX_ARCHIVE_BYTES", "MAX_MEMBERS"]

MAX_MEMBER_BYTES = 8 << 20
"""Largest file read from an archive or directory (8 MiB; the corpus's largest is 1,546,911 bytes)."""
MAX_ARCHIVE_BYTES = 64 << 20
"""Most bytes an archive may decompress to (64 MiB; the original: 28 MB in 31 files)."""
MAX_MEMBERS = 1000
"""Most files in an archive (the original holds 31)."""


def _refuse_missing(path: Path, container: str, found: Collection[str], files: Sequence[str], expected: str) -> None:
    missing = [n for n in files if n not in found]
    if missing:
        raise DataError(
            f"{path}: {container} lacks {len(missing)} of the {len(files)} SGML files "
            f"({', '.join(missing[:4])}{' …' if len(missing) > 4 else ''}); "
            + expected + "."
        )


def read_directory(path: Path, files: Sequence[str], expected: str) -> dict[str, bytes]:
    """The ``files`` of directory ``path`` (each checked to hold at most MAX_MEMBER_BYTES before it is read)."""
    found = {name: path / name for name in files if (path / name).is_file()}
    _refuse_missing(path, "directory", found, files, expected)
    try:
        for name, p in found.items():
            _check_member_size(path / name, p.stat().st_size, "file", expected)
        return {name: p.read_bytes() for name, p in found.items()}
    except OSError as exc:
        raise InputFileError(
            f"{path}: cannot read {exc.filename or 'a file'} ({exc.strerror or exc}); "
            "check the file permissions."
        ) from exc


def _check_member_size(where: Path | str, size: int, what: str, expected: str) -> None:
    if size > MAX_MEMBER_BYTES:
        raise DataError(
            f"{where}: the {what} holds {size:,} bytes; clfeval reads files of at most {MAX_MEMBER_BYTES:,} bytes "
            f"(8 MiB; the largest of the collection, reut2-017.sgm, holds 1,546,911), so this is not the "
            f"collection's file and nothing of it was read; " + expected + "."
        )


class _Capped:
    """A decompressed stream that refuses to yield more than ``limit`` bytes in all."""

    def __init__(self, raw: io.BufferedIOBase, limit: int, path: Path, expected: str) -> None:
        self.raw, self.left, self.path, self.expected = raw, limit, path, expected

    def read(self, size: int = -1) -> bytes:
        want = self.left + 1 if size is None or size < 0 else min(size, self.left + 1)
        data = self.raw.read(want)
        self.left -= len(data)
        if self.left < 0:
            raise DataError(
                f"{self.path}: the archive decompresses to more than {MAX_ARCHIVE_BYTES:,} bytes (64 MiB; the "
                f"original decompresses to 28 MB); reading was stopped there; " + self.expected + "."
            )
        return data


def _decompressed(path: Path) -> io.BufferedIOBase:
    """The tar stream of a plain, gzip, bzip2 or xz archive (by its first bytes)."""
    with open(path, "rb") as fh:
        magic = fh.read(6)
    if magic[:2] == b"\x1f\x8b":
        return gzip.open(path, "rb")
    if magic[:3] == b"BZh":
        return bz2.open(path, "rb")
    if magic == b"\xfd7zXZ\x00":
        return lzma.open(path, "rb")
    return open(path, "rb")


def read_archive(path: Path, files: Sequence[str], expected: str) -> dict[str, bytes]:
    """The ``files`` of the archive (matched by base name), read as one stream, every size capped before reading.

    A member larger than MAX_MEMBER_BYTES (by its header), more than MAX_MEMBERS members, or more than
    MAX_ARCHIVE_BYTES in all (also headers that tarfile reads whole) are refused.
    """
    wanted = set(files)
    data: dict[str, bytes] = {}
    try:
        # tarfile's stubs ask every fileobj for write/tell/seek/close; the stream mode "r|" only reads
        with _decompressed(path) as raw, tarfile.open(fileobj=_Capped(raw, MAX_ARCHIVE_BYTES, path, expected),  # type: ignore[call-overload]
                                                      mode="r|", bufsize=1 << 20) as tar:
            total = 0
            for count, member in enumerate(tar, start=1):
                if count > MAX_MEMBERS:
                    raise DataError(f"{path}: the archive holds more than {MAX_MEMBERS:,} files (the original holds "
                                    f"31); " + expected + ".")
                _check_member_size(f"{path}:{member.name}", member.size, "archive member", expected)
                total += member.size
                if total > MAX_ARCHIVE_BYTES:
                    raise DataError(f"{path}: the archive's files hold more than {MAX_ARCHIVE_BYTES:,} bytes (64 MiB; "
                                    f"the original's hold 27,982,337); " + expected + ".")
                name = member.name.rsplit("/", 1)[-1]
                if not (member.isfile() and name in wanted):
                    continue
                if name in data:
                    raise DataError(
                        f"{path}: the archive holds {name} twice; " + expected + "."
                    )
                fh = tar.extractfile(member)
                if fh is None:  # cannot happen for a regular file member
                    raise tarfile.ExtractError(f"no data for member {member.name}")
                data[name] = fh.read()
    except DataError:
        raise
    except (tarfile.TarError, EOFError, zlib.error, lzma.LZMAError, OSError) as exc:
        raise DataError(
            f"{path}: cannot read it as a tar archive ({type(exc).__name__}: {exc}); "
            + expected + "."
        ) from exc
    _refuse_missing(path, "the archive", data, files, expected)
    return data
