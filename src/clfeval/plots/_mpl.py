"""matplotlib, imported on first use: figures on the Agg canvas, safe labels, deterministic inline SVG.

Nothing here touches pyplot or the global backend: a figure is a
:class:`matplotlib.figure.Figure` with its own Agg canvas, so a notebook's own
backend is left alone and nothing is drawn on a screen.

Labels are user data. Inside figures they are drawn as typed:

* mathtext is off (``text.parse_math``), so ``$x^2$`` is four characters;
* legend entries are set after the legend is built, so a label starting
  with ``_`` (which matplotlib would take as "leave me out") still shows;
* a label longer than :data:`MAX_LABEL` characters is shortened in the
  middle, and the full text goes to an SVG ``<title>`` tooltip;
* the SVG backend escapes text for XML, so ``<script>`` stays text.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from clfeval.core import shown
from clfeval.errors import MissingExtra, UsageError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["figure", "rc", "short", "set_label", "label_ticks", "legend", "place_labels", "fit", "figure_svg", "save",
           "STYLE", "MAX_LABEL", "COLORS", "palette", "set_lines"]

#: Longest label drawn in full inside a figure.
MAX_LABEL = 28

#: Okabe & Ito's colour-blind-safe qualitative palette (2008): the colours of up to eight classes.
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
#: Kelly's 20 colours of maximum contrast (Kelly 1965, without white and black): the colours of 9 to 20 classes,
#: the darker first (the pale ones, faint as thin lines on white, come last).
KELLY = ("#875692", "#F38400", "#0067A5", "#BE0032", "#008856", "#882D17", "#604E97", "#E68FAC", "#848482",
         "#B3446C", "#2B3D26", "#8DB600", "#E25822", "#654522", "#F99379", "#F6A600", "#A1CAF1", "#C2B280",
         "#F3C300", "#DCD300")
#: The palette of fixed roles (metrics, cuts, systems): Okabe–Ito.
COLORS = OKABE_ITO


def palette(n: int) -> tuple[str, ...]:
    """One colour per class for ``n`` classes: Okabe–Ito up to 8, Kelly's 20 up to 20 (a figure never draws more
    classes; :mod:`clfeval.core._manyclasses`).

    >>> palette(3)
    ('#0072B2', '#E69F00', '#009E73')
    >>> len(set(palette(20)))
    20
    """
    if n <= len(OKABE_ITO):
        return OKABE_ITO[:n]
    if n <= len(KELLY):
        return KELLY[:n]
    raise ValueError(f"a figure draws at most {len(KELLY)} classes, each in its own colour; got {n}.")


STYLE: dict[str, Any] = {
    "text.parse_math": False,
    "svg.hashsalt": "clfeval",
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.size": 9.0,
    "axes.titlesize": 10.0,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
    "axes.labelsize": 9.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.edgecolor": "#555555",
    "axes.grid": False,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "legend.fontsize": 8.0,
    "legend.frameon": False,
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.0,
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "image.interpolation": "nearest",
    "path.simplify": False,
}


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise MissingExtra("figures need matplotlib", "html") from None
    return matplotlib


def rc() -> Any:
    """A context manager setting clfeval's style (mathtext off, fixed SVG hash salt, ...)."""
    return _matplotlib().rc_context(STYLE)


def figure(width: float, height: float, *, ax: Any = None, **subplots: Any) -> tuple[Any, Any]:
    """(Figure, axes) of ``width`` × ``height`` inches on an Agg canvas (call inside :func:`rc`).

    ``ax``: a matplotlib Axes of the caller's (a cell of their subplot grid): the figure is drawn into it and
    its Figure returned (the size is theirs). A figure of several panels splits that cell into them.
    """
    if ax is not None:
        return _into(ax, **subplots)
    _matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    fig = Figure(figsize=(width, height), layout="constrained")
    # a margin of 6 points: the layout measures rotated tick labels and fixed-aspect axes a few pixels short
    engine = fig.get_layout_engine()
    assert isinstance(engine, ConstrainedLayoutEngine)
    engine.set(w_pad=6 / 72, h_pad=6 / 72)
    FigureCanvasAgg(fig)
    fig._clfeval_titles = {}  # type: ignore[attr-defined]
    axes = fig.subplots(**subplots) if subplots else fig.subplots()
    return fig, axes


