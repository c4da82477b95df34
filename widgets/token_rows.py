"""Every corpus word as a row of token tiles, not animated: the frame the animated tile view fills.

Only the rows on screen are painted (a list view asks its delegate for visible rows only), so a
corpus of a hundred thousand words scrolls as lightly as four. The pair that merges next is drawn
with a thick border, the selected token filled, the end-of-word marker in its own colour.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QRectF, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QAbstractItemView, QListView, QStyledItemDelegate, QVBoxLayout, QLabel, QWidget

from widgets.colors import tile_colors
from widgets.models import WordsModel
from widgets.models.common import CountRole, TokensRole

GAP = 6


class TileDelegate(QStyledItemDelegate):
    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session

    def sizeHint(self, option, index) -> QSize:
        fm = QFontMetrics(option.font)
        return QSize(400, int(fm.height() * 1.9) + GAP)

    def label_width(self, fm: QFontMetrics) -> int:
        return fm.horizontalAdvance("M" * 11)

    def paint(self, painter: QPainter, option, index: QModelIndex) -> None:
        session = self.session
        tokens = index.data(TokensRole)
        if tokens is None:
            return
        colors = tile_colors(option.palette)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = option.font
        painter.setFont(font)
        fm = QFontMetrics(font)
        rect = option.rect.adjusted(GAP, GAP // 2, -GAP, -GAP // 2)
        count = index.data(CountRole)
        # the word's frequency leads the row: it is what makes a pair count
        painter.setPen(colors.muted)
        label_w = self.label_width(fm)
        painter.drawText(QRectF(rect.left(), rect.top(), label_w, rect.height()),
                         Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, f"×{count}")
        x = rect.left() + fm.horizontalAdvance("×00000 ")
        nxt = session.state.next_step() if session.state else None
        pair = nxt.pair if nxt else None
        marker = session.lesson.settings.marker
        selected = session.selected_token
        pad = fm.horizontalAdvance("n") * 0.6
        h = rect.height()
        next_at = set()
        if pair:
            i = 0
            while i < len(tokens) - 1:
                if (tokens[i], tokens[i + 1]) == pair:
                    next_at.update((i, i + 1))
                    i += 2
                else:
                    i += 1
        for i, token in enumerate(tokens):
            text = session.show(token)
            w = fm.horizontalAdvance(text) + 2 * pad
            tile = QRectF(x, rect.top(), w, h)
            fill, border, width = colors.fill, colors.border, 1.5
            if marker is not None and token == marker:
                fill, border = colors.marker_fill, colors.marker_border
            if i in next_at:
                fill, border, width = colors.next_fill, colors.next_border, 4.0
            if selected and token == selected:
                fill = colors.selected_fill
            painter.setPen(QPen(border, width))
            painter.setBrush(fill)
            painter.drawRoundedRect(tile.adjusted(width / 2, width / 2, -width / 2, -width / 2), 6, 6)
            painter.setPen(colors.text)
            painter.drawText(tile, Qt.AlignmentFlag.AlignCenter, text)
            x += w + GAP / 2
            if x > option.rect.right():
                break
        painter.restore()


class RowList(QListView):
    def dataChanged(self, top_left, bottom_right, roles=()) -> None:  # noqa: N802 (Qt's name)
        # rows keep their height whatever their tokens: repainting what is on screen is enough,
        # where the list's own handling would lay out every changed row again
        self.viewport().update()


class TokenRowsView(QWidget):
    """The Tiles tab until the animated view arrives: each word, its count, its tokens now."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.setObjectName("tokenRows")
        self.summary = QLabel()
        self.summary.setObjectName("viewSummary")
        self.summary.setWordWrap(True)
        self.model = WordsModel(session, self)
        self.list = RowList()
        self.list.setObjectName("tileList")
        self.list.setModel(self.model)
        self.list.setItemDelegate(TileDelegate(session, self.list))
        self.list.setUniformItemSizes(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.summary)
        layout.addWidget(self.list, 1)
        session.lesson_changed.connect(self._refresh)
        session.step_changed.connect(self._refresh)
        session.token_selected.connect(lambda _token: self.list.viewport().update())
        self._refresh()

    def _refresh(self, *_args) -> None:
        session = self.session
        state = session.state
        if state is None:
            self.summary.setText("No words yet: the corpus is empty.")
            return
        corpus = session.lesson.corpus
        words = len(corpus)
        nxt = state.next_step()
        text = (f"{words:,} distinct word{'s' if words != 1 else ''}, "
                f"{state.total_tokens:,} tokens in all.")
        if nxt is not None:
            text += f"  Next merge: {session.show(nxt.pair[0])} + {session.show(nxt.pair[1])} (thick border)."
        self.summary.setText(text)
        # the next pair's border moves on every step, also in words the merge did not touch
        self.list.viewport().update()
