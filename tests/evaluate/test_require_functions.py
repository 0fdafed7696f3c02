"""The one requirement grammar: FUNC(ARGS) OP TARGET and bare FUNC(ARGS) beside METRIC OP TARGET (issue 26 item 5).

Functions are registered in core/reqfunctions.py; these tests register their own (a module written to a
temporary directory holds the evaluators), so they hold whatever functions later issues add.
"""

from __future__ import annotations

import textwrap

import pytest

from clfeval.core import _catalog as catalog, _reqfunctions as reqfunctions
from clfeval.core._reqfunctions import Function
from clfeval.errors import UsageError
from clfeval.evaluate._reports import report
from clfeval.evaluate._requirements import check_requirements, parse_requirement
from clfeval.render import render

EVALUATORS = textwrap.dedent('''
    def class_count(d, label):
        # the number of gold items of a class, read from the report's confusion matrix
        labels = d["labels"]
        if label not in labels:
            from clfeval.errors import UsageError
            raise UsageError(f"no class {label!r}")
        row = d["confusion_matrix"][labels.index(label)]
        return float(sum(row)), None

    def scaled(d, metric, factor):
        return d["accuracy"] * factor, None, [0.0, 1.0]

    def never(d):
        return None, "no slice has 30 items or more"

    def has_class(d, label):
        return label in d["labels"], None
''')


@pytest.fixture()
def funcs(tmp_path, monkeypatch):
    (tmp_path / "fake_reqfuncs.py").write_text(EVALUATORS)
    monkeypatch.syspath_prepend(str(tmp_path))
    table = {
        "class_count": Function("class_count", ("name",), "number", None, "report", "fake_reqfuncs:class_count",
                                "the gold items of a class"),
        "scaled": Function("scaled", ("metric", "number"), "number", True, "report", "fake_reqfuncs:scaled",
                           "accuracy times a factor"),
        "never": Function("never", (), "number", False, "report", "fake_reqfuncs:never", "always undefined"),
        "has_class": Function("has_class", ("name",), "bool", None, "report", "fake_reqfuncs:has_class",
                              "whether a class is present"),
        "p_fake": Function("p_fake", ("name", "name"), "number", True, "rank", "fake_reqfuncs:never",
                           "a rank function"),
    }
    monkeypatch.setattr(reqfunctions, "FUNCTIONS", table)
    monkeypatch.setattr(catalog, "FUNCTIONS", table)
    import clfeval.evaluate._requirements as req_module
    monkeypatch.setattr(req_module, "FUNCTIONS", table)
    return table


GOLD = ["spam"] * 10 + ["ham"] * 30
PRED = ["spam"] * 9 + ["ham"] * 31   # accuracy 39/40


def test_parse_call_forms(funcs):
    r = parse_requirement("class_count(spam) >= 10")
    assert (r.function, r.args, r.op, r.target, r.metric) == ("class_count", ("spam",), ">=", 10.0,
                                                               "class_count(spam)")
    r = parse_requirement("scaled(recall:spam, 2)<1.5")
    assert r.args == ("recall:spam", 2.0) and r.op == "<"
    r = parse_requirement("never<=0.1")               # a function without parameters, written bare
    assert r.function == "never" and r.args == ()
    r = parse_requirement("has_class(ham)")
    assert r.function == "has_class" and r.op is None and r.target is None and r.baseline is None
    # the metric grammar is untouched
    assert parse_requirement("recall:spam>=0.9").function is None


@pytest.mark.parametrize("text, words", [
    ("nosuch(recall:spam)>=0.8", "unknown function 'nosuch'"),
    ("scaled(recal:spam, 2)>=1", "unknown metric 'recal:spam'"),
    ("scaled(accuracy, x)>=1", "'x' is not a number"),
    ("scaled(accuracy)>=1", "takes 2 arguments; got 1"),
    ("class_count(spam)", "is a number: write class_count(NAME) OP TARGET"),
    ("class_count(spam)>=majority", "must be a number"),
    ("has_class(ham)>=1", "is true or false"),
    ("never(x)<=1", "takes 0 arguments"),
    ("p_fake(A,B)>=0.9", "is a condition on rank results"),
    ("scaled(accuracy, inf)>=1", "the argument must be a finite number"),
    ("scaled(accuracy, 1_0)>=1", "the argument must be written as a decimal number"),
    ("class_count(spam)>=1_0", "the target must be written as a decimal number"),
])
def test_parse_refusals_say_what_was_expected(funcs, text, words):
    with pytest.raises(UsageError) as e:
        parse_requirement(text)
    assert words in str(e.value), str(e.value)


