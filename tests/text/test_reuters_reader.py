"""Tests of the Reuters-21578 reader: synthetic SGML, the real corpus, downloads."""

from __future__ import annotations

import hashlib
import shutil
import tarfile
from collections import Counter
from pathlib import Path

import pytest

from clfeval.errors import ClfevalError, DataError, InputFileError, UsageError
from clfeval.text._datasets import (
    N_STORIES,
    PUBLISHED_MODAPTE_EXCLUDED,
    REUTERS_FILES,
    REUTERS_SHA256,
    ModApte,
    Story,
    ids,
    label_matrix,
    largest_categories,
    modapte,
    parse_sgml,
    read_reuters,
    single_label_subset,
    texts,
)
from clfeval.text._fetch import fetch_reuters

TEN_LARGEST = ("earn", "acq", "money-fx", "grain", "crude", "trade", "interest",
               "wheat", "ship", "corn")

# --------------------------------------------------------------------------- #
# Synthetic SGML
# --------------------------------------------------------------------------- #


def sgml_story(newid: int, *, topics: tuple[str, ...] = ("earn",), split: str = "TRAIN",
               topics_attr: str = "YES", text: str | None = None) -> str:
    d = "".join(f"<D>{t}</D>" for t in topics)
    if text is None:
        text = (f"<TEXT>&#2;\n<TITLE>STORY {newid}</TITLE>\n<DATELINE>    NEW YORK, "
                f"March 1 - </DATELINE><BODY>Body of story {newid}.\n Reuter\n&#3;"
                "</BODY></TEXT>")
    return (
        f'<REUTERS TOPICS="{topics_attr}" LEWISSPLIT="{split}" CGISPLIT="TRAINING-SET" '
        f'OLDID="{newid + 5000}" NEWID="{newid}">\n<DATE>26-FEB-1987 15:01:01.79</DATE>\n'
        f"<TOPICS>{d}</TOPICS>\n<PLACES><D>usa</D></PLACES>\n<PEOPLE></PEOPLE>\n"
        "<ORGS></ORGS>\n<EXCHANGES></EXCHANGES>\n<COMPANIES></COMPANIES>\n"
        "<UNKNOWN> \n&#5;&#5;&#5;C T\n&#22;&#22;&#1;f0704&#31;reute</UNKNOWN>\n"
        f"{text}\n</REUTERS>\n"
    )


def write_corpus(directory: Path, extra: dict[str, bytes] | None = None) -> Path:
    """22 tiny files, one story each (NEWID 1 … 22), plus ``extra`` overrides."""
    directory.mkdir(parents=True, exist_ok=True)
    for i, name in enumerate(REUTERS_FILES):
        content = '<!DOCTYPE lewis SYSTEM "lewis.dtd">\n' + sgml_story(
            i + 1, split="TRAIN" if i < 11 else "TEST")
        (directory / name).write_bytes(content.encode("latin-1"))
    for name, data in (extra or {}).items():
        (directory / name).write_bytes(data)
    return directory


def tar_corpus(directory: Path, archive: Path) -> Path:
    with tarfile.open(archive, "w:gz") as tar:
        for name in REUTERS_FILES:
            tar.add(directory / name, arcname=name)
    return archive


def test_parse_decodes_entities_and_drops_control_characters() -> None:
    [s] = parse_sgml(sgml_story(7, text=(
        "<TEXT>&#2;\n<TITLE>BANKAMERICA &lt;BAC> EQUITY &amp; DEBT</TITLE>\n"
        "<AUTHOR>    by Someone, Reuters</AUTHOR>\n"
        "<DATELINE>    LOS ANGELES, Feb 26 - </DATELINE><BODY>the country's&#127;ate "
        "rose &#38;lt; 5 &gt; 3, R&amp;D at &#x41;&#66;C; &unknown; stays.\n"
        " Reuter\n&#3;</BODY></TEXT>")))
    assert s.title == "BANKAMERICA <BAC> EQUITY & DEBT"
    assert s.dateline == "LOS ANGELES, Feb 26 -"
    # control entities become a space; &#38;lt; is decoded once, to "&lt;"
    assert s.body == ("the country's ate rose &lt; 5 > 3, R&D at ABC; &unknown; stays.\n"
                      " Reuter")
    assert "\x03" not in s.body and "\x7f" not in s.body
    assert s.text == s.title + "\n" + s.body
    assert s.text_type == "NORM"
    assert (s.newid, s.oldid, s.lewissplit, s.cgisplit, s.topics_attr) == (
        7, 5007, "TRAIN", "TRAINING-SET", "YES")


