"""MkDocs hooks of the clfeval site (``hooks:`` in mkdocs.yml).

Tables the code owns are generated at build time, never copied into the pages: a page holds a marker line and
the build puts the table in its place. ``tests/project/test_docs.py`` checks that the markers are there and that
:func:`expand` gives the code's tables.

The API reference is generated too (issue 37): one page per name of ``clfeval.__all__`` (a function, or a result
type with the part types reachable from its fields), the engines, the errors and ``clfeval.plots``, and one page per
stage package (``reference/api/packages/significance.md``: an entry per name of its ``__all__``, or a link to the
entry of an object documented already, so that each object is documented once), each entry a
mkdocstrings directive on the name's **public** path (``::: clfeval.report``), never on the module that defines
it (modules move). The nav gets the pages (:func:`on_config`), the files are made in memory (:func:`on_files`),
and after the build :func:`on_post_build` fails it when a public name, a result type or one of its fields has no
entry on the site (:func:`missing`; ``tests/project/test_apiref.py`` runs the same check), or when a parameter
of a public function (``clfeval.__all__``, ``clfeval.plots.__all__``) has no entry in its docstring's Parameters
section (:func:`undescribed_parameters`). A class's page is in its group's folder (``reference/api/results/``,
``reference/api/tables/``), so that no two page paths differ only in case (:func:`case_collisions`).
:class:`SphinxRoles`, a griffe extension (mkdocs.yml), turns the Sphinx roles of the docstrings into links or code
spans.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from griffe import Extension

# ---------------------------------------------------------------- generated tables


def _exit_codes() -> str:
    from clfeval.errors import exit_codes_markdown

    return exit_codes_markdown()


def _capabilities() -> str:
    from clfeval.engines._capabilities import markdown

    return markdown()


def _frame_columns() -> str:
    from clfeval.render._frames import frame_columns_markdown

    return frame_columns_markdown()


#: marker → the function that gives its table
TABLES: dict[str, Callable[[], str]] = {
    "<!-- clfeval:exit-codes -->": _exit_codes,
    "<!-- clfeval:capabilities -->": _capabilities,
    "<!-- clfeval:frame-columns -->": _frame_columns,
}


def expand(markdown: str) -> str:
    """``markdown`` with every marker line replaced by its generated table."""
    for marker, make in TABLES.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown


# ---------------------------------------------------------------- the API reference, from clfeval.__all__

#: the page that lists the public names package by package (the contract), and the folder of the generated pages
CONTRACT = "reference/api.md"
FOLDER = "reference/api"
#: the stage packages: a page each (``reference/api/packages/<package>.md``), an entry per name of its ``__all__``
STAGES = ("clfeval.core", "clfeval.evaluate", "clfeval.scores", "clfeval.significance", "clfeval.protocols",
          "clfeval.io", "clfeval.text", "clfeval.studies", "clfeval.render", "clfeval.engines", "clfeval.engines.dask",
          "clfeval.front")
STAGE_GROUP = "Stage packages"
#: where a part type is documented when several packages export it: the front door, then the results' packages
_PACKAGES = ("clfeval", "clfeval.ops.report", "clfeval.ops.compare", "clfeval.ops.threshold",
             "clfeval.ops.calibration", "clfeval.ops.ranking", "clfeval.ops.errors", "clfeval.ops.rank",
             "clfeval.ops.label_issues",
             "clfeval.core", "clfeval.evaluate", "clfeval.scores", "clfeval.significance", "clfeval.protocols")


class Page(typing.NamedTuple):
    """One generated page: its path under docs/, its nav title, the identifiers it documents, its markdown."""

    path: str
    title: str
    group: str
    idents: tuple[str, ...]
    markdown: str


def _public_names(package: str) -> list[str]:
    """``package.__all__`` without the deprecated names (``_MOVED``: they warn) and ``__version__``."""
    mod = importlib.import_module(package)
    moved = getattr(mod, "_MOVED", {})
    return [n for n in mod.__all__ if n not in moved and not n.startswith("__")]


@functools.cache
def public_paths() -> dict[int, str]:
    """id(object) → its public path (``clfeval.ops.report.ClassRow``), the first package of ``_PACKAGES`` wins."""
    out: dict[int, str] = {}
    for package in _PACKAGES:
        mod = importlib.import_module(package)
        for name in _public_names(package):
            try:
                value = getattr(mod, name)
            except ImportError:  # an optional extra (a name of the text stage needs scikit-learn)
                continue
            if isinstance(value, type) or callable(value):
                out.setdefault(id(value), f"{package}.{name}")
    return out


@functools.cache
def _namespace() -> dict[str, Any]:
    """Every public class by name: what a forward reference in a field's annotation may name."""
    out: dict[str, Any] = {}
    for ident in public_paths().values():
        package, _, name = ident.rpartition(".")
        value = getattr(importlib.import_module(package), name)
        if isinstance(value, type):
            out.setdefault(name, value)
    return out


