"""``fetch_reuters`` and ``clfeval datasets fetch`` check their arguments before anything is read or written
(issue 35, R09 and R10): a malformed URL and a deadline that is not a finite number > 0 are usage errors (exit 2)
naming the option, and no directory is created."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from clfeval.errors import UsageError
from clfeval.text import fetch_reuters
from tests._helpers.clihelp import assert_clean_error, run

BAD_URLS = ["not a url", "", "reuters21578.tar.gz", "ftp://example.org/reuters21578.tar.gz",
            "http:///reuters21578.tar.gz", "http://[::1/x.tar.gz", "http://host:port/x.tar.gz",
            "https://example.org/a b.tar.gz", "https://example.org/é.tar.gz", "file://otherhost/x.tar.gz",
            "file:", "mailto:someone@example.org"]


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_malformed_url_is_refused_before_anything_is_made(tmp_path: Path, url: str) -> None:
    dest = tmp_path / "dest"
    with pytest.raises(UsageError, match="option url must be an http, https or file URL") as info:
        fetch_reuters(dest, url=url)
    assert repr(url) in str(info.value)
    assert not dest.exists()


@pytest.mark.parametrize("url", [None, 5, b"https://example.org/x.tar.gz"])
def test_a_url_that_is_not_text_is_refused(tmp_path: Path, url: object) -> None:
    with pytest.raises(UsageError, match="option url"):
        fetch_reuters(tmp_path / "dest", url=url)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["deadline", "timeout"])
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 0, -1.0, True, "60"])
def test_durations_are_finite_numbers_above_zero(tmp_path: Path, name: str, value: object) -> None:
    dest = tmp_path / "dest"
    with pytest.raises(UsageError, match=f"option {name} .* must be a finite number > 0; got {value!r}"):
        fetch_reuters(dest, url="file:///nonexistent/reuters21578.tar.gz", **{name: value})  # type: ignore[arg-type]
    assert not dest.exists()


def test_the_command_says_which_option(tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    res = run("datasets", "fetch", "reuters21578", "--dest", dest, "--url", "not a url")
    assert_clean_error(res, 2, "option --url must be an http, https or file URL", "got 'not a url'")
    for value in ("nan", "inf", "-inf", "0"):
        res = run("datasets", "fetch", "reuters21578", "--dest", dest, "--url", "file:///nonexistent/x.tar.gz",
                  "--deadline", value)
        assert res.code == 2 and "--deadline" in res.err, (value, res.err)
    assert not dest.exists()
