"""Issue 35: ``--ci-method`` on the command line is ``ci_method=`` in the library, through one parser: malformed or
repeated values and classes the data does not have are refused (exit 2) by name, and the library's string form
gives the intervals the command gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import clfeval
from clfeval.render import to_json
from tests._helpers.clihelp import assert_clean_error, run

MAILS = Path("docs/examples/mails.csv")
CI = ["report", MAILS, "--ci", "0.95", "-b", "300"]


@pytest.mark.parametrize("values, needle", [
    (["recall:nope=percentile"], "option --ci-method recall:nope=percentile names the class 'nope', which the data "
                                 "does not have; its classes are: 'ham', 'spam'."),
    (["recall:spam=percentile=wilson"], "option --ci-method recall:spam=percentile=wilson: one METRIC=METHOD per"),
    (["=wilson"], "option --ci-method =wilson: no metric before '='"),
    (["accuracy=wilson", "accuracy=bca"], "option --ci-method names accuracy twice (accuracy=wilson, accuracy=bca)"),
    (["accuracy=bca", "accuracy=bca"], "option --ci-method names accuracy twice (accuracy=bca, accuracy=bca)"),
    (["macro_f1:spam=bca"], "macro_f1 is one number for the whole table, not one per class"),
])
def test_malformed_or_repeated_ci_methods_exit_2(values, needle):
    args = [*CI]
    for v in values:
        args += ["--ci-method", v]
    assert_clean_error(run(*args), 2, needle)


def test_a_per_class_method_is_applied_and_wins_over_the_metrics():
    res = run(*CI, "--ci-method", "recall:spam=percentile", "--ci-method", "recall=bca", "--ci-method", "wilson",
              "-f", "json")
    assert res.code == 0, res.err
    m = json.loads(res.out)["ci"]["methods"]
    assert (m["per_class.spam.recall"], m["per_class.ham.recall"], m["accuracy"]) == ("percentile", "bca", "wilson")


@pytest.mark.parametrize("values", [["roc_auc=delong"], ["roc_auc=percentile"], ["bca", "recall:spam=percentile"],
                                    ["roc_auc:spam=hanley-mcneil", "accuracy=wilson"]])
def test_the_library_string_form_gives_the_commands_intervals(values):
    args = ["report", MAILS, "--score", "score", "--positive", "spam", "--ci", "0.95", "-b", "400", "-f", "json"]
    for v in values:
        args += ["--ci-method", v]
    res = run(*args)
    assert res.code == 0, res.err
    given = values[0] if len(values) == 1 else values  # one value as one string, as a notebook user writes it
    lib = clfeval.report(str(MAILS), score="score", positive="spam", ci=0.95, samples=400, ci_method=given)
    assert json.loads(to_json(lib)) == json.loads(res.out)
    chosen = json.loads(res.out)["ranking_ci"]["roc_auc"]["interval"]["method"]
    # a global method applies to ROC-AUC too when it is one of ROC-AUC's (bca)
    assert chosen == {"roc_auc=delong": "delong", "roc_auc=percentile": "percentile", "bca": "bca",
                      "roc_auc:spam=hanley-mcneil": "hanley-mcneil"}[values[0]]