def public_path(obj: Any) -> str:
    """The public path of ``obj``; its defining module's path when no package exports it."""
    return public_paths().get(id(obj)) or f"{obj.__module__}.{obj.__qualname__}"


@functools.cache
def _type_checking_names(module: str) -> dict[str, Any]:
    """The classes a module imports only for type checkers (``if TYPE_CHECKING:``), by the name it uses."""
    import ast
    import sys

    out: dict[str, Any] = {}
    source = Path(sys.modules[module].__file__ or "")
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imp in node.body:
                if isinstance(imp, ast.ImportFrom) and imp.module and imp.module.startswith("clfeval"):
                    mod = importlib.import_module(imp.module)
                    out.update({a.asname or a.name: getattr(mod, a.name, None) for a in imp.names})
    return out


def _classes_in(cls: type, annotation: Any) -> Iterable[type]:
    """The classes an annotation names (a string under ``from __future__ import annotations``), looked up where
    ``cls`` is defined, among its type-checking imports and the public names."""
    import sys

    scopes = (vars(sys.modules[cls.__module__]), _type_checking_names(cls.__module__), _namespace())
    for word in re.findall(r"[A-Za-z_]\w*", str(annotation)):
        for scope in scopes:
            if isinstance(scope.get(word), type):
                yield scope[word]
                break


def fields(cls: type) -> list[str]:
    """The public fields of a dataclass (none for another class)."""
    if not dataclasses.is_dataclass(cls):
        return []
    return [f.name for f in dataclasses.fields(cls) if not f.name.startswith("_")]


def parts(cls: type, seen: set[int]) -> list[type]:
    """The clfeval dataclasses reachable from the fields of ``cls`` (depth first, each once over ``seen``)."""
    out: list[type] = []
    if not dataclasses.is_dataclass(cls):
        return out
    annotations = {f.name: f.type for f in dataclasses.fields(cls)}
    for name in fields(cls):
        for part in _classes_in(cls, annotations[name]):
            if (part.__module__.startswith("clfeval.") and dataclasses.is_dataclass(part)
                    and id(part) not in seen):
                seen.add(id(part))
                out.append(part)
                out.extend(parts(part, seen))
    return out


def _directive(ident: str, level: int, **options: Any) -> str:
    lines = [f"::: {ident}", "    options:", f"      heading_level: {level}", "      show_root_heading: true",
             "      show_root_full_path: true"]
    lines += [f"      {key}: {str(value).lower() if isinstance(value, bool) else value}"
              for key, value in options.items()]
    return "\n".join(lines) + "\n"


def _kind(package: str, name: str) -> str:
    value = getattr(importlib.import_module(package), name)
    if isinstance(value, type) and issubclass(value, BaseException):
        return "error"
    if isinstance(value, type) and value.__module__.startswith("clfeval.engines."):
        return "engine"
    return "result" if isinstance(value, type) else "function"


def _return_class(function: Any) -> Any:
    """The class a function's return annotation names (``-> Report``), None when it names none."""
    import sys

    words = re.findall(r"[A-Za-z_]\w*", str(getattr(function, "__annotations__", {}).get("return", "")))
    scopes = (vars(sys.modules[function.__module__]), _type_checking_names(function.__module__), _namespace())
    for word in words:
        for scope in scopes:
            if isinstance(scope.get(word), type):
                return scope[word]
    return None


@functools.cache
def pages() -> tuple[Page, ...]:
    """Every generated page of the API reference: :func:`front_pages`, then :func:`stage_pages`."""
    return front_pages() + stage_pages()


