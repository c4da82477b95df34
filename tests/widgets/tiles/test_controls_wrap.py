"""The tile view's controls wrap onto another line rather than clip, however narrow or zoomed."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLabel, QToolButton, QWidget

from app.session import Session
from engine.lesson.lesson import Lesson
from widgets.tiles import TileView

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def controls(view: TileView):
    kinds = (QLabel, QComboBox, QCheckBox, QToolButton)
    return [w for w in view.controls.findChildren(QWidget) if isinstance(w, kinds) and w.isVisible()]


@pytest.mark.parametrize("width, points", [(1000, 10), (520, 10), (420, 20), (300, 14)])
def test_every_control_shows_whole_inside_the_view(qtbot, width, points):
    view = TileView(Session(Lesson(CLASSIC, word_counts=True).train()))
    qtbot.addWidget(view)
    font = QFont(view.font())
    font.setPointSize(points)
    view.setFont(font)
    view.resize(width, 600)
    view.show()
    qtbot.waitExposed(view)
    QApplication.processEvents()
    assert view.width() == width  # the strip lets the view be this narrow...
    shown = controls(view)
    assert len(shown) >= 7  # "Rows by", its box, two boxes, "Zoom", −, +, Export…
    for widget in shown:
        box = widget.rect().translated(widget.mapTo(view, widget.rect().topLeft()))
        # ...and still shows each control whole
        assert widget.width() >= widget.sizeHint().width(), f"{widget!r} is narrower than its text"
        assert 0 <= box.left() and box.right() < view.width(), "a control runs past the view's edge"
    # nothing of the strip hides under the canvas below it
    strip = view.controls.geometry()
    assert strip.bottom() < view.canvas.geometry().top()
    if width >= 1000 and points == 10:
        assert len({widget.mapTo(view, widget.rect().center()).y() // 10 for widget in shown}) <= 2  # one line