def _into(ax: Any, **subplots: Any) -> tuple[Any, Any]:
    """(Figure, axes) drawn into the caller's Axes ``ax``: itself, or the panels ``subplots`` asks for in its
    place (``nrows``, ``ncols``, ``sharex``, ``gridspec_kw`` ratios)."""
    fig = ax.figure
    if not hasattr(fig, "_clfeval_titles"):
        fig._clfeval_titles = {}
    if not subplots:
        ax._clfeval_given = True
        return fig, ax
    nrows, ncols = subplots.get("nrows", 1), subplots.get("ncols", 1)
    ratios = subplots.get("gridspec_kw") or {}
    grid = ax.get_subplotspec().subgridspec(nrows, ncols, **ratios)
    ax.remove()
    panels: list[Any] = []
    for i in range(nrows * ncols):
        share = panels[0] if subplots.get("sharex") and panels else None
        panel = fig.add_subplot(grid[i // ncols, i % ncols], sharex=share)
        panel._clfeval_given = True
        panels.append(panel)
    return fig, panels


def short(label: Any, limit: int = MAX_LABEL) -> str:
    """A label for a figure: shortened in the middle past ``limit`` characters.

    >>> short("a" * 40, 10)
    'aaaaa…aaaa'
    >>> short("spam")
    'spam'
    """
    text = shown(label)
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2 + (limit - 1) % 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head):]


def set_label(fig: Any, text_artist: Any, label: Any, limit: int = MAX_LABEL) -> None:
    """Show ``label`` (shortened) on a Text artist; the full text becomes its SVG tooltip."""
    full = shown(label)
    visible = short(full, limit)
    text_artist.set_text(visible)
    if visible != full:
        _tooltip(fig, text_artist, full)


def set_lines(fig: Any, text_artist: Any, lines: Sequence[Any], limit: int = 200) -> None:
    """Show several lines on a Text artist: each line made inert (:func:`set_label`'s rules), joined by real line
    breaks (a ``\\n`` inside one line, from user data, stays visible as an escape)."""
    full = [shown(x) for x in lines]
    visible = [short(x, limit) for x in full]
    text_artist.set_text("\n".join(visible))
    if visible != full:
        _tooltip(fig, text_artist, " / ".join(full))


def _tooltip(fig: Any, text_artist: Any, full: str) -> None:
    """Give a Text artist an id whose SVG group gets ``full`` as its ``<title>``."""
    titles = fig._clfeval_titles
    gid = f"clfeval-label-{len(titles)}"
    text_artist.set_gid(gid)
    titles[gid] = full


def label_ticks(fig: Any, ax: Any, axis: str, positions: Sequence[float] | np.ndarray, labels: Sequence[Any],
                limit: int = MAX_LABEL, **kw: Any) -> None:
    """Fixed ticks with user labels (shortened, with tooltips)."""
    labels = [shown(x) for x in labels]
    getattr(ax, f"set_{axis}ticks")(list(positions), [short(x, limit) for x in labels], **kw)
    for t, full in zip(getattr(ax, f"get_{axis}ticklabels")(), labels, strict=False):
        if short(full, limit) != full:
            _tooltip(fig, t, full)


def class_grid(fig: Any, ax: Any, labels: Sequence[Any], fontsize: float, xlabel: str, ylabel: str) -> None:
    """The axes of a k × k class matrix (the confusion matrix, the noise matrix): the classes as ticks on both
    axes (shortened, with tooltips), column labels turned so that they never overlap, the axis names, no
    spines."""
    k = len(labels)
    limit = 22 if k <= 20 else 14
    label_ticks(fig, ax, "x", range(k), labels, limit)
    label_ticks(fig, ax, "y", range(k), labels, limit)
    longest = max((len(short(x, limit)) for x in labels), default=1)
    rotation = 90 if k > 6 else 45 if longest * k > 36 else 0  # column labels never overlap
    ax.tick_params(axis="x", labelrotation=rotation, labelsize=max(fontsize, 5))
    if rotation == 45:
        for t in ax.get_xticklabels():
            t.set_horizontalalignment("right")
            t.set_rotation_mode("anchor")
    ax.tick_params(axis="y", labelsize=max(fontsize, 5))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    for s in ax.spines.values():
        s.set_visible(False)


