"""A real browser opens every page: headless Chromium (Debian's package) with the network blocked.

Every command's page — written by the command line with ``--format html``
(:mod:`htmlpages`: report, compare, threshold, calibration, cv, holdout, the
run log's queries, metrics, each demo mode; the Reuters study with the
corpus) — is loaded, one tab after another, in one Chromium process driven
over the DevTools protocol on ``--remote-debugging-pipe`` (file descriptors 3
and 4, NUL-terminated JSON) with a small client written here. Every request is
intercepted (``Fetch``): the page's own file:// URL goes on, anything else is
recorded and failed. The test asserts no console error, no request leaving the
page, a screenshot that is not blank, and the key numbers of the matching JSON
output in the visible text, rounded as the text output rounds them. Skips when
chromium is absent, unless CLFEVAL_REQUIRE_BROWSER=1 (set by ``.ci/run``).
"""

from __future__ import annotations

import base64
import io
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("jinja2")

from clfeval.render import render  # noqa: E402
from clfeval.render._util import num  # noqa: E402
from tests._helpers.htmlpages import names  # noqa: E402

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
         "--remote-debugging-pipe"]


@pytest.fixture(scope="module")
def browser():
    if BROWSER is None:
        if os.environ.get("CLFEVAL_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is not installed and CLFEVAL_REQUIRE_BROWSER=1 (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    b = Browser()
    yield b
    b.close()


class Browser:
    """A Chromium process and a DevTools client over its pipe."""

    def __init__(self) -> None:
        self.profile = tempfile.mkdtemp(prefix="clfeval-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def fds() -> None:  # the child reads commands on fd 3 and writes answers on fd 4 (kept: pass_fds)
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        self.proc = subprocess.Popen([BROWSER, *FLAGS, f"--user-data-dir={self.profile}", "--window-size=1200,1800",
                                      "about:blank"], preexec_fn=fds, pass_fds=(3, 4),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self._answers: dict[int, dict[str, Any]] = {}
        self._pending: list[tuple[str, dict[str, Any], str | None]] = []
        self._page_url = ""
        self.blocked: list[str] = []
        self.events: list[dict[str, Any]] = []

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except Exception:  # noqa: BLE001 - the process is ended below either way
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        os.close(self._to_child)
        os.close(self._from_child)
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_child], [], [], left)[0]:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def _write(self, method: str, params: dict[str, Any] | None, session: str | None) -> int:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        return self._id

    def _flush(self) -> None:
        """Answer paused requests without waiting (their answers are read and dropped later)."""
        while self._pending:
            self._write(*self._pending.pop(0))

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 30) -> dict[str, Any]:
        wanted = self._write(method, params, session)
        deadline = time.monotonic() + timeout
        while wanted not in self._answers:
            self.pump(deadline)
        m = self._answers.pop(wanted)
        if "error" in m:
            raise RuntimeError(f"{method}: {m['error']}")
        return m.get("result", {})

    def pump(self, deadline: float) -> dict[str, Any]:
        """Read one message: keep an answer, handle an event."""
        m = self._read(deadline)
        if "id" in m:
            self._answers[m["id"]] = m
        else:
            self._event(m)
            self._flush()
        return m

    def _event(self, m: dict[str, Any]) -> None:
        if m.get("method") == "Fetch.requestPaused":
            p = m["params"]
            url = p["request"]["url"]
            if url == self._page_url or url.startswith("data:"):
                self._pending.append(("Fetch.continueRequest", {"requestId": p["requestId"]}, m.get("sessionId")))
            else:
                self.blocked.append(url)
                self._pending.append(("Fetch.failRequest",
                                      {"requestId": p["requestId"], "errorReason": "BlockedByClient"},
                                      m.get("sessionId")))
        self.events.append(m)

    def open(self, path: Path) -> dict[str, Any]:
        """Load a page; return its console errors, blocked requests, visible text and screenshot."""
        self.events, self.blocked, self._pending = [], [], []
        self._page_url = path.resolve().as_uri()
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        sid = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for method in ("Page.enable", "Runtime.enable", "Log.enable", "Network.enable"):
            self.send(method, session=sid)
        self.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}, session=sid)
        self.send("Page.navigate", {"url": self._page_url}, session=sid)
        deadline = time.monotonic() + 60
        while self.pump(deadline).get("method") != "Page.loadEventFired":
            pass
        text = self.send("Runtime.evaluate", {"expression": "document.body.innerText", "returnByValue": True},
                         session=sid)["result"]["value"]
        shot = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False}, session=sid)
        self.send("Target.closeTarget", {"targetId": target})
        errors = []
        for e in self.events:
            meth, p = e.get("method"), e.get("params", {})
            if meth == "Runtime.exceptionThrown":
                errors.append(str(p.get("exceptionDetails", {}).get("text")))
            elif meth == "Runtime.consoleAPICalled" and p.get("type") == "error":
                errors.append(str(p.get("args")))
            elif meth == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                errors.append(p["entry"].get("text", ""))
            elif meth == "Network.requestWillBeSent":
                url = p["request"]["url"]
                if url != self._page_url and not url.startswith("data:"):
                    self.blocked.append(url)
        return {"errors": errors, "blocked": self.blocked, "text": text, "png": base64.b64decode(shot["data"])}


def not_blank(png: bytes) -> bool:
    import matplotlib.image as mpimg

    img = mpimg.imread(io.BytesIO(png), format="png")
    return float(img[..., :3].std()) > 0.02


@pytest.mark.parametrize("name", names())
def test_page_in_a_real_browser(browser, command_pages, name):
    page = command_pages[name]
    got = browser.open(page.html)
    assert got["errors"] == [], name
    assert got["blocked"] == [], name
    assert not_blank(got["png"]), name
    for x in page.numbers:  # the JSON's key numbers, as the text output rounds them
        assert x in got["text"], (name, x)
    if page.hostile:  # shown as text, not run
        assert "<script>alert(1)</script>" in got["text"], name


@pytest.mark.reuters
def test_reuters_study_in_a_real_browser(browser, study, tmp_path):
    f = tmp_path / "study.html"
    f.write_text(render(study, "html"), encoding="utf-8")
    got = browser.open(f)
    assert got["errors"] == [] and got["blocked"] == []
    assert not_blank(got["png"])
    d = json.loads(render(study, "json"))
    for x in (d["binary"]["micro"]["f1"], d["binary"]["macro"]["f1"], d["multiclass"]["accuracy"]):
        assert num(x) in got["text"]
    sig = d["significance"]
    from clfeval.render._significance import p_text

    assert p_text(sig["bootstrap"]["p_value"], sig["bootstrap"]["samples"]) in got["text"]
