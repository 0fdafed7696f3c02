"""The documentation: generated tables equal the code's, the examples' runner, the skip list, the README's size.

The examples themselves are collected from README.md and docs/**/*.md by the root conftest.py (docexamples.py).
"""

from __future__ import annotations

import importlib.util
import re
import signal
from pathlib import Path

import pytest

import docexamples as dx
from clfeval import errors
from clfeval.engines import _capabilities as caps
from clfeval.render._frames import frame_columns_markdown

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
GUIDE = sorted((DOCS / "guide").glob("*.md"))
MAX_SKIPPED = 10


def _hooks():
    spec = importlib.util.spec_from_file_location("clfeval_docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _documents() -> list[Path]:
    return [*DOCS.rglob("*.md"), ROOT / "README.md"]


# ---------------------------------------------------------------- generated tables
def test_the_build_hook_puts_the_codes_tables_in_place_of_their_markers():
    hooks = _hooks()
    page = "before\n\n<!-- clfeval:exit-codes -->\n\nmiddle\n\n<!-- clfeval:capabilities -->\n\nafter\n"
    out = hooks.on_page_markdown(page)
    assert out == (f"before\n\n{errors.exit_codes_markdown()}\n\nmiddle\n\n{caps.markdown()}\n\nafter\n")
    assert "<!--" not in out
    frames = hooks.on_page_markdown("<!-- clfeval:frame-columns -->\n")
    assert frames == frame_columns_markdown() + "\n" and "`value`" in frames and "`ci_low`" in frames


def test_the_pages_hold_the_markers_and_no_copy_of_the_tables():
    texts = {p.relative_to(DOCS).as_posix(): p.read_text(encoding="utf-8") for p in DOCS.rglob("*.md")}
    assert "<!-- clfeval:exit-codes -->" in texts["reference/cli.md"]
    assert "<!-- clfeval:exit-codes -->" in texts["guide/gates.md"]
    assert "<!-- clfeval:capabilities -->" in texts["guide/large-data.md"]
    assert "<!-- clfeval:frame-columns -->" in texts["guide/results.md"]
    copied = [caps.markdown().splitlines()[2], errors.exit_codes_markdown().splitlines()[-1], "| 143 | interrupted",
              "| `gap_to_rest` |"]
    for name, text in texts.items():
        for row in copied:
            assert row not in text, f"docs/{name} holds a copy of a generated table row: {row!r}"


def test_the_exit_code_table_is_every_code_the_command_line_returns():
    from clfeval.cli import _HANDLED, EX_SOFTWARE

    codes = [c for c, _ in errors.EXIT_CODES]
    assert codes == sorted(set(codes))
    classes, todo = set(), [errors.ClfevalError]
    while todo:
        cls = todo.pop()
        classes.add(cls.exit_code)
        todo.extend(cls.__subclasses__())
    returned = {0, EX_SOFTWARE, 128 + signal.SIGINT} | classes | {128 + s for s in _HANDLED}
    assert set(codes) == returned
    meanings = dict(errors.EXIT_CODES)
    assert "gate" in meanings[3] and "data" in meanings[1] and "usage" in meanings[2] and "bug" in meanings[70]
    assert "SIGINT" in meanings[130] and "SIGTERM" in meanings[143]


def test_the_command_line_exits_as_the_table_says(tmp_path, capsys):
    from clfeval.cli import main

    f = tmp_path / "p.csv"
    f.write_text("gold,pred\na,a\nb,a\n", encoding="utf-8")
    bad = tmp_path / "bad.csv"
    bad.write_text("gold,guess\na,a\n", encoding="utf-8")
    runs = {0: ["report", str(f)], 1: ["report", str(bad)], 2: ["report", str(tmp_path / "missing.csv")],
            3: ["report", str(f), "--require", "accuracy>=0.9"]}
    for code, argv in runs.items():
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == code, argv
    capsys.readouterr()


# ---------------------------------------------------------------- the examples' runner
def test_a_console_block_is_commands_and_their_output():
    steps = dx.parse_console("$ clfeval report a.csv \\\n  --positive spam\nline 1\n\n$ echo $?\n3\n")
    assert steps == [("clfeval report a.csv \\\n  --positive spam", ["line 1", ""]), ("echo $?", ["3"])]
    with pytest.raises(ValueError, match="must start"):
        dx.parse_console("output first\n$ x\n")


def test_the_output_must_match_line_for_line_but_for_ellipses():
    assert dx.matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert dx.matches(["a", "...", "z"], ["a", "z"])
    assert dx.matches(["accuracy ... 0.9500"], ["accuracy        0.9500"])
    assert not dx.matches(["accuracy 0.9500"], ["accuracy 0.9501"])  # a wrong number in a page fails
    assert not dx.matches(["a", "z"], ["a", "b", "z"])
    assert not dx.matches(["a", "..."], ["b"])


def test_versions_times_and_the_directory_are_normalised():
    work = "/tmp/clfeval-docs-x1"
    text = ("clfeval 0.1.0 · numpy 2.1.3 · written 2026-12-04T18:10:03Z in 0.42 s\n"
            f"recorded run 1 in {work}/clfeval-runs.sqlite\nP 0.9000\n\n")
    assert dx.normalise(text, work) == ["clfeval X.Y.Z · numpy X.Y.Z · written TIMESTAMP in T s",
                                        "recorded run 1 in $TMP/clfeval-runs.sqlite", "P 0.9000"]


def test_a_continued_command_line_runs_as_one_command(tmp_path):
    class Example:
        namespace = {"__docdir__": str(tmp_path), "__rc__": 0}
        parsed = "$ echo one \\\n    two\none two\n"

    assert dx.evaluate_console(Example()) is None
    Example.parsed = "$ echo one \\\n    two\none\n"
    assert "differs" in dx.evaluate_console(Example())


def test_a_failing_command_must_show_its_exit_code(tmp_path):
    class Example:
        namespace = {"__docdir__": str(tmp_path), "__rc__": 0}
        parsed = "$ clfeval report missing.csv\n...\n"

    assert "exited 2" in dx.evaluate_console(Example())
    Example.namespace["__rc__"] = 0
    Example.parsed = "$ clfeval report missing.csv\n...\n$ echo $?\n2\n"
    assert dx.evaluate_console(Example()) is None


def test_examples_run_where_the_example_files_are_at_their_path_from_the_repository_root():
    """Issue 35, item 3: the guides named mails.csv without saying where it is; the runner's directory holds
    docs/examples/ at the same relative path, and nothing at its top (an example's -o never writes the checkout)."""
    ns: dict = {}
    dx.setup(ns)
    try:
        work = Path(ns["__docdir__"])
        assert (work / "docs" / "examples" / "mails.csv").read_bytes() == (DOCS / "examples" / "mails.csv").read_bytes()
        assert not (work / "mails.csv").exists() and Path.cwd() == work
    finally:
        dx.teardown(ns)


def test_every_page_names_the_example_files_from_the_repository_root():
    names = sorted(p.name for p in (DOCS / "examples").iterdir() if p.is_file() and p.suffix != ".py")
    # the run log's data column shows a file's name and hash ("mails.csv (b7d1e36b)"): not a path
    bare = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])(?! \([0-9a-f]{8}\))")
    for doc in _documents():
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            found = bare.search(line)
            assert found is None, f"{doc.relative_to(ROOT)}:{n}: write docs/examples/{found.group(1)}"


