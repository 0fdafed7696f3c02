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
* sources.csv -- 600 mails from three sources (web, app, partner) in two languages (en, fr), 100 per
  (source, lang), each 40 spam and 60 ham. The filter catches 36 of 40 spam and flags 6 of 60 ham in every
  cell but one, the planted weak slice: partner and fr, where it catches 16 of 40 (recall 0.40).
  Recall of spam: overall (5 * 36 + 16)/240 = 196/240 = 0.8167; web and app 72/80 = 0.90, partner
  (36 + 16)/80 = 0.65; en 108/120 = 0.90, fr 88/120 = 0.7333. Accuracy (196 + 6 * 54)/600 = 520/600 = 0.8667.
* topics.csv -- 40 news stories with label sets (grain, trade, money; "|" separates labels). 10 grain
  stories, all right; 5 grain-and-trade stories about wheat exports predicted "trade" only (grain's false
  negatives); 10 trade stories, all right; 5 trade stories about the dollar predicted "trade|money" (money's
  false positives); 10 money stories, all right.
* topic-preds.csv and topic-texts.csv -- topics.csv split in two: the labels (id, gold, pred) and the texts
  (id, text), for `clfeval errors --texts`.
* demsar.csv -- Demšar (2006), Table 6: the AUC of C4.5, C4.5+m, C4.5+cf and C4.5+m+cf on 14 data sets, one
  row per data set (a wide table). On voting the paper prints 0.975 for both C4.5+cf and C4.5+m+cf but ranks
  C4.5+cf ahead (its published average ranks imply it): the file has 0.9751 and 0.9749 there, which reproduce
  the published ranks 3.143, 2.000, 2.893, 1.964, chi2_F = 9.28, F_F = 3.69 and CD = 1.25.
