"""Every command's HTML page, written by the command line itself, beside its JSON and text output.

:func:`build` runs each command (in-process, through :func:`clihelp.run`) three
times on small files — ``--format html``, ``--format json`` and the text
default — and returns, per page, the HTML file, the parsed JSON, the text
output and the key numbers: accuracy, macro-F1, ROC-AUC, p, ... read from the
JSON and formatted as the text output formats numbers (checked against the text
output itself, so a page that rounds differently from the text fails). The HTML
tests parse these pages; the browser test opens them.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from clfeval.render._significance import p_text
from clfeval.render._util import num
from tests._helpers.clihelp import run

#: Labels that must show as typed, never run or interpreted (HTML, SVG, mathtext, legend conventions).
HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "$x^2$", "_under"]


@dataclass
class CommandPage:
    name: str
    args: tuple[str, ...]
    html: Path
    json: Any
    text: str
    numbers: list[str] = field(default_factory=list)
    hostile: bool = False  # labels of HOSTILE are in the data
    exit_code: int = 0


def _write_csv(path: Path, header: list[str], rows: list[list[Any]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


def _files(root: Path) -> dict[str, Path]:
    rng = np.random.default_rng(11)
    labels = HOSTILE + ["news"]
    k, n = len(labels), 1500
    gold = rng.integers(0, k, n)
    s = rng.random((n, k))
    s[np.arange(n), gold] += 0.45
    s /= s.sum(axis=1, keepdims=True)  # probabilities (calibration reads them)
    pred = s.argmax(axis=1)
    other = np.where(rng.random(n) < 0.25, rng.integers(0, k, n), pred)
    f = {"preds": _write_csv(root / "preds.csv", ["id", "gold", "pred"] + [f"score:{x}" for x in labels],
                             [[i, labels[g], labels[p], *np.round(s[i], 6)]
                              for i, (g, p) in enumerate(zip(gold, pred, strict=True))]),
         "other": _write_csv(root / "other.csv", ["id", "gold", "pred"],
                             [[i, labels[g], labels[p]] for i, (g, p) in enumerate(zip(gold, other, strict=True))]),
         "third": _write_csv(root / "third.csv", ["id", "gold", "pred"],
                             [[i, labels[g], labels[g] if rng.random() < 0.5 else labels[p]]
                              for i, (g, p) in enumerate(zip(gold, pred, strict=True))]),
         "train": _write_csv(root / "train.csv", ["gold"], [[labels[x]] for x in rng.integers(0, k, 3000)])}
    for name, m, seed in (("bin", 800, 1), ("dev", 600, 2)):
        r = np.random.default_rng(seed)
        y = r.random(m) < 0.3
        sc = np.clip((r.random(m) + 0.55 * y) / 1.55, 0, 1)
        src = [(HOSTILE + ["web"])[i % (len(HOSTILE) + 1)] for i in range(m)]  # slices (issue 26)
        f[name] = _write_csv(root / f"{name}.csv", ["gold", "pred", "s", "src"],
                             [["spam" if t else "ham", "spam" if v >= 0.5 else "ham", round(float(v), 6), c]
                              for t, v, c in zip(y, sc, src, strict=True)])
    ml_labels = ["grain", "wheat", HOSTILE[0]]
    for name, m, seed in (("ml", 500, 3), ("mldev", 400, 4)):
        r = np.random.default_rng(seed)
        sets = [[x for x in ml_labels if r.random() < 0.35] for _ in range(m)]
        sc = {x: np.array([r.random() + 0.6 * (x in t) for t in sets]) for x in ml_labels}
        pred = [[x for x in ml_labels if sc[x][i] > 0.8] for i in range(m)]
        f[name] = _write_csv(root / f"{name}.csv", ["gold", "pred"] + [f"p:{x}" for x in ml_labels],
                             [["|".join(t), "|".join(p), *(round(float(sc[x][i]), 6) for x in ml_labels)]
                              for i, (t, p) in enumerate(zip(sets, pred, strict=True))])
    from tests._helpers.news import make_data

    f["news"] = make_data(root / "news.csv", n=240, seed=5)
    # clfeval rank: a wide table, one column per system (hostile system names), 12 data sets
    r = np.random.default_rng(6)
    systems = HOSTILE + ["svm"]
    f["rank"] = _write_csv(root / "rank.csv", ["dataset"] + systems,
                           [[f"set {j}",
                             *np.round(0.7 + 0.03 * np.arange(len(systems)) + r.normal(0, 0.03, len(systems)),
                                                   4)] for j in range(12)])
    return f


def _key(d: Any, *path: Any) -> Any:
    for p in path:
        d = d[p]
    return d


def _numbers(d: Any, paths: list[tuple[Any, ...]], fmt: Callable[[Any], str] = num) -> list[str]:
    return [fmt(_key(d, *p)) for p in paths]


def _demo_numbers(d: dict[str, Any]) -> list[str]:
    """Every numeric cell of a demo's tables, as the text output prints it."""
    out = []
    for t in d.get("tables", []):
        for row in t["rows"]:
            out += [num(x) for x in row if isinstance(x, (int, float)) and not isinstance(x, bool)]
    return out[:40]


