"""Run the examples of the README and the guide (README.md, docs/**/*.md) as tests, with Sybil.

* ```python blocks are executed; ```pycon blocks (``>>>`` lines and their output) are doctests
  (ELLIPSIS and NORMALIZE_WHITESPACE on).
* ```console blocks hold ``$ COMMAND`` lines, each followed by its output (stdout, then stderr). Each command
  runs in bash, in the document's temporary directory, which holds the files of docs/examples/ at the same
  relative path: an example names them from the repository root (``docs/examples/mails.csv``), as a reader runs
  it from the checkout, and its outputs (``-o report.html``) never land in the checkout. Commands run with the
  ``clfeval`` of this interpreter's environment first on PATH; ``$?`` is the exit code of the command before, so
  ``$ echo $?`` shows it. A command that exits non-zero must be followed by ``$ echo $?``. Outputs are compared
  after normalising versions, times and the temporary directory; a line ``...`` matches any number of lines.
* A line ``*Not run by the tests: REASON.*`` right before a block skips that block, with REASON
  (``tests/project/test_docs.py`` lists them and holds them to at most ten).

Python examples and commands of one document share the directory and, for Python, the namespace.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import SkipTest

from sybil import Region, Sybil
from sybil.evaluators.python import PythonEvaluator
from sybil.example import NotEvaluated
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser

ROOT = Path(__file__).resolve().parent
EXAMPLES = ROOT / "docs" / "examples"
BIN = Path(sys.executable).parent
SKIP_MARKER = re.compile(r"^\*Not run by the tests: (?P<reason>[^*\n]+)\*[ \t]*\n(?:[ \t]*\n)?(?=```)", re.M)
FENCE_END = re.compile(r"^```[ \t]*$", re.M)
TIMEOUT = 300
#: The Reuters-21578 archive the tests use (beside the checkout); linked into each document's directory as
#: data/reuters21578.tar.gz, so that the guide's study examples run on the real corpus.
CORPUS = ROOT.parent / "shared" / "data" / "reuters21578.tar.gz"
CORPUS_LINK = "data/reuters21578.tar.gz"


# ---------------------------------------------------------------- the document's directory and namespace
def setup(namespace: dict) -> None:
    work = Path(tempfile.mkdtemp(prefix="clfeval-docs-"))
    (work / "docs" / "examples").mkdir(parents=True)
    for f in EXAMPLES.iterdir():
        if f.is_file() and f.suffix != ".py":  # at the path the examples name: docs/examples/NAME
            shutil.copy(f, work / "docs" / "examples" / f.name)
    if CORPUS.is_file():
        (work / "data").mkdir()
        (work / CORPUS_LINK).symlink_to(CORPUS)
    namespace["__docdir__"] = str(work)
    namespace["__oldcwd__"] = os.getcwd()
    namespace["__rc__"] = 0
    os.chdir(work)


def teardown(namespace: dict) -> None:
    os.chdir(namespace["__oldcwd__"])
    shutil.rmtree(namespace["__docdir__"], ignore_errors=True)


# ---------------------------------------------------------------- the visible skip marker
class _SkipBlock:
    """Skips every example that starts before ``end`` (the end of the marked block), then steps aside."""

    def __init__(self, reason: str, end: int) -> None:
        self.reason, self.end = reason, end

    def __call__(self, example) -> None:
        if example.region.start < self.end:
            where = Path(example.path).resolve().relative_to(ROOT)
            raise SkipTest(f"{where}:{example.line}: not run by the tests: {self.reason}")
        example.document.pop_evaluator(self)
        raise NotEvaluated()


def parse_skips(document):
    for m in SKIP_MARKER.finditer(document.text):
        close = FENCE_END.search(document.text, document.text.index("\n", m.end()) + 1)
        end = close.end() if close else len(document.text)
        reason = m.group("reason").strip()

        def evaluate(example, reason=reason, end=end):
            example.document.push_evaluator(_SkipBlock(reason, end))

        yield Region(m.start(), m.start() + len(m.group(0).rstrip()), reason, evaluate)


def skipped_blocks(text: str) -> list[tuple[int, str, str]]:
    """(line, reason, first line of the block) of every marked block of a document's text."""
    out = []
    for m in SKIP_MARKER.finditer(text):
        block = text[m.end():].split("\n", 2)
        out.append((text.count("\n", 0, m.start()) + 1, m.group("reason").strip(), block[1] if len(block) > 1 else ""))
    return out