def legend(fig: Any, ax: Any, handles: Sequence[Any], labels: Iterable[Any], **kw: Any) -> Any:
    """A legend whose texts are set after it is built (labels starting with ``_`` still show).

    ``loc="outside ..."`` (``"outside lower center"``) puts it on the figure, outside the axes, where the
    constrained layout makes room for it."""
    labels = list(labels)
    target = fig if str(kw.get("loc", "")).startswith("outside") else ax
    if target is fig and getattr(ax, "_clfeval_given", False):  # the caller's grid: inside their axes
        target, kw = ax, {**kw, "loc": "best"}
    leg = target.legend(list(handles), ["x"] * len(labels), **kw)
    for t, lab in zip(leg.get_texts(), labels, strict=False):
        set_label(fig, t, lab, 60)
    return leg


#: Where a point's label may go, in points from the point (dx, dy, ha, va), in the order tried.
_SPOTS = ((4, 3, "left", "bottom"), (4, -3, "left", "top"), (-4, 3, "right", "bottom"), (-4, -3, "right", "top"),
          (0, 7, "center", "bottom"), (0, -7, "center", "top"), (12, 12, "left", "bottom"), (-12, -12, "right", "top"),
          (12, -12, "left", "top"), (-12, 12, "right", "bottom"), (20, 0, "left", "center"),
          (-20, 0, "right", "center"), (0, 18, "center", "bottom"), (0, -18, "center", "top"),
          (22, 22, "left", "bottom"), (-22, -22, "right", "top"), (22, -22, "left", "top"),
          (-22, 22, "right", "bottom"))


def _box(px: float, py: float, spot: tuple[float, float, str, str], w: float, h: float, scale: float) \
        -> tuple[float, float, float, float]:
    dx, dy, ha, va = spot
    x = px + dx * scale
    y = py + dy * scale
    x0 = x if ha == "left" else x - w if ha == "right" else x - w / 2
    y0 = y if va == "bottom" else y - h / 2 if va == "center" else y - h
    return x0, y0, x0 + w, y0 + h


def place_labels(fig: Any, ax: Any, xs: Sequence[float], ys: Sequence[float], labels: Sequence[Any], *,
                 others: Sequence[tuple[float, float]] = (), limit: int = MAX_LABEL, fontsize: float = 7.0,
                 colors: Sequence[str] | None = None) -> list[Any]:
    """Name points: each label at the first spot beside its point (:data:`_SPOTS`) where it overlaps no label
    placed before it and no point of ``others``; a label with no free spot is left out (a crowded point keeps
    its marker, never a label printed over another). Labels are shortened past
    ``limit`` characters, with the full text as a tooltip; a label set apart from its point gets a thin leader
    line. ``colors``: one text colour per label. Returns the Text artists.

    The overlaps are judged in the axes' scale before the final layout (limits and aspect set first); the
    labels are offsets in points from their points, so they keep their places when the layout moves the axes.
    """
    import numpy as np

    ax.apply_aspect()
    to_px = ax.transData.transform
    scale = fig.dpi / 72.0
    pts = np.asarray([p for p in others if all(np.isfinite(p))] or np.zeros((0, 2)), dtype=np.float64).reshape(-1, 2)
    pts = to_px(pts) if len(pts) else pts
    radius = 3.5 * scale
    placed: list[tuple[float, float, float, float]] = []
    out = []
    for n, (x, y, label) in enumerate(zip(xs, ys, labels, strict=False)):
        text = short(label, limit)
        w, h = 0.56 * fontsize * len(text) * scale, 1.15 * fontsize * scale
        px, py = to_px((x, y))
        chosen = box = None
        for spot in _SPOTS:
            b = _box(px, py, spot, w, h, scale)
            clash = any(b[0] < q[2] and q[0] < b[2] and b[1] < q[3] and q[1] < b[3] for q in placed) or bool(
                len(pts) and np.any((pts[:, 0] > b[0] - radius) & (pts[:, 0] < b[2] + radius)
                                    & (pts[:, 1] > b[1] - radius) & (pts[:, 1] < b[3] + radius)))
            if not clash:
                chosen, box = spot, b
                break
        if chosen is None or box is None:  # crowded: no label rather than one over another
            continue
        placed.append(box)
        far = abs(chosen[0]) > 8 or abs(chosen[1]) > 8
        color = colors[n] if colors is not None else "#333333"
        t = ax.annotate("", (x, y), xytext=chosen[:2], textcoords="offset points", ha=chosen[2], va=chosen[3],
                        fontsize=fontsize, color=color, in_layout=False,
                        arrowprops={"arrowstyle": "-", "color": "#999999", "linewidth": 0.5, "shrinkA": 0,
                                    "shrinkB": 3} if far else None)
        set_label(fig, t, label, limit)
        out.append(t)
    return out


