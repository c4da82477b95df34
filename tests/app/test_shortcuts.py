"""The window's keys as a user presses them: each bound once where it is live, each doing its job,
and the Help list naming every one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QShortcut
from PySide6.QtWidgets import QApplication

from app.shortcut_list import ShortcutList, shortcut_sections
from widgets.shortcuts import bindings, clashes

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

K = Qt.Key
CTRL, ALT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.AltModifier


@pytest.fixture
def window(make_window, qtbot, monkeypatch):
    monkeypatch.setattr("app.classroom._screen_fit", lambda window: 1.0)
    w = make_window()
    for title in w.views:
        w.views[title]  # every view built, with the keys it brings
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    return w


def press(qtbot, widget, key, modifiers=Qt.KeyboardModifier.NoModifier):
    qtbot.keyClick(widget, key, modifiers)
    QApplication.processEvents()


def described(pairs):
    return [(a.keys, a.what, b.what) for a, b in pairs]


def test_no_key_is_bound_twice_where_both_are_live(window):
    assert bindings(window), "the walk found no keys at all"
    assert described(clashes(window)) == []


def test_no_key_is_bound_twice_in_classroom_mode(window, qtbot):
    window.classroom.set_predict_first(True)
    press(qtbot, window, K.Key_F5)
    assert window.classroom.active
    window.classroom.keys_overlay  # noqa: B018 (the mode's covers, built)
    assert described(clashes(window)) == []


def test_the_check_finds_a_key_given_twice(window):
    # the defect the window had: one action given Ctrl++ directly and again as the platform's zoom key
    twice = QAction("Twice", window)
    twice.setShortcuts(["Ctrl+F12", "Ctrl+F12"])
    window.addAction(twice)
    # and a view's own key that the window also binds (the quiz's old Ctrl+N against File > New)
    QShortcut("Ctrl+N", window.views["Quiz"], context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
    found = described(clashes(window))
    assert ("Ctrl+F12", "Twice", "Twice") in found
    assert any(keys == "Ctrl+N" and "New" in (a, b) for keys, a, b in found)


@pytest.mark.parametrize("key", [K.Key_Plus, K.Key_Equal])
def test_each_zoom_in_key_zooms_in(window, qtbot, key):
    before = window.zoom
    press(qtbot, window, key, CTRL)
    assert window.zoom > before


def test_zoom_out_and_actual_size_keys_zoom(window, qtbot):
    press(qtbot, window, K.Key_Minus, CTRL)
    assert window.zoom < 1.0
    press(qtbot, window, K.Key_0, CTRL)
    assert window.zoom == 1.0


def test_the_quiz_next_question_key_moves_on(window, qtbot):
    quiz = window.views["Quiz"]
    window.show_view("Quiz")
    quiz.setFocus()
    qtbot.waitUntil(lambda: quiz.shown().title != "")
    before = quiz.shown()
    press(qtbot, quiz, K.Key_Right, ALT)
    assert quiz.shown().position != before.position


def test_file_new_key_starts_a_new_lesson_also_from_the_quiz(window, qtbot):
    window.session.request_corpus("one two two three three three", False)
    qtbot.waitUntil(lambda: "three" in window.session.lesson.text)
    quiz = window.views["Quiz"]
    window.show_view("Quiz")
    quiz.setFocus()
    with qtbot.waitSignal(window.session.lesson_changed, timeout=10_000):
        press(qtbot, quiz, K.Key_N, CTRL)
    qtbot.waitUntil(lambda: "three" not in window.session.lesson.text)


@pytest.mark.parametrize("key, step", [(K.Key_Right, 4), (K.Key_Left, 2), (K.Key_Home, 0), (K.Key_Space, 4)])
def test_classroom_keys_still_step(window, qtbot, key, step):
    window.show_view("Tiles")
    window.session.request_step(3)
    press(qtbot, window, K.Key_F5)
    press(qtbot, window, key)
    assert window.session.step == step


def test_classroom_end_key_goes_to_the_end(window, qtbot):
    window.show_view("Tiles")
    press(qtbot, window, K.Key_F5)
    press(qtbot, window, K.Key_End)
    assert window.session.step == window.session.last_step > 0


def test_the_help_list_names_every_bound_key(window):
    listed = {(keys, what) for _title, rows in shortcut_sections(window) for keys, what in rows}
    for b in bindings(window):
        assert any(b.keys in keys.split("  or  ") and what == b.what for keys, what in listed), (b.keys, b.what)


def test_the_help_list_shows_each_key_and_the_classroom_keys(window, qtbot):
    press(qtbot, window, K.Key_F1)
    dialog = next(d for d in window.findChildren(ShortcutList) if d.isVisible())
    text = " ".join(dialog.browser.toPlainText().split())

    def shows(part: str) -> bool:
        return " ".join(part.split()) in text

    for b in bindings(window):
        assert shows(b.keys) and shows(b.what), (b.keys, b.what)
    assert shows("Alt+Right") and shows("Next question")
    for keys, what in window.classroom.key_list():
        assert shows(keys) and shows(what), (keys, what)
    assert "Help" in [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert window.shortcuts_action in window.menuBar().actions()[-1].menu().actions()
