"""``pyarrow.compute`` for the kernels a count report calls, without importing ``pyarrow.compute``.

Importing ``pyarrow.compute`` builds a Python wrapper, signature and docstring for each of the ~290 compute
functions (~30 ms, a fifth of what a report of a small file costs). The kernels live in ``pyarrow._compute``
(``call_function``, the registry behind every wrapper); the functions here call them as the wrappers do, with the
same arguments and defaults. Any other name is ``pyarrow.compute``'s own (``__getattr__`` imports it then), so a
module can ``import clfeval.core.arrowcompute as pc`` and call what it always called. The tests check each function
here against ``pyarrow.compute`` (``tests/core/test_arrowcompute.py``).

Array methods that call compute kernels (``Array.cast``, ``.unique``, ``.dictionary_encode``, ``.fill_null``, …)
import ``pyarrow.compute`` themselves: call the functions here instead on a path that should stay fast.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
from pyarrow._compute import CastOptions, call_function

__all__ = ["any", "cast", "dictionary_encode", "equal", "fill_null", "is_null", "or_kleene", "unique",
           "utf8_trim_whitespace", "call_function"]


def _unary(name: str) -> Any:
    def kernel(values: Any, /) -> Any:
        return call_function(name, [values])

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
is_null = _unary("is_null")
unique = _unary("unique")
utf8_trim_whitespace = _unary("utf8_trim_whitespace")
equal = _binary("equal")
or_kleene = _binary("or_kleene")


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


def __getattr__(name: str) -> Any:
    import pyarrow.compute as pc

    return getattr(pc, name)
