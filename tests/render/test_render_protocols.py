"""Golden text of the cross-validation renderer, on mission §10 example 10 (five folds: 82, 80, 84, 81, 83 %).

The golden file was read and checked by hand when first written: fold accuracies
0.82 0.80 0.84 0.81 0.83, mean 0.82, sample std sqrt(10/4)/100 = 0.0158, train
accuracy 1 (the planned model errs only on its test items), gap 0.18; pooled
410 of 500 correct = 0.82; majority baseline ("a", 2 of every 3 items). The last
line (library versions) is left out of the comparison. Never regenerate blindly.
"""

from __future__ import annotations

from pathlib import Path

from clfeval.render import render
from tests._helpers.planned import example_10

GOLDEN = Path(__file__).parents[1] / "_helpers" / "golden"


def _without_versions(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "scikit-learn" not in line) + "\n"


def test_cv_text_golden():
    text = render(example_10(), "text", width=80)
    assert _without_versions(text) == (GOLDEN / "cv_example10.txt").read_text()


def test_cv_markdown_golden():
    text = render(example_10(), "markdown")
    assert _without_versions(text) == (GOLDEN / "cv_example10.md").read_text()
