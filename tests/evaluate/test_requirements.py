"""`report --require`: conditions on the catalogue's names, their values (hand-computed), baselines, undefined
values, intervals, and the exit codes 0 (met), 3 (unmet) and 2 (unknown metric)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from clfeval.errors import UsageError
from clfeval.evaluate._reports import report
from clfeval.evaluate._requirements import check_requirements, parse_requirement
from tests._helpers.clihelp import run

# 40 mails: 10 spam, 30 ham; 9 spam found, 1 ham flagged as spam, 1 spam missed.
GOLD = ["spam"] * 10 + ["ham"] * 30
PRED = ["spam"] * 9 + ["ham"] + ["spam"] + ["ham"] * 29
# by hand: recall(spam) = 9/10, precision(spam) = 9/10, accuracy = 38/40 = 0.95, majority (always ham) = 30/40


@pytest.fixture
def mails(tmp_path: Path) -> Path:
    p = tmp_path / "mails.csv"
    p.write_text("gold,pred\n" + "".join(f"{g},{q}\n" for g, q in zip(GOLD, PRED, strict=True)))
    return p


def test_values_targets_and_verdicts_by_hand():
    r = report(GOLD, PRED)
    q = check_requirements(r, ["recall:spam>=0.9", "precision:spam>0.9", "accuracy>majority", "accuracy<=0.95",
                               "f1:ham>stratified"])
    c = {x["condition"]: x for x in q.conditions}
    assert c["recall:spam>=0.9"]["value"] == pytest.approx(0.9) and c["recall:spam>=0.9"]["met"]
    assert c["precision:spam>0.9"]["value"] == pytest.approx(0.9) and not c["precision:spam>0.9"]["met"]
    assert c["accuracy>majority"]["target_value"] == pytest.approx(30 / 40) and c["accuracy>majority"]["met"]
    assert c["accuracy<=0.95"]["met"]  # 38/40
    # stratified baseline of ham: E[C] = t_i q_j with q = (10, 30)/40: precision = recall = F1 = 0.75
    assert c["f1:ham>stratified"]["target_value"] == pytest.approx(0.75) and c["f1:ham>stratified"]["met"]
    assert not q.met and q.to_dict()["unmet"] == ["precision:spam>0.9"]
    # issue 19: the sentence says what was required (formerly "precision:spam = 0.9000 > 0.9: unmet")
    assert c["precision:spam>0.9"]["summary"] == "precision:spam = 0.9000, required > 0.9: unmet"


def test_an_undefined_value_is_unmet_and_says_so():
    r = report(["a", "a", "b"], ["a", "a", "a"])  # b never predicted: precision of b is 0/0 (counted as 0)
    q = check_requirements(r, ["precision:b>=0", "mcc>=0"])
    for c in q.conditions:
        assert not c["met"] and "undefined" in c["undefined"], c
        assert c["summary"].endswith(c["undefined"]) and ": unmet" in c["summary"]
    nan = report(["a", "a", "b"], ["a", "a", "a"], zero_division="nan")
    c = check_requirements(nan, ["precision:b>=0"]).conditions[0]
    assert math.isnan(c["value"]) and not c["met"]  # undefined: NaN in Python, null in JSON (issue 22)


def test_the_interval_is_judged_beside_the_value():
    r = report(GOLD, PRED, ci=0.9, samples=2000, seed=1)
    lo, hi = r.ci.to_dict()["accuracy"]
    q = check_requirements(r, [f"accuracy>={lo - 0.01}", f"accuracy>={lo + 0.001}", f"accuracy<{hi + 0.001}"])
    clears = [c["interval_clears"] for c in q.conditions]
    assert clears == [True, False, True]
    assert all(c["met"] for c in q.conditions)  # the value (0.95) meets all three
    assert q.conditions[1]["interval"] == [lo, hi] and "90% interval" in q.conditions[1]["summary"]


def test_refusals_name_what_is_valid():
    with pytest.raises(UsageError, match="unknown metric 'acuracy'; valid metrics are: accuracy, error_rate"):
        parse_requirement("acuracy>=0.9")
    with pytest.raises(UsageError, match="expected METRIC OP TARGET"):
        parse_requirement("accuracy=0.9")
    with pytest.raises(UsageError, match="baselines are scored on accuracy, macro_f1"):
        parse_requirement("mcc>majority")
    with pytest.raises(UsageError, match="neither a number nor a baseline"):
        parse_requirement("accuracy>best")
    with pytest.raises(UsageError, match="no class 'spamm'; its classes are: 'ham', 'spam'"):
        check_requirements(report(GOLD, PRED), ["recall:spamm>=0.9"])
    with pytest.raises(UsageError, match="needs scores"):
        check_requirements(report(GOLD, PRED), ["roc_auc>=0.9"])


@pytest.mark.parametrize("written, value", [
    ("0.9", 0.9), (".5", 0.5), ("5.", 5.0), ("+0.25", 0.25), ("-1", -1.0), ("1e-3", 0.001), ("2.5E+1", 25.0),
    (" 0.9 ", 0.9),
    ("\uff10.\uff15", 0.5),  # full-width digits are digits, as Python reads them (０.５ is 0.5)
    ("\u0660.\u0665", 0.5),  # so are Arabic-Indic ones (٠.٥)
])
def test_a_target_is_a_decimal_number(written, value):
    assert parse_requirement(f"accuracy>={written}").target == value
    assert parse_requirement(f"min_slice(accuracy)>={written}").target == value


@pytest.mark.parametrize("written, words", [
    ("1_0", "must be written as a decimal number such as 0.9, .5 or 1e-3 (no underscores); got '1_0'"),
    ("0.000_5", "must be written as a decimal number"),  # Python's float() reads both (10, 0.0005)
    ("nan", "must be a finite number; got 'nan'"), ("-Infinity", "must be a finite number"),
    ("1e309", "must be a finite number; got '1e309'"),
    ("0x1", "is neither a number"), ("1/2", "is neither a number"), ("0.5e", "is neither a number"),
    ("\uff10\uff0e\uff15", "is neither a number"),  # a full-width point is not a point
])
def test_other_number_syntaxes_are_refused(written, words):
    with pytest.raises(UsageError) as info:
        parse_requirement(f"accuracy>={written}")
    assert words in str(info.value), str(info.value)
    with pytest.raises(UsageError):
        parse_requirement(f"min_slice(accuracy)>={written}")


def test_cli_exit_codes_and_messages(mails):
    ok = run("report", mails, "--require", "recall:spam>=0.9", "--require", "accuracy>majority")
    assert ok.code == 0, ok.err
    assert "Requirements" in ok.out and "All 2 conditions met." in ok.out and ok.err == ""
    bad = run("report", mails, "--require", "recall:spam>=0.95", "--require", "accuracy>majority")
    assert bad.code == 3
    assert "recall:spam>=0.95" in bad.out and "1 of 2 conditions not met" in bad.out
    assert bad.err.startswith("clfeval: gate not met: 1 of 2 required condition(s) not met: recall:spam = 0.9000")
    defined = run("report", mails, "--require", "lr_plus:spam>=10", "--zero-division", "nan")
    assert defined.code == 0  # LR+ = 0.9 / (1/30) = 27: defined
    und = run("report", mails, "--require", "dor:ham<=1", "--format", "json")  # DOR = 29·9 / (1·1) = 261
    assert und.code == 3 and json.loads(und.out)["requirements"]["unmet"] == ["dor:ham<=1"]
    unknown = run("report", mails, "--require", "acuracy>=0.9")
    assert unknown.code == 2 and unknown.out == ""
    assert "option --require 'acuracy>=0.9': unknown metric 'acuracy'; valid metrics are: accuracy" in unknown.err
    underscore = run("report", mails, "--require", "accuracy>=1_0")  # read as 10 (unmet, exit 3) before
    assert underscore.code == 2 and "option --require 'accuracy>=1_0'" in underscore.err
    assert run("report", mails, "--require", "accuracy>=\uff10.\uff19\uff15").code == 0  # ０.９５: 38/40 meets it
    assert run("report", mails, "--require", "accuracy>\uff10.\uff19\uff15").code == 3
    md = run("report", mails, "--require", "macro_f1>=0.99", "--format", "markdown")
    assert md.code == 3 and "## Requirements" in md.out


def test_cli_undefined_condition(tmp_path):
    p = tmp_path / "never.csv"
    p.write_text("gold,pred\na,a\na,a\nb,a\n")
    res = run("report", p, "--require", "precision:b>=0", "--format", "json")
    assert res.code == 3
    c = json.loads(res.out)["requirements"]["conditions"][0]
    assert c["met"] is False and "undefined" in c["undefined"]
    assert "precision:b" in res.err and "undefined" in res.err
