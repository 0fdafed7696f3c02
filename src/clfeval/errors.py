"""Exceptions and warnings of clfeval.

Every error a user can cause is a :class:`ClfevalError`. Each class carries the
exit code the command line uses for it: ``2`` for usage errors that the command
line alone shows (a bad option value, a missing file), ``1`` for problems found
in the data. Messages are one paragraph: what was expected, what arrived, and
where (file, row, column or option).
"""

from __future__ import annotations

__all__ = [
    "ClfevalError",
    "UsageError",
    "DataError",
    "InputFileError",
    "LabelListError",
    "UndefinedMetricWarning",
]


class ClfevalError(Exception):
    """Base class of every error clfeval raises on bad input.

    Attributes
    ----------
    exit_code : int
        The process exit code the command line maps this error to.
    """

    exit_code: int = 1


class UsageError(ClfevalError, ValueError):
    """A bad argument or option value, visible without reading any data (exit 2)."""

    exit_code = 2


class InputFileError(UsageError):
    """A file named on the command line is missing or cannot be opened (exit 2)."""

    exit_code = 2


class DataError(ClfevalError, ValueError):
    """The data contradicts what was asked: a missing column, a ragged row, an
    unknown label, an empty cell (exit 1)."""

    exit_code = 1


class LabelListError(DataError):
    """A list of labels given by the caller leaves out labels that occur in the data.

    Attributes
    ----------
    missing : list of str
        The labels that occur in the data but are not in the list.
    parameter : str
        The library parameter that gave the list (``labels``, ``order``): the
        command line names its own option with :meth:`describe`.
    """

    def __init__(self, missing: list[str], *, parameter: str = "labels") -> None:
        self.missing = list(missing)
        self.parameter = parameter
        super().__init__(self.describe("the given label list"))

    def describe(self, list_name: str) -> str:
        """The message, naming the list as ``list_name`` (e.g. ``option --order``)."""
        shown = ", ".join(repr(x) for x in self.missing[:20])
        more = f" and {len(self.missing) - 20} more" if len(self.missing) > 20 else ""
        return (f"{list_name} leaves out labels that occur in the data: {shown}{more}; "
                f"list every label, or leave the list out to use all labels found.")


class UndefinedMetricWarning(UserWarning):
    """A ratio metric was 0/0 for some labels and was filled by ``zero_division``."""
