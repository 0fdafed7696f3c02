"""``pyarrow.compute`` for the kernels a count report calls, without importing ``pyarrow.compute``.

Importing ``pyarrow.compute`` builds a Python wrapper, signature and docstring for each of the ~290 compute
functions (~30 ms, a fifth of what a report of a small file costs). The kernels live in ``pyarrow._compute``
(``call_function``, the registry behind every wrapper); the functions here call them as the wrappers do, with the
same arguments and defaults. Any other name is ``pyarrow.compute``'s own (``__getattr__`` imports it then), so a
module can ``from clfeval.core import arrowcompute as pc`` and call what it always called. The tests check each function
here against ``pyarrow.compute`` (``tests/core/test_arrowcompute.py``).

Array methods that call compute kernels (``Array.cast``, ``.unique``, ``.dictionary_encode``, ``.fill_null``, …)
import ``pyarrow.compute`` themselves: call the functions here instead on a path that should stay fast.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
from pyarrow._compute import CastOptions, FilterOptions, SetLookupOptions, TakeOptions, call_function

__all__ = ["any", "cast", "dictionary_encode", "equal", "fill_null", "filter", "index_in", "invert", "is_in",
           "is_null", "not_equal", "or_kleene", "take", "unique", "utf8_trim_whitespace", "call_function", "int_array"]


def _unary(name: str) -> Any:
    def kernel(values: Any, /, *, memory_pool: Any = None) -> Any:
        return call_function(name, [values], None, memory_pool)

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"``pyarrow.compute.{name}(values)`` (default options)."
    return kernel


def _binary(name: str) -> Any:
    def kernel(x: Any, y: Any, /) -> Any:
        return call_function(name, [x, y])

    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = f"``pyarrow.compute.{name}(x, y)``."
    return kernel


any = _unary("any")  # the kernel's name
dictionary_encode = _unary("dictionary_encode")
invert = _unary("invert")
is_null = _unary("is_null")
unique = _unary("unique")
utf8_trim_whitespace = _unary("utf8_trim_whitespace")
equal = _binary("equal")
not_equal = _binary("not_equal")
or_kleene = _binary("or_kleene")


def is_in(values: Any, /, value_set: Any, *, skip_nulls: bool = False) -> Any:
    """``pyarrow.compute.is_in``: whether each value is in ``value_set``."""
    return call_function("is_in", [values], SetLookupOptions(value_set, skip_nulls=skip_nulls))


def index_in(values: Any, /, value_set: Any, *, skip_nulls: bool = False) -> Any:
    """``pyarrow.compute.index_in``: the index of each value in ``value_set`` (null when absent)."""
    return call_function("index_in", [values], SetLookupOptions(value_set, skip_nulls=skip_nulls))


def filter(values: Any, selection: Any, /, null_selection_behavior: str = "drop", *,  # the kernel's name
           memory_pool: Any = None) -> Any:
    """``pyarrow.compute.filter`` (``Array.filter``): the values where ``selection`` is true."""
    return call_function("filter", [values, selection], FilterOptions(null_selection_behavior), memory_pool)


def take(data: Any, indices: Any, *, boundscheck: bool = True) -> Any:
    """``pyarrow.compute.take`` (``Array.take``): the values at ``indices``."""
    return call_function("take", [data, indices], TakeOptions(boundscheck=boundscheck))


def fill_null(values: Any, fill_value: Any) -> Any:
    """``pyarrow.compute.fill_null``: nulls replaced by ``fill_value`` (cast to the type of ``values``)."""
    if not isinstance(fill_value, (pa.Array, pa.ChunkedArray, pa.Scalar)):
        fill_value = pa.scalar(fill_value, type=values.type)
    elif values.type != fill_value.type:
        fill_value = pa.scalar(fill_value.as_py(), type=values.type)
    return call_function("coalesce", [values, fill_value])


def cast(arr: Any, target_type: Any, safe: bool | None = None) -> Any:
    """``pyarrow.compute.cast(arr, target_type, safe)`` (``Array.cast`` without importing pyarrow.compute)."""
    target = pa.types.lib.ensure_type(target_type)
    options = CastOptions.unsafe(target) if safe is False else CastOptions.safe(target)
    return call_function("cast", [arr], options)


def int_array(values: np.ndarray) -> pa.Array:
    """``pa.array(values)`` of a one-dimensional NumPy array of integers (zero-copy when contiguous), without
    ``pa.array``'s look at ``np.ma`` (which imports ``numpy.ma``, ~10 ms, the first time)."""
    if values.dtype.kind not in "iu" or not values.dtype.isnative or values.ndim != 1:
        return pa.array(values)
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [None, pa.py_buffer(values)])


def __getattr__(name: str) -> Any:
    import pyarrow.compute as pc

    return getattr(pc, name)
