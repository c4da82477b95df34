"""Lesson > Compare algorithms opens on the window's lesson, or says why it cannot."""

from __future__ import annotations

from engine.readable.algorithms import ALGORITHMS
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
