"""The first difference as a student reads it: counts at that step, where they come from, the ties, why."""

from __future__ import annotations

import csv
import doctest
import io
import json

import pytest

import engine.compare.merge_lists
import engine.compare.mistakes
import engine.compare.walk
from engine.algorithm.settings import Settings
from engine.compare.mistakes import MISTAKES, Training, learn
from engine.compare.report import CSV_HEADER, csv_row, csv_text, report_data, report_lines, summary, unreadable_row
from engine.compare.walk import compare

FOUR = Training("low 5\nlower 2\nnewest 6\nwidest 3", True, Settings())


@pytest.mark.parametrize("module", [engine.compare.mistakes, engine.compare.walk, engine.compare.merge_lists])
def test_the_worked_examples_in_the_docstrings_hold(module):
    result = doctest.testmod(module)
    assert result.attempted >= 1 and result.failed == 0


def test_the_first_difference_holds_the_counts_their_sources_and_the_ties():
    report = compare(FOUR, learn(FOUR, MISTAKES["unweighted"]), "unweighted.json", "list of pairs")
    first = report.first
    assert first is not None and first.step == 1 and report.matched == 0
    assert (first.ours, first.our_count, first.theirs, first.their_count) == (("e", "s"), 9, ("l", "o"), 7)
    top = {c.pair: c for c in first.top}
    # 9 = newest x6 + widest x3, each once a word; l o is among the top although it ranks fifth
    assert top[("e", "s")].sources == (("newest", 1, 6), ("widest", 1, 3))
    assert top[("l", "o")].count == 7
    assert first.ties == (("e", "s"), ("s", "t"), ("t", "</w>"))
    lines = report_lines(report, FOUR.settings)
    text = "\n".join(lines)
    assert "They part at step 1:" in text
    assert "the lesson merges e + s (9 times); the list merges l + o (7 times)." in text
    assert "newest×6, widest×3" in text and "Tied at the top: e + s, s + t, t + </w>." in text
    assert "counts not weighted by word frequency" in text
    # a student reads the difference in the first few lines
    assert lines.index(next(line for line in lines if line.startswith("  Why:"))) < 12


def test_an_identical_list_says_so_in_two_lines():
    report = compare(FOUR, learn(FOUR), "mine.txt", "merges.txt")
    assert report_lines(report, FOUR.settings) == [
        "mine.txt (merges.txt, 15 merges) against the lesson (15 merges, ties: first)",
        "identical: all 15 merges match, in order"]


def test_a_list_that_stops_early_and_one_that_goes_on():
    ours = learn(FOUR)
    early = compare(FOUR, ours[:-1], "early")
    assert early.first is not None and early.first.theirs is None and early.first.ours == ours[-1]
    assert "the list stops there" in "\n".join(report_lines(early, FOUR.settings))
    late = compare(Training(FOUR.text, True, Settings(merges=3)), ours[:4], "late")
    assert late.first is not None and late.first.ours is None and late.first.stop_reason
    assert late.differences[-1].verdict == "the lesson stops here"


def test_the_json_holds_every_field_with_pairs_as_lists():
    report = compare(FOUR, learn(FOUR, MISTAKES["no end-of-word marker"]), "m.json")
    data = json.loads(json.dumps(report_data(report)))
    assert data["identical"] is False and data["diagnosis"] == "the end-of-word marker left out"
    first = data["first_difference"]
    assert first["step"] == 3 and first["lesson"] == ["est", "</w>"] and first["file"] == ["l", "o"]
    assert first["top_pairs"][0] == {"pair": ["est", "</w>"], "count": 9, "from": [
        {"word": "newest", "occurrences": 1, "frequency": 6}, {"word": "widest", "occurrences": 1, "frequency": 3}]}
    assert {t["name"] for t in first["tried"] if t["reproduces"]} == {"no end-of-word marker"}


def test_a_grading_sheet_row_per_file_and_formulas_kept_from_running():
    good = compare(FOUR, learn(FOUR), "=good.txt", "merges.txt")
    bad = compare(FOUR, learn(FOUR, MISTAKES["unweighted"]), "bad.txt", "merges.txt")
    sheet = csv_text([csv_row(good, FOUR.settings), csv_row(bad, FOUR.settings), unreadable_row("x.json", "broken")])
    rows = list(csv.reader(io.StringIO(sheet)))
    assert tuple(rows[0]) == CSV_HEADER
    assert rows[1][0] == "'=good.txt" and rows[1][2] == "15" and rows[1][6] == "identical"
    assert rows[2][2] == "0" and rows[2][5] == "step 1: lesson e + s, file l + o"
    assert rows[2][6] == "counts not weighted by word frequency"
    assert rows[3][0] == "x.json" and rows[3][6] == "unreadable: broken"


TIED = Training("xy xy xy cd cd ab ab", False, Settings(end_of_word=None))


@pytest.mark.parametrize("pairs, said", [
    ([("x", "y"), ("c", "d"), ("a", "b")], "Your list is identical to the lesson's: all 3 merges match, in order."),
    ([("x", "y"), ("a", "b"), ("c", "d")],
     "Your list parts from the lesson at step 2, where the lesson merges c + d (2 times) and your list merges "
     "a + b (2 times): breaking ties by rule hf or smallest or last makes your whole list."),
    ([("x", "y"), ("y", "c")],
     "Your list parts from the lesson at step 2, where the lesson merges c + d (2 times) and your list merges "
     "y + c (does not occur): a real difference: no tie rule or common mistake makes your list."),
])
def test_the_summary_says_the_report_in_one_sentence(pairs, said):
    assert summary(compare(TIED, pairs, "mine.txt"), TIED.settings) == said