def _object(ident: str) -> Any:
    """The object a public path names (``clfeval.ops.report.ClassRow``), None for a package or a missing extra."""
    package, _, name = ident.rpartition(".")
    try:
        return getattr(importlib.import_module(package), name, None)
    except (ImportError, ValueError):
        return None


def _documentable(value: Any) -> bool:
    """Whether ``value`` is one object that two paths may name (a class or a function; not a tuple or a dict)."""
    return isinstance(value, type) or callable(value)


@functools.cache
def stage_entries() -> dict[str, str]:
    """``clfeval.<stage>.<name>`` → the identifier of its entry, for every name of each stage package's ``__all__``
    (:data:`STAGES`; but the deprecated names): itself, or, for an object documented already (by ``clfeval`` or as
    a result's part, or by an earlier stage package), that entry's identifier, so that each object has one entry."""
    entries: dict[int, str] = {}
    for page in front_pages():
        for ident in page.idents:
            value = _object(ident)
            if _documentable(value):
                entries.setdefault(id(value), ident)
    out: dict[str, str] = {}
    for package in STAGES:
        mod = importlib.import_module(package)
        for name in _public_names(package):
            ident = f"{package}.{name}"
            try:
                value = getattr(mod, name)
            except ImportError:  # an optional extra: the entry is still its own, griffe reads the source
                out[ident] = ident
                continue
            out[ident] = entries.setdefault(id(value), ident) if _documentable(value) else ident
    return out


@functools.cache
def stage_pages() -> tuple[Page, ...]:
    """A page per stage package (:data:`STAGES`): the package's docstring, an entry per name of its ``__all__`` on
    its public path (``::: clfeval.significance.power_compare``), then links to the names documented elsewhere."""
    out: list[Page] = []
    entries = stage_entries()
    front = {i for page in front_pages() for i in page.idents}  # clfeval.core.EngineInfo: a part of Report's page
    for package in STAGES:
        idents = [f"{package}.{n}" for n in _public_names(package)]
        own = [i for i in idents if entries[i] == i and i not in front]
        text = _directive(package, 1, members=False) + "\n" + "\n".join(
            _directive(i, 2, show_if_no_docstring=True) for i in own)
        elsewhere = [i for i in idents if i not in own]
        if elsewhere:
            text += ("\n## Documented on another page\n\n"
                     + "".join(f"- `{i.rpartition('.')[2]}`: [`{entries[i]}`][{entries[i]}]\n" for i in elsewhere))
        out.append(Page(f"{FOLDER}/packages/{package.rpartition('.')[2]}.md", package, STAGE_GROUP,
                        (package, *own), text))
    return tuple(out)


@functools.cache
def front_pages() -> tuple[Page, ...]:
    """The pages of ``clfeval.__all__`` (functions, result types with their parts), the engines, ``clfeval.errors``
    and ``clfeval.plots``."""
    import clfeval

    out: list[Page] = []
    seen: set[int] = set()
    names = _public_names("clfeval")
    kinds = {name: _kind("clfeval", name) for name in names}
    for name in (n for n in names if kinds[n] == "function"):
        ident = f"clfeval.{name}"
        out.append(Page(f"{FOLDER}/{name}.md", name, "Functions", (ident,), _directive(ident, 1)))
    # the result types first, in the order of the functions that return them (their parts go on their pages)
    returned = [_return_class(getattr(clfeval, n)) for n in names if kinds[n] == "function"]
    classes = sorted((n for n in names if kinds[n] == "result"),
                     key=lambda n: returned.index(getattr(clfeval, n)) if getattr(clfeval, n) in returned else 99)
    seen.update(id(getattr(clfeval, n)) for n in classes)
    for name in classes:
        cls, ident = getattr(clfeval, name), f"clfeval.{name}"
        text = _directive(ident, 1, show_if_no_docstring=True, inherited_members=True)
        found = parts(cls, seen)
        idents = [ident]
        if found:
            text += "\n## Its parts\n\n"
            for part in found:
                idents.append(public_path(part))
                text += "\n" + _directive(public_path(part), 3, show_if_no_docstring=True,
                                               inherited_members=True)
        group = "Results" if cls in returned else "Tables"
        # a class has its own folder: reference/api/Calibration.md and calibration.md are one file on a
        # case-insensitive file system (macOS, Windows), one page overwriting the other
        out.append(Page(f"{FOLDER}/{group.lower()}/{name}.md", name, group, tuple(idents), text))
    engines = [f"clfeval.{n}" for n in names if kinds[n] == "engine"]
    out.append(Page(f"{FOLDER}/engines.md", "Engines", "", tuple(engines),
                    "# Engines\n\nWhere an operation runs: the `engine=` of every front-door function.\n\n"
                    + "\n".join(_directive(i, 2, show_if_no_docstring=True) for i in engines)))
    for module, title in (("clfeval.errors", "Errors"), ("clfeval.plots", "Plots")):
        idents = tuple(f"{module}.{n}" for n in _public_names(module))
        text = _directive(module, 1, members=False) + "\n" + "\n".join(_directive(i, 2) for i in idents)
        out.append(Page(f"{FOLDER}/{module.rpartition('.')[2]}.md", title, "", (module, *idents), text))
    return tuple(out)


