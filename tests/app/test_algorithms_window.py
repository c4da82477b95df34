"""Lesson > Compare algorithms opens on the window's lesson, or says why it cannot, and goes with the window."""

from __future__ import annotations

import pytest

from engine.readable.algorithms import ALGORITHMS
from tests.child_processes import gone
from tests.widgets.test_algorithms_view import STOPPED_WITHIN_MS, large_lesson, unigram_process
from widgets.algorithms_view import compare_algorithms_in


def test_the_lesson_menu_opens_the_comparison_of_the_windows_lesson(make_window, qtbot):
    window = make_window()
    lesson_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Lesson")
    assert window.compare_algorithms_action in lesson_menu.actions()
    dialog = compare_algorithms_in(window)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert dialog.columns == list(ALGORITHMS)
    assert dialog.vocab_size == window.session.lesson.history.vocab_size(window.session.lesson.last_step)
    dialog.close()


@pytest.mark.slow
def test_quitting_the_window_mid_training_leaves_no_process(make_window, qtbot):
    window = make_window()
    window.session.set_lesson(large_lesson())
    dialog = compare_algorithms_in(window)
    pid = unigram_process(qtbot, dialog)
    window.close()
    qtbot.waitUntil(lambda: gone(pid), timeout=STOPPED_WITHIN_MS)