* stories.csv -- 36 news stories given one of three labels (grain, money, trade), 12 each, with out-of-sample
  probabilities p:grain, p:money, p:trade (for `clfeval label-issues`). The right stories of each label have the
  probability of their label 0.9 (four), 0.8 (four) or 0.7 (three, money four), the rest split evenly. Two labels
  are planted errors: s12, a story about machinery exports given "grain" (p = 0.15, 0.05, 0.8), and s30, a story
  about a rate cut given "trade" (p = 0.05, 0.85, 0.1). Thresholds (the mean probability of a label over the
  stories given it): grain (4*0.9 + 4*0.8 + 3*0.7 + 0.15)/12 = 9.05/12 = 0.7542, money (4*0.9 + 4*0.8 + 4*0.7)/12
  = 0.8, trade (4*0.9 + 4*0.8 + 3*0.7 + 0.1)/12 = 9/12 = 0.75. Confident joint: the 0.9 and 0.8 stories count on
  their diagonal (money's 0.8 exactly at its threshold counts: the exact mean of the floats is just below 0.8), the
  0.7 ones are below every threshold and are not counted; s12 counts in (grain, trade) (0.8 >= 0.75) and s30 in
  (trade, money) (0.85 >= 0.8): C = [[8, 0, 1], [0, 8, 0], [0, 1, 8]]. Calibrated: rows 9, 8, 9 scaled to 12
  each, so C~ = [[32/3, 0, 4/3], [0, 12, 0], [0, 4/3, 32/3]], sum 36 = n: n * Q[i][j] = C~[i][j], and
  round(4/3) = 1 in each of the two off-diagonal cells: 2 estimated label errors. Noise matrix columns: grain
  [1, 0, 0]; money [0, 12, 4/3] / (40/3) = [0, 0.9, 0.1]; trade [4/3, 0, 32/3] / 12 = [0.1111, 0, 0.8889].
  Flagged: in (grain, trade) the grain story with the largest p:trade - p:grain is s12 (0.65; the right ones
  have -0.55 at most); in (trade, money) the trade story with the largest p:money - p:trade is s30 (0.75).
* story-preds.csv -- a model's predictions of the 36 stories (id, gold, pred, text; for `clfeval errors
  --label-issues`): the most probable class of each story, except the three grain stories at 0.7 (s03, s06, s09),
  predicted trade. Errors: grain -> trade 4 (s03, s06, s09 and the planted s12), trade -> money 1 (the planted
  s30); label-issues flags s12 and s30, so 1 of grain -> trade's 4 and 1 of trade -> money's 1.
  Ranked by self-confidence: s30 (0.1, margin 0.1 - 0.85 = -0.75), then s12 (0.15, margin -0.65).
* stories-a.csv and stories-b.csv -- two systems' predictions (id, gold, pred) of the 36 stories, for `clfeval
  compare --label-issues`. A predicts every given label (36/36 right by the gold, s12 and s30 included); B predicts
  the true labels of s12 (trade) and s30 (money) and is wrong on four right stories (s03, s15, s20, s27): 30/36.
  McNemar: n_AB = 6, n_BA = 0, p = (1/2)^6 = 1/64 = 0.0156 < 0.05. Without s12 and s30: n_AB = 4, p = 1/16 =
  0.0625; relabelled: n_AB = 4, n_BA = 2, p = P(X >= 4 | 6, 1/2) = 22/64 = 0.3438: the verdict flips.
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
    for g, row in zip(classes, matrix, strict=True):
        for p, count in zip(classes, row, strict=True):
            for _ in range(count):
                n += 1
                text = words[g] if g == p else f"{words[g]} as reporters said"
                rows.append([f"g{n:02d}", text, g, p])
    write("genres.csv", ["id", "text", "gold", "pred"], rows)


def sources() -> None:
    rows, n = [], 0
    for source in ("web", "app", "partner"):
        for lang in ("en", "fr"):
            caught = 16 if (source, lang) == ("partner", "fr") else 36
            for k in range(100):
                n += 1
                gold = "spam" if k < 40 else "ham"
                if gold == "spam":
                    pred = "spam" if k < caught else "ham"
                else:
                    pred = "spam" if k < 46 else "ham"  # 6 of the 60 ham flagged
                rows.append([f"s{n:03d}", source, lang, gold, pred])
    write("sources.csv", ["id", "source", "lang", "gold", "pred"], rows)


def topics() -> None:
    groups = [  # (count, gold, pred, text)
        (10, "grain", "grain", "wheat harvest rose on the plains"),
        (5, "grain|trade", "trade", "wheat export tariffs on the harvest"),
        (10, "trade", "trade", "export tariffs talks with partners"),
        (5, "trade", "trade|money", "tariffs talks moved the dollar rate"),
        (10, "money", "money", "the central bank cut the dollar rate"),
    ]
    rows, n = [], 0
    for count, gold, pred, text in groups:
        for _ in range(count):
            n += 1
            rows.append([f"t{n:02d}", text, gold, pred])
    write("topics.csv", ["id", "text", "gold", "pred"], rows)
    write("topic-preds.csv", ["id", "gold", "pred"], [[i, g, p] for i, _, g, p in rows])
    write("topic-texts.csv", ["id", "text"], [[i, t] for i, t, _, _ in reversed(rows)])  # another order: joined by id


SYSTEMS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR = [("adult (sample)", 0.763, 0.768, 0.771, 0.798), ("breast cancer", 0.599, 0.591, 0.590, 0.569),
          ("breast cancer wisconsin", 0.954, 0.971, 0.968, 0.967), ("cmc", 0.628, 0.661, 0.654, 0.657),
          ("ionosphere", 0.882, 0.888, 0.886, 0.898), ("iris", 0.936, 0.931, 0.916, 0.931),
          ("liver disorders", 0.661, 0.668, 0.609, 0.685), ("lung cancer", 0.583, 0.583, 0.563, 0.625),
          ("lymphography", 0.775, 0.838, 0.866, 0.875), ("mushroom", 1.000, 1.000, 1.000, 1.000),
          ("primary tumor", 0.940, 0.962, 0.965, 0.962), ("rheum", 0.619, 0.666, 0.614, 0.669),
          ("voting", 0.972, 0.981, 0.9751, 0.9749), ("wine", 0.957, 0.978, 0.946, 0.970)]


def demsar() -> None:
    write("demsar.csv", ["dataset", *SYSTEMS], [[name, *(f"{v:g}" for v in values)] for name, *values in DEMSAR])


STORY_TEXT = {"grain": ["wheat harvest beats forecast", "corn exports to asia", "rice crop hit by drought",
                        "soybean prices climb", "barley stocks fall"],
              "money": ["central bank holds rates", "dollar slips against yen", "bond yields edge up",
                        "money supply grows", "interest rates seen higher"],
              "trade": ["trade deficit narrows", "tariff talks stall", "export orders rise",
                        "import quotas eased", "trade surplus widens"]}
STORY_LABELS = ("grain", "money", "trade")


def stories() -> None:
    """36 stories, 12 given each label; s12 (grain, truly trade) and s30 (trade, truly money) are planted errors."""
    rows = []
    for k, label in enumerate(STORY_LABELS):
        tops = [0.9, 0.8, 0.7] * 4 if label == "money" else [0.9, 0.8, 0.7] * 3 + [0.9, 0.8]  # 11 right: 1 planted
        given = [[STORY_TEXT[label][m % 5], label, *[top if j == k else round((1 - top) / 2, 2) for j in range(3)]]
                 for m, top in enumerate(tops)]
        if label == "grain":
            given.append(["machinery exports rise", "grain", 0.15, 0.05, 0.8])
        if label == "trade":
            given.insert(5, ["central bank cuts rates", "trade", 0.05, 0.85, 0.1])
        rows += given
    write("stories.csv", ["id", "text", "gold", *(f"p:{x}" for x in STORY_LABELS)],
          [[f"s{i + 1:02d}", *r] for i, r in enumerate(rows)])


def story_preds() -> None:
    """A model's predictions of the stories: the most probable class, the grain stories at 0.7 predicted trade."""
    rows = []
    with open(HERE / "stories.csv", encoding="utf-8") as f:
        stories = list(csv.DictReader(f))
    for r in stories:
        probs = [float(r[f"p:{x}"]) for x in STORY_LABELS]
        pred = STORY_LABELS[probs.index(max(probs))]
        if r["gold"] == "grain" and probs[0] == 0.7:
            pred = "trade"
        rows.append([r["id"], r["gold"], pred, r["text"]])
    write("story-preds.csv", ["id", "gold", "pred", "text"], rows)


def story_systems() -> None:
    """Systems A and B on the stories: A agrees with the gold labels, B with the true labels of s12 and s30."""
    with open(HERE / "stories.csv", encoding="utf-8") as f:
        gold = [(r["id"], r["gold"]) for r in csv.DictReader(f)]
    b_pred = {"s12": "trade", "s30": "money", "s03": "money", "s15": "trade", "s20": "grain", "s27": "grain"}
    write("stories-a.csv", ["id", "gold", "pred"], [[i, g, g] for i, g in gold])
    write("stories-b.csv", ["id", "gold", "pred"], [[i, g, b_pred.get(i, g)] for i, g in gold])


if __name__ == "__main__":
    mails()
    dev()
    genres()
    sources()
    topics()
    demsar()
    stories()
    story_preds()
    story_systems()