#: Pixels a curve may move when simplified again at the figure's own size (the JSON points are
#: within 0.5 px at a figure of 540 px; the sum stays below one pixel).
REFIT_TOLERANCE = 0.4


def fit(fig: Any, x: Sequence[Any] | np.ndarray, y: Sequence[Any] | np.ndarray, xlim: tuple[float, float] = (0.0, 1.0),
        ylim: tuple[float, float] = (0.0, 1.0)) -> tuple[Any, Any]:
    """The points of a curve simplified for this figure's size (the whole figure bounds the plot area)."""
    import numpy as np

    from clfeval.core import simplify

    xa = np.asarray([np.nan if v is None else v for v in x], dtype=np.float64)
    ya = np.asarray([np.nan if v is None else v for v in y], dtype=np.float64)
    px = (int(fig.get_figwidth() * fig.dpi), int(fig.get_figheight() * fig.dpi))
    keep = simplify(xa, ya, tolerance=REFIT_TOLERANCE, xlim=xlim, ylim=ylim, px=px)
    return xa[keep], ya[keep]


_HEAD = re.compile(r"^.*?(?=<svg\b)", re.S)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|href="#)([^")]+)')
_SIZE = re.compile(r'<svg([^>]*?) width="([\d.]+)pt" height="([\d.]+)pt"')
_FONT = re.compile(r" ?font-family: [^;\"]*;?")
_PATH = re.compile(r'\bd="([^"]*)"')
_DECIMALS = re.compile(r"(\d\.\d{2})\d+")
_FONT_STACK = ("-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', "
               "'Liberation Sans', 'DejaVu Sans', system-ui, sans-serif")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _unique_ids(svg: str) -> str:
    """Every id once: an artist id given to several elements (one gid on every bar of a series, a panel drawn
    twice) is numbered from its second use (``-2``, ``-3``); references point to definitions, which repeat never.

    >>> _unique_ids('<g id="a"/><g id="a"/><g id="b"/>')
    '<g id="a"/><g id="a-2"/><g id="b"/>'
    """
    seen: dict[str, int] = {}

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        seen[name] = seen.get(name, 0) + 1
        return m.group(0) if seen[name] == 1 else f'id="{name}-{seen[name]}"'

    return _ID.sub(one, svg)


