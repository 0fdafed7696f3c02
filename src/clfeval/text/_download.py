"""Downloading one file with a size cap and an overall deadline, streamed to an open file descriptor."""

from __future__ import annotations

import hashlib
import http.client
import os
import time
import urllib.error
import urllib.request
from pathlib import Path

from clfeval.errors import DataError

__all__ = ["download", "sha256_of", "MAX_DOWNLOAD_BYTES", "DOWNLOAD_DEADLINE"]

MAX_DOWNLOAD_BYTES = 32 << 20
"""Largest download accepted (32 MiB; the Reuters-21578 archive is 8,150,112 bytes)."""
DOWNLOAD_DEADLINE = 600.0
"""Seconds a whole download may take by default."""


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def download(url: str, fd: int, *, timeout: float, deadline: float, max_bytes: int, dest: Path,
             name: str = "the archive") -> str:
    """Stream ``url`` into the open file descriptor ``fd`` within ``deadline`` and ``max_bytes``; return the SHA-256.

    Reads are single socket reads (``read1``) waiting at most ``min(timeout, deadline)``, and the deadline is
    checked after each, so a server that drips a byte now and then cannot hold the download open.
    """
    h = hashlib.sha256()
    start = time.monotonic()
    received = 0

    def too_big(announced: int | None = None) -> DataError:
        what = (f"announces {announced:,} bytes, more than the {max_bytes:,} accepted" if announced is not None
                else f"sends more than the {max_bytes:,} bytes accepted")
        return DataError(
            f"{url} {what} (the Reuters-21578 archive is 8,150,112 bytes); the download was stopped and nothing "
            f"was written to {dest}. Check the URL."
        )

    def too_late() -> DataError:
        return DataError(
            f"downloading {url} did not finish within the deadline of {deadline:g} s ({received:,} bytes "
            f"received); it was stopped and nothing was written to {dest}. Try again later or from a mirror, or "
            f"allow more time (deadline, --deadline)."
        )

    with os.fdopen(fd, "wb") as out:
        try:
            request = urllib.request.Request(url, headers={"User-Agent": "clfeval"})
            with urllib.request.urlopen(request, timeout=max(min(timeout, deadline), 0.001)) as response:
                length = response.headers.get("Content-Length", "")
                if length.strip().isdigit() and int(length) > max_bytes:
                    raise too_big(int(length))
                read = getattr(response, "read1", response.read)  # one read of the socket: returns what has arrived
                while chunk := read(1 << 16):
                    received += len(chunk)
                    if received > max_bytes:
                        raise too_big()
                    h.update(chunk)
                    out.write(chunk)
                    if time.monotonic() - start > deadline:
                        raise too_late()
        except DataError:
            raise
        except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            if isinstance(reason, TimeoutError) and time.monotonic() - start >= 0.99 * deadline:
                raise too_late() from exc
            raise DataError(
                f"downloading {url} failed ({type(exc).__name__}: {exc}); nothing "
                f"was written to {dest}. Check the URL and network, or download "
                f"{name} by hand and read it from where it is."
            ) from exc
    return h.hexdigest()
