"""Lesson > Where the tie rules part…: the lesson trained under every rule, off the GUI thread."""

from __future__ import annotations

import pytest

from app.rules_part import NOTHING_TO_TRAIN
from app.session import Session
from engine.algorithm.ranking import TIE_BREAKS
from engine.algorithm.settings import Settings
from engine.lesson.lesson import Lesson
from engine.lesson.rules_part import where_rules_part
from widgets.worker import wait_for_workers

# es + t and t + </w> tie at 9 at step 2: first meets es + t first, hf takes the other
TIED = "low 5\nlower 2\nnewest 6\nwidest 3"


@pytest.fixture
def window(make_window):
    lesson = Lesson(TIED, word_counts=True, settings=Settings()).train()
    return make_window(session=Session(lesson))


def _run(qtbot, window):
    window.rules_part_action.trigger()
    dialog = window.rules_part_window
    qtbot.waitUntil(lambda: not dialog.run.running, timeout=20_000)
    return dialog


def _row(view, rules: str) -> int:
    return next(r for r in range(view.table.rowCount()) if view.table.item(r, 0).text() == rules)


def test_first_and_hf_part_where_the_engine_says_with_the_tie_there(qtbot, window):
    view = _run(qtbot, window).view
    expected = where_rules_part(window.session.lesson.corpus)[("first", "hf")]
    assert expected.step == 2
    n = len(TIE_BREAKS)
    assert view.table.rowCount() == n * (n - 1) // 2
    row = _row(view, "first / hf")
    assert view.table.item(row, 1).text() == "2"
    tied = view.table.item(row, 2).text()
    assert tied.startswith("2 pairs, 9 times each:") and "es + t" in tied
    assert view.table.item(row, 3).text() == "first: es + t; hf: t + </w>"


def test_a_row_with_the_lessons_rule_moves_the_lesson_to_the_step_before_the_parting(qtbot, window):
    view = _run(qtbot, window).view
    window.session.request_step(window.session.last_step)
    view.table.cellClicked.emit(_row(view, "first / hf"), 1)
    assert window.session.step == 1  # the tiles frame merge 2, first's own, as the next one
    assert window.tabs.currentWidget() is window.views["Tiles"]


def test_a_row_of_two_other_rules_leaves_the_lesson_where_it_is(qtbot, window):
    view = _run(qtbot, window).view
    others = [r for r in range(view.table.rowCount()) if "first" not in view.table.item(r, 0).text().split(" / ")]
    window.session.request_step(3)
    for r in others:
        view.table.cellClicked.emit(r, 0)
    assert others and window.session.step == 3


def test_cancel_stops_the_run_and_shows_no_table(qtbot, window):
    window.rules_part_action.trigger()
    dialog = window.rules_part_window
    assert dialog.run.running and dialog.view.cancel_button.isVisibleTo(dialog.view)
    dialog.view.cancel_button.click()
    assert wait_for_workers(20_000)
    qtbot.wait(50)  # any late signal of the cancelled run would arrive now
    assert not dialog.run.running
    assert dialog.view.verdict.text().startswith("Cancelled")
    assert dialog.view.table.rowCount() == 0 and not dialog.view.table.isVisibleTo(dialog.view)


def test_a_lesson_with_nothing_to_train_says_what_to_do(qtbot, make_window):
    window = make_window(session=Session(Lesson("", settings=Settings())))
    window.rules_part_action.trigger()
    view = window.rules_part_window.view
    assert not window.rules_part_window.run.running
    assert view.verdict.text() == NOTHING_TO_TRAIN and "type or open a text" in view.verdict.text()


def test_after_the_lesson_changes_a_row_no_longer_moves_it(qtbot, window):
    view = _run(qtbot, window).view
    window.session.set_lesson(Lesson("ab ab cd cd", settings=Settings(end_of_word=None)).train())
    window.session.request_step(1)
    view.table.cellClicked.emit(_row(view, "first / hf"), 1)
    assert window.session.step == 1
    assert "changed since" in view.hint.text()
