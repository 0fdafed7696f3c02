"""Invariance of every number in a report, driven by a registry of extractors.

Each entry of ``REGISTRY`` pulls a group of numbers out of ``Report.to_dict()``
and keys them by (canonical) label names, so the same registry checks that

* shuffling the items,
* renaming the labels (any bijective map, also int ↔ str),
* permuting the label order (``labels=``),
* splitting the items into batches and adding the tables (``+``, ``sum()``,
  the accumulators; batches whose label sets differ)

change no number. Numbers that depend on label order only through a tie-break
(hardest class, most confused pair, majority class) are compared as sets, or
only when there is no tie: the tie itself is order-free.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from clfeval import (
    ConfusionAccumulator,
    MultilabelAccumulator,
    confusion_table,
    multilabel_table,
    report,
    report_from_table,
)
from clfeval.core._labels import label_str
from tests._helpers._strategies import ZERO_DIVISIONS, multilabel_cases, same, single_label_cases

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
ZD = st.sampled_from(ZERO_DIVISIONS)

Canon = Callable[[str], str]
Extractor = Callable[[dict, Canon], dict[tuple, Any]]


def _top(*keys: str) -> Extractor:
    def ex(d: dict, canon: Canon) -> dict[tuple, Any]:
        return {(k,): d[k] for k in keys if k in d}
    return ex


def _averages(d: dict, canon: Canon) -> dict[tuple, Any]:
    return {(how, m): v for how in ("macro", "micro", "weighted") for m, v in d[how].items()}


def _per_class(d: dict, canon: Canon) -> dict[tuple, Any]:
    return {(canon(lab), m): v for lab, row in d["per_class"].items() for m, v in row.items()}


def _confusion(d: dict, canon: Canon) -> dict[tuple, Any]:
    if "confusion_matrix" not in d:
        return {}
    labs = d["labels"]
    return {(canon(labs[i]),
             canon(labs[j])): c for i, row in enumerate(d["confusion_matrix"]) for j, c in enumerate(row)}


def _binary(d: dict, canon: Canon) -> dict[tuple, Any]:
    b = d.get("binary") or {}
    return {(k,): (canon(v) if k == "positive" else v) for k, v in b.items()}


def _ordinal(d: dict, canon: Canon) -> dict[tuple, Any]:
    o = d.get("ordinal") or {}
    return {(k,): (tuple(canon(x) for x in v) if k == "order" else v) for k, v in o.items()}


def _undefined(d: dict, canon: Canon) -> dict[tuple, Any]:
    return {(e["metric"], frozenset(canon(x) for x in e.get("labels", [])),
             e.get("items")): True for e in d["undefined"]}


def _hardest(d: dict, canon: Canon) -> dict[tuple, Any]:
    diag = d["diagnostics"]
    out: dict[tuple, Any] = {("hardest_classes",): frozenset(canon(x) for x in diag["hardest_classes"])}
    if len(diag["hardest_classes"]) == 1:
        out[("hardest_class",)] = canon(diag["hardest_class"])
    return out


def _confused_pair(d: dict, canon: Canon) -> dict[tuple, Any]:
    pair = d["diagnostics"].get("most_confused_pair")
    if "confusion_matrix" not in d:
        return {}
    if pair is None:
        return {("pair",): None}
    out: dict[tuple, Any] = {("errors",): pair["errors"]}
    cm = np.array(d["confusion_matrix"])
    sym = (cm + cm.T)[np.triu_indices(len(cm), 1)]
    if np.count_nonzero(sym == sym.max()) == 1:  # no tie: the pair and both directions are order-free
        a, b = (canon(x) for x in pair["classes"])
        out[("cells",)] = frozenset({(a, b, pair["a_as_b"]), (b, a, pair["b_as_a"])})
    return out


def _baselines(d: dict, canon: Canon) -> dict[tuple, Any]:
    out: dict[tuple, Any] = {}
    for name, b in d["baselines"].items():
        for k, v in b.items():
            if k in ("accuracy", "macro_f1", "micro_f1", "hamming_loss"):
                out[(name, k)] = v
        tied = name == "majority" and "label" in b and _majority_tied(d)
        if not tied:
            for lab, row in b["per_class"].items():
                for m, v in row.items():
                    out[(name, canon(lab), m)] = v
            if "label" in b:
                out[(name, "label")] = canon(b["label"])
    return out


def _majority_tied(d: dict) -> bool:
    support = [row["support"] for row in d["per_class"].values()]
    return support.count(max(support)) > 1


REGISTRY: list[tuple[str, Extractor]] = [
    ("n", _top("n", "kind")),
    ("scalars", _top("accuracy", "error_rate", "balanced_accuracy", "mcc", "kappa", "subset_accuracy",
                     "hamming_loss", "jaccard")),
    ("averages", _averages),
    ("per_class", _per_class),
    ("confusion_matrix", _confusion),
    ("binary", _binary),
    ("ordinal", _ordinal),
    ("undefined", _undefined),
    ("hardest", _hardest),
    ("most_confused_pair", _confused_pair),
    ("baselines", _baselines),
]


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and same(a, b, 1e-12)
    return a == b


def assert_invariant(d1: dict, d2: dict, canon2: Canon = lambda s: s, skip: tuple = ()) -> None:
    """Every registered number of report ``d1`` equals that of ``d2`` (labels of ``d2`` mapped by ``canon2``)."""
    for name, ex in REGISTRY:
        if name in skip:
            continue
        a, b = ex(d1, lambda s: s), ex(d2, canon2)
        assert a.keys() == b.keys(), f"{name}: keys differ: {set(a) ^ set(b)}"
        bad = [(k, a[k], b[k]) for k in a if not _equal(a[k], b[k])]
        assert not bad, f"{name}: {bad[:5]}"


def test_registry_covers_every_json_key() -> None:
    """A new number in the report must be added to the registry (or here, on purpose)."""
    d = report(["a", "b", "b", "c"], ["a", "a", "b", "c"], positive="a", order=["a", "b", "c"]).to_dict()
    covered = {"n", "kind", "accuracy", "error_rate", "balanced_accuracy", "mcc", "kappa", "macro", "micro",
               "weighted", "per_class", "confusion_matrix", "binary", "ordinal", "undefined", "diagnostics",
               "baselines"}
    not_numbers = {"schema_version", "labels", "notes", "signature", "engine"}  # engine: where it ran (issue 21)
    assert set(d) <= covered | not_numbers, set(d) - covered - not_numbers


# --- transformations ----------------------------------------------------------

def _pick_positive(case, data) -> Any:
    return data.draw(st.one_of(st.none(), st.sampled_from(case.occurring)), label="positive")


@SETTINGS
@given(case=single_label_cases(max_k=12), zd=ZD, seed=st.integers(0, 2 ** 32 - 1), data=st.data())
def test_shuffling_items_changes_nothing(case, zd, seed, data) -> None:
    positive = _pick_positive(case, data)
    order = data.draw(st.one_of(st.none(), st.permutations(case.occurring)), label="order")
    perm = np.random.default_rng(seed).permutation(len(case.gold))
    g2 = [case.gold[i] for i in perm]
    p2 = [case.pred[i] for i in perm]
    d1 = report(case.gold, case.pred, zero_division=zd, positive=positive, order=order).to_dict()
    d2 = report(g2, p2, zero_division=zd, positive=positive, order=order).to_dict()
    assert_invariant(d1, d2)
    assert d1["labels"] == d2["labels"] and d1["confusion_matrix"] == d2["confusion_matrix"]


def _renaming(case, data) -> tuple[dict, str]:
    """A bijective map of the case's labels onto new labels (strings or ints; a blank text is a missing label)."""
    kind = data.draw(st.sampled_from(["str", "int"]), label="renamed to")
    names = st.integers(-10 ** 6, 10 ** 6) if kind == "int" else st.text(min_size=1, max_size=4).filter(str.strip)
    targets = data.draw(st.lists(names,
                                 min_size=len(case.vocab), max_size=len(case.vocab), unique=True), label="new names")
    return dict(zip(case.vocab, targets, strict=True)), kind