def test_parse_brief_and_unproc_texts_without_body() -> None:
    brief, unproc = parse_sgml(
        sgml_story(1, text='<TEXT TYPE="BRIEF">&#2;\n******<TITLE>RATES ROSE IN LATEST '
                   "WEEK\n</TITLE>Blah blah blah.\n&#3;\n\n</TEXT>")
        + sgml_story(2, text='<TEXT TYPE="UNPROC">&#2;\nFEDERAL RESERVE REPORT\n'
                     "  Net free reserves....644\n&#3;\n</TEXT>"))
    assert brief.text_type == "BRIEF"
    assert brief.title == "RATES ROSE IN LATEST WEEK"
    assert "Blah blah blah." in brief.body and "RATES" not in brief.body
    assert brief.text.startswith("RATES ROSE IN LATEST WEEK\n")
    assert unproc.text_type == "UNPROC"
    assert unproc.title == "" and unproc.dateline == ""
    assert unproc.body == "FEDERAL RESERVE REPORT\n  Net free reserves....644"
    assert unproc.text == unproc.body


def test_parse_topics_in_order_once_and_extra_attributes() -> None:
    sgml = sgml_story(5, topics=("grain", "wheat", "corn", "barley", "corn")).replace(
        'CGISPLIT="TRAINING-SET" ', 'CGISPLIT="TRAINING-SET" CSECS="540385847" ')
    [s] = parse_sgml(sgml)
    assert s.topics == ("grain", "wheat", "corn", "barley")
    assert s.newid == 5
    [none] = parse_sgml(sgml_story(6, topics=(), topics_attr="NO"))
    assert none.topics == () and none.topics_attr == "NO"