# ---------------------------------------------------------------- what is not run, and where examples may be
def test_at_most_ten_examples_are_skipped_each_with_its_reason():
    skipped = []
    for doc in _documents():
        text = doc.read_text(encoding="utf-8")
        for line, reason, first in dx.skipped_blocks(text):
            assert first.startswith("$ ") or first.strip(), f"{doc}:{line}: the skip marker is not before a block"
            skipped.append(f"{doc.relative_to(ROOT)}:{line}: {first.strip()!r} — {reason}")
        # a marker that the parser would not recognise (not right before a block) is a mistake
        markers = re.findall(r"^\*Not run by the tests:", text, re.M)
        assert len(markers) == len(dx.skipped_blocks(text)), f"{doc}: a skip marker is not right before a block"
    print("\n".join(["examples not run by the tests:"] + skipped))
    assert 0 < len(skipped) <= MAX_SKIPPED, skipped


def test_every_shell_and_python_example_of_the_guide_is_a_block_the_tests_run():
    pages = GUIDE + [DOCS / "index.md", ROOT / "README.md", *sorted((DOCS / "reference").glob("*.md"))]
    runnable = {"console", "python", "pycon"}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        langs = re.findall(r"^```(\w*)", text, re.M)[::2]  # opening fences
        assert set(langs) <= runnable, f"{page.name}: code blocks {sorted(set(langs) - runnable)} are not run"
    assert {p.stem for p in GUIDE} == {"first-report", "reading-errors", "scores-thresholds", "calibration",
                                       "significance", "protocols", "large-data", "html-notebooks", "gates",
                                       "reuters", "safety", "json-schema", "slices", "rank", "library", "results",
                                       "label-issues"}


