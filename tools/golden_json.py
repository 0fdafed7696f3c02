"""Dump ``to_dict()`` of every case of the front door's registry (``tests/_helpers/registry.py``), with
``signature.versions`` masked, into ``tests/_helpers/golden/registry/`` (issue 36: the JSON must not move).

Usage: python tools/golden_json.py [--check]   (from the repository root; --check compares instead of writing)

--check compares the fields a seeded resample produced (intervals' ends, p-values from resampling, replicate counts
and histograms, Bayesian probabilities; ``tests/_helpers/goldenpins.py`` lists them) within their stated Monte-Carlo
tolerance and every other field exactly (issue 39): another sampler of the same distribution passes.

Made once from main before the typed-results change; a later change that moves a value on purpose regenerates only
the files of the cases it names and puts the diff in its note.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from tests._helpers.goldenpins import diff  # noqa: E402
from tests._helpers.registry import CASES, dump, write_inputs  # noqa: E402

OUT = ROOT / "tests" / "_helpers" / "golden" / "registry"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        write_inputs(Path(tmp))
        for name, case in CASES.items():
            text = dump(case(Path(tmp)))
            path = OUT / (name.replace("/", "__") + ".json")
            if check:
                if not path.exists():
                    bad.append(name)
                    continue
                found = diff(json.loads(text), json.loads(path.read_text(encoding="utf-8")))
                if found:
                    bad.append(name)
                    print(f"{name}:\n  " + "\n  ".join(found[:20]), file=sys.stderr)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    print(f"{len(CASES)} cases" + (f", {len(bad)} differ: {', '.join(bad)}" if check else f" written to {OUT}"))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
