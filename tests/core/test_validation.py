"""The argument checks of core/_validation.py: a positive number is finite (issue 35, R10: NaN passed `x > 0`
checks written as `not x <= 0`, infinity passed `x > 0`)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clfeval.core._validation import check_positive
from clfeval.errors import UsageError


@pytest.mark.parametrize("value", [1e-300, 0.5, 3, 600.0, np.float32(2.5), np.int64(7)])
def test_finite_numbers_above_zero_pass_as_floats(value):
    got = check_positive(value, option="deadline")
    assert got == float(value) and type(got) is float


@pytest.mark.parametrize("value", [math.nan, np.nan, math.inf, -math.inf, 0, 0.0, -0.0, -1, True, False, "2", None,
                                   [1.0]])
def test_everything_else_is_refused_naming_the_parameter(value):
    with pytest.raises(UsageError) as info:
        check_positive(value, option="deadline", what="seconds")
    assert str(info.value) == f"option deadline (seconds) must be a finite number > 0; got {value!r}."
    assert info.value.with_names({"deadline": "--deadline"}).args[0].startswith("option --deadline (seconds)")
