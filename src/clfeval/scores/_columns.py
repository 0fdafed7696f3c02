"""Score columns: numbers checked once, so that ranking and calibration code can trust them.

A score is any finite real number (a probability, a log-odds, an SVM margin).
Text that is not a number, NaN, infinities and missing values are refused with
the item (or file row) and the column named. Calibration additionally needs
probabilities in [0, 1] (:func:`check_probabilities`).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from clfeval.core import arrowcompute as pc
from clfeval.errors import DataError

__all__ = ["order_keys", "is_integer_column", "as_scores", "as_probabilities", "score_matrix", "check_probabilities",
           "item_position", "ScoreSource"]

_NUMBER = r"(?i)^[+-]?((\d+\.?\d*|\.\d+)(e[+-]?\d+)?|nan|inf|infinity)$"


def item_position(i: int) -> str:
    """How a position is named by default: ``item 3 (0-based)``."""
    return f"item {i} (0-based)"


@dataclass(frozen=True)
class ScoreSource:
    """Where score columns come from, as error messages name them.

    ``name`` is the one score column's name (default: what the function calls
    its input, ``scores`` or ``probabilities``); ``where(i)`` names the item
    at position ``i`` (the command line passes ``file 'x.csv', row 3 …``);
    ``prefix`` is how per-label columns are named (``score:`` for
    ``score:<label>``); ``data`` names the file the items come from
    (``file 'dev.csv', option --dev``). The library functions that read scores take one of
    these instead of three message arguments.

    >>> ScoreSource(prefix="score:").column_of("grain")
    'score:grain'
    """

    name: str | None = None
    where: Callable[[int], str] = item_position
    prefix: str = ""
    data: str | None = None

    def called(self, default: str) -> str:
        """How messages name the whole data set: ``default`` (``the development data``), with the file when known."""
        return f"{default} ({self.data})" if self.data else default

    def column(self, default: str) -> str:
        """The one column's name, or ``default``."""
        return self.name if self.name is not None else default

    def column_of(self, label: Any) -> str:
        """The name of the column of one label."""
        from clfeval.core import label_str

        return f"{self.prefix}{label_str(label)}"


DEFAULT_SOURCE = ScoreSource()


def _from_arrow(arr: pa.Array | pa.ChunkedArray, name: str, where: Callable[[int], str]) -> np.ndarray:
    if isinstance(arr, pa.ChunkedArray):
        arr = pa.concat_arrays(arr.chunks) if arr.num_chunks else pa.array([], type=arr.type)
    if pa.types.is_dictionary(arr.type):
        arr = arr.cast(arr.type.value_type)
    if arr.null_count:
        first = int(np.flatnonzero(np.asarray(pc.is_null(arr)))[0])
        raise DataError(f"score column {name!r} has a missing value at {where(first)}; every item needs a score.")
    if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type):
        arr = pc.utf8_trim_whitespace(arr)
        try:
            return pc.cast(arr, pa.float64()).to_numpy(zero_copy_only=False)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            ok = np.asarray(pc.match_substring_regex(arr, _NUMBER))
            bad = np.flatnonzero(~ok)
            first = int(bad[0]) if bad.size else 0
            if arr[first].as_py() == "":
                raise DataError(f"score column {name!r} is empty at {where(first)}; every item needs a "
                                "score.") from None
            raise DataError(
                f"score column {name!r} holds {arr[first].as_py()!r} at {where(first)}, which is not a number; "
                f"scores must be real numbers (probabilities, log-odds or margins)."
            ) from None
    if pa.types.is_integer(arr.type) or pa.types.is_floating(arr.type) or pa.types.is_decimal(arr.type):
        return pc.cast(arr, pa.float64()).to_numpy(zero_copy_only=False)
    raise DataError(f"score column {name!r} holds values of type {arr.type}; scores must be real numbers.")


_EXACT_INT = 1 << 53  # integers beyond this magnitude are not all float64 numbers
_FINITE_BITS = 0x7FF0000000000000  # the bit pattern of +inf: every smaller non-negative pattern is a finite float


