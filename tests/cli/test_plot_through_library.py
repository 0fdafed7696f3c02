"""``clfeval plot`` reads its result through the library (issue 39): a JSON result through
``clfeval.plots.read_result`` (its typed result), a predictions file through ``clfeval.report`` /
``clfeval.calibration``; the command reads no file itself."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

import clfeval  # noqa: E402
from clfeval import plots  # noqa: E402
from tests._helpers.clihelp import run  # noqa: E402

ROWS = "gold,pred,s\nspam,spam,0.9\nham,spam,0.6\nham,ham,0.2\nspam,ham,0.4\nspam,spam,0.8\nham,ham,0.1\n"


def test_a_json_result_is_read_by_the_library_and_typed(tmp_path, monkeypatch):
    preds = tmp_path / "p.csv"
    preds.write_text(ROWS, encoding="utf-8")
    rep = tmp_path / "r.json"
    assert run("report", preds, "--format", "json", "-o", rep).code == 0
    seen = []
    real = plots.read_result

    def spy(path):
        seen.append(str(path))
        return real(path)

    monkeypatch.setattr(plots, "read_result", spy)
    assert run("plot", "confusion", rep, "-o", tmp_path / "c.svg").code == 0
    assert seen == [str(rep)]
    typed = real(rep)
    assert isinstance(typed, clfeval.Report) and typed.accuracy == pytest.approx(4 / 6)


def test_a_predictions_file_goes_through_report_and_calibration(tmp_path, monkeypatch):
    preds = tmp_path / "p.csv"
    preds.write_text(ROWS, encoding="utf-8")
    called = []
    for name in ("report", "calibration"):
        real = getattr(clfeval.front, name)  # clfeval.report and clfeval.calibration
        monkeypatch.setattr(clfeval.front, name, lambda *a, _r=real, _n=name, **k: called.append(_n) or _r(*a, **k))
    assert run("plot", "roc", preds, "--score", "s", "--positive", "spam", "-o", tmp_path / "r.svg").code == 0
    assert run("plot", "reliability", preds, "--score", "s", "--positive", "spam", "-o", tmp_path / "l.svg").code == 0
    assert called == ["report", "calibration"]
