"""Words a stranger understands (issue 19, item 10): no project-internal word in any output.

Every command's text, Markdown, HTML and JSON output (the pages of :mod:`htmlpages`, each command run again with
``--format markdown``), the Reuters study in each format and every command's ``--help`` are searched for the
word "mission", the name of a design document users never see.
"""

from __future__ import annotations

import json
import re

import pytest

from tests._helpers.clihelp import run

pytest.importorskip("jinja2")
pytest.importorskip("matplotlib")
pytest.importorskip("sklearn")

from tests._helpers import htmlpages  # noqa: E402

WORD = re.compile(r"\bmission\b", re.I)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    return htmlpages.build(tmp_path_factory.mktemp("words"))


def _hits(text: str) -> list[str]:
    return [text[max(0, m.start() - 60):m.end() + 60] for m in WORD.finditer(text)]


def test_no_internal_word_in_any_commands_output(pages):
    found = {}
    for name, page in pages.items():
        md = run(*page.args, "--format", "markdown")
        outputs = {"text": page.text, "json": json.dumps(page.json, ensure_ascii=False),
                   "html": page.html.read_text(encoding="utf-8"), "markdown": md.out}
        for fmt, text in outputs.items():
            if _hits(text):
                found[f"{name} ({fmt})"] = _hits(text)
    assert not found, found


def test_no_internal_word_in_the_reuters_study(study):
    from clfeval.render import render

    for fmt in ("text", "markdown", "json", "html"):
        assert not _hits(render(study, fmt)), fmt


def test_no_internal_word_in_help():
    from clfeval.cli import _register, cli

    _register()
    commands = [[]]
    for name, cmd in cli.commands.items():
        commands.append([name])
        commands += [[name, sub] for sub in getattr(cmd, "commands", {})]
    for c in commands:
        res = run(*c, "--help")
        assert res.code == 0, (c, res.err)
        assert not _hits(res.out), (c, _hits(res.out))


def test_the_bootstrap_illustration_is_cited():
    res = run("demo", "bootstrap")
    assert res.code == 0
    assert "Jurafsky & Martin" in res.out and "47 of 10,000" in res.out
