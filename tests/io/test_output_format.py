"""What the command line moved below itself (issue 39, item 3): the output format an output's name asks for
(``clfeval.io`` outputs), standard input and existing files (``clfeval.io``), the run log opened for a query."""

from __future__ import annotations

import pytest

from clfeval.errors import InputFileError, UsageError
from clfeval.io import existing_file, outputs
from clfeval.protocols import query_run_log


@pytest.mark.parametrize(("fmt", "output", "expected"), [
    (None, None, "text"),
    (None, "r.json", "json"),
    (None, "R.HTM", "html"),
    (None, "notes.md", "markdown"),
    (None, "plain", "text"),
    (None, "/dev/null", "text"),          # a device names no format
    ("json", "r.csv", "json"),            # an explicit format accepts any extension it does not contradict
    ("markdown", None, "markdown"),
])
def test_the_format_follows_the_extension(fmt, output, expected):
    assert outputs.output_format(fmt, output) == expected


def test_a_format_contradicting_the_extension_is_refused():
    with pytest.raises(UsageError, match=r"--format text contradicts --output 'r\.html'.*means html"):
        outputs.output_format("text", "r.html")


def test_an_extension_naming_no_format_needs_the_format_said():
    with pytest.raises(UsageError, match=r"the extension '\.csv' names no output format"):
        outputs.output_format(None, "r.csv")


def test_format_of_names_only_known_extensions():
    assert [outputs.format_of(p) for p in ("a.markdown", "a.txt", "a.csv", None)] == ["markdown", "text", None, None]


def test_existing_file_names_the_option(tmp_path):
    with pytest.raises(InputFileError, match=r"does not exist"):
        existing_file(tmp_path / "missing.csv", "--dev")
    with pytest.raises(InputFileError, match=r"\(option --dev\) is a directory"):
        existing_file(tmp_path, "--dev")
    f = tmp_path / "p.csv"
    f.write_text("gold,pred\n", encoding="utf-8")
    assert existing_file(str(f)) == f


def test_a_query_of_a_missing_run_log_is_refused(tmp_path):
    with pytest.raises(InputFileError, match=r"does not exist yet \(option --runs-db\)"):
        query_run_log(tmp_path / "runs.sqlite")
    assert not (tmp_path / "runs.sqlite").exists()
