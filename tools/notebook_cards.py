"""Look at what a notebook user sees (issue 37; a local check, not CI): write a notebook that shows the cards of
the front door's results, execute it with ``jupyter nbconvert --execute``, export it to HTML and screenshot it
with headless Chromium.

Usage (from the repository root, with a Python environment that has clfeval, nbconvert and ipykernel)::

    python tools/notebook_cards.py OUTDIR [--chromium chromium]

Writes OUTDIR/cards.ipynb (executed), OUTDIR/cards.html and OUTDIR/cards-N.png (one screenshot per card, each
in a page of its own so that a tall card does not hide the next). The inputs are the small files of
docs/examples/.
"""

from __future__ import annotations

import argparse
import html
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CELLS = [
    ("report by slice", 'import clfeval\n'
                        'r = clfeval.report("docs/examples/sources.csv", by=["source", "lang"], positive="spam")\nr'),
    ("report, slices found", 'clfeval.report("docs/examples/sources.csv", find_slices=["source", "lang"], '
                             'positive="spam")'),
    ("compare", 'clfeval.compare("docs/examples/mails.csv", "docs/examples/old.csv", samples=2000, seed=0)'),
    ("errors", 'clfeval.error_analysis("docs/examples/genres.csv", id="id", text="text", min_count=2)'),
    ("threshold", 'clfeval.threshold("docs/examples/mails.csv", dev="docs/examples/dev.csv", score="score", '
                  'positive="spam")'),
    ("calibration", 'clfeval.calibration("docs/examples/mails.csv", prob="score", positive="spam", bins=5)'),
    ("rank", 'clfeval.rank("docs/examples/demsar.csv", metric="roc_auc", bayes=False)'),
    ("slices table", 'r.slices.to_frame().head(8)'),
]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--chromium", default="chromium")
    args = ap.parse_args(argv)
    import nbformat

    out: Path = args.outdir
    out.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# clfeval results in a notebook")]
    for title, code in CELLS:
        code = code.replace('"docs/examples/', f'"{ROOT}/docs/examples/')  # the kernel runs in OUTDIR
        nb.cells += [nbformat.v4.new_markdown_cell(f"## {title}"), nbformat.v4.new_code_cell(code)]
    path = out / "cards.ipynb"
    nbformat.write(nb, path)
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                    "--allow-errors", str(path)], check=True, cwd=ROOT)
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", str(path)], check=True, cwd=ROOT)
    executed = nbformat.read(path, as_version=4)
    sizes = []
    for i, cell in enumerate(c for c in executed.cells if c.cell_type == "code"):
        shown = [o for o in cell.get("outputs", []) if o.get("output_type") in ("execute_result", "display_data")]
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if errors:
            print(f"cell {i + 1} ({CELLS[i][0]}): {errors[0]['ename']}: {errors[0]['evalue']}")
            continue
        card = next((o["data"]["text/html"] for o in shown if "text/html" in o.get("data", {})), None)
        if card is None:
            print(f"cell {i + 1} ({CELLS[i][0]}): no HTML output")
            continue
        sizes.append((CELLS[i][0], len(card.encode())))
        page = out / f"cards-{i + 1}.html"
        page.write_text(f"<!doctype html><meta charset='utf-8'><title>{html.escape(CELLS[i][0])}</title>"
                        f"<body style='font-family:sans-serif;max-width:1100px'>{card}</body>", encoding="utf-8")
        if shutil.which(args.chromium):
            subprocess.run([args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--window-size=1150,1600", f"--screenshot={out / f'cards-{i + 1}.png'}",
                            page.resolve().as_uri()], check=True, capture_output=True)
    for name, size in sizes:
        print(f"{name:24s} {size:7,d} bytes")
    bad = [n for n, s in sizes if s > 20_000]
    if bad or len(sizes) < len(CELLS):
        print("over 20 KB:", bad, "· shown:", len(sizes), "of", len(CELLS))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
