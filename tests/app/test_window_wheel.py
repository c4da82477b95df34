"""The mouse wheel over the window scrolls; it never changes a setting the pointer passes over."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox


@pytest.fixture
def window(make_window, qtbot):
    w = make_window()
    for title in w.views:
        w.views[title]  # every view built, with its boxes
    w.show()
    qtbot.waitExposed(w)
    w.corpus_dock.show()
    return w


def wheel(widget, notches: int = -1) -> None:
    middle = QPointF(widget.rect().center())
    QApplication.sendEvent(widget, QWheelEvent(
        middle, QPointF(widget.mapToGlobal(middle.toPoint())), QPoint(0, 0), QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False))


def state(box):
    return box.currentIndex() if isinstance(box, QComboBox) else box.text()


def boxes(window):
    return window.findChildren(QComboBox) + window.findChildren(QAbstractSpinBox)


def test_no_unfocused_box_in_the_window_takes_the_wheel(window):
    found = boxes(window)
    # the defect's own box, the corpus's Split, is among them and has somewhere to go
    assert window.corpus_panel.settings_form.split in found and window.corpus_panel.settings_form.split.count() > 1
    settings = window.session.lesson.settings
    for box in found:
        box.clearFocus()
        before = state(box)
        for notches in (-1, 1, -3):
            wheel(box, notches)
        assert state(box) == before, box
    assert window.session.lesson.settings == settings


def test_a_box_with_the_focus_still_takes_the_wheel(window, qtbot):
    split = window.corpus_panel.settings_form.split
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    split.setFocus()
    qtbot.waitUntil(split.hasFocus)
    before = split.currentIndex()
    wheel(split)
    assert split.currentIndex() != before


def test_the_wheel_over_a_box_scrolls_the_corpus_dock(window):
    window.corpus_panel.setMinimumHeight(3 * window.height())  # taller than its dock: the dock scrolls
    QApplication.processEvents()
    area = window.corpus_dock.widget()
    assert isinstance(area, QAbstractScrollArea) and area.verticalScrollBar().maximum() > 0
    presets = window.corpus_panel.presets
    before = presets.currentIndex()
    wheel(presets, -2)
    assert area.verticalScrollBar().value() > 0 and presets.currentIndex() == before


def test_a_box_shown_in_the_window_no_longer_takes_the_focus_from_the_wheel(window):
    shown = [b for b in boxes(window) if b.isVisible()]
    assert shown and all(b.focusPolicy() != Qt.FocusPolicy.WheelFocus for b in shown)