# ---------------------------------------------------------------- console blocks
_VERSION = re.compile(r"\b\d+\.\d+\.\d+(?:[.+\-]?(?:dev|post|rc|a|b)?\d*)*(?:\+[\w.]+)?\b")
_STAMP = re.compile(r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?")
_DURATION = re.compile(r"\b\d+(?:\.\d+)?(?: ?)(?:s|ms|µs|seconds)\b")


def normalise(text: str, work: str) -> list[str]:
    text = text.replace(os.path.realpath(work), "$TMP").replace(work, "$TMP")
    text = _STAMP.sub("TIMESTAMP", text)
    text = _VERSION.sub("X.Y.Z", text)
    text = _DURATION.sub("T s", text)
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; a line ``...`` matches any number of lines (also none), ``...`` inside a line any text."""
    def line_ok(e: str, a: str) -> bool:
        if "..." not in e:
            return e == a
        return re.fullmatch(".*?".join(re.escape(p) for p in e.split("...")), a) is not None

    memo: dict[tuple[int, int], bool] = {}

    def go(i: int, j: int) -> bool:
        if (i, j) in memo:
            return memo[i, j]
        if i == len(expected):
            ok = j == len(actual)
        elif expected[i].strip() == "...":
            ok = go(i + 1, j) or (j < len(actual) and go(i, j + 1))
        else:
            ok = j < len(actual) and line_ok(expected[i], actual[j]) and go(i + 1, j + 1)
        memo[i, j] = ok
        return ok

    return go(0, 0)


def parse_console(source: str) -> list[tuple[str, list[str]]]:
    """[(command, expected output lines)]; a command line ending in a backslash continues on the next.

    The backslash and the line break stay in the command: bash reads them as one line, as a user's shell does."""
    steps: list[tuple[str, list[str]]] = []
    lines = source.rstrip("\n").split("\n")
    k = 0
    while k < len(lines):
        line = lines[k]
        if not line.startswith("$ "):
            if not steps:
                raise ValueError(f"a console block must start with a '$ ' command line, not {line!r}")
            steps[-1][1].append(line)
            k += 1
            continue
        command = line[2:]
        while command.endswith("\\") and k + 1 < len(lines):
            k += 1
            command = command + "\n" + lines[k]
        steps.append((command, []))
        k += 1
    return steps


def evaluate_console(example) -> str | None:
    ns = example.namespace
    work = ns["__docdir__"]
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["TZ"] = "UTC"
    env.pop("COLUMNS", None)
    steps = parse_console(example.parsed)
    if any(CORPUS_LINK in c for c, _ in steps) and not (Path(work) / CORPUS_LINK).exists():
        if os.environ.get("CLFEVAL_REQUIRE_DATA") == "1":  # CI: the corpus must be there (as for the Reuters tests)
            return f"this example needs the Reuters corpus at {CORPUS}, which is missing"
        raise SkipTest(f"needs the Reuters corpus at {CORPUS} (absent here)")
    for k, (command, expected) in enumerate(steps):
        proc = subprocess.run(["bash", "-c", f"(exit {ns['__rc__']}); {command}"], cwd=work, env=env,
                              capture_output=True, text=True, timeout=TIMEOUT)
        ns["__rc__"] = proc.returncode
        actual = normalise(proc.stdout + proc.stderr, work)
        want = normalise("\n".join(expected), work)
        if not matches(want, actual):
            return (f"the output of `$ {command}` differs (exit {proc.returncode}).\nexpected:\n"
                    + "\n".join(want) + "\ngot:\n" + "\n".join(actual))
        if proc.returncode != 0 and not (k + 1 < len(steps) and steps[k + 1][0].strip() == "echo $?"):
            return (f"`$ {command}` exited {proc.returncode}: show it with a `$ echo $?` line after it.\n"
                    + proc.stderr)
    return None


# ---------------------------------------------------------------- Python blocks
class PyconParser(PythonCodeBlockParser):
    """```pycon blocks: doctests."""

    def __init__(self, doctest_optionflags: int = 0) -> None:
        super().__init__(doctest_optionflags=doctest_optionflags)
        self.codeblock_parser = CodeBlockParser("pycon", PythonEvaluator(()))


FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

#: The README's length limit (tests/project/test_docs.py holds README.md to it): a pitch, the set-up, a first report, a
#: map of the commands, links into the guide; the rest is in docs/guide/.
README_LINES = 200


class _Docs(Sybil):
    """Only README.md at the root and the Markdown files under docs/ (not other README.md files)."""

    def should_parse(self, path: Path) -> bool:
        try:
            rel = Path(path).resolve().relative_to(ROOT)
        except ValueError:
            return False
        return rel.suffix == ".md" and (rel.as_posix() == "README.md" or rel.parts[0] == "docs")


sybil = _Docs(
    parsers=[parse_skips, PythonCodeBlockParser(doctest_optionflags=FLAGS), PyconParser(doctest_optionflags=FLAGS),
             CodeBlockParser("console", evaluate_console)],
    patterns=["*.md"],
    setup=setup,
    teardown=teardown,
    path=".",
)