def case_collisions(paths: Iterable[str]) -> list[tuple[str, ...]]:
    """The groups of paths that are one file on a case-insensitive file system (equal under ``casefold()``),
    each sorted, sorted; none for the generated pages (:func:`pages`)."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(path.casefold(), []).append(path)
    return sorted(tuple(sorted(g)) for g in groups.values() if len(g) > 1)


def expected() -> set[str]:
    """The identifiers the site must have an entry for: every name of ``clfeval.__all__`` (but the deprecated
    ones), every result type and part type with each of its fields, each name of clfeval.errors and clfeval.plots,
    and each name of a stage package's ``__all__`` (:func:`stage_entries`: its own entry or its object's)."""
    import clfeval

    errors = set(_public_names("clfeval.errors"))  # clfeval.DataError is documented as clfeval.errors.DataError
    out = {f"clfeval.errors.{n}" if n in errors else f"clfeval.{n}" for n in _public_names("clfeval")}
    for page in front_pages():
        out.update(page.idents)
        if page.group in ("Results", "Tables"):
            for ident in page.idents:
                package, _, name = ident.rpartition(".")
                cls = getattr(importlib.import_module(package), name)
                out.update(f"{ident}.{f}" for f in fields(cls))
    out.update(STAGES)  # from __all__, not from the pages: a stage package's name, or its object's entry elsewhere
    out.update(stage_entries().values())
    assert "clfeval.report" in out and hasattr(clfeval, "Report")
    return out


def missing(found: Iterable[str]) -> list[str]:
    """The expected identifiers (:func:`expected`) with no entry among ``found`` (anchors of the site, or the
    identifiers of the generated directives), sorted."""
    return sorted(expected() - set(found))


_ANCHOR = re.compile(r'\bid="(clfeval[\w.]*)"')


def anchors(site_dir: str | Path) -> set[str]:
    """The ``clfeval…`` anchors of the built API reference pages."""
    root = Path(site_dir) / FOLDER
    return {m.group(1) for html in root.rglob("*.html") for m in _ANCHOR.finditer(html.read_text(encoding="utf-8"))}


def directives(markdown: str) -> set[str]:
    """The identifiers of the ``::: identifier`` lines of ``markdown``."""
    return set(re.findall(r"^::: (\S+)$", markdown, re.M))


def unlisted_keywords(index: dict[str, Any]) -> list[str]:
    """``function(keyword)`` for every parameter of a front-door function that is not in the text of its page in
    the search index (``search/search_index.json`` of the built site), sorted."""
    import inspect

    import clfeval

    text: dict[str, str] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#", 1)[0].rstrip("/")
        text[page] = text.get(page, "") + " " + doc.get("title", "") + " " + doc.get("text", "")
    out = []
    for page in pages():
        if page.group == "Functions":
            on_page = text.get(page.path.removesuffix(".md"), "")
            for keyword in inspect.signature(getattr(clfeval, page.title)).parameters:
                if not re.search(rf"\b{re.escape(keyword)}\b", on_page):
                    out.append(f"{page.title}({keyword})")
    return sorted(out)


#: the front door (issue 37): the first functions whose parameters all got an entry; now every public function's
FRONT_DOOR = ("report", "compare", "threshold", "calibration", "ranking", "error_analysis", "rank")
#: the packages whose public functions (their ``__all__``) have every parameter described
DESCRIBED = ("clfeval", "clfeval.plots")


def public_functions(packages: Iterable[str] = DESCRIBED) -> dict[str, Any]:
    """Public path → function, for every function of each package's ``__all__`` (but the deprecated names)."""
    import inspect

    out: dict[str, Any] = {}
    for package in packages:
        mod = importlib.import_module(package)
        for name in _public_names(package):
            try:
                value = getattr(mod, name)
            except ImportError:  # an optional extra
                continue
            if inspect.isfunction(value):
                out[f"{package}.{name}"] = value
    return out


