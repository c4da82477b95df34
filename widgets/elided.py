"""A label of a fixed number of lines: a longer text ends in "…", and the whole of it is in the
tooltip and the accessible description.

A status line that wraps to as many lines as its text needs moves everything under it on each
step; this one keeps its height, so stepping moves nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetrics, QTextLayout
from PySide6.QtWidgets import QLabel, QSizePolicy


class ElidedLabel(QLabel):
    def __init__(self, lines: int = 2, parent=None):
        super().__init__(parent)
        self.lines = lines
        self._full = ""
        self.setWordWrap(False)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._fit_height()

    def full_text(self) -> str:
        return self._full

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._full = text
        self.setToolTip(text)
        self.setAccessibleDescription(text)
        self._show()

    def is_elided(self) -> bool:
        return super().text() != self._full

    def _fit_height(self) -> None:
        margins = self.contentsMargins()
        # the style sheet's padding is not among the margins Qt reports: room for it, and descenders
        height = QFontMetrics(self.font()).lineSpacing() * self.lines + margins.top() + margins.bottom() + 12
        if self.height() != height or self.minimumHeight() != height:
            self.setFixedHeight(height)

    def _show(self) -> None:
        super().setText(elide_lines(self._full, self.font(), self.contentsRect().width(), self.lines))

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_height()
            self._show()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._show()


def elide_lines(text: str, font, width: int, lines: int) -> str:
    """``text`` wrapped at ``width`` pixels into at most ``lines`` lines, the last ending in "…"
    when the text goes on; the lines are joined with newlines."""
    if width <= 0 or not text:
        return text
    layout = QTextLayout(text, font)
    layout.beginLayout()
    shown: list[str] = []
    while len(shown) < lines:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        start, length = line.textStart(), line.textLength()
        if len(shown) == lines - 1 and start + length < len(text):
            rest = text[start:].replace("\n", " ")
            shown.append(QFontMetrics(font).elidedText(rest, Qt.TextElideMode.ElideRight, width))
        else:
            shown.append(text[start:start + length].rstrip())
    layout.endLayout()
    return "\n".join(shown)
