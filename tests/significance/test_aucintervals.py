"""Hanley & McNeil's variance of the ROC-AUC (significance/_aucintervals.py, issue 35 item 5)."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.significance._aucintervals import hanley_mcneil_variance


def test_hanley_mcneil_with_unequal_classes():
    # θ = 0.8, m = 10 positives, n = 40 negatives: Q1 = θ/(2 − θ) = 2/3, Q2 = 2θ²/(1 + θ) = 0.71111;
    # [θ(1 − θ) + (m − 1)(Q1 − θ²) + (n − 1)(Q2 − θ²)] / (mn) = (0.16 + 9·0.026667 + 39·0.071111) / 400
    #   = 3.17333 / 400 = 0.0079333 (with m and n swapped it would be 1.84 / 400 = 0.0046)
    assert float(hanley_mcneil_variance(np.array(0.8), 10, 40)) == pytest.approx(0.0079333, abs=5e-8)
