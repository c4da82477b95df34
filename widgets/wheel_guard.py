"""A combo box or spin box takes the mouse wheel only once it has the focus.

Scrolling a panel with the wheel must not change a setting the pointer happens to pass over (the
corpus's Split box retrained the lesson from step 0 that way). One filter on the application sees
every widget, made now or later: a combo box or spin box without the focus passes the wheel on to
the scroll area around it, and no longer takes the focus from the wheel (a click or Tab gives it).
Sliders keep the wheel: the timeline's slider is meant to be scrolled.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox, QWidget

GUARDED = (QComboBox, QAbstractSpinBox)


class WheelGuard(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind == QEvent.Type.Polish and isinstance(watched, GUARDED) \
                and watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            # Qt gives a wheel-focus widget the focus before it sees the wheel: that would let it take it
            watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elif kind == QEvent.Type.Wheel and isinstance(event, QWheelEvent) and isinstance(watched, GUARDED) \
                and not watched.hasFocus():
            _scroll_around(watched, event)
            return True
        return False


def _scroll_around(widget: QWidget, event: QWheelEvent) -> None:
    """Give the wheel to the nearest scroll area around ``widget`` that can scroll that way (a form
    that fits inside a scrolling panel passes it to the panel), at the same place on screen."""
    delta = event.angleDelta()
    sideways = abs(delta.x()) > abs(delta.y())
    area = widget.parentWidget()
    while area is not None:
        if isinstance(area, QAbstractScrollArea):
            bar = area.horizontalScrollBar() if sideways else area.verticalScrollBar()
            if bar.maximum() > bar.minimum():
                break
        area = area.parentWidget()
    if area is None:
        return
    viewport = area.viewport()
    where = QPointF(viewport.mapFromGlobal(widget.mapToGlobal(event.position().toPoint())))
    passed = QWheelEvent(where, event.globalPosition(), event.pixelDelta(), delta, event.buttons(),
                         event.modifiers(), event.phase(), event.inverted(), event.source())
    QApplication.sendEvent(viewport, passed)


def guard_wheel(app: QApplication) -> None:
    """Install the filter on ``app``, once however often it is asked."""
    if app.findChild(WheelGuard) is None:
        app.installEventFilter(WheelGuard(app))