def order_keys(ints: np.ndarray, *, name: str = "scores",
               where: Callable[[int], str] = item_position) -> np.ndarray:
    """Integer scores as float64 keys in the same order, one key per integer (exact at any size).

    A non-negative float64's bit pattern, read as an integer, rises with its value: the integer x ≥ 0 becomes
    the float whose bits are x, and −x its negative. Equal integers give equal keys and a larger integer a
    larger key, so a ranking (ROC-AUC, AP, curves) of the keys is the ranking of the integers. Integers of
    magnitude 2^62.99 and more (no finite float has their bits) are refused.

    >>> k = order_keys(np.array([2**62 + 1, 2**62, 3, -3, 0]))
    >>> [int(i) for i in np.argsort(k)]
    [3, 4, 2, 1, 0]
    """
    x = np.asarray(ints)
    if x.dtype.kind == "u":
        big = np.flatnonzero(x >= np.uint64(_FINITE_BITS))
        x = x.astype(np.int64) if not big.size else x
    else:
        x = x.astype(np.int64, copy=False)
        big = np.flatnonzero((x <= -_FINITE_BITS) | (x >= _FINITE_BITS))
    if big.size:
        i = int(big[0])
        raise DataError(f"score column {name!r} holds the integer {int(x[i])} at {where(i)}, beyond the integers "
                        f"clfeval ranks exactly (magnitude below {_FINITE_BITS:,}); scale the scores down.")
    mag = np.abs(x).view(np.float64)
    return np.where(x < 0, -mag, mag)


def _check_exact_ints(arr: np.ndarray, name: str, where: Callable[[int], str]) -> None:
    big = np.flatnonzero((arr > _EXACT_INT) | (arr < -_EXACT_INT)) if arr.dtype.kind == "i" else \
        np.flatnonzero(arr > np.uint64(_EXACT_INT))
    if big.size:
        i = int(big[0])
        raise DataError(f"score column {name!r} holds the integer {int(arr[i])} at {where(i)}, beyond 2^53 "
                        f"({_EXACT_INT:,}): a score bin or a score shown as a number would round it. Rankings and "
                        f"cuts (report --score, threshold, compare --metric roc_auc) rank integer scores exactly; "
                        f"for the rest, scale the scores (for example to probabilities).")


def is_integer_column(values: Any) -> bool:
    """Whether a score column holds integers (an integer arrow or numpy type; never booleans)."""
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        typ = values.type.value_type if pa.types.is_dictionary(values.type) else values.type
        return bool(pa.types.is_integer(typ))
    return isinstance(values, np.ndarray) and values.dtype.kind in "iu"


def _int_array(values: Any) -> np.ndarray | None:
    """The values as a numpy integer array, when they are integers (never booleans)."""
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        typ = values.type.value_type if pa.types.is_dictionary(values.type) else values.type
        if not pa.types.is_integer(typ) or values.null_count:
            return None
        if pa.types.is_dictionary(values.type):
            values = values.cast(typ)
        if isinstance(values, pa.ChunkedArray):
            values = pa.concat_arrays(values.chunks) if values.num_chunks else pa.array([], type=typ)
        return values.to_numpy(zero_copy_only=False)
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        return values
    return None


def as_scores(values: Any, *, name: str = "scores", n: int | None = None,
              where: Callable[[int], str] = item_position, order_only: bool = False,
              finite: bool = True) -> np.ndarray:
    """Scores as a 1-D float64 array, every value finite.

    Parameters
    ----------
    values : sequence of numbers, numpy array or pyarrow array
        Text columns (as CSV readers return them) are parsed as numbers.
    name : str
        The column name used in messages.
    n : int, optional
        The number of items expected (that of the gold column).
    where : callable
        Names position ``i`` in messages (the command line passes file rows).

    Raises
    ------
    DataError
        Text that is not a number, NaN, ±inf, a missing value, or a length
        different from ``n``; the message names the first offending position.

    >>> as_scores([0.5, "2", -1]).tolist()
    [0.5, 2.0, -1.0]

    ``order_only=True`` (a ranking, where only the order of the scores counts): integer columns become
    :func:`order_keys`, exact at any size; otherwise an integer beyond 2^53, which float64 would round,
    is refused naming its row. ``finite=False``: NaN and infinities are left for the caller to find (a ranking
    looks at the ends of its sorted arrays, where they sort, and calls this again to refuse them: one pass
    less over the scores).
    """
    ints = _int_array(values)
    if ints is not None:
        if order_only:
            if n is not None and ints.shape[0] != n:
                raise DataError(f"score column {name!r} has {ints.shape[0]} values for {n} items; give one score "
                                f"per item.")
            return order_keys(ints, name=name, where=where)
        _check_exact_ints(ints, name, where)
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        s = _from_arrow(values, name, where)
    else:
        arr = np.asarray(values) if not isinstance(values, np.ndarray) else values
        if arr.dtype.kind in "fiu":
            s = arr.astype(np.float64, copy=False)
        elif arr.dtype.kind == "b":
            raise DataError(f"score column {name!r} holds booleans; scores must be real numbers.")
        elif arr.ndim != 1:
            raise DataError(f"score column {name!r} must be one-dimensional; got shape {arr.shape}.")
        else:
            texts = [None if v is None else (repr(float(v)) if isinstance(v, numbers.Real) and not isinstance(v, bool)
                                             else str(v)) for v in arr.tolist()]
            s = _from_arrow(pa.array(texts, type=pa.string()), name, where)
    if s.ndim != 1:
        raise DataError(f"score column {name!r} must be one-dimensional (one score per item); got shape {s.shape}.")
    if n is not None and s.shape[0] != n:
        raise DataError(f"score column {name!r} has {s.shape[0]} values for {n} items; give one score per item.")
    if not finite:
        return s
    finite_ = np.isfinite(s)
    if not finite_.all():
        first = int(np.flatnonzero(~finite_)[0])
        raise DataError(
            f"score column {name!r} holds {float(s[first])!r} at {where(first)}; scores must be finite real numbers "
            f"(NaN and infinities cannot be ranked or thresholded)."
        )
    return s


