"""Run the clfeval command line in-process and capture exit code, stdout and stderr."""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass

from clfeval.cli import main


@dataclass
class Result:
    code: int
    out: str
    err: str


def run(*args: str) -> Result:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return Result(code, out.getvalue(), err.getvalue())


def assert_clean_error(res, code: int, *needles: str) -> None:
    assert res.code == code, (res.code, res.err)
    assert res.out == ""
    assert "Traceback" not in res.err
    for n in needles:
        assert n in res.err, (n, res.err)
