"""Compare names the mistake or tie rule behind a student's trainer, by re-training, on tie-rich corpora."""

from __future__ import annotations

import pytest

from engine.algorithm.settings import Settings
from engine.compare.mistakes import MISTAKES, Training
from engine.compare.walk import LIST_ENDS, REAL, compare, trained
from tests.engine.compare import students

# every word shares letters with the others, and runs of one letter overlap: most rounds hold ties
TIES = "ab ba ab ba aaa baa abab aab bba aaab"
TEA = "tea tea team teams steam seat"
FOUR = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3)
CAPITALS = "Tea tea TEA team Team steam"


def training(text: str, marker: str | None, merges: int = 8, tie: str = "first") -> Training:
    # a fixed number of merges, so that a student's loop and the lesson stop at one rule
    return Training(text, False, Settings(end_of_word=marker, min_frequency=1, merges=merges, tie_break=tie))


def diagnosed(text: str, marker: str | None, **student) -> tuple[str, ...]:
    theirs = students.learn(text, marker=marker, merges=8, **student)
    report = compare(training(text, marker), theirs, "student")
    assert report.first is not None, "the student's list should differ from the lesson's here"
    return tuple(e.name for e in report.first.explained_by)


@pytest.mark.parametrize("text, marker", [(TIES, None), (TIES, "</w>"), (TEA, None), (FOUR, "</w>")])
def test_the_students_textbook_loop_is_the_lesson(text, marker):
    assert compare(training(text, marker), students.learn(text, marker=marker, merges=8), "s").identical


@pytest.mark.parametrize("mistake, text, marker, student", [
    ("across words", TEA, None, {"across": True}),
    ("across words", FOUR, "</w>", {"across": True}),
    ("across words", "the cat sat on the mat the cat ate", "</w>", {"across": True}),
    ("unweighted", TIES, None, {"weighted": False}),
    ("unweighted", FOUR, "</w>", {"weighted": False}),
    ("overlap merged twice", TIES, None, {"merge": students.merge_every_place}),
    ("right to left", TIES, None, {"merge": students.merge_right}),
    ("one merge too many", TIES, None, {"extra": 1}),
    ("one merge too few", FOUR, "</w>", {"extra": -1}),
    ("no end-of-word marker", FOUR, "</w>", {"marker": None}),
    ("lowercase", CAPITALS, "</w>", {"lowercase": True}),
])
def test_each_deliberate_mistake_is_named_and_only_it(mistake, text, marker, student):
    assert mistake in MISTAKES
    given = dict(student)
    marker_used = given.pop("marker", marker)
    theirs = students.learn(text, marker=marker_used, merges=8, **given)
    report = compare(training(text, marker), theirs, "student")
    assert report.first is not None
    assert [e.name for e in report.first.explained_by] == [mistake]
    assert report.diagnosis == MISTAKES[mistake].says


@pytest.mark.parametrize("rule", ["hf", "greatest", "smallest", "last"])
@pytest.mark.parametrize("text, marker", [(TIES, None), (FOUR, "</w>"), (TEA, "</w>")])
def test_a_trainer_breaking_ties_by_another_rule_is_named_by_that_rule(rule, text, marker):
    theirs = students.learn(text, marker=marker, merges=8, tie=rule)
    report = compare(training(text, marker), theirs, "student")
    assert report.first is not None
    assert rule in [e.name for e in report.first.explained_by if e.kind == "tie rule"]
    assert f"tie rule {rule}" in report.diagnosis


def test_a_lesson_under_another_rule_names_the_first_rule_for_a_classic_trainer():
    theirs = students.learn(TIES, merges=8)
    report = compare(training(TIES, None, tie="hf"), theirs, "student")
    assert report.tie_rule == "hf" and report.diagnosis == "tie rule first"


def test_a_merge_no_rule_or_mistake_makes_is_a_real_difference():
    # the tea lesson, with the second merge the pair counted 3 times where 5 is the most
    report = compare(training(TEA, None), [("e", "a"), ("ea", "m"), ("t", "eam")], "student")
    assert report.first is not None and report.first.step == 2
    assert report.first.explained_by == () and report.diagnosis == REAL
    assert report.differences[0].verdict == REAL


def test_a_tie_taken_by_another_rule_once_reads_as_that_rule_then_the_list_is_followed():
    # b a is met first, a b has the smaller ids; later ties hf would break another way than first
    text = "ba ab ba ab"
    theirs = students.learn(text, marker="</w>", merges=8, first_tie="hf")
    report = compare(training(text, "</w>"), theirs, "student")
    first = report.first
    assert first is not None and first.step == 1 and first.theirs == theirs[0]
    assert first.our_count == first.their_count and first.theirs in first.ties
    assert report.differences[0].step == 1 and report.differences[0].says == "same choice under rule hf"
    # after that one slip, every merge is what the lesson's rule takes on that list's own corpus
    assert [d.step for d in report.differences] == [1]
    assert report.diagnosis == "same choice under rule hf"


def test_a_tied_pair_no_rule_takes_is_said_so():
    # the classic corpus: e s, s t and t </w> tie at 9; s t is neither first, smallest, greatest nor last
    t = Training(FOUR, False, Settings(merges=6))
    theirs = [("s", "t"), ("e", "st"), ("est", "</w>"), ("l", "o"), ("lo", "w"), ("n", "e")]
    report = compare(t, theirs, "student")
    first = report.first
    assert first is not None and first.step == 1
    assert first.ours == ("e", "s") and first.theirs == ("s", "t") and first.our_count == first.their_count == 9
    assert set(first.ties) == {("e", "s"), ("s", "t"), ("t", "</w>")}
    assert report.differences[0].rules == () and report.differences[0].says == "a tied pair no tie rule takes"
    assert [d.step for d in report.differences] == [1]


def test_a_list_with_one_merge_changed_differs_at_that_step_and_where_it_ends():
    t = Training(FOUR, False, Settings())
    theirs = [s.pair for s in trained(t).steps]
    theirs[5] = ("w", "i")  # counted 3 times where the most is 6, in place of n e
    report = compare(t, theirs, "student")
    assert report.first is not None and report.first.step == 6 and report.diagnosis == REAL
    # the later steps line up with the lesson's again; n e, never merged, is left when the list ends
    assert [(d.step, d.verdict, d.count, d.best) for d in report.differences] == [
        (6, REAL, 3, 6), (16, LIST_ENDS, None, None)]
    assert report.differences[-1].ours == ("n", "e")
