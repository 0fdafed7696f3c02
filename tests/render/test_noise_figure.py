"""Issue 41 item 6: the figure of the estimated noise matrix shows the result's matrix, cell for cell (an undefined
column hatched and marked '—'), on the HTML page of label-issues and through ``clfeval plot noise-matrix``."""

from __future__ import annotations

import json

import numpy as np
import pytest

import clfeval
from clfeval import plots
from clfeval.errors import UsageError
from clfeval.render import render
from tests._helpers.clihelp import run

EXAMPLE = "docs/examples/stories.csv"


def _cells(fig):
    return {t.get_gid(): t.get_text() for t in fig.axes[0].texts if (t.get_gid() or "").startswith("cell-")}


def test_every_cell_shows_its_probability():
    r = clfeval.label_issues(EXAMPLE, id="id")
    cells = _cells(plots.noise_matrix(r))
    k = len(r.labels)
    assert len(cells) == k * k
    # each column a distribution over the given labels, each cell the result's value to two decimals
    for j in range(k):
        assert sum(float(cells[f"cell-{i}-{j}"]) for i in range(k)) == pytest.approx(1.0, abs=0.01 * k)
    for i in range(k):
        for j in range(k):
            assert cells[f"cell-{i}-{j}"] == f"{r.noise_matrix[i][j]:.2f}"
    assert plots.noise_matrix(r.to_dict()).axes[0].get_title(loc="left") == "Estimated noise matrix"  # its JSON too


def test_an_undefined_column_is_hatched_and_marked():
    d = {"labels": ["a", "b"], "noise_matrix": [[1.0, None], [0.0, None]]}
    fig = plots.noise_matrix(d)
    cells = _cells(fig)
    assert cells["cell-0-1"] == cells["cell-1-1"] == "—" and cells["cell-0-0"] == "1.00"
    assert [p.get_gid() for p in fig.axes[0].patches] == ["undefined-1"]


def test_a_result_without_the_matrix_is_refused():
    with pytest.raises(UsageError, match="noise_matrix"):
        plots.noise_matrix({"labels": ["a"]})


def test_the_page_and_the_plot_command_draw_it(tmp_path):
    r = clfeval.label_issues(EXAMPLE, id="id")
    page = render(r, "html")
    assert "Estimated noise matrix" in page and page.count("<svg") == 1
    out = tmp_path / "r.json"
    out.write_text(json.dumps(r.to_dict()), encoding="utf-8")
    res = run("plot", "noise-matrix", str(out), "-o", str(tmp_path / "n.svg"))
    assert res.code == 0, res.err
    svg = (tmp_path / "n.svg").read_text(encoding="utf-8")
    assert all(f"cell-{i}-{j}" in svg for i in range(3) for j in range(3)) and np.isfinite(r.n)
