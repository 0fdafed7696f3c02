"""Writes the small example files of the guide (docs/examples/*.csv): run once, the files are committed.

Every number the guide shows from these files can be checked by hand:

* mails.csv -- 40 mails, 10 spam. The filter ("pred", the score cut at 0.5) catches 9 spam and flags 1 ham:
  accuracy 38/40 = 0.95, spam precision 9/10, recall 9/10; the majority baseline ("ham") 30/40 = 0.75.
  One positive-negative pair out of order (the missed spam, 0.41, below the flagged ham, 0.62):
  ROC-AUC 299/300 = 0.9967; average precision (9 + 10/11)/10 = 0.9909.
* old.csv -- an older filter on the same 40 mails: 34 right (0.85). New right and old wrong: 6 mails;
  new wrong and old right: 2 (no mail is wrong in both). McNemar's exact one-sided
  p = P(X >= 6 | 8, 1/2) = 37/256 = 0.1445.
* dev.csv -- 40 other mails with the new filter's scores, to choose a threshold on.
* genres.csv -- the genre matrix of the mission's worked example 6 (rows = gold, columns = predicted:
  news [9, 1, 2, 0], fiction [1, 9, 1, 1], government [3, 2, 7, 0], learned [0, 1, 0, 11]), one row a
  document with a short text: accuracy 36/48 = 0.75, government P 7/10, R 7/12.
"""

from __future__ import annotations

import csv
from pathlib import Path

HERE = Path(__file__).resolve().parent

SPAM_TEXT = ["win a free prize now", "cheap pills online", "claim your lottery prize", "free money offer today",
             "you won a free cruise", "urgent prize claim", "cheap loans approved", "free gift card winner",
             "act now free offer", "meeting invitation prize"]
HAM_TEXT = ["meeting moved to monday", "minutes of the budget meeting", "lunch on friday", "draft report attached",
            "call me after the meeting", "holiday schedule for december", "the server is down again",
            "review of the draft", "team dinner on thursday", "notes from the call"]


def write(name: str, header: list[str], rows: list[list[object]]) -> None:
    with open(HERE / name, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def mails() -> None:
    spam_ids = [3, 7, 10, 14, 18, 21, 25, 29, 33, 38]
    caught = [0.97, 0.95, 0.93, 0.91, 0.88, 0.86, 0.82, 0.77, 0.71]
    missed, flagged = 38, 12  # the spam the filter misses (score 0.41), the ham it flags (0.62)
    old_wrong = {3, 7, 14, 5, 9, 16}  # 3 spam the old filter misses, 3 ham it flags: none wrong for both
    ham_scores = iter([round(0.02 + 0.0125 * k, 4) for k in range(29)])  # 0.02 ... 0.37, all below 0.41
    spam_scores = iter(caught)
    rows, old = [], []
    for i in range(1, 41):
        gold = "spam" if i in spam_ids else "ham"
        if i == missed:
            score = 0.41
        elif i == flagged:
            score = 0.62
        elif gold == "spam":
            score = next(spam_scores)
        else:
            score = next(ham_scores)
        pred = "spam" if score >= 0.5 else "ham"
        texts = SPAM_TEXT if gold == "spam" else HAM_TEXT
        rows.append([f"m{i:02d}", texts[i % 10], gold, pred, f"{score:.4g}"])
        other = "ham" if gold == "spam" else "spam"
        old.append([f"m{i:02d}", gold, other if i in old_wrong else gold])
    write("mails.csv", ["id", "text", "gold", "pred", "score"], rows)
    write("old.csv", ["id", "gold", "pred"], old)


def dev() -> None:
    spam = [0.96, 0.92, 0.9, 0.85, 0.8, 0.74, 0.66, 0.58, 0.45, 0.3]
    ham = [0.7, 0.55, 0.48] + [round(0.01 + 0.0125 * k, 4) for k in range(27)]
    rows = [[f"d{k + 1:02d}", "spam", f"{s:.4g}"] for k, s in enumerate(spam)]
    rows += [[f"d{k + 11:02d}", "ham", f"{s:.4g}"] for k, s in enumerate(ham)]
    write("dev.csv", ["id", "gold", "score"], rows)


def genres() -> None:
    classes = ["news", "fiction", "government", "learned"]
    matrix = [[9, 1, 2, 0], [1, 9, 1, 1], [3, 2, 7, 0], [0, 1, 0, 11]]
    words = {"news": "reporters said the market fell", "fiction": "she walked into the dark garden",
             "government": "the minister presented the budget act", "learned": "we estimate the model parameters"}
    rows, n = [], 0
    for g, row in zip(classes, matrix, strict=False):
        for p, count in zip(classes, row, strict=False):
            for _ in range(count):
                n += 1
                text = words[g] if g == p else f"{words[g]} as reporters said"
                rows.append([f"g{n:02d}", text, g, p])
    write("genres.csv", ["id", "text", "gold", "pred"], rows)


if __name__ == "__main__":
    mails()
    dev()
    genres()