def _print_svg(fig: Any, buf: io.StringIO, metadata: dict[str, Any]) -> None:
    """``fig.savefig(buf, format="svg", metadata=metadata)`` in one draw instead of two.

    ``savefig`` of a figure with a layout engine draws it twice: once with drawing switched off, to run the
    layout, then for real with the layout engine switched off. The layout runs at the start of every draw
    (``Figure.draw``), before any artist is drawn, so the real draw alone lays the figure out the same way:
    this prints the SVG canvas directly with the engine left on (the same bytes; about a sixth of a figure's time
    saved). A figure without a layout engine, or settings this path does not apply (``savefig.bbox: tight``, a
    figure or edge colour of ``savefig``), goes through ``savefig``."""
    import matplotlib as mpl

    dpi = mpl.rcParams["savefig.dpi"]
    if (fig.get_layout_engine() is None or mpl.rcParams["savefig.bbox"] == "tight" or dpi == "figure"
            or mpl.rcParams["savefig.facecolor"] != "auto" or mpl.rcParams["savefig.edgecolor"] != "auto"):
        fig.savefig(buf, format="svg", metadata=metadata)
        return
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    canvas, figure_dpi = fig.canvas, fig.dpi
    try:
        fig.dpi = dpi  # as savefig sets it; the SVG canvas then draws at 72 dpi
        FigureCanvasSVG(fig).print_svg(buf, metadata=metadata)  # the figure's canvas until its own is given back
    finally:
        fig.set_canvas(canvas)
        fig.dpi = figure_dpi


def figure_svg(fig: Any, prefix: str = "f", *, title: str | None = None) -> str:
    """The figure as an ``<svg>`` element to inline in a page: deterministic, self-contained.

    No XML prolog, DOCTYPE or metadata (no date, no creator link); every id
    prefixed with ``prefix`` (so several figures share a page); text as
    ``<text>`` in the page's system font; each shortened label carries its
    full text as a ``<title>``; ``title`` becomes the figure's accessible name.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        A figure of :mod:`clfeval.plots` (or any matplotlib figure).
    prefix : str, default "f"
        Put before every id of the SVG, so that several figures share a page.
    title : str, optional
        The figure's accessible name (``aria-label``); default none.

    Returns
    -------
    str
        The ``<svg>`` element, ending with a newline.
    """
    buf = io.StringIO()
    with rc():
        _print_svg(fig, buf, {"Date": None, "Creator": None, "Format": None, "Type": None})
    svg = _HEAD.sub("", buf.getvalue(), count=1)
    svg = _METADATA.sub("", svg)
    svg = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', svg)
    svg = _REF.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", svg)
    svg = _FONT.sub("", svg)
    svg = svg.replace("stroke-linecap: butt}</style>",
                      "stroke-linecap: butt}\n  text{font-family: " + _FONT_STACK + "}</style>", 1)
    svg = _PATH.sub(lambda m: 'd="' + _DECIMALS.sub(r"\1", m.group(1)).replace(" \n", " ").strip() + '"', svg)
    for gid, full in getattr(fig, "_clfeval_titles", {}).items():
        svg = svg.replace(f'<g id="{prefix}-{gid}">', f'<g id="{prefix}-{gid}"><title>{_escape(full)}</title>', 1)
    svg = _unique_ids(svg)
    aria = f' role="img" aria-label="{_escape(title)}"' if title else ' role="img"'
    svg = _SIZE.sub(lambda m: f'<svg{m.group(1)} width="{m.group(2)}pt" height="{m.group(3)}pt"{aria}', svg, count=1)
    return svg.strip() + "\n"


def save(fig: Any, path: str) -> None:
    """Write a figure to ``path``; the format comes from the extension (svg, png, pdf).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to write (an SVG as :func:`figure_svg` gives it, with the id prefix ``clfeval``).
    path : str
        The file written, atomically; its name must end in ``.svg``, ``.png`` or ``.pdf``.
    """
    ext = str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""
    if ext not in ("svg", "png", "pdf"):
        raise UsageError(f"cannot tell the image format of {str(path)!r}: the file name must end in .svg, .png or "
                         ".pdf.")
    with rc():
        if ext == "svg":
            from clfeval.io import atomic_write_text

            atomic_write_text(path, figure_svg(fig, "clfeval"))
            return
        buf = io.BytesIO()
        fig.savefig(buf, format=ext, metadata={"CreationDate": None} if ext == "pdf" else {"Software": None})
    from clfeval.io import atomic_path

    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(buf.getvalue())
