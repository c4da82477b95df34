"""Ctrl+G puts the focus in the timeline's step field: type a step, Return, and the lesson is there."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

K = Qt.Key


def test_ctrl_g_then_a_step_and_return_goes_there(make_window, qtbot):
    window = make_window()
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.show_view("Tiles")
    qtbot.keyClick(window, K.Key_G, Qt.KeyboardModifier.ControlModifier)
    field = window.timeline.step_field
    assert QApplication.focusWidget() is field
    assert field.lineEdit().selectedText() == str(window.session.step)
    qtbot.keyClicks(QApplication.focusWidget(), "3")
    # the arrows move in the typed number, not the lesson
    qtbot.keyClick(QApplication.focusWidget(), K.Key_Left)
    assert window.session.step == 0
    qtbot.keyClick(QApplication.focusWidget(), K.Key_Return)
    assert window.session.step == 3
    lesson_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Lesson")
    assert window.go_to_action in lesson_menu.actions()
