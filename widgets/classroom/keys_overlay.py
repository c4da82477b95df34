"""The `?` overlay: every classroom key and what it does, large enough to read from the back.

The type is sized from the screen's height and width, so the whole list always fits without
scrolling or cutting a line.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

import widgets.classroom.look as look
from widgets.classroom.cover import Cover

BACKGROUND = QColor(look.GROUND)
BACKGROUND.setAlpha(238)  # the lesson shows faintly through: the list is over it, not instead of it
TEXT = QColor(look.TEXT)
KEYS = QColor(look.ACCENT)
MUTED = QColor(look.MUTED)


class KeysOverlay(Cover):
    def __init__(self, host):
        super().__init__(host)
        self.title = "Classroom keys"
        self.footer = "Press ? or Esc to close this list"
        self.rows: list[tuple[str, str]] = []

    def set_keys(self, rows: list[tuple[str, str]]) -> None:
        """(keys, what they do) pairs, in the order to list them."""
        self.rows = list(rows)
        self.update()

    def text(self) -> str:
        """The list as plain lines (what the overlay shows, for tests and screen readers)."""
        return "\n".join([self.title, *(f"{k}: {what}" for k, what in self.rows), self.footer])

    def fonts(self) -> tuple[QFont, QFont]:
        lines = len(self.rows) + 3.5
        px = min(46, int(self.height() * 0.86 / lines / 1.45))
        body = QFont(self.font())
        body.setPixelSize(max(px, 1))
        # the widest row, keys and what they do side by side, within the screen's width too
        room = self.width() - 80
        needed = self.content_width(body)
        if needed > room > 0:
            px = int(px * room / needed)
        body.setPixelSize(max(14, px))
        title = QFont(body)
        title.setPixelSize(int(body.pixelSize() * 1.3))
        title.setBold(True)
        return title, body

    def content_width(self, body: QFont) -> float:
        """How wide the list is in type ``body``: the keys' column, what they do, and the margins."""
        return sum(self._columns(body))

    def _columns(self, body: QFont) -> tuple[float, float, float]:
        """(keys' column, what they do, both margins) in type ``body``."""
        bold = QFont(body)
        bold.setBold(True)
        line = QFontMetricsF(body).lineSpacing() * 1.35
        key_w = max((QFontMetricsF(bold).horizontalAdvance(k) for k, _ in self.rows), default=0) + line
        text_w = max((QFontMetricsF(body).horizontalAdvance(t) for _, t in self.rows), default=0)
        return key_w, text_w, 2 * line

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), BACKGROUND)
        title_font, body = self.fonts()
        bold = QFont(body)
        bold.setBold(True)
        line = QFontMetricsF(body).lineSpacing() * 1.35
        key_w, text_w, margins = self._columns(body)
        width = min(self.width() - 40, key_w + text_w + margins)
        height = line * (len(self.rows) + 3.2)
        left = (self.width() - width) / 2
        top = max(10.0, (self.height() - height) / 2)
        p.setPen(QPen(TEXT, 3))
        p.drawRoundedRect(QRectF(left - 20, top - 20, width + 40, height + 40), 14, 14)

        p.setFont(title_font)
        p.setPen(TEXT)
        p.drawText(QRectF(left, top, width, line * 1.4), Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter,
                   self.title)
        y = top + line * 1.6
        for keys, what in self.rows:
            p.setFont(bold)
            p.setPen(KEYS)
            p.drawText(QRectF(left, y, key_w - line / 2, line), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, keys)
            p.setFont(body)
            p.setPen(TEXT)
            p.drawText(QRectF(left + key_w, y, width - key_w, line), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                       what)
            y += line
        p.setPen(MUTED)
        p.drawText(QRectF(left, y + line * 0.3, width, line), Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter,
                   self.footer)