def names() -> list[str]:
    """The pages :func:`build` writes, in order (known before any is built: tests are parametrized by them)."""
    from clfeval.studies._demo import MODES

    return [*_FIXED, *(f"demo-{m}" for m in MODES)]


_FIXED = ("report", "report-binary", "report-by", "report-multilabel", "compare", "compare-many", "threshold",
          "threshold-multilabel", "calibration", "calibration-multiclass", "cv", "holdout", "runs-list", "runs-show",
          "runs-best", "runs-ablation", "runs-check", "metrics", "demo", "rank")


def build(root: Path) -> dict[str, CommandPage]:
    """Run every command that prints results with --format html, json and text; see the module docstring."""
    root.mkdir(parents=True, exist_ok=True)
    f = _files(root)
    db = root / "runs.sqlite"
    exp = ("--text", "body", "--label", "topic", "--runs-db", db)
    specs: list[tuple[str, tuple[Any, ...], Callable[[Any], list[str]], bool]] = [
        ("report", ("report", f["preds"], "--scores-prefix", "score:", "--train-labels", f["train"]),
         lambda d: _numbers(d, [("accuracy",), ("macro", "f1"), ("ranking", "macro", "roc_auc")]), True),
        ("report-binary", ("report", f["bin"], "--score", "s", "--positive", "spam", "--beta", "2"),
         lambda d: _numbers(d, [("accuracy",), ("macro", "f1"), ("ranking", "roc_auc"), ("binary", "f1")]), False),
        ("report-by", ("report", f["bin"], "--by", "src", "--positive", "spam", "--slice-samples", "50"),
         lambda d: _numbers(d, [("accuracy",), ("slices", "overall", "recall:spam"),
                                ("slices", "fairness", "measures", "equalized_odds_difference")]), True),
        ("report-multilabel", ("report", f["ml"], "--multilabel"),
         lambda d: _numbers(d, [("accuracy",), ("macro", "f1"), ("micro", "f1"), ("hamming_loss",)]), True),
        ("compare", ("compare", f["preds"], f["other"], "--samples", "2000", "--metric", "macro_f1"),
         lambda d: _numbers(d, [("a",), ("b",), ("delta",)]) + [p_text(d["p_value"], d["samples"])], True),
        ("compare-many", ("compare", f["preds"], f["other"], f["third"], "--samples", "1000"),
         lambda d: [num(v) for v in d["scores"].values()] + [p_text(c["p_value"],
                                                                    d["samples"]) for c in d["comparisons"]],
         True),
        ("threshold", ("threshold", f["bin"], "--dev", f["dev"], "--score", "s", "--positive", "spam"),
         lambda d: _numbers(d, [("test", "f1"), ("default", "f1"), ("hindsight", "f1")]), False),
        ("threshold-multilabel", ("threshold", f["ml"], "--dev", f["mldev"], "--scores-prefix", "p:", "--multilabel"),
         lambda d: _numbers(d, [("averages", k, "micro", "f1") for k in ("default", "tuned", "hindsight")]), True),
        ("calibration", ("calibration", f["bin"], "--prob", "s", "--positive", "spam"),
         lambda d: _numbers(d, [("ece",), ("brier",), ("ranking", "roc_auc")]), False),
        ("calibration-multiclass", ("calibration", f["preds"], "--probs-prefix", "score:", "--bins", "8"),
         lambda d: _numbers(d, [("ece",), ("brier",)]), False),  # top-label: no label is shown
        ("cv", ("cv", f["news"], *exp, "--folds", "4", "--seed", "1"),
         lambda d: _numbers(d, [("accuracy", "mean"), ("macro_f1", "mean")]), False),
        ("holdout", ("holdout", f["news"], *exp, "--repeats", "3", "--model", "logreg"),
         lambda d: _numbers(d, [("accuracy", "mean"), ("macro_f1", "mean")]), False),
        ("runs-list", ("runs", "list", "--runs-db", db), lambda d: [], False),
        ("runs-show", ("runs", "show", "1", "--runs-db", db),
         lambda d: _numbers(d, [("metrics", "accuracy", "mean"), ("metrics", "macro_f1", "mean")]), False),
        ("runs-best", ("runs", "best", "--metric", "macro_f1", "--runs-db", db), lambda d: [], False),
        ("runs-ablation", ("runs", "ablation", "--metric", "macro_f1", "--base", "1", "--runs-db", db),
         lambda d: [], False),
        ("runs-check", ("runs", "check", "--submitted", "1", "--metric", "macro_f1", "--runs-db", db),
         lambda d: [], False),
        ("metrics", ("metrics",), lambda d: [], False),
        ("demo", ("demo",), lambda d: [], False),
        ("rank", ("rank", f["rank"], "--metric", "accuracy", "--samples", "2000"),
         lambda d: [num(d["average_ranks"][s], 3) for s in d["order"]]
         + [p_text(d["friedman"]["iman_davenport_p_value"], None)], True),
    ]
    from clfeval.studies._demo import MODES

    for mode in MODES:
        if mode == "report":
            specs.append(("demo-report", ("demo", "report"),
                          lambda d: _numbers(d, [("report", "accuracy"), ("report", "macro", "f1"),
                                                 ("report", "ranking", "macro", "roc_auc"), ("calibration", "ece")])
                          + [p_text(d["comparison"]["p_value"], d["comparison"]["samples"])], False))
        elif mode == "threshold":  # the mission's worked example: ROC-AUC 0.9524, AP 0.9167
            specs.append((f"demo-{mode}", ("demo", mode), lambda d: _demo_numbers(d) + ["0.9524", "0.9167"], False))
        else:
            specs.append((f"demo-{mode}", ("demo", mode), _demo_numbers, False))
    assert [n for n, *_ in specs] == names()
    pages: dict[str, CommandPage] = {}
    for name, args, numbers, hostile in specs:
        html = root / f"{name}.html"
        res = run(*args, "--format", "html", "--output", html)
        code = res.code
        assert code in (0, 1) and html.exists(), (name, res.code, res.err)
        out = run(*args, "--format", "json")
        text = run(*args)
        assert out.code == code and text.code == code, (name, out.err, text.err)
        d = json.loads(out.out)
        shown = numbers(d)
        for x in shown:
            assert x in text.out, f"{name}: {x} is not in the text output"
        pages[name] = CommandPage(name, tuple(str(a) for a in args), html, d, text.out, shown, hostile, code)
    return pages
