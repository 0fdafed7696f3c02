"""Downloading the original Reuters-21578 archive, checked before it is put in place (``clfeval datasets fetch``).

The archive is downloaded into a temporary ``.part`` file beside its destination, with a size cap and an overall
deadline (:mod:`clfeval.text._download`), checked (SHA-256, the 22 SGML files, 21,578 stories) and only then
renamed into place; an archive already there is checked the same way.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clfeval.core import check_positive, check_positive_int
from clfeval.errors import DataError, InputFileError, UsageError
from clfeval.text._datasets import ARCHIVE_NAME, N_STORIES, REUTERS_SHA256, UCI_URL, read_reuters
from clfeval.text._download import DOWNLOAD_DEADLINE, MAX_DOWNLOAD_BYTES, download, sha256_of

__all__ = ["REUTERS_CHECKS", "FetchedDataset", "fetch_reuters", "check_fetch", "fetch_dataset"]


REUTERS_CHECKS = (f"SHA-256 {REUTERS_SHA256}", "22 SGML files reut2-000.sgm … reut2-021.sgm", "21,578 stories")
"""What :func:`fetch_reuters` checks of a downloaded archive and of one already in place."""


@dataclass(frozen=True)
class FetchedDataset:
    """Where a downloaded data set is, and what was checked (``clfeval datasets fetch``).

    Attributes
    ----------
    dataset : str
        ``reuters21578``.
    path : str
        The archive.
    url : str or None
        Where it was downloaded from; None when it was already there.
    downloaded : bool
        False when the archive was already in place (it was checked all the same).
    checks : tuple of str
        What the archive passed (:data:`REUTERS_CHECKS`).
    """

    dataset: str
    path: str
    url: str | None
    downloaded: bool
    checks: tuple[str, ...] = ()

    def describe(self) -> str:
        """The line ``clfeval datasets fetch`` says: where the archive came from and where it is."""
        if self.downloaded:
            return f"downloaded {self.url} to {self.path}"
        return f"{self.path} is already there and passed the checks; not downloaded again (use --force to replace it)."

    def to_dict(self) -> dict[str, object]:
        return {"dataset": self.dataset, "path": self.path, "url": self.url, "downloaded": self.downloaded,
                "checks": list(self.checks)}


_SCHEMES = ("http", "https", "file")


def _check_url(url: Any) -> str:
    """An http, https or file URL: a scheme, a host (http, https) or a local path (file), no spaces."""
    from urllib.parse import urlsplit

    ok = isinstance(url, str) and url.isprintable() and not any(c.isspace() for c in url)
    if ok:
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018  (a port that is not a number raises here)
        except ValueError:  # also an unclosed [ in the host
            ok = False
        else:
            scheme = parts.scheme.lower()
            if scheme == "file":
                ok = bool(parts.path) and parts.netloc in ("", "localhost")
            else:
                ok = scheme in _SCHEMES and bool(parts.hostname) and url.isascii()
    if not ok:
        raise UsageError(lambda name: f"option {name} must be an http, https or file URL, such as "
                                      f"https://HOST/PATH/{ARCHIVE_NAME} or file:///PATH/{ARCHIVE_NAME} (a local "
                                      f"file: no host; no spaces; non-ASCII characters percent-encoded); got "
                                      f"{url!r}.", params=["url"])
    return url


def check_fetch(url: Any, *, timeout: Any = 60, deadline: Any = DOWNLOAD_DEADLINE,
                max_bytes: Any = MAX_DOWNLOAD_BYTES) -> None:
    """The arguments of :func:`fetch_reuters` checked before anything is read or written (``UsageError``)."""
    _check_url(url)
    check_positive(timeout, option="timeout", what="seconds for connecting and for each read")
    check_positive(deadline, option="deadline", what="seconds the whole download may take")
    check_positive_int(max_bytes, option="max_bytes")


def fetch_reuters(
    dest_dir: str | os.PathLike[str],
    *,
    url: str = UCI_URL,
    timeout: float = 60,
    deadline: float = DOWNLOAD_DEADLINE,
    max_bytes: int = MAX_DOWNLOAD_BYTES,
    sha256: str | None = REUTERS_SHA256,
    force: bool = False,
) -> Path:
    """Download the original ``reuters21578.tar.gz`` into ``dest_dir``, checked.

    The archive is streamed to a temporary file in ``dest_dir``, its SHA-256 is
    compared with ``sha256`` (skipped when ``None``), it is read with
    :func:`read_reuters` and must hold the 22 SGML files with 21,578 stories;
    only then is it renamed into place (atomically). On any failure — and on
    SIGINT or SIGTERM, which the command line turns into exceptions — the
    temporary file is removed, so no partial or corrupt archive is left behind.

    Parameters
    ----------
    dest_dir : str or path-like
        Directory to store ``reuters21578.tar.gz`` in; created if missing.
    url : str, default UCI_URL
        Where to download from (``http``, ``https`` or ``file`` URL).
    timeout : float, default 60
        Socket timeout in seconds for connecting and for each read.
    deadline : float, default DOWNLOAD_DEADLINE (600)
        Seconds the whole download may take: checked after every read, and a
        read waits at most ``min(timeout, deadline)``, so a server that sends
        a byte now and then cannot hold it open.
    max_bytes : int, default MAX_DOWNLOAD_BYTES (32 MiB)
        The download is stopped (and refused) beyond this size.
    sha256 : str or None, default REUTERS_SHA256
        Expected hex digest of the archive; ``None`` checks structure only.
    force : bool, default False
        Download even if ``dest_dir/reuters21578.tar.gz`` exists (it is then
        replaced only by a download that passes the checks).

    Returns
    -------
    pathlib.Path
        ``dest_dir/reuters21578.tar.gz``. If it already exists and ``force`` is
        false it is checked as a download would be (without network access)
        and returned; a file that fails the checks is refused and left as is.

    Raises
    ------
    UsageError
        If ``url`` is not an http, https or file URL, or ``timeout``, ``deadline`` or ``max_bytes`` is not a
        finite number > 0 (checked first).
    InputFileError
        If ``dest_dir`` cannot be created or written, or the archive there read.
    DataError
        If the download fails, is too large or too slow, or the file has the
        wrong SHA-256 or is not the complete collection.
    """
    check_fetch(url, timeout=timeout, deadline=deadline, max_bytes=max_bytes)
    dest = Path(os.fspath(dest_dir))
    target = dest / ARCHIVE_NAME
    if target.exists() and not force:
        try:
            digest = sha256_of(target)
        except OSError as exc:
            raise InputFileError(f"{target}: cannot read it ({exc.strerror or exc}); check the file "
                                 "permissions.") from exc
        _check_archive(target, digest, sha256, what=f"the archive already in {dest}, {target},",
                       outcome="it is not the original and was left as it is: delete it, or download it again "
                               "(clfeval datasets fetch --force)")
        return target
    tmp: Path | None = None
    try:
        try:
            dest.mkdir(parents=True, exist_ok=True)
            fd, tmp_name = tempfile.mkstemp(dir=dest, prefix=".reuters21578-", suffix=".part")
        except OSError as exc:
            raise InputFileError(
                lambda name, why=str(exc): f"{dest}: cannot create the download directory or a file in it ({why}); "
                                           f"give a writable {name}.", params=["dest_dir"]
            ) from exc
        tmp = Path(tmp_name)
        digest = download(url, fd, timeout=timeout, deadline=deadline, max_bytes=max_bytes, dest=dest,
                          name=ARCHIVE_NAME)
        _check_archive(tmp, digest, sha256, what=f"the file downloaded from {url}",
                       outcome=f"it was discarded and nothing was written to {dest}",
                       hint=" Download from the UCI KDD archive or from a mirror holding an exact copy of it.")
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        raise
    return target


def _check_archive(path: Path, digest: str, sha256: str | None, *, what: str, outcome: str, hint: str = "") -> None:
    """The checks of :data:`REUTERS_CHECKS` (SHA-256 when given, the 22 files, 21,578 stories)."""
    if sha256 is not None and digest != sha256.lower():
        raise DataError(f"{what} has SHA-256 {digest}, expected {sha256.lower()}; {outcome}.{hint}")
    try:
        stories = read_reuters(path)
    except DataError as exc:
        raise DataError(f"{what} is not the Reuters-21578 distribution ({exc}); {outcome}.") from exc
    if len(stories) != N_STORIES:
        raise DataError(
            f"{what} holds {len(stories)} stories, expected {N_STORIES:,} in the 22 files reut2-000.sgm … "
            f"reut2-021.sgm; {outcome}."
        )


def fetch_dataset(name: str, dest_dir: str | os.PathLike[str], *, url: str | None = None, force: bool = False,
                  deadline: float = DOWNLOAD_DEADLINE, outputs: Iterable[tuple[str, Any]] = ()) -> FetchedDataset:
    """Fetch the data set ``name`` (``reuters21578``) into ``dest_dir`` with :func:`fetch_reuters`, keeping one
    already there (checked the same way) unless ``force``; returns where it is and what it passed.

    Before anything is downloaded the caller's ``outputs`` (``("--output", path)`` pairs) are checked with the
    archive (:func:`clfeval.io._outputs.check_paths`): an archive kept is an input they may not replace, a new one
    an output they may not share.
    """
    from urllib.parse import unquote, urlparse

    from clfeval.io import check_paths, os_reason, resolve_output

    if name != "reuters21578":
        raise UsageError(f"unknown data set {name!r}; the one clfeval fetches is 'reuters21578'.")
    source = url or UCI_URL
    check_fetch(source, deadline=deadline)  # before any path is looked at
    parsed = urlparse(source)
    local = unquote(parsed.path) if parsed.scheme == "file" else None
    dest = Path(dest_dir)
    archive = dest / ARCHIVE_NAME
    try:
        existed = archive.exists() and not force
    except OSError as exc:
        raise InputFileError(f"option --dest: cannot look into the directory {str(dest)!r}: {os_reason(exc)}; give a "
                             f"directory clfeval may read and write.") from None
    if existed:  # kept as it is, an input now: no output may replace it
        check_paths([("--url", local), ("the archive in --dest", archive)], list(outputs))
    else:  # before anything is downloaded
        target = resolve_output(dest, option="--dest", directory=True)
        check_paths([("--url", local)], [target, ("--dest", archive if dest.is_dir() else None), *outputs])
    path = fetch_reuters(dest, url=source, force=force, deadline=deadline)
    return FetchedDataset(name, str(path), None if existed else source, not existed, REUTERS_CHECKS)
