"""The handout's class vote section: each question's rounds and counts, the right answer marked."""

from __future__ import annotations

import pytest

from engine.lesson.lesson import Lesson
from engine.vote.results import ResultRow
from tests.app.test_handout import CLASSIC, page_texts
from widgets.handout import vote_tables, write_handout
from widgets.handout_dialog import HandoutDialog, export_handout

ROWS = [
    ResultRow("Merge 1: which pair wins?", "merge-1", 1, "e + s", 3, True),
    ResultRow("Merge 1: which pair wins?", "merge-1", 1, "s + t", 1, False),
    ResultRow("Merge 1: which pair wins?", "merge-1", 2, "e + s", 4, True),
    ResultRow("Merge 1: which pair wins?", "merge-1", 2, "s + t", 0, False),
    ResultRow("How many tokens?", "quiz-n", 1, "9", 2, True),
]


@pytest.fixture(autouse=True)
def _application(qapp):
    """The handout draws with Qt fonts, which need an application object."""


def test_each_question_is_a_table_of_its_rounds_with_shares_of_that_round():
    tables = vote_tables(ROWS)
    assert [prompt for prompt, _ in tables] == ["Merge 1: which pair wins?", "How many tokens?"]
    assert tables[0][1] == [("1", "e + s", "3", "75%", "✔ right"), ("1", "s + t", "1", "25%", ""),
                            ("2", "e + s", "4", "100%", "✔ right"), ("2", "s + t", "0", "0%", "")]


def test_the_handout_ends_with_the_class_vote(tmp_path):
    lesson = Lesson(CLASSIC, word_counts=True).train()
    path = tmp_path / "votes.pdf"
    write_handout(lesson, path, [1], votes=ROWS)
    last = page_texts(path)[-1]
    assert last.startswith("BPE Lab lesson") and "Class vote" in last
    assert "Merge 1: which pair wins?" in last and "How many tokens?" in last
    assert "1 e + s 3 75% ✔ right" in last and "2 s + t 0 0%" in last


def test_no_votes_no_section(tmp_path):
    lesson = Lesson(CLASSIC, word_counts=True).train()
    write_handout(lesson, tmp_path / "plain.pdf", [1])
    assert not any("Class vote" in page for page in page_texts(tmp_path / "plain.pdf"))


def test_the_dialog_offers_the_votes_only_when_there_are_some(qtbot):
    none, some = HandoutDialog(4), HandoutDialog(4, vote_rounds=3)
    qtbot.addWidget(none)
    qtbot.addWidget(some)
    assert none.votes_box.isHidden() and not none.votes_box.isChecked()
    assert not some.votes_box.isHidden() and some.votes_box.isChecked() and "3 rounds" in some.votes_box.text()


def test_the_windows_handout_takes_its_class_votes(make_window, tmp_path, monkeypatch):
    window = make_window()
    monkeypatch.setattr(window.classroom.class_vote, "results", lambda: ROWS)
    with_votes = export_handout(window, tmp_path / "with", [1])
    without = export_handout(window, tmp_path / "without", [1], with_votes=False)
    assert "Class vote" in page_texts(with_votes)[-1]
    assert "Class vote" not in page_texts(without)[-1]
