"""The class vote's corner while a round is open: how many have voted, never what.

A box in the top right corner of the view, over the question, with the room code beside the count
for latecomers; it says nothing while no round is open.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

import widgets.classroom.look as look
from widgets.classroom.cover import Cover


def voted_text(voted: int) -> str:
    return f"{voted:,} voted"


class VoteCount(Cover):
    def __init__(self, host: QWidget):
        super().__init__(host)
        self.voted = 0
        self.code = ""
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)

    def set_count(self, voted: int, code: str) -> None:
        self.voted, self.code = voted, code
        self.place()
        self.update()

    def text(self) -> str:
        return f"{voted_text(self.voted)}   ·   room {self.code}"

    def count_font(self) -> QFont:
        r = self.host.rect()
        font = QFont(self.font())
        font.setPixelSize(max(look.LEAST_PX, int(44 * min(r.height() / 1080, r.width() / 1920))))
        font.setBold(True)
        return font

    def area(self) -> QRect:
        r = self.host.rect()
        fm = QFontMetricsF(self.count_font())
        w = int(fm.horizontalAdvance(self.text()) + fm.height() * 1.2)
        h = int(fm.height() * 1.6)
        return QRect(r.right() - w - 8, r.top() + 8, w, h)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(look.GROUND))
        p.setPen(QPen(QColor(look.ACCENT), 4))
        p.drawRect(QRectF(2, 2, self.width() - 4, self.height() - 4))
        p.setFont(self.count_font())
        p.setPen(QColor(look.TEXT))
        p.drawText(QRectF(self.rect()), int(Qt.AlignmentFlag.AlignCenter), self.text())