def test_rank_conditions_refuse_metrics(funcs):
    assert parse_requirement("p_fake(A, B)>=0.95", applies_to="rank").args == ("A", "B")
    with pytest.raises(UsageError, match="function of rank results: p_fake"):
        parse_requirement("accuracy>=0.9", applies_to="rank")


def test_check_numbers_booleans_and_undefined(funcs):
    r = report(GOLD, PRED)
    q = check_requirements(r, ["class_count(spam)>=10", "class_count(ham)>30", "scaled(accuracy, 2)>=1.9",
                               "never<=0.1", "has_class(ham)", "has_class(eggs)", "accuracy>=0.9"])
    met = [c["met"] for c in q.conditions]
    assert met == [True, False, True, False, True, False, True]
    by = {c["condition"]: c for c in q.conditions}
    assert by["class_count(spam)>=10"]["value"] == 10.0          # 10 gold spam, counted by hand
    assert by["scaled(accuracy, 2)>=1.9"]["value"] == pytest.approx(2 * 39 / 40)
    assert by["scaled(accuracy, 2)>=1.9"]["interval"] == [0.0, 1.0]
    assert by["scaled(accuracy, 2)>=1.9"]["interval_clears"] is False   # its low end 0 is below 1.9
    assert by["never<=0.1"]["undefined"] == "no slice has 30 items or more"
    assert by["has_class(eggs)"]["value"] is False
    assert not q.met and set(q.to_dict()["unmet"]) == {"class_count(ham)>30", "never<=0.1", "has_class(eggs)"}
    # the direction note: 'scaled' is better when higher, a <= condition on it says so
    q2 = check_requirements(r, ["scaled(accuracy, 1)<=2"])
    assert any("better when higher" in n for n in q2.notes)


def test_evaluator_refusal_is_a_usage_error(funcs):
    with pytest.raises(UsageError, match="no class 'eggs'"):
        check_requirements(report(GOLD, PRED), ["class_count(eggs)>=1"])


def test_rendered_in_every_format(funcs):
    from clfeval.evaluate._requirements import with_requirements

    r = with_requirements(report(GOLD, PRED), ["has_class(ham)", "class_count(spam)>=11"])
    text = render(r, "text")
    assert "has_class(ham)" in text and "class_count(spam)" in text and "1 of 2 conditions not met" in text
    md = render(r, "markdown")
    assert "| has_class(ham) | true | true | met |" in md
    import json
    d = json.loads(render(r, "json"))
    conds = d["requirements"]["conditions"]
    assert conds[0]["value"] is True and conds[0]["op"] is None and conds[1]["value"] == 10.0
    assert d["requirements"]["unmet"] == ["class_count(spam)>=11"]


def test_registered_functions_are_well_formed():
    """Every registered function (whatever later issues add) resolves to an importable evaluator."""
    import importlib

    for f in catalog.FUNCTIONS.values():
        module, _, attr = f.evaluator.partition(":")
        assert callable(getattr(importlib.import_module(module), attr)), f.name
        assert f.doc and f.name.isidentifier()


def test_names_with_commas_are_written_in_quotes(funcs):
    # quotes hold commas and parentheses; a function of one name takes the whole unquoted text as the name
    assert parse_requirement('has_class("lr, l2")').args == ("lr, l2",)
    assert parse_requirement("has_class('a, (b')").args == ("a, (b",)
    r = parse_requirement("has_class(lr, l2)")
    assert r.args == ("lr, l2",) and r.metric == 'has_class("lr, l2")'
    assert parse_requirement("has_class(svm(rbf, 2))").args == ("svm(rbf, 2)",)
    assert parse_requirement('p_fake("lr, l2", nb)>=0.9', applies_to="rank").args == ("lr, l2", "nb")
    assert parse_requirement("p_fake(bob's model, nb)>=0.9", applies_to="rank").args == ("bob's model", "nb")


@pytest.mark.parametrize("text, words", [
    ("p_fake(lr, l2, nb)>=0.9", 'takes 2 arguments; got 3. A name holding a comma is written in quotes: '
                                'p_fake("lr, l2", B)'),
    ('p_fake("lr, l2, nb)>=0.9', "is never closed"),
    ('p_fake("lr" x, nb)>=0.9', "follows the quoted name 'lr'"),
])
def test_quoting_refusals_say_how(funcs, text, words):
    with pytest.raises(UsageError) as e:
        parse_requirement(text, applies_to="rank")
    assert words in str(e.value), str(e.value)