def as_probabilities(values: Any, *, name: str = "probabilities", n: int | None = None,
                     where: Callable[[int], str] = item_position) -> np.ndarray:
    """Probabilities as a 1-D float64 array: :func:`as_scores`, then every value in [0, 1]
    (:func:`check_probabilities`). An integer column is checked as integers first, so that an integer beyond
    2^53 is refused as a non-probability (shown exactly), not as a number float64 would round.

    >>> as_probabilities([0, 1]).tolist()
    [0.0, 1.0]
    """
    ints = _int_array(values)
    if ints is not None:
        bad = np.flatnonzero((ints < 0) | (ints > 1))
        if bad.size:
            i = int(bad[0])
            raise DataError(_not_probability(name, int(ints[i]), where(i)))
    p = as_scores(values, name=name, n=n, where=where)
    check_probabilities(p, name=name, where=where)
    return p


def score_matrix(scores: Any, *, labels: Sequence[Any] | None = None, n: int | None = None,
                 where: Callable[[int], str] = item_position, prefix: str = "") -> tuple[np.ndarray, list[Any]]:
    """One score column per label: an (n, L) float64 matrix and the column labels.

    ``scores`` is a mapping ``{label: column}`` or a 2-D array with ``labels``
    naming its columns. Every column is checked by :func:`as_scores`; messages
    name columns as ``prefix + label`` (e.g. ``score:grain``).

    >>> m, labs = score_matrix({"a": [0.1, 0.9], "b": [0.9, 0.1]})
    >>> m.shape, labs
    ((2, 2), ['a', 'b'])
    """
    from clfeval.core import label_str

    if isinstance(scores, Mapping):
        labs = list(scores)
        cols = [as_scores(scores[k], name=f"{prefix}{label_str(k)}", n=n, where=where) for k in labs]
        if not cols:
            raise DataError("no score columns were given; give one score column per label.")
        lengths = {c.shape[0] for c in cols}
        if len(lengths) > 1:
            raise DataError("score columns differ in length; give one score per item in every column.")
        return np.stack(cols, axis=1), labs
    arr = np.asarray(scores)
    if arr.ndim != 2:
        raise DataError("multiclass or multi-label scores must be a 2-D array (items × labels) or a mapping label → "
                        f"column; got shape {arr.shape}.")
    if labels is None or len(labels) != arr.shape[1]:
        raise DataError(f"a score matrix with {arr.shape[1]} columns needs labels naming each column; got "
                        f"{None if labels is None else len(labels)} labels.")
    cols = [as_scores(arr[:, j], name=f"{prefix}{label_str(lab)}", n=n, where=where) for j, lab in enumerate(labels)]
    return np.stack(cols, axis=1), list(labels)


def check_probabilities(p: np.ndarray, *, name: str = "probabilities",
                        where: Callable[[int], str] = item_position) -> None:
    """Refuse values outside [0, 1]: they are not probabilities.

    >>> check_probabilities(np.array([0.2, 1.4]))  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    clfeval.errors.DataError: column 'probabilities' holds 1.4 at item 1 (0-based), outside [0, 1]: these scores are not
    probabilities, and calibration compares probabilities with observed frequencies. Scores such as log-odds or margins
    can be ranked but not calibrated as they are (map them to probabilities first).
    """
    bad = (p < 0.0) | (p > 1.0)
    if bad.any():
        flat = np.flatnonzero(bad.ravel())[0]
        i = int(flat // (p.shape[1] if p.ndim == 2 else 1))
        value = float(p.ravel()[flat])
        raise DataError(_not_probability(name, value, where(i)))


def _not_probability(name: str, value: Any, at: str) -> str:
    return (f"column {name!r} holds {value!r} at {at}, outside [0, 1]: these scores are not probabilities, "
            f"and calibration compares probabilities with observed frequencies. Scores such as log-odds or margins "
            f"can be ranked but not calibrated as they are (map them to probabilities first).")
