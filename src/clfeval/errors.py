"""Exceptions and warnings of clfeval.

Every error a user can cause is a :class:`ClfevalError`. Each class carries the
exit code the command line uses for it: ``2`` for usage and environment errors
(a bad option value, a missing file, an output that cannot be written), ``1``
for problems found in the data, ``3`` for a gate that is not met
(:class:`GateNotMet`: the result was computed and written, and it is not what
the pipeline required). Messages are one paragraph: what was expected,
what arrived, and where (file, row, column or option).

A message about an argument names it by its library parameter name
(``beta``, ``dev_size``); the command line shows its own option names
(``--beta``, ``--dev-size``) instead, through :meth:`ClfevalError.with_names`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence

__all__ = [
    "ClfevalError",
    "UsageError",
    "DataError",
    "InputFileError",
    "OutputFileError",
    "GateNotMet",
    "MissingExtra",
    "Interrupted",
    "ClusterLost",
    "LabelListError",
    "UndefinedMetricWarning",
    "EXIT_CODES",
    "exit_codes_markdown",
]


class ClfevalError(Exception):
    """Base class of every error clfeval raises on bad input.

    Parameters
    ----------
    message : str or callable
        The message; or, when it names arguments, a function of their names
        (one per entry of ``params``) that returns it.
    params : sequence of str
        The library parameter names the message is about, in the order the
        function takes them.

    Attributes
    ----------
    exit_code : int
        The process exit code the command line maps this error to.
    params : tuple of str

    Examples
    --------
    >>> e = UsageError(lambda beta: f"option {beta} must be positive.", params=["beta"])
    >>> str(e), str(e.with_names({"beta": "--beta"}))
    ('option beta must be positive.', 'option --beta must be positive.')
    """

    exit_code: int = 1

    def __init__(self, message: str | Callable[..., str] = "", *, params: Sequence[str] = ()) -> None:
        self.params = tuple(params)
        self._render = message if callable(message) else None
        super().__init__(message(*self.params) if callable(message) else message)

    def with_names(self, names: Mapping[str, str]) -> ClfevalError:
        """The same error with its parameters named as ``names`` maps them (others keep their names)."""
        if self._render is None or not any(p in names for p in self.params):
            return self
        other = copy.copy(self)
        other.args = (self._render(*(names.get(p, p) for p in self.params)),)
        return other

    def prefixed(self, prefix: str) -> ClfevalError:
        """The same error, its message preceded by ``prefix`` (the parameters it names still renamed by
        :meth:`with_names`).

        Examples
        --------
        >>> err = UsageError(lambda b: f"{b} is bad.", params=["beta"])
        >>> str(err.prefixed("file 'x': ").with_names({"beta": "--beta"}))
        "file 'x': --beta is bad."
        """
        other = copy.copy(self)
        other.args = (prefix + str(self),)
        render = self._render
        if render is not None:
            other._render = lambda *names: prefix + render(*names)
        return other


class UsageError(ClfevalError, ValueError):
    """A bad argument or option value, visible without reading any data (exit 2)."""

    exit_code = 2


class InputFileError(UsageError):
    """A file named on the command line is missing or cannot be opened (exit 2)."""

    exit_code = 2


class OutputFileError(UsageError):
    """An output cannot be written where it was asked to go: it would replace an input, its
    directory is missing or not writable, the disk is full (exit 2)."""

    exit_code = 2


class MissingExtra(UsageError):
    """An optional dependency a command needs is not installed (exit 2); the message names the extra to install.

    ``pip install clfeval`` is the light core; the ``text`` extra brings the text models (scikit-learn,
    PyStemmer), the ``html`` extra the figures and the HTML report (matplotlib, Jinja2), ``all`` both.

    Examples
    --------
    >>> print(MissingExtra("the HTML report needs Jinja2", "html"))  # doctest: +NORMALIZE_WHITESPACE
    the HTML report needs Jinja2, which is not installed; install clfeval's html extra with pip install 'clfeval[html]'
    (or 'clfeval[all]', the dependencies of every command).
    """

    exit_code = 2

    def __init__(self, need: str, extra: str) -> None:
        self.extra = extra
        super().__init__(f"{need}, which is not installed; install clfeval's {extra} extra with pip install "
                         f"'clfeval[{extra}]' (or 'clfeval[all]', the dependencies of every command).")

    @classmethod
    def require(cls, what: str, modules: Sequence[tuple[str, str]], extra: str) -> None:
        """Import each ``(module, distribution name)``; the first that is missing raises, saying that ``what``
        needs it and which extra brings it."""
        import importlib

        for module, name in modules:
            try:
                importlib.import_module(module)
            except ImportError:
                raise cls(f"{what} needs {name}", extra) from None


class ClusterLost(UsageError):
    """The Dask cluster went away while a job ran (the scheduler stopped, the network dropped): exit 2."""

    exit_code = 2


class DataError(ClfevalError, ValueError):
    """The data contradicts what was asked: a missing column, a ragged row, an
    unknown label, an empty cell (exit 1)."""

    exit_code = 1


class GateNotMet(ClfevalError):
    """A gate is not met (exit 3): ``compare --gate`` whose test does not reject its null, ``report --require``
    with an unmet condition. Raised after the result is written; the message lists what was not met.

    Exit 3 lets a pipeline tell "the model is not good enough" from bad data (1) and bad usage (2).
    """

    exit_code = 3


class Interrupted(BaseException):
    """SIGTERM arrived: unwind (finally/except blocks remove temporary files), then exit 128 + signum."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.exit_code = 128 + signum
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


#: Every exit code of the ``clfeval`` command and what it means. The documentation's exit-code table is generated
#: from it (:func:`exit_codes_markdown`, by the site's build hook); ``tests/project/test_docs.py`` checks it against the
#: error classes' ``exit_code`` and the codes the command line returns.
EXIT_CODES: tuple[tuple[int, str], ...] = (
    (0, "success"),
    (1, "a problem found in the data (a missing column, an empty label, a run log that is not one)"),
    (2, "a usage or environment error: an unknown option, a bad value, a missing file, an output refused or not "
        "writable, a full disk, a missing extra, a Dask cluster lost"),
    (3, "a gate not met: `compare --gate` (or `runs compare --gate`) whose test does not reject its null, "
        "`report --require` with an unmet condition; the result is still written, the unmet part named on stderr"),
    (70, "a bug in clfeval: an unexpected error, said in one paragraph (please report it, with the traceback "
         "`clfeval --debug ...` shows)"),
    (129, "interrupted by SIGHUP (a closed terminal, a dropped ssh session): no output, temporary files removed"),
    (130, "interrupted by SIGINT (Ctrl-C): no output, temporary files removed"),
    (131, "interrupted by SIGQUIT: no output, temporary files removed"),
    (143, "interrupted by SIGTERM: no output, temporary files removed"),
)


def exit_codes_markdown() -> str:
    """The exit-code table of the documentation, as a Markdown table.

    Examples
    --------
    >>> print(exit_codes_markdown().splitlines()[2])
    | 0 | success |
    """
    rows = ["| code | meaning |", "| ---: | --- |"]
    rows += [f"| {code} | {meaning} |" for code, meaning in EXIT_CODES]
    return "\n".join(rows)
