"""A small synthetic news collection (three topics, a body, a topic and tags) written as a CSV file."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

WORDS = {"grain": ["wheat", "corn", "grain", "harvest"], "oil": ["crude", "oil", "barrel", "opec"],
         "fx": ["dollar", "yen", "currency", "bank"]}


def make_data(path: Path, n: int = 150, seed: int = 0, shares=(0.5, 0.3, 0.2)) -> Path:
    rng = np.random.default_rng(seed)
    names = list(WORDS)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "body", "topic", "tags"])
        for i in range(n):
            c = names[rng.choice(3, p=shares)]
            o = names[rng.integers(3)]
            words = list(rng.choice(WORDS[c], 2)) + list(rng.choice(WORDS[o], 2)) + ["the", "said", "market"]
            tags = "|".join(t for t in names if t == c or rng.random() < 0.2)
            w.writerow([f"n{i}", " ".join(words), c, tags])
    return path
