"""Shared fixtures: where the Reuters-21578 archive is, and its stories parsed once per session (every reader of the
shared archive: the fixtures, the study, the ``reuters`` command run in-process)."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings as _hypothesis_settings

# Property tests draw the same examples on every run (CLFEVAL_HYPOTHESIS=random explores new ones): a CI run's time
# and verdict do not depend on the draw (one draw of a rank test took 154 s where another took 0.7 s).
_hypothesis_settings.register_profile("clfeval", derandomize=True)
_hypothesis_settings.register_profile("random", derandomize=False)
_hypothesis_settings.load_profile("random" if os.environ.get("CLFEVAL_HYPOTHESIS") == "random" else "clfeval")

if TYPE_CHECKING:
    from clfeval.text._datasets import Story

_ARCHIVE = "reuters21578.tar.gz"


def _archive_candidates() -> list[Path]:
    repo_root = Path(__file__).resolve().parents[1]
    return [
        repo_root.parent / "shared" / "data" / _ARCHIVE,  # ../shared/data beside the checkout
        Path("/work/shared/data") / _ARCHIVE,
    ]


@pytest.fixture(scope="session")
def reuters_archive() -> Path:
    """Path of the original ``reuters21578.tar.gz``; skips the test when absent."""
    for candidate in _archive_candidates():
        if candidate.is_file():
            return candidate
    tried = ", ".join(str(c) for c in _archive_candidates())
    if os.environ.get("CLFEVAL_REQUIRE_DATA") == "1":  # set by .ci/run: CI never skips these silently
        pytest.fail(f"Reuters-21578 archive not found (looked at {tried}) and CLFEVAL_REQUIRE_DATA=1")
    pytest.skip(f"Reuters-21578 archive not found (looked at {tried})")


@pytest.fixture(scope="session", autouse=True)
def _reuters_parsed_once() -> Iterator[None]:
    """``read_reuters`` of the shared archive parses it once per session (about 2 s a parse; the study fixture, the
    study tests' own runs and the in-process ``reuters`` commands parsed it some ten times): each caller gets its
    own list of the same frozen stories. Any other path -- the reader's tests of copies, directories and broken
    archives -- is parsed as before; the reader's own tests import the function itself, unwrapped."""
    from clfeval import text
    from clfeval.text import _datasets

    original = _datasets.read_reuters
    shared = {c.resolve() for c in _archive_candidates() if c.is_file()}
    parsed: dict[Path, list[Story]] = {}

    @functools.wraps(original)
    def read_reuters(path: str | os.PathLike[str]) -> list[Story]:
        key = Path(path).resolve()
        if key not in shared:
            return original(path)
        if key not in parsed:
            parsed[key] = original(path)
        return list(parsed[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_datasets, "read_reuters", read_reuters)
        patch.setattr(text, "read_reuters", read_reuters)
        yield


@pytest.fixture(scope="session")
def reuters_stories(reuters_archive: Path) -> list[Story]:
    """All 21,578 stories, parsed once per test session."""
    from clfeval.text._datasets import read_reuters

    return read_reuters(reuters_archive)


@pytest.fixture(scope="session")
def study(reuters_archive: Path, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 (ReutersStudy)
    """The Reuters-21578 study, run once per test run (its tests and the HTML report's share it; one worker runs it,
    the others load it: tests/_helpers/once.py)."""
    from clfeval.studies._reuters import reuters_study
    from tests._helpers.once import once_per_run

    return once_per_run(tmp_path_factory, "reuters-study", lambda: reuters_study(reuters_archive, seed=0))


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A directory served on 127.0.0.1 (never beyond this machine) and its base URL."""
    root = tmp_path / "served"
    root.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture(scope="session")
def dask_client():
    """One Dask LocalCluster for the whole session: 2 worker processes on 127.0.0.1 (start-ups cost seconds)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="session")
def command_pages(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201 (dict of htmlpages.CommandPage)
    """Every command's HTML, JSON and text output on small files, built once per test run (tests/_helpers/once.py).

    See tests/_helpers/htmlpages.py.
    """
    pytest.importorskip("matplotlib")
    pytest.importorskip("jinja2")
    from tests._helpers.htmlpages import build
    from tests._helpers.once import once_per_run

    return once_per_run(tmp_path_factory, "command-pages", lambda: build(tmp_path_factory.mktemp("pages")))
