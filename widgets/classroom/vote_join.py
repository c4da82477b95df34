"""The class vote's join screen, laid over the current view: how a phone gets to the vote.

A QR code of the address (segno's module matrix, drawn square by square, black on white with its
four-module quiet zone whatever the theme: a phone's camera reads dark on light), the address in
large type for those who type it, the room code very large, and how many have joined and voted.
Sizes follow the screen (drawn for 1080p, never below the classroom's least type), so the code and
the digits read from the back of a room at 1024x768 as at 1920x1080.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

import widgets.classroom.look as look
from widgets.classroom.cover import Cover

QUIET_ZONE = 4  # modules of white around the code, as the QR standard asks
TITLE = "Vote from your phone"
STEPS = "Scan the code or type the address, then enter the room code."


def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The dark (True) and light modules of ``text``'s QR code, without the quiet zone."""
    import segno  # only a started vote draws a code

    code = segno.make(text, error="m", micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix)


def paint_qr(p: QPainter, matrix: tuple[tuple[bool, ...], ...], area: QRectF) -> QRectF:
    """Draw ``matrix`` as large as whole pixels per module allow, centred in ``area``, on white with
    the quiet zone; returns where the white square went."""
    modules = len(matrix) + 2 * QUIET_ZONE
    size = max(1, int(min(area.width(), area.height()) // modules))  # whole pixels: sharp module edges
    side = size * modules
    left = int(area.left() + (area.width() - side) / 2)
    top = int(area.top() + (area.height() - side) / 2)
    square = QRectF(left, top, side, side)
    p.fillRect(square, QColor("#FFFFFF"))
    black = QColor("#000000")
    for r, row in enumerate(matrix):
        y = top + (r + QUIET_ZONE) * size
        for c, dark in enumerate(row):
            if dark:
                p.fillRect(left + (c + QUIET_ZONE) * size, y, size, size, black)
    return square


class VoteJoin(Cover):
    """Shown while the teacher wants it: the address, its QR code, the room code and the counts."""

    def __init__(self, host: QWidget):
        super().__init__(host)
        self.address = ""
        self.code = ""
        self.joined: int | None = None
        self.voted = 0
        self.keys = ""
        self.matrix: tuple[tuple[bool, ...], ...] = ()
        self.qr_square = QRectF()
        self.painted: list[tuple[str, QRectF, QFont]] = []  # each text as last painted, where and in which type

    def set_room(self, address: str, code: str) -> None:
        if address != self.address:
            self.matrix = qr_matrix(address) if address else ()
        self.address, self.code = address, code
        self.update()

    def set_counts(self, joined: int | None, voted: int) -> None:
        """How many browsers are connected now (None when not known) and how many voted this round."""
        self.joined, self.voted = joined, voted
        self.update()

    def set_keys(self, keys: str) -> None:
        self.keys = keys
        self.update()

    def counts_line(self) -> str:
        voted = f"{self.voted:,} voted"
        return voted if self.joined is None else f"{self.joined:,} joined  /  {voted}"

    def text(self) -> str:
        """What the screen says, as plain lines (for tests and screen readers)."""
        return "\n".join([TITLE, STEPS, self.address, f"Room code {self.code}", self.counts_line(), self.keys])

    def _font(self, px: float, bold: bool = False) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(max(look.LEAST_PX, int(px)))
        font.setBold(bold)
        return font

    def fonts(self) -> dict[str, QFont]:
        """The screen's type at its size (tests measure it)."""
        w, h = self.width(), self.height()
        unit = min(h / 1080, w / 1920)
        address = self._font(64 * unit, bold=True)
        # the address is never cut: at most the text column's width
        room = self._text_room()
        fm = QFontMetricsF(address)
        while fm.horizontalAdvance(self.address) > room and address.pixelSize() > look.LEAST_PX:
            address.setPixelSize(address.pixelSize() - 1)
            fm = QFontMetricsF(address)
        code = self._font(min(220 * unit, h * 0.24), bold=True)
        return {"title": self._font(56 * unit, bold=True), "body": self._font(34 * unit), "address": address,
                "code": code, "label": self._font(40 * unit, bold=True), "counts": self._font(52 * unit, bold=True)}

    def _qr_side(self) -> float:
        return min(self.height() * 0.82, self.width() * 0.42)

    def _margin(self) -> float:
        return 40 * min(self.height() / 1080, self.width() / 1920)

    def _text_room(self) -> float:
        return self.width() - self._qr_side() - 3 * self._margin()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(look.GROUND))
        w, h = float(self.width()), float(self.height())
        margin = self._margin()
        side = self._qr_side()
        if self.matrix:
            self.qr_square = paint_qr(p, self.matrix, QRectF(margin, (h - side) / 2, side, side))
        x = margin * 2 + side
        room = self._text_room()
        fonts = self.fonts()
        wrap = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
        lines: list[tuple[str, QFont, QColor, float]] = [
            (TITLE, fonts["title"], QColor(look.TEXT), 0.3),
            (STEPS, fonts["body"], QColor(look.MUTED), 0.6),
            (self.address, fonts["address"], QColor(look.ACCENT), 0.6),
            ("Room code", fonts["label"], QColor(look.TEXT), 0.0),
            (" ".join(self.code), fonts["code"], QColor(look.ACCENT), 0.3),
            (self.counts_line(), fonts["counts"], QColor(look.TEXT), 0.5),
            (self.keys, fonts["body"], QColor(look.MUTED), 0.0),
        ]
        heights = [QFontMetricsF(f).boundingRect(QRectF(0, 0, room, 1e6), wrap, t).height() + QFontMetricsF(f).lineSpacing() * gap
                   for t, f, _c, gap in lines]
        y = max(margin * 0.5, (h - sum(heights)) / 2)
        self.painted = []
        for (text, font, colour, _gap), height in zip(lines, heights):
            p.setFont(font)
            p.setPen(colour)
            self.painted.append((text, p.drawText(QRectF(x, y, room, height), wrap, text), font))
            y += height
        p.setPen(QPen(QColor(look.ACCENT), max(2.0, 4 * min(h / 1080, w / 1920))))
        p.drawRect(QRectF(1, 1, w - 2, h - 2))
