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
    "Interrupted",
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


class Interrupted(BaseException):
    """SIGTERM arrived: unwind (finally/except blocks remove temporary files), then exit 128 + signum."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.exit_code = 128 + signum


class UndefinedMetricWarning(UserWarning):
    """A ratio metric was 0/0 for some labels and was filled by ``zero_division``."""