@SETTINGS
@given(case=single_label_cases(max_k=12), zd=ZD, data=st.data())
def test_renaming_labels_changes_nothing(case, zd, data) -> None:
    mapping, _ = _renaming(case, data)
    positive = _pick_positive(case, data)
    order = data.draw(st.one_of(st.none(), st.permutations(case.occurring)), label="order")
    d1 = report(case.gold, case.pred, zero_division=zd, positive=positive, order=order).to_dict()
    d2 = report([mapping[x] for x in case.gold], [mapping[x] for x in case.pred], zero_division=zd,
                positive=None if positive is None else mapping[positive],
                order=None if order is None else [mapping[x] for x in order]).to_dict()
    back = {label_str(mapping[v]): label_str(v) for v in case.vocab}
    assert_invariant(d1, d2, back.__getitem__)


@SETTINGS
@given(case=single_label_cases(max_k=12, kinds=("int_small", "int_sparse", "int_negative")), zd=ZD, data=st.data())
def test_int_and_string_forms_give_the_same_numbers(case, zd, data) -> None:
    positive = _pick_positive(case, data)
    d_int = report(case.gold, case.pred, zero_division=zd, positive=positive).to_dict()
    d_str = report([str(x) for x in case.gold], [str(x) for x in case.pred], zero_division=zd,
                   positive=None if positive is None else str(positive)).to_dict()
    assert_invariant(d_int, d_str)
    # a command-line option is a string: it names the int label by its string form
    if positive is not None:
        d_opt = report(case.gold, case.pred, zero_division=zd, positive=str(positive)).to_dict()
        assert_invariant(d_int, d_opt)


