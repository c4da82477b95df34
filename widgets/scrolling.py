"""A panel that scrolls when it is given less room than it needs, instead of being squeezed.

A layout squeezed under its minimum draws its controls over each other; in a frameless scroll area
the panel keeps its size and the area scrolls (docks, and the central views' pages at a large zoom).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QWidget


def scrolling(panel: QWidget) -> QScrollArea:
    """``panel`` in a frameless scroll area: at its natural size or larger it shows whole, smaller it scrolls."""
    area = QScrollArea()
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setWidget(panel)
    return area


class WrappedArea(QScrollArea):
    """A wrapping text (``text``, which has a height for its width) in a frameless scroll area that
    asks for the text's whole height at its width, and given less (a short window at a large zoom)
    scrolls down to ``least`` pixels rather than cut the text off."""

    def __init__(self, text: QWidget, least: Callable[[], int]):
        super().__init__()
        self._least = least
        self.setFrameShape(QFrame.Shape.NoFrame)
        # sized here, not by the area: it would give the text the viewport's height, not its own
        self.setWidgetResizable(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(text)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self._need = -1

    def _text_height(self) -> int:
        text = self.widget()
        return text.heightForWidth(self.viewport().width()) if text is not None else 0

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        text = self.widget()
        width = text.sizeHint().width() if text is not None else 0
        return QSize(width, self._text_height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(0, min(self._least(), self._text_height()))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._check_need()

    def event(self, event: QEvent) -> bool:
        # the text asked for another size (a longer caption, a larger type): ask the layout in turn
        if event.type() == QEvent.Type.LayoutRequest:
            self._check_need()
        return super().event(event)

    def _check_need(self) -> None:
        need = self._text_height()
        text = self.widget()
        if text is not None:
            text.resize(self.viewport().width(), max(need, self.viewport().height()))
        if need != self._need:
            self._need = need
            self.updateGeometry()
