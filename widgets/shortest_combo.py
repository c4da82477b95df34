"""A combo box that may narrow to the choice it shows."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QWidget


class ShortestCombo(QComboBox):
    """A combo box that asks for its longest choice's width but needs only the width of the choice
    it shows: zoomed in on a small screen a narrow panel holds the choice on show whole (a box
    narrower than its text would shorten it with "…"), and the least grows when a longer one is picked."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.currentIndexChanged.connect(lambda _i: self.updateGeometry())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        metrics = self.fontMetrics()
        text = QSize(metrics.horizontalAdvance(self.currentText()) + 4, metrics.height())
        size = self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, self)
        return QSize(min(size.width(), self.sizeHint().width()), self.sizeHint().height())
