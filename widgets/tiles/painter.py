"""How the tile view looks at one scale and in one theme: sizes, fonts, tiles, labels and highlights.

The layout decides what goes where and the film how far a merge has got; this module draws the
result, on screen and for the PNG and SVG exports alike. On screen each tile is a cached picture
(fill, outline, label, drawn once per token) blitted unscaled, which keeps a frame with a thousand
tiles cheap; exports ask for shapes instead, so an SVG stays a drawing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontDatabase, QFontMetricsF, QPainter, QPen, QPixmap, QStaticText

from engine.readable.tile_colours import TokenColours
from engine.readable.display import MARKER, Display
from widgets.token_palette import KIND_LOOKS
from widgets.tiles.animation import Transition
from widgets.tiles.layout import Frame, RowLayout, TileRows, summary
from widgets.tiles.palette import TileLook, tile_look
from widgets.tiles.theme import TileTheme

# the cached pictures of one token: as is, framed while it merges, chosen, and its glow ring
PLAIN, FRAMED, CHOSEN, GLOW = range(4)
SPRITE_CACHE = 4096
LABEL_CACHE = 4096
DIMMED = 0.32  # opacity of the tiles that are not the chosen token while one is chosen


# tied pairs' colours, one per tied pair in the caption's order: Okabe and Ito's colour-blind-safe
# set, each light enough to carry a black number and to show on the light, dark and classroom ground
TIE_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#CC79A7", "#D55E00")
# lanes under the tiles, one depth each; more tied pairs than lanes share them by number
TIE_LANES = 3
TIE_DASHES = (Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine)


def tie_colour(number: int) -> str:
    """The colour of the ``number``-th tied pair (1 for the first), on the tiles and in the caption."""
    return TIE_COLOURS[(max(1, number) - 1) % len(TIE_COLOURS)]


def _luminance(colour: QColor) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF())


def badge_colour(number: int) -> QColor:
    """The fill of the ``number``-th tied pair's number badge: its colour, lightened toward white
    just enough for the black number to stand at 7:1 (the classroom's rule); the green and the
    vermilion alone would give 6.1 and 5.4."""
    colour = QColor(tie_colour(number))
    # 7:1 against black: (L + 0.05) / 0.05 >= 7
    for step in range(21):
        t = step / 20
        tint = QColor.fromRgbF(*(c + (1 - c) * t for c in (colour.redF(), colour.greenF(), colour.blueF())))
        if _luminance(tint) >= 0.30:
            return tint
    return QColor("#ffffff")


@dataclass
class RowsShown:
    """What a screen shows of its rows: the band of the viewport being painted (top, bottom), and
    per word the highlights its row was last drawn with, to tell after a step which rows changed."""

    top: float = float("-inf")
    bottom: float = float("inf")
    highlights: dict[int, tuple] = field(default_factory=dict)


class TilePainter:
    def __init__(self, base_font: QFont, theme: TileTheme, scale: float = 1.0):
        self.base_font = QFont(base_font)
        self.theme = theme
        self.display = Display()
        self.token_id: Callable[[str], int | None] = lambda token: None
        self.colouring: TokenColours | None = None
        self.ratio = 1.0
        self.vector = False  # draw shapes instead of cached pictures (exports)
        self._texts: dict[str, str] = {}
        self._looks: dict[str, TileLook] = {}
        self._widths: dict[str, float] = {}
        self._sprites: dict[tuple[str, int], QPixmap] = {}
        # (text, bold) -> a row's ×count or token count, laid out once: a step redraws the same
        # few labels in every row in view, and laying text out costs more than drawing it
        self._labels: dict[tuple[str, bool], QStaticText] = {}
        self._biggest_count = 1
        self.least_px = 0  # the least type of the tie numbers (the classroom's, in the mode)
        self.set_scale(scale)

    # -- settings -------------------------------------------------------------------------------

    def set_lesson(self, marker: str | None, units: str, unknown: str | None,
                   token_id: Callable[[str], int | None] | None = None, specials: tuple[str, ...] = (),
                   colouring: TokenColours | None = None) -> None:
        """What the tiles depend on: how tokens read (marker, units, unknown and special tokens), their
        ids and the lesson's colouring (their fills)."""
        self.display = Display(units, marker, frozenset(specials), unknown)
        self.token_id = token_id or (lambda token: None)
        self.colouring = colouring
        self._texts.clear()
        self._looks.clear()
        self._widths.clear()
        self._sprites.clear()

    def set_theme(self, theme: TileTheme) -> None:
        self.theme = theme
        self._sprites.clear()

    def set_ratio(self, ratio: float) -> None:
        """Device pixels per logical pixel of the screen the pictures are blitted to."""
        if ratio != self.ratio:
            self.ratio = ratio
            self._sprites.clear()

    def set_scale(self, s: float) -> None:
        self.scale = s
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setPixelSize(max(8, round(22 * s)))
        self.tile_font = font
        label = QFont(self.base_font)
        label.setPixelSize(max(8, round(18 * s)))
        self.label_font = label
        bold = QFont(label)
        bold.setBold(True)
        self.bold_font = bold
        self.tile_metrics = QFontMetricsF(font)
        self.label_metrics = QFontMetricsF(label)
        self.bold_metrics = QFontMetricsF(bold)
        self._labels.clear()
        self.tile_h = self.tile_metrics.height() + 12 * s
        self.pad = 9 * s
        self.gap = 7 * s
        # room below the tiles holds the brackets of tied pairs
        self.row_h = self.tile_h + 36 * s
        self.tile_top = 10 * s
        self.margin = 14 * s
        self.top = 8 * s
        self.radius = 6 * s
        self.footer_h = self.label_metrics.height() + 14 * s
        self._footer_wraps = False  # until the view fits the band to its size (fit_footer)
        self.sprite_margin = math.ceil(10 * s) + 1
        self._widths.clear()
        self._sprites.clear()
        self._place_tiles()

    def set_biggest_count(self, count: int) -> None:
        """The lesson's largest word count: the room before the tiles holds its ×count."""
        self._biggest_count = count
        self._place_tiles()

    def _place_tiles(self) -> None:
        self.badge_w = self.bold_metrics.horizontalAdvance(f"×{self._biggest_count:,}") + 6 * self.scale
        self.tiles_x = self.margin + self.badge_w + 14 * self.scale  # where every row's first tile starts

    # -- one token ------------------------------------------------------------------------------

    def text(self, token: str) -> str:
        found = self._texts.get(token)
        if found is None:
            found = self._texts[token] = self.display.token(token)
        return found

    def look(self, token: str) -> TileLook:
        found = self._looks.get(token)
        if found is None:
            found = self._looks[token] = tile_look(self.display, token, self.token_id(token), self.colouring)
        return found

    def measure(self, token: str) -> float:
        """A tile's width: its label, padding, and room for the end-of-word bar where it has one."""
        w = self._widths.get(token)
        if w is None:
            w = self.tile_metrics.horizontalAdvance(self.text(token)) + 2 * self.pad
            if self.look(token).ends_word:
                w += 8 * self.scale
            w = self._widths[token] = max(w, self.tile_h * 0.8)
        return w

    # -- rows ---------------------------------------------------------------------------------

    def paint_rows(self, p: QPainter, rows: TileRows, t: Transition | None, area: QRectF, selected: str,
                   vector: bool = False, shown: RowsShown | None = None) -> float:
        """Paint the rows inside ``area`` (the part of the content in view) onto any device, with the
        film ``t`` at its current moment; returns the widest row drawn, its token count included.

        ``vector`` draws every tile as shapes and text (for SVG and high-resolution pictures)
        instead of blitting the cached tile pictures the screen uses. ``shown``: a screen's record of
        its rows: only the rows that meet its band (top to bottom) are drawn, and their highlights noted.
        """
        self.vector = vector
        try:
            return self._paint_rows(p, rows, t, area, selected, shown)
        finally:
            self.vector = False

    def _paint_rows(self, p: QPainter, rows: TileRows, t: Transition | None, area: QRectF, selected: str,
                    shown: RowsShown | None) -> float:
        width, height, sx, sy = area.width(), area.height(), area.x(), area.y()
        p.fillRect(QRectF(0, 0, width, height), QColor(self.theme.background))
        state = rows.state
        if state is None or not rows.order:
            lesson = rows.lesson
            if state is not None and lesson is not None and lesson.corpus is None:
                self.message(p, width, height, "No training text in a tokenizer file: type a text in the box "
                                               "above to see the file's merges cut it, step by step.")
            else:
                self.message(p, width, height, "No trained lesson yet: type or open a training text.")
            return 0.0
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        in_view = rows.rows_in(height, sy)
        counts = rows.counts
        # the next merge is framed only while nothing plays
        nxt = state.next_step() if t is None else None
        stripe = QColor(self.theme.stripe)
        counting = t if t is not None and t.sweep_positions > 0 else None  # the film whose window sweeps
        sweep_rows: list[tuple[int, float, float]] = []  # (word, tiles' left, tiles' top) of each row swept
        widest = 0.0
        ox = self.tiles_x - sx
        left, right = -ox - self.row_h, width - ox + self.row_h
        for r in in_view:
            word = rows.order[r]
            y = rows.row_top(r) - sy
            if shown is not None and not (shown.top < y + self.row_h and y < shown.bottom):
                continue  # a row the screen still shows as it is
            if r % 2:
                p.fillRect(QRectF(0, y, width, self.row_h), stripe)
            ty = y + self.tile_top
            frames, n, end = rows.frames_in(word, t, left, right)
            # the row reaches to the end of its token count, which the view scrolls to and no further
            widest = max(widest, end + 14 * self.scale + self._label(self._row_label_texts(0, n)[1][0], False).size().width())
            marks = rows.marks(word, nxt)
            highlights = marks[0]
            if shown is not None:
                shown.highlights[word] = marks
            if nxt is not None:
                self._paint_next(p, rows.layout(word), highlights, ox, ty, rows.tie_number)
            self.paint_tiles(p, frames, ox, ty, left, right, selected)
            if counting is not None:
                sweep_rows.append((word, ox, ty))
            self.row_labels(p, QRectF(self.margin - sx, ty, self.badge_w, self.tile_h), ox + end + 14 * self.scale,
                            ty, counts[word], n)
        if counting is not None:
            self._paint_counting(p, rows, counting, sweep_rows, width)
        seen = self.rows_seen(rows, height, sy)
        above = seen.start if seen else 0
        below = rows.hidden_below(seen)
        if below or above:
            self.footer(p, width, height, summary(above, below))
        return widest

    def row_texts(self, rows: TileRows, area: QRectF) -> list[tuple[str, QRectF, QFont]]:
        """What the resting rows in view write besides their tiles, where (in ``area``'s
        coordinates, as ``paint_rows`` draws them) and in which font: each row's ×frequency and
        token count, and the numbers of the brackets under pairs tied with the next merge."""
        state = rows.state
        if state is None or not rows.order:
            return []
        width, sx, sy = area.width(), area.x(), area.y()
        nxt = state.next_step()
        ox = self.tiles_x - sx
        left, right = -ox - self.row_h, width - ox + self.row_h
        found: list[tuple[str, QRectF, QFont]] = []
        for r in self.rows_seen(rows, area.height(), sy):
            word = rows.order[r]
            ty = rows.row_top(r) - sy + self.tile_top
            _frames, n, end = rows.frames_in(word, None, left, right)
            boxes = self.row_label_boxes(QRectF(self.margin - sx, ty, self.badge_w, self.tile_h),
                                         ox + end + 14 * self.scale, ty, rows.counts[word], n)
            for (text, bold), box in zip(self._row_label_texts(rows.counts[word], n), boxes):
                found.append((text, box, self.bold_font if bold else self.label_font))
            layout = rows.layout(word)
            for i in rows.marks(word, nxt)[0][1]:
                number = rows.tie_number((layout.tokens[i], layout.tokens[i + 1])) or 1
                x1, x2, y = self.bracket_lane(ox + layout.xs[i], ox + layout.xs[i + 1] + layout.widths[i + 1], ty, number)
                label, box, font = self.bracket_badge(x1, x2, y, number, ty)
                found.append((f"tie number {label}", box, font))
        return found

    def _paint_next(self, p: QPainter, layout: RowLayout, highlights: tuple[list[int], list[int]],
                    ox: float, ty: float, tie_number=lambda pair: 1) -> None:
        """Frame the places where the next merge happens and bracket the tied pairs."""
        winners, ties = highlights
        tokens = layout.tokens
        for i in ties:
            n = tie_number((tokens[i], tokens[i + 1])) or 1
            self.bracket_pair(p, ox + layout.xs[i], ox + layout.xs[i + 1] + layout.widths[i + 1], ty, n)
        for k in winners:
            self.frame_pair(p, ox + layout.xs[k], ox + layout.xs[k + 1] + layout.widths[k + 1], ty)

    def _paint_counting(self, p: QPainter, rows: TileRows, t: Transition,
                        sweep_rows: Sequence[tuple[int, float, float]], width: float) -> None:
        """The counting window on every row, and the tally of the pairs it has passed so far.

        Once the window has passed every tile the tally stays up during the merge, its winner framed.
        """
        sweeping = t.sweeping
        pos = int(t.sweep) if sweeping else t.sweep_positions
        tally: dict[tuple[str, str], int] = {}
        counts = rows.counts
        for word, ox, ty in sweep_rows:
            layout = rows.before(t.step, word)
            tokens = layout.tokens
            # rows first, then left to right: the tally meets pairs in reading order
            for pair in zip(tokens, tokens[1:pos + 2]):
                tally[pair] = tally.get(pair, 0) + counts[word]
            if sweeping and pos + 1 < len(tokens):
                self.sweep_window(p, ox + layout.xs[pos], ox + layout.xs[pos + 1] + layout.widths[pos + 1], ty)
        top = sorted(tally.items(), key=lambda item: -item[1])[:6]
        shown = "all words" if len(sweep_rows) == len(rows.order) else "words in view"
        lines = [(f"{self.text(a)} + {self.text(b)}", n, not sweeping and (a, b) == t.step.pair)
                 for (a, b), n in top]
        self.tally(p, width, f"Counting pairs ({shown})", lines)

    # -- tiles ----------------------------------------------------------------------------------

    def paint_tiles(self, p: QPainter, frames: list[Frame], ox: float, ty: float, left: float, right: float,
                    selected: str) -> None:
        """Paint a row's frames; ``left``/``right`` bound the row coordinates worth drawing.

        Every tile keeps its own size through a merge (only positions move), so the screen path
        is one unscaled blit per tile.
        """
        sprites = not self.vector
        if not sprites:
            p.setFont(self.tile_font)
        m = self.sprite_margin
        hop = 6 * self.scale
        for f in frames:
            if f.x + f.width < left or f.x > right:
                continue
            x, y = ox + f.x, ty - hop * f.emphasis  # a fused tile hops for its moment
            chosen = bool(selected) and f.token == selected
            framed = f.moving and f.emphasis == 0
            dim = bool(selected) and not chosen
            if f.emphasis > 0:
                p.setOpacity(f.emphasis)
                if sprites:
                    p.drawPixmap(QPointF(round(x - m), round(y - m)), self.sprite(f.token, GLOW))
                else:
                    self.draw_glow(p, QRectF(x, y, f.width, self.tile_h))
                p.setOpacity(1.0)
            if dim:
                p.setOpacity(DIMMED)
            if sprites:
                variant = CHOSEN if chosen else FRAMED if framed else PLAIN
                p.drawPixmap(QPointF(round(x - m), round(y - m)), self.sprite(f.token, variant))
            else:
                self.draw_tile(p, f.token, QRectF(x, y, f.width, self.tile_h), framed, chosen)
            if dim:
                p.setOpacity(1.0)

    def sprite(self, token: str, variant: int) -> QPixmap:
        key = (token, variant)
        found = self._sprites.get(key)
        if found is None:
            if len(self._sprites) >= SPRITE_CACHE:
                self._sprites.clear()
            m = self.sprite_margin
            w, h = self.measure(token), self.tile_h
            found = QPixmap(math.ceil((w + 2 * m) * self.ratio), math.ceil((h + 2 * m) * self.ratio))
            found.setDevicePixelRatio(self.ratio)
            found.fill(Qt.GlobalColor.transparent)
            painter = QPainter(found)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
            painter.setFont(self.tile_font)
            rect = QRectF(m, m, w, h)
            if variant == GLOW:
                self.draw_glow(painter, rect)
            else:
                self.draw_tile(painter, token, rect, variant == FRAMED, variant == CHOSEN)
            painter.end()
            self._sprites[key] = found
        return found

    def draw_tile(self, p: QPainter, token: str, rect: QRectF, framed: bool, chosen: bool) -> None:
        """One tile as shapes: fill, outline, the special kinds' cues, label, and any frame around it."""
        theme = self.theme
        s = self.scale
        look = self.look(token)
        outline = QPen(QColor(theme.outline), theme.outline_width * s)
        if look.dashed:
            outline.setStyle(Qt.PenStyle.DashLine)
        p.setBrush(look.fill)
        p.setPen(outline)
        p.drawRoundedRect(rect, self.radius, self.radius)
        if look.hatched:
            p.setBrush(QBrush(QColor(255, 255, 255, 110), Qt.BrushStyle.BDiagPattern))
            p.setPen(Qt.PenStyle.NoPen)
            p.drawRoundedRect(rect, self.radius, self.radius)
        if look.ends_word:
            bar = 5 * s
            p.fillRect(QRectF(rect.right() - bar - 3 * s, rect.top() + 4 * s, bar, rect.height() - 8 * s),
                       QColor(KIND_LOOKS[MARKER].fill))
        p.setPen(look.text)
        p.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.text(token))
        p.setBrush(Qt.BrushStyle.NoBrush)
        if framed:
            p.setPen(QPen(QColor(theme.winner), 3.5 * s))
            p.drawRoundedRect(rect.adjusted(-3 * s, -3 * s, 3 * s, 3 * s), self.radius + 2 * s, self.radius + 2 * s)
        if chosen:
            p.setPen(QPen(QColor(theme.selection), 4.5 * s))
            p.drawRoundedRect(rect.adjusted(-4 * s, -4 * s, 4 * s, 4 * s), self.radius + 3 * s, self.radius + 3 * s)

    def draw_glow(self, p: QPainter, rect: QRectF) -> None:
        """A soft ring around a tile that has just fused (the caller fades it with opacity)."""
        s = self.scale
        glow = QColor(self.theme.sweep)
        glow.setAlphaF(0.6)
        p.setPen(QPen(glow, 7 * s))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(rect.adjusted(-4 * s, -4 * s, 4 * s, 4 * s), self.radius + 4 * s, self.radius + 4 * s)

    # -- marks around the tiles -----------------------------------------------------------------

    def frame_pair(self, p: QPainter, x1: float, x2: float, ty: float) -> None:
        """The next merge: a heavy solid frame around both tiles of the pair."""
        s = self.scale
        p.setPen(QPen(QColor(self.theme.winner), 4 * s))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(QRectF(x1 - 5 * s, ty - 5 * s, x2 - x1 + 10 * s, self.tile_h + 10 * s),
                          self.radius + 4 * s, self.radius + 4 * s)

    def bracket_pair(self, p: QPainter, x1: float, x2: float, ty: float, number: int) -> None:
        """A pair tied with the next merge: a bracket under it in the tied pair's own colour, in its
        own lane, with its number at its left end (the caption names each number's pair).

        Tied pairs that share a tile would draw one bracket over another; each tied pair's lane
        lies at its own depth and its ends step in, so two or three of them never cross, and
        colour, number and dash pattern tell them apart from the back of a room, in grey too.
        """
        s = self.scale
        lane = (number - 1) % TIE_LANES
        colour = QColor(tie_colour(number))
        pen = QPen(colour, 3.5 * s)
        pen.setStyle(TIE_DASHES[lane])
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        top = ty + self.tile_h + 2 * s
        x1, x2, y = self.bracket_lane(x1, x2, ty, number)
        p.drawPolyline([QPointF(x1, top), QPointF(x1, y), QPointF(x2, y), QPointF(x2, top)])
        label, box, font = self.bracket_badge(x1, x2, y, number, ty)
        p.setFont(font)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(badge_colour(number))
        p.drawRoundedRect(box, 3 * s, 3 * s)
        p.setPen(QColor("#000000"))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, label)

    def bracket_lane(self, x1: float, x2: float, ty: float, number: int) -> tuple[float, float, float]:
        """Where the ``number``-th tied pair's bracket runs under tiles from x1 to x2: (left, right, depth)."""
        s = self.scale
        lane = (number - 1) % TIE_LANES
        # every lane stays inside the row's room below the tiles (36 at scale 1)
        return x1 + (5 + 6 * lane) * s, x2 - (5 + 6 * lane) * s, ty + self.tile_h + 2 * s + (5 + 6 * lane) * s

    def bracket_badge(self, x1: float, x2: float, y: float, number: int, ty: float) -> tuple[str, QRectF, QFont]:
        """The number of a tied pair's bracket (whose line runs from x1 to x2 at depth y under
        tiles whose top is ``ty``), in a badge on the line where no other lane's line runs: its
        text, box and font. A badge taller than its lane (the classroom's least type) hangs from
        the line instead, below the next merge's frame, which would cover its top."""
        s = self.scale
        font = QFont(self.bold_font)
        px = max(6, round(10 * s), self.least_px)
        font.setPixelSize(px)
        label = str(number)
        metrics = QFontMetricsF(font)
        w = metrics.horizontalAdvance(label) + 6 * s
        h = max(11 * s, metrics.height())
        top = max(y - h / 2, ty + self.tile_h + 7 * s) if px > round(10 * s) else y - h / 2
        return label, QRectF((x1 + x2) / 2 - w / 2, top, w, h), font

    def sweep_window(self, p: QPainter, x1: float, x2: float, ty: float) -> None:
        """The counting mode's window, two tiles wide."""
        s = self.scale
        p.setPen(QPen(QColor(self.theme.sweep), 5 * s))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(QRectF(x1 - 6 * s, ty - 6 * s, x2 - x1 + 12 * s, self.tile_h + 12 * s),
                          self.radius + 5 * s, self.radius + 5 * s)

    def row_labels(self, p: QPainter, badge: QRectF, count_x: float, ty: float, frequency: int, tokens: int) -> None:
        """The word's ×frequency before its tiles and its token count after them."""
        p.setPen(QColor(self.theme.muted))
        for (text, bold), box in zip(self._row_label_texts(frequency, tokens),
                                     self.row_label_boxes(badge, count_x, ty, frequency, tokens)):
            p.setFont(self.bold_font if bold else self.label_font)
            p.drawStaticText(box.topLeft(), self._label(text, bold))

    @staticmethod
    def _row_label_texts(frequency: int, tokens: int) -> list[tuple[str, bool]]:
        return [(f"×{frequency:,}", True), (f"{tokens:,} token" + ("" if tokens == 1 else "s"), False)]

    def row_label_boxes(self, badge: QRectF, count_x: float, ty: float, frequency: int, tokens: int) -> list[QRectF]:
        """Where a row's ×frequency (right-aligned in ``badge``) and token count (from ``count_x``) are drawn."""
        (count, _), (total, _) = self._row_label_texts(frequency, tokens)
        count_size = self._label(count, True).size()
        total_size = self._label(total, False).size()
        return [QRectF(QPointF(badge.right() - count_size.width(), ty + (self.tile_h - self.bold_metrics.height()) / 2),
                       count_size),
                QRectF(QPointF(count_x, ty + (self.tile_h - self.label_metrics.height()) / 2), total_size)]

    def _label(self, text: str, bold: bool) -> QStaticText:
        found = self._labels.get((text, bold))
        if found is None:
            if len(self._labels) >= LABEL_CACHE:
                self._labels.clear()
            found = self._labels[(text, bold)] = QStaticText(text)
            found.setTextFormat(Qt.TextFormat.PlainText)
            found.prepare(font=self.bold_font if bold else self.label_font)
        return found

    def tally(self, p: QPainter, width: float, title: str, lines: list[tuple[str, int, bool]]) -> None:
        """The counting mode's tally box in the top right corner; the winning line is framed."""
        s = self.scale
        line_h = self.label_metrics.height() + 6 * s
        box_w = 300 * s
        box = QRectF(width - box_w - 12 * s, 10 * s, box_w, line_h * (len(lines) + 1) + 16 * s)
        p.setPen(QPen(QColor(self.theme.outline), 1.5 * s))
        p.setBrush(QColor(self.theme.panel))
        p.drawRoundedRect(box, 8 * s, 8 * s)
        p.setFont(self.bold_font)
        p.setPen(QColor(self.theme.text))
        p.drawText(QRectF(box.left() + 10 * s, box.top() + 6 * s, box_w - 20 * s, line_h),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)
        for k, (label, n, won) in enumerate(lines):
            y = box.top() + 6 * s + line_h * (k + 1)
            if won:
                p.setPen(QPen(QColor(self.theme.winner), 3 * s))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(QRectF(box.left() + 4 * s, y, box_w - 8 * s, line_h), 5 * s, 5 * s)
            p.setFont(self.bold_font if won else self.label_font)
            p.setPen(QColor(self.theme.text))
            p.drawText(QRectF(box.left() + 10 * s, y, box_w * 0.7, line_h),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label)
            p.drawText(QRectF(box.left(), y, box_w - 12 * s, line_h),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"{n:,}")

    def rows_seen(self, rows: TileRows, height: float, scroll: float) -> range:
        """The rows in a window ``height`` tall from ``scroll`` whose tiles a class sees: under the
        summary band (drawn when rows are out of view) a row's tiles show only as a shadow, so a
        row reaching into it is one of the words the band counts below."""
        in_view = rows.rows_in(height, scroll)
        if not in_view or not (in_view.start or rows.hidden_below(in_view)):
            return in_view  # every row in view: no band
        band_top = scroll + height - self.footer_h
        stop = in_view.stop
        while stop > in_view.start and rows.tiles_top(stop - 1) + self.tile_h > band_top:
            stop -= 1
        return range(in_view.start, stop)

    def fit_footer(self, width: float, height: float, words: int) -> None:
        """The band that counts the rows out of view as tall as the longest sentence it can say
        for ``words`` needs, wrapped at ``width``: zoomed in on a narrow view one line would cut it.
        A view shorter than the wrapped band (``height``) keeps it on one line, its start in view."""
        room = QRectF(0, 0, max(1.0, width - 2 * self.margin), 1e6)
        text = summary(words, words)
        line = self.label_metrics.height()
        lines = self.bold_metrics.boundingRect(room, int(Qt.TextFlag.TextWordWrap), text).height()
        self._footer_wraps = lines > line and lines + 14 * self.scale <= height
        self.footer_h = (lines if self._footer_wraps else line) + 14 * self.scale

    def footer(self, p: QPainter, width: float, height: float, text: str) -> None:
        band = QRectF(0, height - self.footer_h, width, self.footer_h)
        bg = QColor(self.theme.panel)
        bg.setAlphaF(0.94)
        p.fillRect(band, bg)
        p.setPen(QColor(self.theme.muted))
        p.setFont(self.bold_font)
        wrap = Qt.TextFlag.TextWordWrap if self._footer_wraps else Qt.TextFlag(0)
        p.drawText(band.adjusted(self.margin, 0, -self.margin, 0),
                   int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | wrap), text)

    def message(self, p: QPainter, width: float, height: float, text: str) -> None:
        p.setPen(QColor(self.theme.muted))
        p.setFont(self.label_font)
        p.drawText(QRectF(0, 0, width, height), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, text)