@SETTINGS
@given(case=single_label_cases(max_k=12), zd=ZD, data=st.data())
def test_permuting_the_label_order_changes_nothing(case, zd, data) -> None:
    labels_a = data.draw(st.permutations(case.occurring + list(case.extra)), label="order a")
    labels_b = data.draw(st.permutations(labels_a), label="order b")
    positive = _pick_positive(case, data)
    d1 = report(case.gold, case.pred, labels=labels_a, zero_division=zd, positive=positive).to_dict()
    d2 = report(case.gold, case.pred, labels=labels_b, zero_division=zd, positive=positive).to_dict()
    assert d2["labels"] == [label_str(x) for x in labels_b]
    assert_invariant(d1, d2)


def _split(n: int, data) -> list[tuple[int, int]]:
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=5), label="cuts"))
    bounds = [0] + cuts + [n]
    return list(zip(bounds[:-1], bounds[1:], strict=True))


@SETTINGS
@given(case=single_label_cases(max_k=12), zd=ZD, data=st.data())
def test_adding_batch_tables_gives_the_whole(case, zd, data) -> None:
    parts = _split(len(case.gold), data)
    whole = confusion_table(case.gold, case.pred)
    tables = [confusion_table(case.gold[a:b], case.pred[a:b]) for a, b in parts]
    total = tables[0]
    for t in tables[1:]:
        total = total + t
    assert total == whole
    assert sum(tables) == whole
    acc = ConfusionAccumulator()
    for a, b in parts:
        acc.update(case.gold[a:b], case.pred[a:b])
    assert acc.table == whole
    # two accumulators over halves, merged
    left, right = ConfusionAccumulator(), ConfusionAccumulator()
    for i, (a, b) in enumerate(parts):
        (left if i % 2 else right).update(case.gold[a:b], case.pred[a:b])
    left.merge(right)
    assert left.table.relabel(whole.labels) == whole
    d_whole = report(case.gold, case.pred, zero_division=zd).to_dict()
    assert_invariant(d_whole, report_from_table(total, zero_division=zd).to_dict())


@SETTINGS
@given(case=single_label_cases(max_k=12), zd=ZD, data=st.data())
def test_accumulator_with_fixed_labels_gives_the_report_with_labels(case, zd, data) -> None:
    labels = data.draw(st.permutations(case.occurring + list(case.extra)), label="labels")
    acc = ConfusionAccumulator(labels=labels)
    for a, b in _split(len(case.gold), data):
        acc.update(case.gold[a:b], case.pred[a:b])
    t = acc.table
    assert list(t.labels) == list(labels)
    assert t == confusion_table(case.gold, case.pred, labels=labels)
    assert_invariant(report(case.gold, case.pred, labels=labels, zero_division=zd).to_dict(),
                     report_from_table(t, zero_division=zd).to_dict())