def documented_parameters(function: Any) -> set[str]:
    """The names the numpy ``Parameters`` section of ``function``'s docstring describes, parsed by griffe
    (``score, scores_prefix : str`` is two names; ``*systems`` is ``systems``)."""
    import inspect
    import logging

    from griffe import Docstring, DocstringSectionKind

    logging.getLogger("griffe").disabled = True  # a section griffe cannot read is reported as missing names
    try:
        sections = Docstring(inspect.getdoc(function) or "").parse("numpy")
    finally:
        logging.getLogger("griffe").disabled = False
    return {p.name.lstrip("*") for s in sections if s.kind is DocstringSectionKind.parameters for p in s.value}


def undescribed_parameters(functions: dict[str, Any] | None = None) -> list[str]:
    """``function(parameter)`` for every parameter of a public function (:func:`public_functions`: every
    function of ``clfeval.__all__`` and ``clfeval.plots.__all__``, named by its public path; or the ``functions``
    given by name) with no entry in its docstring's Parameters section, sorted."""
    import inspect

    functions = public_functions() if functions is None else functions
    out = []
    for name, function in functions.items():
        described = documented_parameters(function)
        out += [f"{name}({p})" for p in inspect.signature(function).parameters if p not in described]
    return sorted(out)

def misleading_defaults(functions: dict[str, Any] | None = None) -> list[str]:
    """``function(a, b)`` for each Parameters entry whose rendered default would be wrong: one entry naming
    parameters whose defaults differ (the reference shows the first one's for all), or a ``{"x", "y"}`` type
    whose first choice (read as the default) is not the parameter's default; sorted."""
    import inspect
    import re

    functions = public_functions() if functions is None else functions
    out = []
    for name, function in functions.items():
        sig = inspect.signature(function).parameters
        section = (inspect.getdoc(function) or "").partition("Parameters\n----------\n")[2]
        section = re.split(r"\n\S[^\n]*\n-{3,}\n", section)[0]
        for entry, kind in re.findall(r"^(\*{0,2}\w+(?:, \*{0,2}\w+)*) : ?(.*)$", section, re.M):
            names = [n.strip().lstrip("*") for n in entry.split(",")]
            defaults = {repr(sig[n].default) for n in names if n in sig}
            choice = re.match(r"\{\s*([^,}]+)", kind)
            first = choice.group(1).strip() if choice else None
            if len(defaults) > 1 or (first is not None and len(names) == 1 and names[0] in sig
                                     and sig[names[0]].default is not inspect.Parameter.empty
                                     and first.strip("'\"") != str(sig[names[0]].default)):
                out.append(f"{name}({', '.join(names)})")
    return sorted(out)


def _nav_with_pages(nav: list[Any]) -> bool:
    """Replace the nav entry of :data:`CONTRACT` by a section: the contract, then the generated pages."""
    for i, entry in enumerate(nav):
        title, value = next(iter(entry.items())) if isinstance(entry, dict) else (None, entry)
        if value == CONTRACT:
            groups: dict[str, list[Any]] = {}
            section: list[Any] = [{"The public names": CONTRACT}]
            for page in pages():
                if page.group:
                    if page.group not in groups:
                        groups[page.group] = []
                        section.append({page.group: groups[page.group]})
                    groups[page.group].append({page.title: page.path})
                else:
                    section.append({page.title: page.path})
            nav[i] = {title or "Python API": section}
            return True
        if isinstance(value, list) and _nav_with_pages(value):
            return True
    return False


# ---------------------------------------------------------------- Sphinx roles in docstrings (a griffe extension)

