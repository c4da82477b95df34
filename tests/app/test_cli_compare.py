"""``bpe-lab compare``: a merge list beside the lesson, a folder of them graded, bad files in one line."""

from __future__ import annotations

import csv
import json

import pytest

from tests.app.cli_run import run

TEA = "tea tea team teams steam seat\n"


@pytest.fixture
def tea(tmp_path):
    path = tmp_path / "tea.txt"
    path.write_text(TEA, encoding="utf-8")
    return path


def test_an_identical_list_exits_0(tmp_path, capsys, tea):
    mine = tmp_path / "mine.json"
    mine.write_text('["ea", "tea", "team"]', encoding="utf-8")
    status, out, err = run(capsys, "compare", tea, mine, "--no-end-of-word")
    assert (status, err) == (0, "")
    assert "identical: all 3 merges match" in out


def test_a_different_list_exits_1_with_the_first_difference_and_why(tmp_path, capsys):
    corpus = tmp_path / "four.txt"
    corpus.write_text("low 5\nlower 2\nnewest 6\nwidest 3\n", encoding="utf-8")
    mine = tmp_path / "merges.txt"
    # the classic loop without the marker
    mine.write_text("e s\nes t\nl o\nlo w\nn e\nne w\nnew est\nw i\nwi d\nwid est\nlow e\nlowe r\n", encoding="utf-8")
    status, out, err = run(capsys, "compare", corpus, mine, "--word-counts")
    assert status == 1 and err == ""
    assert "They part at step 3:" in out
    assert "the lesson merges est + </w> (9 times); the list merges l + o (7 times)." in out
    assert "Why: the end-of-word marker left out" in out


def test_the_train_options_set_the_lesson(tmp_path, capsys, tea):
    mine = tmp_path / "pairs.json"
    mine.write_text('[["e", "a"], ["t", "ea"]]', encoding="utf-8")
    status, out, _ = run(capsys, "compare", tea, mine, "--no-end-of-word", "--merges", "2")
    assert status == 0 and "identical" in out
    status, out, _ = run(capsys, "compare", tea, mine, "--no-end-of-word", "--json")
    data = json.loads(out)
    assert status == 1 and data["first_difference"]["step"] == 3 and data["first_difference"]["file"] is None
    assert data["diagnosis"] == "the stopping rule off by one: one merge too few"


@pytest.mark.parametrize("fmt, out_name, options", [
    ("gpt2", "folder", []), ("hf", "tokenizer.json", []), ("bpelab", "tea.json", []),
    ("tiktoken", "tea.tiktoken", ["--units", "bytes"]),
])
def test_what_train_writes_compares_identical(tmp_path, capsys, tea, fmt, out_name, options):
    out_path = tmp_path / out_name
    assert run(capsys, "train", tea, "--out", out_path, "--format", fmt, *options)[0] == 0
    status, out, err = run(capsys, "compare", tea, out_path, *options)
    assert (status, err) == (0, ""), out
    assert "identical" in out


def test_a_folder_is_graded_one_row_per_file_and_an_unreadable_one_does_not_stop_it(tmp_path, capsys, tea):
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "ana.json").write_text('["ea", "tea", "team"]', encoding="utf-8")
    (folder / "ben.txt").write_text("e a\nea m\n", encoding="utf-8")
    (folder / "cleo.json").write_text('[["e", "a"], ["t"]]', encoding="utf-8")
    (folder / "dan.txt").write_text("e a\nt ea\n", encoding="utf-8")
    results = tmp_path / "results.csv"
    status, out, err = run(capsys, "compare", tea, folder, "--no-end-of-word", "--csv", results)
    assert status == 0
    assert "grading [" in err and "4/4" in err
    assert "3 of 4 files graded, 1 unreadable" in out
    rows = {row["file"]: row for row in csv.DictReader(results.open(encoding="utf-8"))}
    assert list(rows) == ["ana.json", "ben.txt", "cleo.json", "dan.txt"]
    assert rows["ana.json"]["diagnosis"] == "identical" and rows["ana.json"]["steps matched"] == "3"
    assert rows["ben.txt"]["diagnosis"] == "real difference"
    assert rows["ben.txt"]["first difference"] == "step 2: lesson t + ea, file ea + m"
    assert rows["cleo.json"]["diagnosis"].startswith("unreadable: ") and "item 2" in rows["cleo.json"]["diagnosis"]
    assert rows["dan.txt"]["diagnosis"] == "the stopping rule off by one: one merge too few"


def test_a_folder_graded_to_standard_output(tmp_path, capsys, tea):
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "ana.json").write_text('["ea", "tea", "team"]', encoding="utf-8")
    status, out, _ = run(capsys, "compare", tea, folder, "--no-end-of-word")
    assert status == 0 and out.splitlines()[1].startswith("ana.json,list of tokens,3,3,3,")


@pytest.mark.parametrize("name, text", [
    ("merges.txt", "e a\nt ea m\n"),
    ("tokens.json", '["ea", "xyz"]'),
    ("tokens.json", '["ab", "bc", "abc"]'),
    ("tea.model", "minbpe v1\n\n0\n101 999\n"),
    ("other.json", '{"merges": 1}'),
])
def test_a_malformed_merge_file_is_one_line_and_exit_2(tmp_path, capsys, name, text):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(TEA + "abc ab bc\n", encoding="utf-8")
    bad = tmp_path / name
    bad.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "compare", corpus, bad, "--no-end-of-word")
    assert status == 2 and out == ""
    assert err.startswith("bpe-lab: ") and err.count("\n") == 1 and name in err


def test_csv_needs_a_folder(tmp_path, capsys, tea):
    mine = tmp_path / "mine.json"
    mine.write_text('["ea"]', encoding="utf-8")
    status, _, err = run(capsys, "compare", tea, mine, "--csv", tmp_path / "r.csv")
    assert status == 2 and "folder" in err
    assert not (tmp_path / "r.csv").exists()


def test_a_byte_level_list_reads_with_visible_spaces(tmp_path, capsys):
    corpus = tmp_path / "cat.txt"
    corpus.write_text("the cat sat on the mat. the cat ate the rat!\n", encoding="utf-8")
    ranks = tmp_path / "cat.tiktoken"
    options = ["--units", "bytes", "--split", "gpt2"]
    assert run(capsys, "train", corpus, "--out", ranks, "--format", "tiktoken", *options)[0] == 0
    assert run(capsys, "compare", corpus, ranks, *options)[0] == 0
    # the lesson: a t, t h, th e, Ġ the; this list joins the space to "th" before the e
    swapped = tmp_path / "swapped.json"
    swapped.write_text(json.dumps([["a", "t"], ["t", "h"], ["Ġ", "th"], ["Ġth", "e"]]), encoding="utf-8")
    status, out, _ = run(capsys, "compare", corpus, swapped, *options, "--merges", "4")
    assert status == 1
    assert "the lesson merges th + e (4 times); the list merges ␣ + th (3 times)." in out
    assert "␣the×3" in out