def test_parse_truncated_or_bad_story_raises() -> None:
    good = sgml_story(1)
    with pytest.raises(DataError, match="x.sgm: story 2, opened on line 18, .*truncated"):
        parse_sgml(good + good[: len(good) // 2], "x.sgm")
    # an unclosed story followed by a complete one is not merged into it
    with pytest.raises(DataError, match="story 1, .*last complete story: none"):
        parse_sgml(good[: len(good) // 2] + good, "x.sgm")
    with pytest.raises(DataError, match="NEWID"):
        parse_sgml(good.replace('NEWID="1"', 'NEWID="one"'), "x.sgm")


def test_read_directory_and_archive_of_synthetic_corpus(tmp_path: Path) -> None:
    latin = sgml_story(3, split="TRAIN").replace("Body of story 3.",
                                                 "M\u00fcller says \u00a3 1 mln.")
    corpus = write_corpus(tmp_path / "corpus",
                          {"reut2-002.sgm": latin.encode("latin-1")})
    from_dir = read_reuters(corpus)
    assert [s.newid for s in from_dir] == list(range(1, 23))
    assert "M\u00fcller says \u00a3 1 mln." in from_dir[2].body
    archive = tar_corpus(corpus, tmp_path / "r.tar.gz")
    assert read_reuters(archive) == from_dir
    assert read_reuters(str(archive)) == from_dir


def test_read_missing_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "reuters21578.tar.gz"
    with pytest.raises(InputFileError, match="reut2-000.sgm") as info:
        read_reuters(missing)
    assert str(missing) in str(info.value)
    assert isinstance(info.value, ClfevalError) and info.value.exit_code == 2


def test_read_directory_missing_file(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    (corpus / "reut2-013.sgm").unlink()
    with pytest.raises(DataError, match="reut2-013.sgm") as info:
        read_reuters(corpus)
    assert "22" in str(info.value) and str(corpus) in str(info.value)
    assert info.value.exit_code == 1


@pytest.mark.parametrize("content", [b"", b"not a tar archive at all" * 50,
                                     b"\x1f\x8b\x08\x00garbage-after-gzip-magic"])
def test_read_non_archive_file(tmp_path: Path, content: bytes) -> None:
    bad = tmp_path / "reuters21578.tar.gz"
    bad.write_bytes(content)
    with pytest.raises(DataError, match="reut2-021.sgm") as info:
        read_reuters(bad)
    assert str(bad) in str(info.value)


def test_read_archive_missing_member(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    archive = tmp_path / "r.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name in REUTERS_FILES[:-1]:
            tar.add(corpus / name, arcname=f"sub/{name}")
    with pytest.raises(DataError, match="lacks 1 of the 22.*reut2-021.sgm"):
        read_reuters(archive)


def test_read_empty_file_and_duplicate_newid(tmp_path: Path) -> None:
    empty = write_corpus(tmp_path / "a", {"reut2-004.sgm": b"<!DOCTYPE lewis>\n"})
    with pytest.raises(DataError, match=r"reut2-004.sgm: holds no <REUTERS>"):
        read_reuters(empty)
    dup = write_corpus(tmp_path / "b", {"reut2-009.sgm": sgml_story(3).encode()})
    with pytest.raises(DataError, match="NEWID=3 already used in reut2-002.sgm"):
        read_reuters(dup)


def test_modapte_and_helpers_on_synthetic_stories() -> None:
    def story(newid: int, split: str, topics: tuple[str, ...], attr: str = "YES") -> Story:
        return Story(newid, newid, split, "TRAINING-SET", attr, topics,
                     f"T{newid}", "", f"b{newid}", "NORM")

    stories = [
        story(1, "TRAIN", ("grain", "wheat")),
        story(2, "TRAIN", ("grain",)),
        story(3, "TRAIN", ("earn", "gold")),       # gold never in test
        story(4, "TRAIN", ("gold",)),               # none of the split's categories
        story(5, "TRAIN", ("earn",), attr="NO"),    # TOPICS="NO": not used
        story(6, "NOT-USED", ("earn",)),
        story(7, "TEST", ("grain", "wheat")),
        story(8, "TEST", ("earn",)),
        story(9, "TEST", ()),
        story(10, "TRAIN", ("earn",)),
    ]
    split = modapte(stories)
    assert split.categories == ("earn", "grain", "wheat")
    assert ids(split.train).tolist() == [1, 2, 3, 10]
    assert ids(split.test).tolist() == [7, 8]
    assert ids(modapte(stories, exclude_newids=[2]).train).tolist() == [1, 3, 10]
    assert largest_categories(split, 2) == ("earn", "grain")  # tie 2-2: by name
    assert label_matrix(split.test, ["wheat", "earn"]).tolist() == [[True, False],
                                                                     [False, True]]
    x, y = split.xy("test")
    assert x == ["T7\nb7", "T8\nb8"] and y.shape == (2, 3) and y.dtype == bool
    assert texts(split.train[:1]) == ["T1\nb1"]

    single = single_label_subset(split, ["grain", "earn", "wheat"])
    assert single.categories == ("grain", "earn")   # wheat never alone
    assert ids(single.train).tolist() == [2, 3, 10]  # 3: gold is not a split category
    assert single.train_labels == ("grain", "earn", "earn")
    assert ids(single.test).tolist() == [8]
    x, y = single.xy("train")
    assert x == ["T2\nb2", "T3\nb3", "T10\nb10"] and y.tolist() == ["grain", "earn", "earn"]

    with pytest.raises(UsageError, match="gold"):
        single_label_subset(split, ["gold"])
    with pytest.raises(UsageError, match="from 1 to 3"):
        largest_categories(split, 4)
    with pytest.raises(UsageError, match="'train' or 'test'"):
        split.xy("dev")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- #
# The real corpus
# --------------------------------------------------------------------------- #


@pytest.fixture(scope="module")
def split(reuters_stories: list[Story]) -> ModApte:
    return modapte(reuters_stories)


@pytest.mark.reuters
def test_corpus_has_all_stories(reuters_stories: list[Story]) -> None:
    assert len(reuters_stories) == N_STORIES == 21578
    assert sorted(s.newid for s in reuters_stories) == list(range(1, 21579))
    assert Counter(s.text_type for s in reuters_stories) == {
        "NORM": 19043, "BRIEF": 1798, "UNPROC": 737}
    # one story (TOPICS="NO", UNPROC) really has no text between &#2; and &#3;
    assert [s.newid for s in reuters_stories if not s.text] == [12793]
    # no control characters survive decoding
    assert not any(ch in s.text for s in reuters_stories for ch in "\x01\x02\x03\x7f")
    first = reuters_stories[0]
    assert (first.newid, first.oldid, first.topics, first.title) == (
        1, 5544, ("cocoa",), "BAHIA COCOA REVIEW")
    assert first.body.startswith("Showers continued throughout the week in\nthe Bahia")
    assert first.body.endswith("Reuter")


@pytest.mark.reuters
def test_archive_has_22_files(reuters_archive: Path) -> None:
    with tarfile.open(reuters_archive) as tar:
        names = sorted(n for n in tar.getnames() if n.endswith(".sgm"))
    assert names == list(REUTERS_FILES) and len(names) == 22


@pytest.mark.reuters
def test_extracted_directory_reads_the_same(reuters_archive: Path, tmp_path: Path,
                                            reuters_stories: list[Story]) -> None:
    with tarfile.open(reuters_archive) as tar:
        tar.extractall(tmp_path, filter="data")
    assert read_reuters(tmp_path) == reuters_stories


@pytest.mark.reuters
@pytest.mark.parametrize("keep", [0.5, 0.999])
def test_truncated_real_archive(reuters_archive: Path, tmp_path: Path, keep: float) -> None:
    data = reuters_archive.read_bytes()
    bad = tmp_path / "reuters21578.tar.gz"
    bad.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(DataError, match="cannot read it as a tar archive") as info:
        read_reuters(bad)
    assert str(bad) in str(info.value)


@pytest.mark.reuters
def test_modapte_sizes(reuters_stories: list[Story], split: ModApte) -> None:
    # The definition gives 7,770 training stories, one more than the published
    # 7,769: NEWID 1199, the one TOPICS="YES" TRAIN story whose tag has CSECS.
    assert len(split.train) == 7770
    assert len(split.test) == 3019
    assert len(split.categories) == 90
    published = modapte(reuters_stories, exclude_newids=PUBLISHED_MODAPTE_EXCLUDED)
    assert (len(published.train), len(published.test)) == (7769, 3019)
    assert published.categories == split.categories
    assert set(ids(split.train)) - set(ids(published.train)) == {1199}
    extra = next(s for s in split.train if s.newid == 1199)
    assert extra.topics == ("trade",) and extra.text_type == "BRIEF"
    assert all(s.lewissplit == "TRAIN" and s.topics_attr == "YES" for s in split.train)
    assert all(s.lewissplit == "TEST" and s.topics_attr == "YES" for s in split.test)


@pytest.mark.reuters
def test_ten_largest_categories_and_test_positives(split: ModApte) -> None:
    ten = largest_categories(split, 10)
    assert ten == TEN_LARGEST
    positives = dict(zip(ten, label_matrix(split.test, ten).sum(axis=0).tolist(), strict=True))
    assert positives == {"earn": 1087, "acq": 719, "crude": 189, "money-fx": 179,
                         "grain": 149, "interest": 131, "trade": 117, "ship": 89,
                         "wheat": 71, "corn": 56}


@pytest.mark.reuters
def test_single_label_subset_sizes(reuters_stories: list[Story], split: ModApte) -> None:
    single = single_label_subset(split, largest_categories(split, 10))
    assert single.categories == ("earn", "acq", "money-fx", "grain", "crude", "trade",
                                 "interest", "ship")
    assert (len(single.train), len(single.test)) == (5502, 2190)
    # with the published ModApte (without NEWID 1199, a single-label trade story):
    published = single_label_subset(
        modapte(reuters_stories, exclude_newids=PUBLISHED_MODAPTE_EXCLUDED))
    assert (len(published.train), len(published.test)) == (5501, 2190)
    x, y = single.xy("test")
    assert len(x) == 2190 and set(y.tolist()) == set(single.categories)
    assert Counter(single.test_labels)["earn"] == 1083


# --------------------------------------------------------------------------- #
# fetch_reuters against a local HTTP server
# --------------------------------------------------------------------------- #


# the fixture `served` (a directory on a local HTTP server) is in conftest.py


@pytest.mark.reuters
def test_fetch_downloads_and_checks(served: tuple[Path, str], reuters_archive: Path,
                                    tmp_path: Path) -> None:
    root, base = served
    shutil.copyfile(reuters_archive, root / "reuters21578.tar.gz")
    dest = tmp_path / "cache" / "deeper"
    got = fetch_reuters(dest, url=f"{base}/reuters21578.tar.gz", timeout=10)
    assert got == dest / "reuters21578.tar.gz"
    assert hashlib.sha256(got.read_bytes()).hexdigest() == REUTERS_SHA256
    assert sorted(p.name for p in dest.iterdir()) == ["reuters21578.tar.gz"]
    # already there: returned without touching the network
    assert fetch_reuters(dest, url="http://127.0.0.1:9/unreachable") == got


def test_fetch_corrupt_download_leaves_nothing(served: tuple[Path, str],
                                               tmp_path: Path) -> None:
    root, base = served
    (root / "garbage.tar.gz").write_bytes(b"\x1f\x8b" + b"corrupt" * 1000)
    dest = tmp_path / "dest"
    with pytest.raises(DataError, match="SHA-256") as info:
        fetch_reuters(dest, url=f"{base}/garbage.tar.gz", timeout=10)
    assert f"{base}/garbage.tar.gz" in str(info.value)
    assert list(dest.iterdir()) == []
    with pytest.raises(DataError, match="not the Reuters-21578 distribution"):
        fetch_reuters(dest, url=f"{base}/garbage.tar.gz", timeout=10, sha256=None)
    assert list(dest.iterdir()) == []


def test_fetch_incomplete_collection_leaves_nothing(served: tuple[Path, str],
                                                    tmp_path: Path) -> None:
    root, base = served
    tar_corpus(write_corpus(tmp_path / "tiny"), root / "tiny.tar.gz")
    dest = tmp_path / "dest"
    with pytest.raises(DataError, match="holds 22 stories, expected 21,578"):
        fetch_reuters(dest, url=f"{base}/tiny.tar.gz", timeout=10, sha256=None)
    assert list(dest.iterdir()) == []


def test_fetch_http_error_leaves_nothing(served: tuple[Path, str], tmp_path: Path) -> None:
    _, base = served
    dest = tmp_path / "dest"
    with pytest.raises(DataError, match="downloading .*missing.tar.gz failed.*404"):
        fetch_reuters(dest, url=f"{base}/missing.tar.gz", timeout=10)
    assert list(dest.iterdir()) == []


def test_fetch_keeps_existing_file_on_failed_forced_download(served: tuple[Path, str],
                                                             tmp_path: Path) -> None:
    root, base = served
    (root / "bad.tar.gz").write_bytes(b"bad")
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "reuters21578.tar.gz").write_bytes(b"previous")
    with pytest.raises(DataError):
        fetch_reuters(dest, url=f"{base}/bad.tar.gz", timeout=10, force=True)
    assert [p.name for p in dest.iterdir()] == ["reuters21578.tar.gz"]
    assert (dest / "reuters21578.tar.gz").read_bytes() == b"previous"
