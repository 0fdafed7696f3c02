"""``clfeval datasets export reuters21578 --subset r8`` and ``clfeval.text.export_reuters`` (issue 41, item 2) on the
shared Reuters-21578 archive (never skipped under CLFEVAL_REQUIRE_DATA=1: the ``reuters_archive`` fixture).

The oracle counts the R8 stories here, from the parsed stories and the definition written out (ModApte: TOPICS="YES"
TRAIN/TEST stories, the categories in both parts; the ten with the most training stories; a story whose only one of
those categories is among them, wheat and corn never alone), beside the published sizes (5,501 / 2,190) and the
published per-class test supports the study compares with (interest 81, grain 10, ship 36)."""

from __future__ import annotations

from collections import Counter

import pytest

from clfeval.errors import UsageError
from clfeval.io._readers import read_frame
from clfeval.text import export_reuters, reuters_subset
from tests._helpers.clihelp import run

R8 = {"earn", "acq", "crude", "trade", "money-fx", "interest", "ship", "grain"}


def oracle(stories, exclude=(1199,)):
    """Per part (train, test): the class counts of R8, from the definition."""
    pool = [s for s in stories if s.topics_attr == "YES" and s.lewissplit in ("TRAIN", "TEST")
            and s.newid not in exclude]
    cats = ({t for s in pool if s.lewissplit == "TRAIN" for t in s.topics}
            & {t for s in pool if s.lewissplit == "TEST" for t in s.topics})
    train = Counter(t for s in pool if s.lewissplit == "TRAIN" for t in set(s.topics) if t in cats)
    top10 = sorted(cats, key=lambda c: (-train[c], c))[:10]
    out = {"train": Counter(), "test": Counter()}
    for s in pool:
        own = {t for t in s.topics if t in cats}
        if len(own) == 1 and (lab := own.pop()) in top10:
            out[s.lewissplit.lower()][lab] += 1
    return out


@pytest.fixture(scope="module")
def exported(reuters_archive, tmp_path_factory):
    d = tmp_path_factory.mktemp("export")
    pq = export_reuters(reuters_archive, d / "r8.parquet", subset="r8", split="all")
    res = run("datasets", "export", "reuters21578", "--archive", reuters_archive, "--subset", "r8",
              "--to", d / "r8.csv")
    assert res.code == 0, res.err
    return pq, d / "r8.csv", res


def test_counts_per_split_and_class_are_the_studys(exported, reuters_stories):
    pq, _, res = exported
    want = oracle(reuters_stories)
    assert set(want["train"]) == set(want["test"]) == R8
    assert sum(want["train"].values()) == 5501 and sum(want["test"].values()) == 2190  # the published sizes
    assert (want["test"]["interest"], want["test"]["grain"], want["test"]["ship"]) == (81, 10, 36)
    t = read_frame(pq.path)
    assert t.column_names == ["id", "text", "label", "split"]
    rows = t.to_pylist()
    for part in ("train", "test"):
        assert Counter(r["label"] for r in rows if r["split"] == part) == want[part]
        assert pq.counts[part] == dict(want[part])
    assert pq.rows == 7691
    assert "wrote 7,691 stories of reuters21578 r8 (train 5,501, test 2,190)" in res.out
    assert "interest" in res.out and "5501" in res.out  # the table of stories per class


def test_ids_unique_texts_non_empty_and_csv_equals_parquet(exported):
    pq, csv, _ = exported
    a, b = read_frame(pq.path).to_pylist(), read_frame(csv).to_pylist()
    assert len({r["id"] for r in a}) == len(a) == 7691
    assert all(r["text"].strip() for r in a)
    assert [(str(r["id"]), r["text"], r["label"], r["split"]) for r in a] == \
           [(str(r["id"]), r["text"], r["label"], r["split"]) for r in b]
    assert [r["split"] for r in a] == ["train"] * 5501 + ["test"] * 2190  # training stories first


def test_one_part_and_the_definitions_split(reuters_archive, reuters_stories):
    test = reuters_subset(reuters_archive, split="test")
    assert test.column_names == ["id", "text", "label"] and test.num_rows == 2190
    definition = reuters_subset(reuters_archive, split="train", published_split=False)
    want = oracle(reuters_stories, exclude=())
    assert definition.num_rows == 5502 == sum(want["train"].values())
    assert Counter(definition.column("label").to_pylist()) == want["train"]
    assert 1199 in definition.column("id").to_pylist()


def test_refusals_name_the_option_and_write_nothing(reuters_archive, tmp_path):
    out = tmp_path / "r8.xlsx"
    res = run("datasets", "export", "reuters21578", "--archive", reuters_archive, "--subset", "r8", "--to", out)
    assert res.code == 2 and "Traceback" not in res.err
    assert "option --to" in res.err and ".csv or .parquet" in res.err and not out.exists()
    with pytest.raises(UsageError, match=r"option to '.*r8.json': the extension '.json'"):
        export_reuters(reuters_archive, tmp_path / "r8.json")
    with pytest.raises(UsageError, match="option subset 'r52'"):
        export_reuters(reuters_archive, tmp_path / "r8.csv", subset="r52")
    copy = tmp_path / "reuters21578.csv"  # an archive directory of SGML files is an input too
    copy.write_bytes(b"x")
    res = run("datasets", "export", "reuters21578", "--archive", copy, "--subset", "r8", "--to", copy)
    assert res.code == 2 and "which is the input --archive" in res.err and copy.read_bytes() == b"x"
    res = run("datasets", "export", "reuters21578", "--archive", reuters_archive, "--subset", "r8", "--to",
              tmp_path / "r8.csv", "--output", tmp_path / "r8.csv", "--format", "json")
    assert res.code == 2 and "--to and --output both name" in res.err
    assert not (tmp_path / "r8.csv").exists()
