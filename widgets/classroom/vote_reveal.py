"""What the class voted, laid over the view once the teacher closes the round: a bar per option.

Each option is a row: its label (a pair question's two tiles, drawn as on the tiles), then a bar per
round side by side (after "vote again", round 1 and round 2 under their own headings), each with its
count and its share of that round's voters. The right answer is marked three ways at once, so it
reads on a grey projector too: a "✔ right" word after the label, a solid bar (the others are
hatched) and a thick frame around its row. When the choices tie, the tie rule's sentence closes it.
A quiz answer typed by the class (a number, a gap) is a row per answer given, the most given first.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen, QStaticText
from PySide6.QtWidgets import QWidget

import widgets.classroom.look as look
from widgets.classroom.cover import Cover
from widgets.classroom.predict import Question as PredictQuestion
from widgets.tiles.painter import TilePainter
from widgets.tiles.theme import TileTheme

RIGHT_WORD = "✔ right"
# rows shown at most: typed answers beyond these are summed in one last row
MOST_ROWS = 8


@dataclass(frozen=True)
class Bar:
    """One option: its label, the raw pair to draw as tiles (pair questions), its count in each round."""

    label: str
    counts: tuple[int, ...]
    correct: bool = False
    pair: tuple[str, str] | None = None
    number: str = ""  # the option's number as the projector shows it ("" for typed answers)


@dataclass(frozen=True)
class Reveal:
    prompt: str
    rounds: tuple[tuple[int, int], ...]  # (round number, its voters), first round first
    bars: tuple[Bar, ...]
    note: str = ""  # the tie rule's sentence when the choices tie


def share(count: int, voters: int) -> str:
    return f"{round(100 * count / voters)}%" if voters else "0%"


def round_heading(n: int, voters: int) -> str:
    return f"Round {n}: {voters:,} vote{'s' if voters != 1 else ''}"


class VoteReveal(Cover):
    def __init__(self, host: QWidget):
        super().__init__(host)
        self.reveal: Reveal | None = None
        self.keys = ""
        self.tiles = TilePainter(self.font(), TileTheme.high_contrast())
        self.rows: list[tuple[QRectF, Bar]] = []  # where each row was painted (tests look)
        self.painted: list[tuple[str, QRectF, QFont]] = []  # each text as last painted, where and in which type
        self.label_font = QFont(self.font())  # the labels' type as last painted (tests measure it)
        self.leave_bottom = 0  # the host's bottom pixels left in sight (the predict prompt's answer band)

    def show_reveal(self, reveal: Reveal, predict: PredictQuestion | None = None, keys: str = "") -> None:
        """Show ``reveal``; ``predict`` sets how a pair's tiles read (the lesson's marker, units, colours)."""
        self.reveal = reveal
        self.keys = keys
        if predict is not None:
            d = predict.display
            self.tiles.set_lesson(d.marker, d.units, d.unknown, predict.token_id, tuple(d.specials), predict.colouring)
        self.show()
        self.place()
        self.update()

    def area(self) -> QRect:
        r = self.host.rect()
        return r.adjusted(0, 0, 0, -min(self.leave_bottom, r.height() // 2))

    def text(self) -> str:
        """What the chart says, as plain lines (for tests and screen readers)."""
        r = self.reveal
        if r is None:
            return ""
        lines = [r.prompt, "   ".join(round_heading(n, v) for n, v in r.rounds)]
        for bar in r.bars:
            counts = "   ".join(f"{c:,} ({share(c, v)})" for c, (_n, v) in zip(bar.counts, r.rounds))
            lines.append(f"{bar.number + '. ' if bar.number else ''}{bar.label}{'  ' + RIGHT_WORD if bar.correct else ''}:  {counts}")
        if r.note:
            lines.append(r.note)
        return "\n".join(lines)

    def _font(self, px: float, bold: bool = False) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(max(look.LEAST_PX, int(px)))
        font.setBold(bold)
        return font

    def _unit(self) -> float:
        return min(self.height() / 1080, self.width() / 1920)

    def fonts(self) -> dict[str, QFont]:
        u = self._unit()
        return {"prompt": self._font(48 * u, bold=True), "heading": self._font(36 * u, bold=True),
                "label": self._font(40 * u, bold=True), "count": self._font(36 * u, bold=True),
                "note": self._font(34 * u, bold=True), "keys": self._font(28 * u)}

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        r = self.reveal
        if r is None:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(look.GROUND))
        self.painted = []
        w, h = float(self.width()), float(self.height())
        u = self._unit()
        fonts = self.fonts()
        margin = 36 * u
        room = w - 2 * margin
        wrap = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
        y = margin * 0.6

        def block(text: str, font: QFont, colour: str, top: float, flags: int = wrap) -> float:
            box = QFontMetricsF(font).boundingRect(QRectF(0, 0, room, 1e6), flags, text)
            p.setFont(font)
            p.setPen(QColor(colour))
            self._draw(p, QRectF(margin, top, room, box.height()), flags, text)
            return box.height()

        y += block(r.prompt, fonts["prompt"], look.TEXT, y) + 14 * u
        bottom = h - margin * 0.5
        if self.keys:
            bottom -= QFontMetricsF(fonts["keys"]).lineSpacing() + 6 * u
            block(self.keys, fonts["keys"], look.MUTED, bottom + 6 * u)
        if r.note:
            note_h = QFontMetricsF(fonts["note"]).boundingRect(QRectF(0, 0, room, 1e6), wrap, r.note).height()
            bottom -= note_h + 10 * u
            block(r.note, fonts["note"], look.ACCENT, bottom + 10 * u)

        label_font, count_font = QFont(fonts["label"]), fonts["count"]
        count_fm = QFontMetricsF(count_font)
        rounds = len(r.rounds)
        heading_h = QFontMetricsF(fonts["heading"]).lineSpacing() * 1.3
        free = bottom - y - heading_h
        bars = self._bars(r, free, QFontMetricsF(label_font))
        tiles = any(b.pair is not None for b in bars)
        count_w = count_fm.horizontalAdvance("0,000 (100%)") + 12 * u
        column_gap = 30 * u
        # the labels' column: what the widest needs, at most what leaves each round's bars room
        widest = room - rounds * (count_w + 120 * u + column_gap)
        # a label wraps in its column rather than lose its end; the type shrinks (never below the
        # classroom's least) until every row fits
        while True:
            label_fm = QFontMetricsF(label_font)
            base_h = max(label_fm.lineSpacing() * 1.15, min(free / max(1, len(bars)), label_fm.lineSpacing() * 2.5))
            self.tiles.set_scale(1.0)
            self.tiles.set_scale(max(0.5, (base_h - 20 * u) * 0.8 / self.tiles.tile_h))
            label_w = min(widest, max((self._label_width(b, label_fm) for b in bars), default=0) + 24 * u)
            heights = [base_h if b.pair is not None else
                       max(base_h, self._label_text(b, label_font, label_w - 12 * u).size().height() + 14 * u)
                       for b in bars]
            if sum(heights) <= free or label_font.pixelSize() <= look.LEAST_PX or tiles:
                break
            label_font.setPixelSize(label_font.pixelSize() - 2)
        column_w = (room - label_w - column_gap * rounds) / max(1, rounds)
        bar_room = max(10.0, column_w - count_w)
        biggest = max((c for b in bars for c in b.counts), default=0) or 1

        for i, (number, voters) in enumerate(r.rounds):
            cx = margin + label_w + column_gap + i * (column_w + column_gap)
            p.setFont(fonts["heading"])
            p.setPen(QColor(look.TEXT))
            self._draw(p, QRectF(cx, y, column_w, heading_h), int(Qt.AlignmentFlag.AlignVCenter), round_heading(number, voters))
        y += heading_h
        self.rows = []
        for bar, row_h in zip(bars, heights):
            row = QRectF(margin - 10 * u, y, room + 20 * u, row_h - 6 * u)
            self.rows.append((row, bar))
            if bar.correct:
                p.setPen(QPen(QColor(look.RIGHT), 6 * u))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(row, 10 * u, 10 * u)
            self._paint_label(p, bar, QRectF(margin, y, label_w - 12 * u, row_h - 6 * u), label_font)
            bar_h = min(row_h * 0.5, base_h * 0.5)
            for i, (count, (_n, voters)) in enumerate(zip(bar.counts, r.rounds)):
                cx = margin + label_w + column_gap + i * (column_w + column_gap)
                length = bar_room * count / biggest
                box = QRectF(cx, y + (row_h - 6 * u - bar_h) / 2, max(3.0, length), bar_h)
                colour = QColor(look.RIGHT if bar.correct else look.TEXT)
                p.setPen(QPen(colour, 3 * u))
                # the right answer's bar is solid, the others hatched: they differ in grey too
                p.setBrush(QBrush(colour) if bar.correct else QBrush(colour, Qt.BrushStyle.BDiagPattern))
                p.drawRect(box)
                p.setFont(count_font)
                p.setPen(QColor(look.TEXT))
                self._draw(p, QRectF(box.right() + 10 * u, y, count_w, row_h - 6 * u), int(Qt.AlignmentFlag.AlignVCenter),
                           f"{count:,} ({share(count, voters)})")
            y += row_h
        self.label_font = label_font

    def _draw(self, p: QPainter, rect: QRectF, flags: int, text: str) -> None:
        self.painted.append((text, p.drawText(rect, flags, text), QFont(p.font())))

    def _bars(self, r: Reveal, height: float, fm: QFontMetricsF) -> list[Bar]:
        """The rows to draw: every option of a question with options; the most given typed answers,
        the rest summed in one row, where they would not fit."""
        bars = list(r.bars)
        fit = max(2, min(MOST_ROWS, int(height // (fm.lineSpacing() * 1.15))))
        if len(bars) <= fit or any(b.pair for b in bars):
            return bars
        # the right answer keeps its row however few gave it
        right = [b for b in bars[fit - 1:] if b.correct]
        kept = bars[:fit - 1 - len(right)] + right
        rest = [b for b in bars if b not in kept]
        others = tuple(sum(b.counts[i] for b in rest) for i in range(len(r.rounds)))
        return kept + [Bar(f"{len(rest):,} other answers", others)]

    def _label_width(self, bar: Bar, fm: QFontMetricsF) -> float:
        right = fm.horizontalAdvance("  " + RIGHT_WORD) if bar.correct else 0.0
        number = fm.horizontalAdvance(f"{bar.number}. ") if bar.number else 0.0
        if bar.pair is not None:
            t = self.tiles
            return number + t.measure(bar.pair[0]) + t.measure(bar.pair[1]) + fm.horizontalAdvance(" + ") + 2 * t.gap + right
        return number + fm.horizontalAdvance(bar.label) + right

    def _label_text(self, bar: Bar, font: QFont, width: float) -> QStaticText:
        """A text option's label wrapped to ``width``, the right answer's word after it in its colour."""
        right = f' <span style="color:{look.RIGHT}">{RIGHT_WORD.replace(" ", "&nbsp;")}</span>' if bar.correct else ""
        number = f"{bar.number}. " if bar.number else ""
        text = QStaticText(f'<span style="color:{look.TEXT}">{html.escape(number + bar.label)}</span>{right}')
        text.setTextFormat(Qt.TextFormat.RichText)
        text.setTextWidth(max(1.0, width))
        text.prepare(font=font)
        return text

    def _paint_label(self, p: QPainter, bar: Bar, area: QRectF, font: QFont) -> None:
        fm = QFontMetricsF(font)
        p.setFont(font)
        if bar.pair is None:
            text = self._label_text(bar, font, area.width())
            at = QPointF(area.left(), area.top() + (area.height() - text.size().height()) / 2)
            p.drawStaticText(at, text)
            self.painted.append((bar.label, QRectF(at, text.size()), QFont(font)))
            return
        x = area.left()
        t = self.tiles
        ty = area.top() + (area.height() - t.tile_h) / 2
        if bar.number:
            p.setPen(QColor(look.TEXT))
            self._draw(p, QRectF(x, area.top(), area.width(), area.height()), int(Qt.AlignmentFlag.AlignVCenter), f"{bar.number}.")
            x += fm.horizontalAdvance(f"{bar.number}. ")
        for i, token in enumerate(bar.pair):
            if i:
                p.setFont(font)
                p.setPen(QColor(look.TEXT))
                plus = fm.horizontalAdvance(" + ")
                p.drawText(QRectF(x, area.top(), plus, area.height()), int(Qt.AlignmentFlag.AlignCenter), " + ")
                x += plus
            p.setFont(t.tile_font)
            tw = t.measure(token)
            t.draw_tile(p, token, QRectF(x, ty, tw, t.tile_h), False, False)
            x += tw + t.gap
        if bar.correct:
            p.setFont(font)
            p.setPen(QColor(look.RIGHT))
            self._draw(p, QRectF(x, area.top(), area.right() - x, area.height()), int(Qt.AlignmentFlag.AlignVCenter),
                       f"  {RIGHT_WORD}")
