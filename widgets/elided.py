"""A label that keeps its height from step to step: either a fixed number of lines, a longer text
ending in "…" (``elide=True``), or, for text a class must read whole (``elide=False``), as many
lines as the longest of the texts it is told it will show (up to ``most_height`` pixels), so it
wraps instead of eliding.

The whole text is in the tooltip and the accessible description either way.

A status line that wraps to as many lines as each text needs moves everything under it on each
step; this one takes the height of the longest text ahead once, so stepping moves nothing.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetrics, QTextLayout
from PySide6.QtWidgets import QLabel, QSizePolicy


# how many of the texts a label is told it will show are measured: the longest
MEASURED_AHEAD = 24


class ElidedLabel(QLabel):
    def __init__(self, lines: int = 2, parent=None, elide: bool = True, most_height: int = 110):
        super().__init__(parent)
        self.lines = lines
        # a wrapping label's limit in pixels: past it (large type zoomed on a small screen) it
        # elides after all, rather than push the views off the screen
        self.most_height = most_height
        self.elide = elide
        self._full = ""
        # texts the label will show (the lesson's other steps): its height is the longest one's
        self._ahead: tuple[str, ...] = ()
        self._ahead_lines: tuple[object, int] = (None, 0)
        self._height_lines = lines
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

    def reserve_for(self, texts: Iterable[str]) -> None:
        """Take the height the longest of ``texts`` needs (a label that wraps rather than elides)."""
        # the longest in characters are those that wrap to the most lines: wrapping each of a long
        # lesson's hundreds of sentences at every width and type size held up the lesson's arrival
        # (a text that still needs more lines than these takes them when it is shown)
        self._ahead = tuple(heapq.nlargest(MEASURED_AHEAD, dict.fromkeys(texts), key=len))
        self._ahead_lines = (None, 0)
        self._show()

    def is_elided(self) -> bool:
        return super().text().replace("\n", " ") != self._full.replace("\n", " ")

    def shown_lines(self) -> int:
        """How many lines the label's height holds."""
        return self._height_lines

    def _room(self) -> int:
        # the style sheet's side padding is not among the margins Qt reports either
        return self.contentsRect().width() - 6

    def _lines_needed(self) -> int:
        width = self._room()
        if self.elide or width <= 0:
            return self.lines
        key = (width, self.font().key())
        if self._ahead_lines[0] != key:
            # measured once per width and font, not on every step's new text
            self._ahead_lines = (key, max([0] + [len(wrap_lines(t, self.font(), width)) for t in self._ahead]))
        need = max(self.lines, self._ahead_lines[1], len(wrap_lines(self._full, self.font(), width)))
        return min(need, max(self.lines, self.most_height // QFontMetrics(self.font()).lineSpacing()))

    def _fit_height(self) -> None:
        self._height_lines = self._lines_needed()
        margins = self.contentsMargins()
        # the style sheet's padding is not among the margins Qt reports: room for it, and descenders
        height = (QFontMetrics(self.font()).lineSpacing() * self._height_lines
                  + margins.top() + margins.bottom() + 12)
        if self.height() != height or self.minimumHeight() != height:
            self.setFixedHeight(height)

    def _show(self) -> None:
        width = self._room()
        if self.elide:
            super().setText(elide_lines(self._full, self.font(), width, self.lines))
            return
        self._fit_height()
        super().setText(elide_lines(self._full, self.font(), width, self._height_lines))

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_height()
            self._show()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._show()


def wrap_lines(text: str, font, width: int) -> list[str]:
    """``text`` wrapped at ``width`` pixels, one string per line."""
    if not text:
        return [""]
    layout = QTextLayout(text, font)
    layout.beginLayout()
    shown: list[str] = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        start, length = line.textStart(), line.textLength()
        shown.append(text[start:start + length].rstrip())
    layout.endLayout()
    return shown


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
