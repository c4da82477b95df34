"""A box takes the wheel only with the focus; without it the wheel scrolls what holds the box."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QScrollArea, QSlider, QSpinBox, QVBoxLayout, QWidget

from widgets.wheel_guard import guard_wheel


def wheel(widget, notches: int = -1) -> None:
    middle = QPointF(widget.rect().center())
    QApplication.sendEvent(widget, QWheelEvent(
        middle, QPointF(widget.mapToGlobal(middle.toPoint())), QPoint(0, 0), QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False))


@pytest.fixture
def area(qtbot):
    guard_wheel(QApplication.instance())
    guard_wheel(QApplication.instance())  # asked twice, installed once
    panel = QWidget()
    layout = QVBoxLayout(panel)
    panel.spin = QSpinBox(maximum=100, value=50)
    panel.slider = QSlider(Qt.Orientation.Horizontal, maximum=100, value=50)
    layout.addWidget(panel.spin)
    layout.addWidget(panel.slider)
    panel.setMinimumHeight(2000)
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setWidget(panel)
    area.resize(300, 200)
    qtbot.addWidget(area)
    area.show()
    qtbot.waitExposed(area)
    area.panel = panel
    return area


def test_installed_once(area):
    from widgets.wheel_guard import WheelGuard

    assert len(QApplication.instance().findChildren(WheelGuard)) == 1


def test_an_unfocused_spin_box_passes_the_wheel_to_its_scroll_area(area):
    area.panel.spin.clearFocus()
    wheel(area.panel.spin, -2)
    assert area.panel.spin.value() == 50 and area.verticalScrollBar().value() > 0


def test_a_focused_spin_box_takes_the_wheel(area, qtbot):
    area.activateWindow()
    area.panel.spin.setFocus()
    qtbot.waitUntil(area.panel.spin.hasFocus)
    wheel(area.panel.spin, -1)
    assert area.panel.spin.value() == 49


def test_a_slider_keeps_the_wheel(area):
    wheel(area.panel.slider, -1)
    assert area.panel.slider.value() != 50