# --- multi-label ----------------------------------------------------------------

@SETTINGS
@given(case=multilabel_cases(max_l=10, max_n=40), zd=ZD, seed=st.integers(0, 2 ** 32 - 1))
def test_multilabel_shuffle_and_label_order(case, zd, seed) -> None:
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(case.gold))
    d1 = report(case.gold, case.pred, multilabel=True, zero_division=zd).to_dict()
    d2 = report([case.gold[i] for i in perm], [case.pred[i] for i in perm], multilabel=True, zero_division=zd).to_dict()
    assert_invariant(d1, d2)
    labels = list(case.vocab)
    rng.shuffle(labels)
    d3 = report(case.gold, case.pred, multilabel=True, labels=labels, zero_division=zd).to_dict()
    d4 = report(case.gold, case.pred, multilabel=True, labels=sorted(case.vocab, key=label_str, reverse=True),
                zero_division=zd).to_dict()
    assert_invariant(d3, d4)


@SETTINGS
@given(case=multilabel_cases(max_l=10, max_n=40, kinds=("str", "int_small")), zd=ZD, data=st.data())
def test_multilabel_renaming_changes_nothing(case, zd, data) -> None:
    mapping, kind = _renaming(case, data)
    if kind == "str":
        new = [v.replace("|", "¦").strip() for v in mapping.values()]
        if len(set(new)) != len(new) or not all(new):
            new = [f"n{i}" for i in range(len(new))]
        mapping = dict(zip(mapping, new, strict=True))
    d1 = report(case.gold, case.pred, multilabel=True, zero_division=zd).to_dict()
    d2 = report([[mapping[x] for x in s] for s in case.gold], [[mapping[x] for x in s] for s in case.pred],
                multilabel=True, zero_division=zd).to_dict()
    back = {label_str(mapping[v]): label_str(v) for v in case.vocab}
    assert_invariant(d1, d2, back.__getitem__)


@SETTINGS
@given(case=multilabel_cases(max_l=10, max_n=40), zd=ZD, data=st.data())
def test_multilabel_batches_add_to_the_whole(case, zd, data) -> None:
    parts = _split(len(case.gold), data)
    whole = multilabel_table(case.gold, case.pred)
    tables = [multilabel_table(case.gold[a:b], case.pred[a:b]) for a, b in parts]
    total = tables[0]
    for t in tables[1:]:
        total = total + t
    assert total == whole
    assert sum(tables) == whole
    acc = MultilabelAccumulator()
    for a, b in parts:
        acc.update(case.gold[a:b], case.pred[a:b])
    assert acc.table == whole
    d_whole = report(case.gold, case.pred, multilabel=True, zero_division=zd).to_dict()
    assert_invariant(d_whole, report_from_table(total, zero_division=zd).to_dict())


def test_multilabel_batches_with_different_label_sets() -> None:
    b1 = (["a|b", "a"], ["a", "b"])
    b2 = (["c", ""], ["c|d", ""])
    whole = multilabel_table(b1[0] + b2[0], b1[1] + b2[1])
    t = multilabel_table(*b1) + multilabel_table(*b2)
    assert t == whole
    assert t.labels == ("a", "b", "c", "d")
    # label "c" never appears in batch 1: both of batch 1's items are true negatives for it
    assert t.binary("c").tn == 2 + 1 and t.binary("c").tp == 1
    acc = MultilabelAccumulator()
    acc.update(*b1)
    acc.update(*b2)
    assert acc.table == whole


def test_same_numbers_from_int_bool_and_string_forms_of_two_labels() -> None:
    g = [1, 0, 1, 1, 0]
    p = [1, 1, 0, 1, 0]
    d_int = report(g, p, positive=1).to_dict()
    d_str = report([str(x) for x in g], [str(x) for x in p], positive="1").to_dict()
    d_bool = report([bool(x) for x in g], [bool(x) for x in p], positive=True).to_dict()
    assert_invariant(d_int, d_str)
    assert_invariant(d_int, d_bool, {"True": "1", "False": "0"}.__getitem__)
