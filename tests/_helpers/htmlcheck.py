"""An HTML page parsed for the checks every page must pass (sections, inline figures, no external reference)."""

from __future__ import annotations

import re
from html.parser import HTMLParser


class Parsed(HTMLParser):
    """Everything the checks need from a page."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.sections: list[str] = []
        self.figures = 0
        self.figure_svgs = 0
        self.scripts: list[dict[str, str | None]] = []
        self.tags: list[str] = []
        self.styles: list[str] = []
        self._stack: list[str] = []
        self._in_style = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if "id" in a:
            self.ids.add(a["id"])
        for k, v in attrs:
            if k in ("src", "href", "xlink:href", "action", "srcset", "poster", "data") and v is not None:
                self.refs.append((tag, k, v))
            if k == "style" and v:
                self.styles.append(v)
        if tag == "section":
            self.sections.append(a.get("id", ""))
        if tag == "figure":
            self.figures += 1
        if tag == "svg" and self._stack and self._stack[-1] == "figure":
            self.figure_svgs += 1
        if tag == "script":
            self.scripts.append(a)
        if tag == "style":
            self._in_style = True
        if tag not in ("meta", "br", "path", "use", "rect", "stop", "image", "img", "input", "link"):
            self._stack.append(tag)

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False
        while self._stack and self._stack[-1] != tag:
            self._stack.pop()
        if self._stack:
            self._stack.pop()

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self._stack and self._stack[-1] == tag:
            self._stack.pop()

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)


def check_page(text: str, *, sections: tuple[str, ...] = (), standalone: bool = True, card: bool = False) -> Parsed:
    """The checks of a page (a notebook card, ``card``: no signature section)."""
    p = Parsed(text)
    # a notebook fragment's ids carry its own prefix
    for s in ("summary",) + (() if card else ("signature",)) + sections:
        assert any(x == s or x.endswith("-" + s) for x in p.sections), f"section {s!r} missing"
    assert p.figures == p.figure_svgs, "every figure is an inline <svg>"
    for tag, attr, value in p.refs:
        assert value.startswith("#") or value.startswith("data:image/png;base64,"), f"{tag} {attr}={value[:60]!r}"
        if value.startswith("#"):
            assert value[1:] in p.ids, f"link {value} has no target"
    for css in p.styles:
        for url in re.findall(r"url\(([^)]*)\)", css):
            assert url.strip("'\"").startswith("#"), url
        assert "@import" not in css
    # no external resource anywhere: any http(s) text is only an XML namespace declaration
    for m in re.finditer(r"https?://[^\s\"'<>)]+", text):
        before = text[max(0, m.start() - 16):m.start()]
        assert "xmlns" in before, f"external reference {m.group(0)}"
    assert "<img" not in text and "<iframe" not in text and "<link" not in text
    assert all("src" not in s for s in p.scripts), "no external script"
    assert len(p.scripts) == (1 if standalone else 0)
    every_id = re.findall(r'\bid="([^"]+)"', text)
    assert len(every_id) == len(set(every_id)), "an element id repeats"
    links = set(re.findall(r'href="#([^"]+)"', text))
    assert links <= p.ids, links - p.ids  # every in-page link has its target
    if any(re.match(r"(clfeval\d+-)?g-", x) for x in links):
        assert any(x == "glossary" or x.endswith("-glossary") for x in p.sections)
    return p
