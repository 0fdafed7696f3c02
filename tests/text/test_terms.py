"""φ–δ analysis of terms against a direct per-term computation."""

from __future__ import annotations

import numpy as np
import pytest

from clfeval.text._terms import term_phi_delta


def test_against_direct_count():
    rng = np.random.default_rng(3)
    vocab = ["".join(chr(97 + (i * 7 + j) % 26) for j in range(3)) + "x" * (i % 3) for i in range(30)]
    docs = [" ".join(rng.choice(vocab, size=rng.integers(1, 12))) for _ in range(200)]
    y = rng.random(200) < 0.3
    a = term_phi_delta(docs, y, category="c")
    for t, d, f in zip(a.terms, a.delta, a.phi, strict=True):
        has = np.array([t in doc.split() for doc in docs])
        tpr = (has & y).sum() / y.sum()
        fpr = (has & ~y).sum() / (~y).sum()
        assert d == pytest.approx(tpr - fpr)
        assert f == pytest.approx(tpr + fpr - 1)
        assert -1 <= d <= 1 and -1 <= f <= 1 and abs(d) + abs(f) <= 1 + 1e-12  # inside the rhombus


def test_corners():
    docs = ["grain the a", "grain the", "the oil zzz", "the oil"]
    a = term_phi_delta(docs, [True, True, False, False], category="grain")
    assert a.most_discriminative(1)[0]["term"] == "grain"  # δ = +1, top corner
    assert a.most_negative(1)[0]["term"] == "oil"  # δ = −1, bottom corner
    assert a.stop_word_corner(1)[0]["term"] == "the"  # φ = +1, right corner
    rare = a.rare_corner(2)
    assert {r["term"] for r in rare} == {"a", "zzz"} and rare[0]["phi"] == pytest.approx(-0.5)  # a: TPR 1/2, FPR 0