def test_the_ci_builds_the_site_strict_and_loud():
    """``mkdocs build --strict --quiet`` passes with warnings (quiet drops them before strict counts them): the CI's
    one build of the site must not be quiet, or a broken link or an unreadable docstring would land."""
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    builds = [line for line in run.splitlines() if "bin/mkdocs build" in line and not line.lstrip().startswith("#")]
    assert len(builds) == 1 and "--strict" in builds[0], builds
    assert not re.search(r"(--quiet|\s-q\b)", builds[0]), builds[0]


def test_every_guide_page_is_in_the_nav_and_the_site_builds_offline():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in GUIDE:
        assert f"guide/{page.name}" in config
    for page in ("DEVELOPING.md", "reuters-notes.md", "reference/cli.md", "reference/api.md"):
        assert page in config
    assert re.search(r"^  font: false", config, re.M)  # no web fonts: the built site works offline


# ---------------------------------------------------------------- the README
def test_the_readme_is_at_most_200_lines_and_says_what_the_issue_asks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert dx.README_LINES == 200
    assert len(text.splitlines()) <= dx.README_LINES, f"README.md has {len(text.splitlines())} lines"
    assert "Python 3.11 or newer" in text
    assert 'pip install ".[html]"' in text and text.count('".[all]"') == 1
    for page in GUIDE:
        assert f"docs/guide/{page.name}" in text, f"README.md does not link to the guide page {page.name}"
    for ref in ("docs/reference/cli.md", "docs/reference/api.md"):
        assert ref in text
    assert not (DOCS / "README.next.md").exists()  # one README


def test_the_readmes_first_report_is_shown_from_the_shell_and_from_python_with_its_output():
    first = (ROOT / "README.md").read_text(encoding="utf-8").split("## A first report", 1)[1].split("\n## ", 1)[0]
    shell = re.search(r"```console\n\$ (clfeval report [^\n]*)\n(.*?)\n```", first, re.S)
    python = re.search(r"```pycon\n(.*?)\n```", first, re.S)
    assert shell and python
    assert "accuracy" in shell.group(2) and "0.9500" in shell.group(2)  # its output, not only the command
    lines = python.group(1).splitlines()
    assert sum(line.startswith(">>> ") for line in lines) <= 5 and any(not line.startswith(">>>") for line in lines)


def test_the_readme_is_collected_and_its_examples_run():
    assert dx.sybil.should_parse(ROOT / "README.md")
    regions = list(dx.sybil.parse(ROOT / "README.md"))
    assert len(regions) >= 4  # the skip markers, the console and pycon blocks of the first report