_ROLE = re.compile(r":(?:py:)?(?:func|class|mod|data|meth|attr|obj|exc|const):`(~?)([^`<]+?)(?:\s*<([^>`]+)>)?`")


def documented() -> set[str]:
    """Identifiers with an entry on the site: a role naming one becomes a link."""
    return expected()


def convert_roles(text: str, known: set[str] | None = None) -> str:
    """Sphinx roles as Markdown: ``:func:`clfeval.report``` → a link to its entry when it has one, else a code
    span (``:class:`~a.b.C``` → `` `C` ``, ``:meth:`title <target>``` → `` `title` ``)."""
    known = documented() if known is None else known

    def one(m: re.Match[str]) -> str:
        tilde, target, explicit = m.group(1), m.group(2).strip(), m.group(3)
        if explicit:
            shown, target = target, explicit.strip()
        else:
            shown = target.rpartition(".")[2] if tilde else target
        shown = shown.rstrip("()") + ("()" if m.group(0).startswith((":func:", ":meth:")) else "")
        for ident in (target, f"clfeval.{target}"):
            ident = stage_entries().get(ident, ident)
            if ident in known:
                return f"[`{shown}`][{ident}]"
        return f"`{shown}`"

    return _ROLE.sub(one, text)


class SphinxRoles(Extension):
    """Griffe extension (mkdocs.yml, mkdocstrings' ``extensions``): no Sphinx role reaches the site."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and ":" in obj.docstring.value:
            obj.docstring.value = convert_roles(obj.docstring.value)


# ---------------------------------------------------------------- the hooks


def on_config(config: Any) -> Any:
    if not _nav_with_pages(config["nav"]):
        raise ValueError(f"mkdocs.yml: the nav has no entry {CONTRACT}, where the API reference goes")
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File

    clash = case_collisions([f.src_uri for f in files] + [page.path for page in pages()])
    if clash:
        raise PluginError(f"pages that are one file on a case-insensitive file system: {clash[:5]}")
    for page in pages():
        files.append(File.generated(config, page.path, content=page.markdown))
    return files


def link_names(markdown: str, known: set[str] | None = None) -> str:
    """The contract page with each listed name (``- `name` — …`` under ``## `package```) a link to its entry."""
    known = expected() if known is None else known
    errors = set(_public_names("clfeval.errors"))
    package, out = "", []
    for line in markdown.splitlines(keepends=True):
        if head := re.match(r"^## `(clfeval[\w.]*)`\s*$", line):
            package = head.group(1)
        elif package and (item := re.match(r"^- `(\w+)` — ", line)):
            name = item.group(1)
            ident = f"clfeval.errors.{name}" if package == "clfeval" and name in errors else f"{package}.{name}"
            ident = stage_entries().get(ident, ident)  # clfeval.core.ConfusionTable → clfeval.ConfusionTable
            if ident in known:
                line = f"- [`{name}`][{ident}] — " + line[item.end():]
        out.append(line)
    return "".join(out)


def on_page_markdown(markdown: str, page: Any = None, config: Any = None, files: Any = None) -> str:
    if page is not None and page.file.src_uri == CONTRACT:
        markdown = link_names(markdown)
    return expand(markdown)


def on_post_build(config: Any) -> None:
    import json

    from mkdocs.exceptions import PluginError

    lost = missing(anchors(config["site_dir"]))
    if lost:
        raise PluginError(f"the API reference has no entry for {len(lost)} public names: {', '.join(lost[:20])}")
    index = Path(config["site_dir"]) / "search" / "search_index.json"
    unlisted = unlisted_keywords(json.loads(index.read_text(encoding="utf-8")))
    if unlisted:
        raise PluginError(f"{len(unlisted)} keywords are nowhere on their function's page: {', '.join(unlisted[:20])}")
    misleading = misleading_defaults()
    if misleading:
        raise PluginError(f"{len(misleading)} Parameters entries would show a wrong default (one entry for "
                          f"parameters with different defaults, or a first choice that is not the default): "
                          f"{', '.join(misleading[:20])}")
    undescribed = undescribed_parameters()
    if undescribed:
        raise PluginError(f"{len(undescribed)} parameters of public functions have no entry in their docstring's "
                          f"Parameters section: {', '.join(undescribed[:20])}")
