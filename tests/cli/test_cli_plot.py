"""`clfeval plot KIND RESULT -o FILE`: one figure from a JSON result or a predictions file."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("matplotlib")

from tests._helpers.clihelp import run  # noqa: E402

ROWS = "gold,pred,s\nspam,spam,0.9\nham,spam,0.6\nham,ham,0.2\nspam,ham,0.4\nspam,spam,0.8\nham,ham,0.1\n"


@pytest.fixture
def files(tmp_path):
    preds = tmp_path / "p.csv"
    preds.write_text(ROWS, encoding="utf-8")
    rep = tmp_path / "r.json"
    assert run("report", preds, "--score", "s", "--positive", "spam", "--format", "json", "-o", rep).code == 0
    cmp = tmp_path / "c.json"
    other = tmp_path / "q.csv"
    other.write_text(ROWS.replace("spam,ham,0.4", "spam,spam,0.4"), encoding="utf-8")
    assert run("compare", other, preds, "--samples", "200", "--format", "json", "-o", cmp).code == 0
    return tmp_path, preds, rep, cmp


def test_figures_from_json_results(files):
    tmp, _, rep, cmp = files
    for kind, src in (("roc", rep), ("pr", rep), ("confusion", rep), ("per-class", rep), ("phi-delta", rep),
                      ("bootstrap", cmp)):
        out = tmp / f"{kind}.svg"
        res = run("plot", kind, src, "-o", out)
        assert res.code == 0, res.err
        assert res.out == "" and "wrote" in res.err
        root = ET.fromstring(out.read_text(encoding="utf-8"))  # well-formed SVG
        assert root.tag.endswith("svg")
    res = run("plot", "roc", rep, "-o", tmp / "roc.png")
    assert res.code == 0 and (tmp / "roc.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    res = run("plot", "roc", rep, "-o", tmp / "roc.pdf")
    assert res.code == 0 and (tmp / "roc.pdf").read_bytes()[:5] == b"%PDF-"


def test_figures_from_a_predictions_file(files):
    tmp, preds, _, _ = files
    assert run("plot", "confusion", preds, "-o", tmp / "c.svg").code == 0
    res = run("plot", "roc", preds, "--score", "s", "--positive", "spam", "-o", tmp / "r.svg")
    assert res.code == 0, res.err
    res = run("plot", "reliability", preds, "--score", "s", "--positive", "spam", "-o", tmp / "rel.svg")
    assert res.code == 0, res.err


def test_errors_are_one_paragraph_and_exit_2(files):
    tmp, preds, rep, _ = files
    res = run("plot", "roc", rep, "-o", tmp / "x.gif")
    assert res.code == 2 and ".svg, .png or .pdf" in res.err and "Traceback" not in res.err
    assert not (tmp / "x.gif").exists()
    res = run("plot", "threshold", rep, "-o", tmp / "t.svg")
    assert res.code == 2 and "threshold choice" in res.err and not (tmp / "t.svg").exists()
    res = run("plot", "bootstrap", preds, "-o", tmp / "b.svg")
    assert res.code == 2 and "JSON result" in res.err
    res = run("plot", "roc", tmp / "missing.json", "-o", tmp / "m.svg")
    assert res.code == 2 and "does not exist" in res.err
    bad = tmp / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    res = run("plot", "roc", bad, "-o", tmp / "b.svg")
    assert res.code == 2 and "not a JSON result" in res.err
    res = run("plot", "roc", preds, "-o", tmp / "r.svg")  # no scores given
    assert res.code == 2 and "needs scores" in res.err
    svg = tmp / "same.svg"
    svg.write_text("<svg/>", encoding="utf-8")
    res = run("plot", "roc", svg, "-o", svg)
    assert res.code == 2 and svg.read_text() == "<svg/>"  # the input is never overwritten
    assert json.loads(rep.read_text())["ranking"]["curves"]["roc"]["fpr"][0] == 0.0


def test_phi_delta_of_a_comparison_and_cuts_per_label(files):
    tmp, preds, _, cmp = files
    out = tmp / "pd.svg"
    res = run("plot", "phi-delta", cmp, "-o", out)
    assert res.code == 0, res.err
    svg = out.read_text(encoding="utf-8")
    ET.fromstring(svg)
    names = json.loads(cmp.read_text())["names"]
    assert f">{names['a']}<" in svg and f">{names['b']}<" in svg  # the systems, in the legend
    ml = tmp / "ml.csv"
    ml.write_text("gold,s:a,s:b\na,0.9,0.1\nb,0.2,0.8\na|b,0.7,0.6\n,0.1,0.3\na,0.6,0.4\nb,0.4,0.9\n", encoding="utf-8")
    th = tmp / "th.json"
    assert run("threshold", ml, "--dev", ml, "--scores-prefix", "s:", "--multilabel", "--format", "json",
               "-o", th).code == 2  # the dev file may not be the test file
    dev = tmp / "dev.csv"
    dev.write_text(ml.read_text(encoding="utf-8"), encoding="utf-8")
    res = run("threshold", ml, "--dev", dev, "--scores-prefix", "s:", "--multilabel", "--format", "json", "-o", th)
    assert res.code == 0, res.err
    res = run("plot", "threshold", th, "-o", tmp / "cuts.svg")
    assert res.code == 0, res.err
    assert "One cut per label" in (tmp / "cuts.svg").read_text(encoding="utf-8")
