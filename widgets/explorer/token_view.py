"""A text drawn as coloured pieces that wrap like text: one fill per token, whitespace visible.

The view lays its pieces out in rows for the width it has and asks its scroll area for the height
that takes. A piece made of several tokens (a character whose bytes they share) is one box striped
in each token's fill; hovering any piece lists its tokens and ids.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from engine.readable.tile_colours import TokenColours
from engine.readable.display import TOKEN
from engine.readable.explorer import GAP, SPLIT, Piece, describe
from widgets.token_palette import KindLook, look_of
from widgets.explorer.theme import ExplorerTheme

BASE_POINT_SIZE = 15.0
# code points drawn from a colour font (emoji), and the joiners and selectors that build them
_COLOUR_GLYPHS = ((0x1F000, 0x1FAFF), (0x2600, 0x27BF), (0x200D, 0x200D), (0xFE0F, 0xFE0F))


def colour_glyphs_only(label: str) -> bool:
    """Whether ``label`` is emoji alone, whose colours no pen sets."""
    return bool(label) and all(any(lo <= ord(c) <= hi for lo, hi in _COLOUR_GLYPHS) for c in label)


class TokenView(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.pieces: tuple[Piece, ...] = ()
        # the lesson's colouring when the pieces are the lesson's tokens; else each id's own fill
        self.colouring: TokenColours | None = None
        self.show_ids = False
        self.scale = 1.0
        self.theme = ExplorerTheme.light()
        self.placeholder = ""
        self._boxes: list[tuple[QRectF, int]] = []
        self._laid_out_for = -1
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    # -- what to show -------------------------------------------------------------------------

    def set_pieces(self, pieces, placeholder: str = "", colouring: TokenColours | None = None) -> None:
        self.pieces = tuple(pieces)
        self.colouring = colouring
        self.placeholder = placeholder
        self._relayout()

    def set_show_ids(self, on: bool) -> None:
        self.show_ids = on
        self._relayout()

    def set_scale(self, factor: float) -> None:
        self.scale = max(0.5, min(float(factor), 5.0))
        self._relayout()

    def set_theme(self, theme: ExplorerTheme) -> None:
        self.theme = theme
        self._relayout()

    # -- layout ---------------------------------------------------------------------------------

    def _fonts(self) -> tuple[QFont, QFont]:
        main = QFont(self.font())
        main.setPointSizeF(BASE_POINT_SIZE * self.scale)
        main.setBold(self.theme.bold)
        small = QFont(main)
        small.setPointSizeF(BASE_POINT_SIZE * self.scale * 0.62)
        small.setBold(False)
        return main, small

    def _metrics(self):
        main, small = self._fonts()
        fm, sm = QFontMetricsF(main), QFontMetricsF(small)
        pad = 5.0 * self.scale
        gap = 4.0 * self.scale
        box_h = fm.height() + 2 * pad * 0.6 + (sm.height() if self.show_ids else 0.0)
        return main, small, fm, sm, pad, gap, box_h

    def _layout(self, width: float) -> tuple[list[tuple[QRectF, int]], float]:
        _, _, fm, sm, pad, gap, box_h = self._metrics()
        margin = 6.0 * self.scale
        x, y = margin, margin
        boxes = []
        right = max(width - margin, margin + 10)
        for index, piece in enumerate(self.pieces):
            w = fm.horizontalAdvance(piece.label) + 2 * pad
            if self.show_ids and piece.ids:
                w = max(w, sm.horizontalAdvance(self._id_text(piece)) + 2 * pad)
            w = min(w, right - margin)
            if x > margin and x + w > right:
                x, y = margin, y + box_h + gap
            boxes.append((QRectF(x, y, w, box_h), index))
            x += w + gap
            if piece.ends_line:
                x, y = margin, y + box_h + gap
        height = (y + box_h + margin) if boxes and x > margin else (y + margin)
        return boxes, height

    @staticmethod
    def _id_text(piece: Piece) -> str:
        return " ".join(str(i) for i in piece.ids)

    def _relayout(self) -> None:
        self._boxes, height = self._layout(self.width())
        self._laid_out_for = self.width()
        self.setMinimumHeight(int(height) + 1)
        self.updateGeometry()
        self.update()

    def resizeEvent(self, event) -> None:
        if event.size().width() != self._laid_out_for:
            self._relayout()
        super().resizeEvent(event)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return int(self._layout(width)[1]) + 1

    def sizeHint(self) -> QSize:
        return QSize(400, self.heightForWidth(400))

    # -- reading it back (hover, tests) ---------------------------------------------------------

    def piece_rects(self) -> list[tuple[QRectF, Piece]]:
        return [(rect, self.pieces[i]) for rect, i in self._boxes]

    def piece_at(self, pos: QPointF) -> Piece | None:
        for rect, i in self._boxes:
            if rect.contains(pos):
                return self.pieces[i]
        return None

    def event(self, event) -> bool:
        if event.type() == event.Type.ToolTip:
            piece = self.piece_at(QPointF(event.pos()))
            if piece is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), describe(piece), self)
            return True
        return super().event(event)

    # -- drawing --------------------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        theme = self.theme
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor(theme.background))
        main, small, fm, sm, pad, _, _ = self._metrics()
        if not self.pieces:
            painter.setPen(QColor(theme.muted))
            painter.setFont(main)
            painter.drawText(self.rect().adjusted(12, 12, -12, -12), Qt.TextFlag.TextWordWrap, self.placeholder)
            return
        radius = 4.0 * self.scale
        for rect, index in self._boxes:
            if not rect.intersects(QRectF(event.rect())):
                continue
            piece = self.pieces[index]
            self._paint_box(painter, rect, piece, radius)
            painter.setFont(main)
            painter.setPen(QColor(self._text_colour(piece)))
            text_rect = QRectF(rect.x(), rect.y(), rect.width(), rect.height() - (sm.height() if self.show_ids else 0))
            label = fm.elidedText(piece.label, Qt.TextElideMode.ElideRight, rect.width() - pad)
            if colour_glyphs_only(label):
                # an emoji keeps its own colours whatever the pen, and yellow on a fill can all but
                # vanish: it sits on a plate of the piece's text colour, which reads on every fill
                plate = fm.boundingRect(text_rect, Qt.AlignmentFlag.AlignCenter, label).adjusted(-pad * 0.3, 0, pad * 0.3, 0)
                painter.setBrush(QColor(self._text_colour(piece)))
                painter.setPen(Qt.PenStyle.NoPen)
                painter.drawRoundedRect(plate.intersected(rect), radius, radius)
                painter.setPen(QColor(self._text_colour(piece)))
            painter.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, label)
            if self.show_ids and piece.ids:
                painter.setFont(small)
                id_rect = QRectF(rect.x(), rect.bottom() - sm.height() - pad * 0.4, rect.width(), sm.height())
                painter.drawText(id_rect, Qt.AlignmentFlag.AlignCenter, self._id_text(piece))
        painter.end()

    @staticmethod
    def looks(piece: Piece, colouring: TokenColours | None = None, projector: bool = False) -> list[KindLook]:
        """Each token's look in the one palette, by its kind and id (in a lesson's colouring)."""
        kinds = piece.kinds or (TOKEN,) * len(piece.ids)
        return [look_of(kind, token_id, colouring=colouring, projector=projector)
                for token_id, kind in zip(piece.ids, kinds)]

    def _text_colour(self, piece: Piece) -> str:
        if piece.kind == GAP:
            return self.theme.muted
        return self.looks(piece, self.colouring, self.theme.projector)[0].text

    def _paint_box(self, painter: QPainter, rect: QRectF, piece: Piece, radius: float) -> None:
        theme = self.theme
        path = QPainterPath()
        path.addRoundedRect(rect, radius, radius)
        outline = QPen(QColor(theme.outline), theme.outline_width * self.scale)
        if piece.kind == GAP:
            pen = QPen(QColor(theme.muted), 1.0 * self.scale, Qt.PenStyle.DotLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(path)
            return
        looks = self.looks(piece, self.colouring, self.theme.projector)
        painter.save()
        painter.setClipPath(path)
        n = len(looks)
        for k, look in enumerate(looks):
            # a character cut across tokens: one stripe per token, left to right
            stripe = QRectF(rect.x() + rect.width() * k / n, rect.y(), rect.width() / n + 0.5, rect.height())
            painter.fillRect(stripe, QColor(look.fill))
            if look.hatched:
                painter.fillRect(stripe, QBrush(QColor(0, 0, 0, 90), Qt.BrushStyle.BDiagPattern))
        if piece.kind == SPLIT:
            painter.setPen(QPen(QColor(theme.outline), 1.0 * self.scale, Qt.PenStyle.DashLine))
            for k in range(1, n):
                x = rect.x() + rect.width() * k / n
                painter.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))
        painter.restore()
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if piece.kind == SPLIT or any(look.dashed for look in looks):
            outline.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(outline)
        painter.drawPath(path)
