"""Reading the next batch while the caller counts the current one: :func:`read_ahead` (the local runner's
``accumulate(read_ahead=True)``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["read_ahead"]


def read_ahead(batches: Iterable[Any]) -> Iterator[Any]:
    """The batches of ``batches``, the next one read in a thread while the caller counts the current one (pyarrow
    reads without holding the GIL): at most two batches in memory -- the reader starts the next batch only once
    the caller has taken the last (fewer fresh pages for the allocator to clear). An error of the reader
    is raised in the caller; a caller that stops early stops (and closes) the reader."""
    import queue
    import threading

    q: queue.Queue = queue.Queue(maxsize=1)
    stop = threading.Event()
    taken = threading.Semaphore(0)

    def put(item: tuple[str, Any]) -> bool:
        while not stop.is_set():
            try:
                q.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def work() -> None:
        from clfeval.io._readers import decoding_alongside

        it = iter(batches)
        try:
            with decoding_alongside():  # the caller counts meanwhile: on two cores, no pyarrow pool beside it
                for b in it:
                    if not put(("batch", b)):
                        break
                    while not taken.acquire(timeout=0.05):  # the next batch once the caller has taken this one
                        if stop.is_set():
                            return
                else:
                    put(("done", None))
        except BaseException as exc:  # noqa: BLE001  (handed to the caller, raised there)
            put(("error", exc))
        finally:
            close = getattr(it, "close", None)
            if close is not None:
                close()

    worker = threading.Thread(target=work, name="clfeval-read-ahead", daemon=True)
    worker.start()
    try:
        while True:
            kind, value = q.get()
            if kind == "batch":
                taken.release()
                yield value
            elif kind == "error":
                raise value
            else:
                return
    finally:
        stop.set()
        worker.join()
