"""What the decision options share on the command line: gates (exit 3) and one-vs-rest score columns of several
files."""

from __future__ import annotations

from typing import Any

import click

from clfeval.cli._common import stack
from clfeval.errors import GateNotMet

__all__ = ["gate_exit", "require_exit", "paired_file_options"]


#: Options of commands that read several predictions files of the same items: ids, format, the metric's 0/0 and β,
#: one repeat of a repeated out-of-fold file.
paired_file_options = stack(
    click.option("--id", "id_col", default=None,
                 help="Column of item ids (default: 'id' when present); items are matched by id."),
    click.option("--input-format", type=click.Choice(["csv", "tsv", "jsonl", "parquet"]), default=None,
                 help="File format (default: from the extension; CSV for standard input, '-')."),
    click.option("--zero-division", type=click.Choice(["0", "1", "nan"]), default="0", show_default=True,
                 help="Value of 0/0 ratios inside the metric."),
    click.option("--beta", type=float, default=1.0, show_default=True, help="Beta of the *_fbeta metrics."),
    click.option("--repeat", "repeat", default=None,
                 help="For out-of-fold files of a repeated protocol (a 'repeat' column): use the rows of this repeat."))


def gate_exit(result: Any, gate: bool) -> None:
    """With ``--gate``: exit 3 (after the result is written) unless the test rejected its null."""
    if not gate:
        return
    from clfeval.significance import gate as judge

    passed, why = judge(result)
    if not passed:
        raise GateNotMet(f"the test does not reject its null hypothesis at the chosen alpha: {why}")


def require_exit(report: Any) -> None:
    """With ``--require``: exit 3 (after the report is written) listing the conditions that are not met."""
    req = getattr(report, "requirements", None)
    if req is None or req.met:
        return
    unmet = [c for c in req.conditions if not c.met]
    raise GateNotMet(f"{len(unmet)} of {len(req.conditions)} required condition(s) not met: "
                     + "; ".join(c.summary for c in unmet) + ".")
