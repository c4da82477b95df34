"""A mark on the timeline's slider at one step (where a compared merge list parts from the lesson).

A child of the slider that lets every click through and draws a small coloured notch above the
groove at the step's place; it follows the slider's size and range.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPolygonF
from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider, QWidget

# the colour of the other list's pair on the tiles, so the two marks read as one thing
MARK_COLOUR = "#D55E00"


class StepMark(QWidget):
    def __init__(self, slider: QSlider):
        super().__init__(slider)
        self.slider = slider
        self.step: int | None = None
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        slider.installEventFilter(self)
        self.hide()

    def set_step(self, step: int | None) -> None:
        self.step = step
        self.slider.setToolTip("" if step is None else f"Your merge list parts from the lesson at step {step}")
        self.setVisible(step is not None)
        self.setGeometry(self.slider.rect())
        self.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.slider and event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self.setGeometry(self.slider.rect())
        return False

    def x_of(self, step: int) -> float:
        """Where the slider's handle stands at ``step``, across the slider."""
        s = self.slider
        opt = QStyleOptionSlider()
        s.initStyleOption(opt)
        groove = s.style().subControlRect(QStyle.ComplexControl.CC_Slider, opt, QStyle.SubControl.SC_SliderGroove, s)
        handle = s.style().subControlRect(QStyle.ComplexControl.CC_Slider, opt, QStyle.SubControl.SC_SliderHandle, s)
        span = max(1, groove.width() - handle.width())
        at = QStyle.sliderPositionFromValue(s.minimum(), s.maximum(), min(max(step, s.minimum()), s.maximum()), span)
        return groove.x() + handle.width() / 2 + at

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if self.step is None:
            return
        x = self.x_of(self.step)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(MARK_COLOUR))
        h = max(4.0, self.height() / 3)
        p.drawPolygon(QPolygonF([QPointF(x - h * 0.7, 0), QPointF(x + h * 0.7, 0), QPointF(x, h)]))
        p.end()
