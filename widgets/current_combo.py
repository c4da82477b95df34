"""A combo box sized to the choice it shows."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QWidget


class CurrentWidthCombo(QComboBox):
    """A combo box as wide as the choice it shows, not as its longest choice: zoomed in on a small
    screen a narrow panel holds the choice on show whole, and the box widens when a longer one is
    picked (a box narrower than its text would shorten it with "…")."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.currentIndexChanged.connect(lambda _i: self.updateGeometry())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        text = QSize(self.fontMetrics().horizontalAdvance(self.currentText()) + 4, self.fontMetrics().height())
        size = self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, self)
        return QSize(size.width(), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return self.sizeHint()
