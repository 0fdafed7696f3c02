"""clfeval.core._arrowcompute calls pyarrow's kernels without importing pyarrow.compute: each function gives what
pyarrow.compute's gives (the reference), on plain, chunked, dictionary and null-holding inputs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import clfeval.core._arrowcompute as ac

TEXT = pa.array(["a", " ", None, "b", "", "a", "  c "])
CHUNKED = pa.chunked_array([["x", None, "y"], [], ["", "x"]])
DICT = pa.array(["p", "q", None, "p"]).dictionary_encode()
INTS = pa.array([3, None, 1, 3, 2], pa.int32())
FLOATS = pa.array([0.5, float("nan"), None, 2.0])
BOOLS = pa.array([True, None, False, True, False, None, True])


def same(a, b):
    assert type(a) is type(b)
    assert a.equals(b) or (a.type == b.type and str(a) == str(b)), (a, b)  # (NaN equals nothing)


@pytest.mark.parametrize("name", ["dictionary_encode", "is_null", "unique"])
@pytest.mark.parametrize("values", [TEXT, CHUNKED, INTS, FLOATS], ids=["text", "chunked", "ints", "floats"])
def test_unary_kernels(name, values):
    same(getattr(ac, name)(values), getattr(pc, name)(values))


@pytest.mark.parametrize("values", [TEXT, CHUNKED], ids=["text", "chunked"])
def test_text_kernels(values):
    same(ac.utf8_trim_whitespace(values), pc.utf8_trim_whitespace(values))
    same(ac.equal(values, ""), pc.equal(values, ""))
    same(ac.not_equal(values, "x"), pc.not_equal(values, "x"))


def test_boolean_kernels():
    other = pa.array([False, True, None, True, True, False, None])
    same(ac.or_kleene(BOOLS, other), pc.or_kleene(BOOLS, other))
    same(ac.invert(BOOLS), pc.invert(BOOLS))
    same(ac.any(BOOLS), pc.any(BOOLS))
    same(ac.any(pa.array([False, None])), pc.any(pa.array([False, None])))


@pytest.mark.parametrize("values, fill", [(BOOLS, True), (BOOLS, pa.scalar(False)), (INTS, 7),
                                          (INTS, pa.scalar(7, pa.int64())), (TEXT, "?"), (CHUNKED, "?")])
def test_fill_null(values, fill):
    same(ac.fill_null(values, fill), pc.fill_null(values, fill))


@pytest.mark.parametrize("values, target", [(INTS, pa.string()), (INTS, pa.int64()), (DICT, pa.string()),
                                            (CHUNKED, pa.large_string()), (FLOATS, pa.string())])
def test_cast(values, target):
    same(ac.cast(values, target), pc.cast(values, target))
    same(ac.cast(values, target), values.cast(target))


def test_cast_safety():
    big = pa.array([2 ** 40])
    with pytest.raises(pa.ArrowInvalid):
        pc.cast(big, pa.int32())
    with pytest.raises(pa.ArrowInvalid):
        ac.cast(big, pa.int32())
    same(ac.cast(big, pa.int32(), safe=False), pc.cast(big, pa.int32(), safe=False))


def test_set_lookup_filter_take():
    ids = pa.chunked_array([["d3", "d1", None], ["d2"]])
    ref = pa.array(["d1", "d2", "d4"])
    same(ac.is_in(ids, value_set=ref), pc.is_in(ids, value_set=ref))
    same(ac.is_in(ids, value_set=ref, skip_nulls=True), pc.is_in(ids, value_set=ref, skip_nulls=True))
    same(ac.index_in(ref, value_set=pa.array(["d2", "d1"])), pc.index_in(ref, value_set=pa.array(["d2", "d1"])))
    mask = pa.array([True, None, False, True, True, False, True])
    same(ac.filter(TEXT, mask), TEXT.filter(mask))
    same(ac.filter(TEXT, mask, null_selection_behavior="emit_null"),
         pc.filter(TEXT, mask, null_selection_behavior="emit_null"))
    idx = pa.array([2, 0, None, 1])
    same(ac.take(TEXT, idx), TEXT.take(idx))
    same(ac.take(DICT.dictionary, DICT.indices), DICT.dictionary_decode())
    with pytest.raises(IndexError):
        ac.take(TEXT, pa.array([99]))


@pytest.mark.parametrize("values", [np.arange(5, dtype=np.int32), np.array([2 ** 62, -1]), np.array([], np.uint8),
                                    np.arange(10, dtype=np.int16)[::3], np.array([True, False])])
def test_int_array_is_pa_array(values):
    same(ac.int_array(values), pa.array(values))


def test_int_array_refuses_what_pa_array_refuses():
    with pytest.raises(pa.ArrowNotImplementedError):
        pa.array(np.array([1, 2], dtype=">i4"))
    with pytest.raises(pa.ArrowNotImplementedError):
        ac.int_array(np.array([1, 2], dtype=">i4"))


def test_other_names_are_pyarrow_computes():
    assert ac.sum is pc.sum and ac.match_substring_regex is pc.match_substring_regex


def test_importing_it_does_not_import_pyarrow_compute():
    code = ("import sys\nimport numpy as np\nimport pyarrow as pa\nimport clfeval.core._arrowcompute as ac\n"
            "codes = ac.dictionary_encode(ac.cast(ac.int_array(np.array([1, 2, 1])), pa.string()))\n"
            "print(codes.indices.to_pylist(), 'pyarrow.compute' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[0,", "1,", "0]", "False"]
