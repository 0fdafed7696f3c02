"""The API reference is the API (issue 37, item 3): docs/hooks.py generates it from ``clfeval.__all__``.

The check that the strict build runs after writing the site (``on_post_build``: every public name, result type and
field has an anchor, every keyword of a front-door function is on its page) is tested here on the generated
markdown and on small hand-made sites; ``.ci/run``'s one build runs it on the real site.
"""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import pytest

import clfeval

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: the front door and what each returns (the issue's list, written by hand)
FRONT_DOOR = {"report": "Report", "compare": "Compared", "threshold": "ThresholdResult",
              "calibration": "Calibration", "ranking": "RankingResult", "error_analysis": "ErrorAnalysis",
              "rank": "RankResult"}


@pytest.fixture(scope="module")
def hooks():
    spec = importlib.util.spec_from_file_location("clfeval_docs_hooks_apiref", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pages(hooks):
    return {page.path: page for page in hooks.pages()}


def test_each_front_door_function_and_result_type_has_its_page(pages):
    for function, result in FRONT_DOOR.items():
        assert pages[f"reference/api/{function}.md"].markdown.startswith(f"::: clfeval.{function}\n")
        page = pages[f"reference/api/results/{result}.md"]
        assert page.group == "Results" and page.markdown.startswith(f"::: clfeval.{result}\n")
    for path in ("engines", "errors", "plots"):
        assert f"reference/api/{path}.md" in pages


def test_every_public_name_is_a_directive_on_its_public_path(hooks, pages):
    found = set().union(*(hooks.directives(p.markdown) for p in pages.values()))
    moved = set(clfeval._MOVED)
    errors = set(clfeval.errors.__all__)
    for name in clfeval.__all__:
        if name in moved or name == "__version__":
            assert f"clfeval.{name}" not in found, f"the deprecated {name} has an entry"
            continue
        assert (f"clfeval.errors.{name}" if name in errors else f"clfeval.{name}") in found, name
    plots = importlib.import_module("clfeval.plots")
    assert {f"clfeval.plots.{n}" for n in plots.__all__} <= found
    assert not any("._" in ident for ident in found - {"clfeval.core._ranksummary.RankingSummary",
                                                      "clfeval.core._slicebins.SliceBinning"}), \
        "a directive names a private module although a package exports the object"


def test_the_parts_of_a_result_are_on_its_page_once(pages, hooks):
    report = pages["reference/api/results/Report.md"]
    for part in ("ClassRow", "Averages", "Baselines", "SlicesPart", "SliceRow", "FoundSlices", "Intervals"):
        assert f"::: clfeval.ops.report.{part}\n" in report.markdown
    assert "::: clfeval.ops.compare.PairPart\n" in pages["reference/api/results/Compared.md"].markdown
    assert "::: clfeval.ops.threshold.ChosenCut\n" in pages["reference/api/results/ThresholdResult.md"].markdown
    every = [i for p in pages.values() for i in hooks.directives(p.markdown)]
    assert len(every) == len(set(every)), "an object is documented twice (two anchors, two contents entries)"


def test_the_check_finds_a_missing_name_or_field(hooks):
    everything = hooks.expected()
    assert {"clfeval.report", "clfeval.Report", "clfeval.Report.per_class", "clfeval.ops.report.ClassRow.f1",
            "clfeval.Compared.engine", "clfeval.errors.DataError", "clfeval.plots.roc", "clfeval.Local"} <= everything
    assert hooks.missing(everything) == []
    assert hooks.missing(everything - {"clfeval.rank", "clfeval.Report.per_class"}) == [
        "clfeval.Report.per_class", "clfeval.rank"]


def test_anchors_are_read_from_the_built_pages(hooks, tmp_path):
    page = tmp_path / "reference" / "api" / "report" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text('<h1 id="clfeval.report">x</h1><h2 id="other">y</h2><div id="clfeval.Report.n"></div>',
                    encoding="utf-8")
    (tmp_path / "index.html").write_text('<h1 id="clfeval.rank">elsewhere</h1>', encoding="utf-8")
    assert hooks.anchors(tmp_path) == {"clfeval.report", "clfeval.Report.n"}


def test_a_keyword_missing_from_its_page_is_found(hooks):
    keywords = list(inspect.signature(clfeval.report).parameters)
    assert "by_bins" in keywords
    text = " ".join(k for k in keywords if k != "by_bins") + " by_binning"
    index = {"docs": [{"location": "reference/api/report/", "title": "clfeval.report", "text": text}]}
    assert "report(by_bins)" in hooks.unlisted_keywords(index)
    index["docs"].append({"location": "reference/api/report/#clfeval.report", "title": "", "text": "by_bins"})
    assert not any(k.startswith("report(") for k in hooks.unlisted_keywords(index))


def test_every_parameter_of_the_front_door_has_an_entry_in_its_docstring(hooks):
    assert set(hooks.FRONT_DOOR) == set(FRONT_DOOR)
    assert hooks.undescribed_parameters() == []
    described = hooks.documented_parameters(clfeval.report)
    assert {"by_bins", "find_alpha", "score", "scores_prefix"} <= described  # "score, scores_prefix : str" is two
    assert hooks.documented_parameters(clfeval.compare) >= {"systems", "gold", "min_slice"}  # "*systems"


def test_every_parameter_of_every_public_function_has_an_entry(hooks):
    functions = hooks.public_functions()
    # the functions named by the issue, beyond the front door, and the figures (the list comes from __all__)
    assert {"clfeval.report_from_table", "clfeval.compare_many", "clfeval.delong_compare", "clfeval.delong_ovr",
            "clfeval.choose_label_thresholds", "clfeval.confusion_table", "clfeval.multilabel_table",
            "clfeval.joint_table", "clfeval.ranking_ovr", "clfeval.reliability", "clfeval.holm",
            "clfeval.choose_threshold", "clfeval.noninferiority", "clfeval.plots.roc", "clfeval.plots.save",
            "clfeval.plots.figure_svg", "clfeval.plots.phi_delta"} <= set(functions)
    assert not {"clfeval.Report", "clfeval.Local", "clfeval.plots.KINDS", "clfeval.Comparison"} & set(functions)
    assert hooks.undescribed_parameters() == []
    assert {"pred_a", "pred_b", "gold", "labels"} <= hooks.documented_parameters(clfeval.joint_table)
    assert {"positive", "zero_division", "beta"} <= hooks.documented_parameters(clfeval.compare_many)  # "a, b, c"


def test_the_check_covers_functions_beyond_the_front_door(hooks, monkeypatch):
    import clfeval.plots

    monkeypatch.setattr(clfeval.holm, "__doc__", "Holm-adjusted p-values, with no Parameters section.")
    monkeypatch.setattr(clfeval.plots.save, "__doc__", "Parameters\n----------\nfig : Figure\n    The figure.\n")
    assert hooks.undescribed_parameters() == ["clfeval.holm(p_values)", "clfeval.plots.save(path)"]


def test_a_parameter_with_no_entry_is_found(hooks):
    def f(a, b, *rest, c=1, d=2, **options):
        """One line.

        Parameters
        ----------
        a, b : int
            Two names, one entry.
        *rest : str
            The rest.
        d : int
            Described.

        Notes
        -----
        ``c`` and ``options`` are named here only, which is no entry.
        """

    def g(x):
        """No Parameters section."""

    assert hooks.documented_parameters(f) == {"a", "b", "rest", "d"}
    assert hooks.undescribed_parameters({"f": f, "g": g}) == ["f(c)", "f(options)", "g(x)"]
    assert hooks.undescribed_parameters({"h": lambda y: y}) == ["h(y)"]  # no docstring at all


def test_no_parameters_entry_shows_a_wrong_default(hooks):
    assert hooks.misleading_defaults() == []

    def f(a=1, b=2, c=3, d=None, e="auto"):
        """One line.

        Parameters
        ----------
        a, b : int
            One entry, two defaults: the page would show 1 for both.
        c : int
            Alone.
        d : {"csv", "tsv"}, optional
            The first choice reads as the default, which is None.
        e : {"auto", "long"}
            The first choice is the default.
        """

    def g(a=1, b=1):
        """One line.

        Parameters
        ----------
        a, b : int
            One entry, one default.
        """

    assert hooks.misleading_defaults({"f": f, "g": g}) == ["f(a, b)", "f(d)"]


def test_no_two_page_paths_are_equal_ignoring_case(hooks, pages):
    assert hooks.case_collisions(pages) == []
    assert hooks.case_collisions(p.removesuffix(".md") + "/index.html" for p in pages) == []  # the site's files
    # the function and the result type of one name: two pages, in two folders
    assert {"reference/api/calibration.md", "reference/api/results/Calibration.md",
            "reference/api/ranking.md", "reference/api/results/RankingResult.md"} <= set(pages)
    assert hooks.case_collisions(["a/Calibration.md", "b.md", "a/calibration.md", "A/CALIBRATION.md", "B.MD "]) == [
        ("A/CALIBRATION.md", "a/Calibration.md", "a/calibration.md")]
    assert all(p.startswith(("reference/api/results/", "reference/api/tables/"))
               for p, page in pages.items() if page.group in ("Results", "Tables"))


def test_sphinx_roles_become_links_or_code(hooks):
    known = {"clfeval.report", "clfeval.Report.metric"}
    convert = hooks.convert_roles
    assert convert("see :func:`clfeval.report`.", known) == "see [`clfeval.report()`][clfeval.report]."
    assert convert("a :func:`report`", known) == "a [`report()`][clfeval.report]"
    assert convert(":class:`~clfeval.ops.compare.Compared`", known) == "`Compared`"
    assert convert(":meth:`Report.metric <clfeval.Report.metric>`", known) == \
        "[`Report.metric()`][clfeval.Report.metric]"
    assert convert(":mod:`clfeval.significance._bounds` and :data:`FEW_ITEMS`", known) == \
        "`clfeval.significance._bounds` and `FEW_ITEMS`"
    assert convert("no role: a `code` span, key: value", known) == "no role: a `code` span, key: value"


def test_the_contract_page_links_each_name_to_its_entry(hooks):
    page = ("## `clfeval`\n\n- `report` — The report.\n- `DataError` — Bad data.\n- `Comparison` — Deprecated.\n"
            "\n## `clfeval.plots`\n\n- `roc` — ROC.\n")
    out = hooks.link_names(page, known={"clfeval.report", "clfeval.errors.DataError", "clfeval.plots.roc"})
    assert out == ("## `clfeval`\n\n- [`report`][clfeval.report] — The report.\n"
                   "- [`DataError`][clfeval.errors.DataError] — Bad data.\n- `Comparison` — Deprecated.\n"
                   "\n## `clfeval.plots`\n\n- [`roc`][clfeval.plots.roc] — ROC.\n")


def test_no_sphinx_role_is_left_in_the_pages_and_one_list_of_names():
    for doc in [*DOCS.rglob("*.md"), ROOT / "README.md"]:
        text = doc.read_text(encoding="utf-8")
        for role in (":func:`", ":class:`", ":mod:`", ":data:`", ":meth:`", ":attr:`"):
            assert role not in text, f"{doc.relative_to(ROOT)} shows {role} literally"
    assert not (DOCS / "API.md").exists(), "one list of the public names: docs/reference/api.md"


def test_the_nav_gets_the_generated_pages(hooks):
    nav = [{"Home": "index.md"}, {"Reference": [{"Command line": "reference/cli.md"},
                                                 {"Python API": "reference/api.md"}]}]
    hooks.on_config({"nav": nav})
    section = nav[1]["Reference"][1]["Python API"]
    assert section[0] == {"The public names": "reference/api.md"}
    functions = next(e["Functions"] for e in section if "Functions" in e)
    assert {"report": "reference/api/report.md"} in functions
    with pytest.raises(ValueError, match="reference/api.md"):
        hooks.on_config({"nav": [{"Home": "index.md"}]})


# ---------------------------------------------------------------- the stage packages (issue 37, item 3)

#: the stage packages, written by hand: each has its page, with an entry (or a link to one) per public name
STAGES = ("core", "evaluate", "scores", "significance", "protocols", "io", "text", "studies", "render", "engines",
          "engines.dask", "front")


def _public(package):
    import importlib

    mod = importlib.import_module(package)
    moved = set(getattr(mod, "_MOVED", {}))
    return [n for n in mod.__all__ if n not in moved and not n.startswith("__")], moved


def _target(ident):
    import importlib

    package, _, name = ident.rpartition(".")
    return getattr(importlib.import_module(package), name)


def test_each_stage_package_has_a_page_with_an_entry_or_a_link_per_name(hooks, pages):
    import re

    assert hooks.STAGES == tuple(f"clfeval.{s}" for s in STAGES)
    directives = {i: p.path for p in pages.values() for i in hooks.directives(p.markdown)}
    for stage in STAGES:
        package = f"clfeval.{stage}"
        page = pages[f"reference/api/packages/{stage.rpartition('.')[2]}.md"]
        assert page.group == "Stage packages" and page.markdown.startswith(f"::: {package}\n")
        links = dict(re.findall(r"^- `(\w+)`: \[`[\w.]+`\]\[([\w.]+)\]$", page.markdown, re.M))
        names, moved = _public(package)
        assert names, package
        for name in names:
            ident = f"{package}.{name}"
            if directives.get(ident) == page.path:
                assert name not in links, ident
            else:  # documented on another page (a result's part keeps its path): a link to the same object's entry
                assert directives[links[name]] != page.path and _target(links[name]) is _target(ident), ident
        for name in moved:
            assert f"{package}.{name}" not in directives and name not in links, f"the deprecated {name} has an entry"
    # by hand: its own entry, a link to the front door, a link to a result's part, a dask function beside clfeval's
    assert "::: clfeval.significance.power_compare\n" in pages["reference/api/packages/significance.md"].markdown
    assert "- `ConfusionTable`: [`clfeval.ConfusionTable`][clfeval.ConfusionTable]\n" in \
        pages["reference/api/packages/core.md"].markdown
    assert "- `Intervals`: [`clfeval.ops.report.Intervals`][clfeval.ops.report.Intervals]\n" in \
        pages["reference/api/packages/evaluate.md"].markdown
    assert "::: clfeval.engines.dask.report\n" in pages["reference/api/packages/dask.md"].markdown
    assert "::: clfeval.engines.report\n" not in pages["reference/api/packages/engines.md"].markdown


def test_each_object_is_documented_once(hooks, pages):
    seen: dict[int, str] = {}
    for page in pages.values():
        for ident in hooks.directives(page.markdown):
            if ident in hooks.STAGES or ident in ("clfeval.errors", "clfeval.plots"):
                continue
            value = _target(ident)
            if isinstance(value, type) or callable(value):
                assert id(value) not in seen, f"{ident} and {seen[id(value)]} are one object, documented twice"
                seen[id(value)] = ident


def test_the_check_covers_the_stage_packages(hooks):
    everything = hooks.expected()
    assert {"clfeval.significance.power_compare", "clfeval.io.FORMATS", "clfeval.engines.dask.report",
            "clfeval.protocols.RunLog", "clfeval.ops.report.Intervals", "clfeval.core.EngineInfo"} <= everything
    assert "clfeval.core.ConfusionTable" not in everything  # its entry is clfeval.ConfusionTable's
    assert hooks.missing(everything - {"clfeval.significance.power_compare", "clfeval.render.to_json"}) == [
        "clfeval.render.to_json", "clfeval.significance.power_compare"]


def test_a_new_name_of_a_stage_package_without_entry_fails_the_check(hooks, monkeypatch):
    import clfeval.significance as significance

    def caches():
        for f in (hooks.stage_entries, hooks.stage_pages, hooks.pages):
            f.cache_clear()

    before = hooks.expected()
    monkeypatch.setattr(significance, "__all__", [*significance.__all__, "brand_new"])
    monkeypatch.setattr(significance, "brand_new", lambda x: x, raising=False)
    caches()
    try:
        assert hooks.missing(before) == ["clfeval.significance.brand_new"]
        assert "::: clfeval.significance.brand_new\n" in hooks.stage_pages()[3].markdown
    finally:
        monkeypatch.undo()
        caches()
    assert hooks.missing(before) == []


def test_the_contract_page_links_the_stage_names(hooks):
    page = ("## `clfeval.core`\n\n- `ConfusionTable` — A table.\n- `safe_divide` — Divide.\n"
            "\n## `clfeval.evaluate`\n\n- `Intervals` — A part.\n- `Part` — Deprecated.\n")
    assert hooks.link_names(page) == (
        "## `clfeval.core`\n\n- [`ConfusionTable`][clfeval.ConfusionTable] — A table.\n"
        "- [`safe_divide`][clfeval.core.safe_divide] — Divide.\n"
        "\n## `clfeval.evaluate`\n\n- [`Intervals`][clfeval.ops.report.Intervals] — A part.\n- `Part` — Deprecated.\n")
    import re

    unlinked: dict[str, list[str]] = {}
    package = ""
    for line in hooks.link_names((DOCS / "reference" / "api.md").read_text(encoding="utf-8")).splitlines():
        if head := re.match(r"^## `(clfeval[\w.]*)`", line):
            package = head.group(1)
        elif package in hooks.STAGES and (item := re.match(r"^- `(\w+)` — ", line)):
            unlinked.setdefault(package, []).append(item.group(1))
    assert unlinked.get("clfeval.core") is None
    for package, names in unlinked.items():  # only the deprecated names stay plain text
        assert set(names) <= set(_public(package)[1]), package


def test_the_nav_has_a_group_of_stage_packages(hooks):
    nav = [{"Reference": [{"Python API": "reference/api.md"}]}]
    hooks.on_config({"nav": nav})
    section = nav[0]["Reference"][0]["Python API"]
    stages = next(e["Stage packages"] for e in section if "Stage packages" in e)
    assert stages[0] == {"clfeval.core": "reference/api/packages/core.md"}
    assert {"clfeval.significance": "reference/api/packages/significance.md"} in stages and len(stages) == 12


def test_a_doctest_of_an_entry_is_under_examples(hooks, pages):
    """Without an ``Examples`` heading griffe reads ``>>>`` lines as a parameter or the page shows a quote: every
    entry of the reference (the front door's, the result types' and their methods', the stage packages')."""
    import re

    def fine(obj):
        doc = inspect.getdoc(obj) or ""
        return ">>>" not in doc or re.search(r"\nExamples\n-{3,}\n", doc.split(">>>", 1)[0]) is not None

    bad = []
    idents = {i for page in pages.values() for i in hooks.directives(page.markdown)} - set(hooks.STAGES)
    assert {"clfeval.report", "clfeval.Report", "clfeval.errors"} <= idents
    for ident in sorted(idents):
        value = _target(ident)
        if inspect.ismodule(value):  # a module's entry renders its public names (clfeval.errors)
            members = [getattr(value, n) for n in getattr(value, "__all__", ())]
            members += [m for c in members if isinstance(c, type) for n, m in vars(c).items()
                        if not n.startswith("_") and inspect.isfunction(m)]
        elif isinstance(value, type):
            members = [m for n, m in vars(value).items() if not n.startswith("_") and inspect.isfunction(m)]
        else:
            members = []
        bad += [f"{ident}: {getattr(obj, '__qualname__', obj)}" for obj in (value, *members)
                if (inspect.isfunction(obj) or isinstance(obj, type)) and not fine(obj)]
    assert bad == []

    def f():
        """One line.

        >>> 1
        1
        """

    assert not fine(f)
