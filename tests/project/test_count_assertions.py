"""tools/count_assertions.py counts what it should on a hand-written module (issue 40: the suite's speed-up is
checked by these counts, so the counter itself is checked against numbers counted by hand)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("count_assertions", ROOT / "tools" / "count_assertions.py")
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

SOURCE = '''
import numpy
import numpy as np
import numpy.testing as npt
import pytest
import pytest as pt
from numpy import testing as T
from numpy.testing import assert_allclose, assert_array_equal as same
from pytest import raises

assert True                                  # 1 assert at module level


def helper():                                # not a test
    assert 1                                 # 2
    np.testing.assert_allclose(1, 1)         # np_testing 1


def test_one():                              # test 1
    assert 1 == 1                            # 3
    assert 2, "message"                      # 4
    numpy.testing.assert_equal(1, 1)         # np_testing 2
    npt.assert_array_equal([1], [1])         # np_testing 3
    T.assert_allclose(1, 1)                  # np_testing 4
    assert_allclose(1, 1)                    # np_testing 5
    same(1, 1)                               # np_testing 6
    np.asarray(1)                            # not a check
    np.testing                               # not a call
    script = "assert 0; np.testing.assert_allclose(0, 1)"  # text, not code


async def test_two():                        # test 2
    with pytest.raises(ValueError):          # raises 1
        int("x")
    with pt.raises(ValueError, match="x"), raises(TypeError):  # raises 2 and 3
        pass
    pytest.raises(ValueError, int, "x")      # raises 4 (the call form)
    ctx = pytest.raises(ValueError)          # a context made but not entered: not counted
    pytest.warns(UserWarning)                # not a raises


class TestGroup:
    def test_three(self):                    # test 3
        def inner():
            assert False                     # 5
        with raises(KeyError) as info:       # raises 5
            {}["k"]
        assert info                          # 6

    def helper(self):                        # not a test
        pass


class Other:
    def test_not_collected(self):            # not a Test* class: not a test
        pass


def tests_are_also_collected():              # test 4: pytest's default python_functions is test*
    pass
'''


def test_counts_of_a_hand_written_module():
    found = tool.count_source(SOURCE)
    assert dict(found) == {"files": 1, "tests": 4, "asserts": 6, "np_testing": 6, "raises": 5}


def test_an_empty_module_counts_zero_of_each():
    assert dict(tool.count_source("")) == {"files": 1, "tests": 0, "asserts": 0, "np_testing": 0, "raises": 0}


def test_per_directory_rows_and_total_from_the_command_line(tmp_path: Path):
    (tmp_path / "tests" / "a").mkdir(parents=True)
    (tmp_path / "tests" / "b").mkdir()
    (tmp_path / "tests" / "a" / "test_x.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "tests" / "b" / "test_y.py").write_text("def test_y():\n    assert 1\n    assert 2\n",
                                                        encoding="utf-8")
    (tmp_path / "tests" / "b" / "__pycache__").mkdir()
    (tmp_path / "tests" / "b" / "__pycache__" / "test_y.py").write_text("assert 1\n", encoding="utf-8")
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "count_assertions.py"), "--json"],
                         cwd=tmp_path, capture_output=True, text=True, check=True)
    rows = json.loads(out.stdout)
    assert rows == {
        "tests/a": {"files": 1, "tests": 4, "asserts": 6, "np_testing": 6, "raises": 5},
        "tests/b": {"files": 1, "tests": 1, "asserts": 2, "np_testing": 0, "raises": 0},
        "total": {"files": 2, "tests": 5, "asserts": 8, "np_testing": 6, "raises": 5},
    }
    plain = subprocess.run([sys.executable, str(ROOT / "tools" / "count_assertions.py"), "tests/b"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout.splitlines()
    assert plain[0].split() == ["directory", "files", "tests", "asserts", "np_testing", "raises"]
    assert plain[1].split() == ["tests/b", "1", "1", "2", "0", "0"]
    assert plain[2].split() == ["total", "1", "1", "2", "0", "0"]
