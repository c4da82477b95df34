"""A word replayed merge by merge with a real tokenizer's ranks, one row of tiles per merge.

The rows appear one after another on a timer, so a class can watch GPT-4's merges happen in rank
order: the lowest rank (the merge learned first) always goes first, wherever it sits in the word.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from engine.readable.tile_colours import TokenColours, colouring_of
from engine.errors import is_bad_input, one_line
from engine.readable.display import show_text
from engine.readable.explorer import ReplayRow, merge_replay, replay_word
from widgets.token_palette import KindLook, look_of
from widgets.explorer.sources import CL100K, LESSON, TokenizerSources, internal_problem
from widgets.explorer.theme import ExplorerTheme

STEP_MS = 700


class ReplayRows(QWidget):
    """Rows of tiles, the first ``revealed`` of them drawn."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[ReplayRow] = []
        self.revealed = 0
        # the lesson's colouring when the rows are the lesson's tokens; else each id's own fill
        self.colouring: TokenColours | None = None
        self.scale = 1.0
        self.theme = ExplorerTheme.light()

    def set_rows(self, rows: list[ReplayRow], revealed: int, colouring: TokenColours | None = None) -> None:
        self.rows = rows
        self.revealed = revealed
        self.colouring = colouring
        self.measure_rows()

    def looks(self, row: ReplayRow) -> list[KindLook]:
        """Each tile's look in the one palette, so a token has the fill it has in every other view."""
        return [look_of(kind, token_id, token, self.colouring, self.theme.projector)
                for token, kind, token_id in zip(row.tokens, row.kinds, row.ids)]

    def reveal(self, count: int) -> None:
        self.revealed = min(count, len(self.rows))
        self.update()

    def _fonts(self) -> tuple[QFont, QFont]:
        tile = QFont(self.font())
        tile.setPointSizeF(18 * self.scale)
        tile.setBold(self.theme.bold)
        note = QFont(self.font())
        note.setPointSizeF(12 * self.scale)
        note.setBold(self.theme.bold)
        return tile, note

    def _note_width(self, note_metrics: QFontMetricsF) -> float:
        return note_metrics.horizontalAdvance("rank 100,000:  xxxx + xxxx") + 20 * self.scale

    def _content_width(self) -> int:
        """The widest row: the scroll area scrolls sideways rather than cut a long word's tiles."""
        tile, note = self._fonts()
        fm = QFontMetricsF(tile)
        pad, gap = 8 * self.scale, 5 * self.scale
        widest = max((sum(fm.horizontalAdvance(t) + 2 * pad + gap for t in row.tokens) for row in self.rows), default=0)
        return int(self._note_width(QFontMetricsF(note)) + widest + 8 * self.scale)

    def row_height(self) -> float:
        tile, _ = self._fonts()
        return QFontMetricsF(tile).height() * 1.9

    def measure_rows(self) -> None:
        self.setMinimumSize(self._content_width(), int(self.row_height() * (len(self.rows) + 0.5)))
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(max(800, self._content_width()), int(self.row_height() * (len(self.rows) + 0.5)))

    def paintEvent(self, event) -> None:
        theme = self.theme
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor(theme.background))
        tile_font, note_font = self._fonts()
        fm, nm = QFontMetricsF(tile_font), QFontMetricsF(note_font)
        row_h = self.row_height()
        note_w = self._note_width(nm)
        pad, gap = 8 * self.scale, 5 * self.scale
        for r, row in enumerate(self.rows[: self.revealed]):
            y = r * row_h + row_h * 0.25
            painter.setFont(note_font)
            painter.setPen(QColor(theme.text))
            # the first row, before any merge, has neither rank nor pair
            note = "bytes" if row.rank is None or row.pair is None else f"rank {row.rank:,}:  {row.pair[0]} + {row.pair[1]}"
            painter.drawText(QRectF(8, y, note_w, row_h * 0.75), Qt.AlignmentFlag.AlignVCenter, note)
            x = note_w
            painter.setFont(tile_font)
            for k, (token, look) in enumerate(zip(row.tokens, self.looks(row))):
                w = fm.horizontalAdvance(token) + 2 * pad
                rect = QRectF(x, y, w, row_h * 0.75)
                painter.setBrush(QColor(look.fill))
                fresh = k == row.merged_at
                # the tile this merge just made gets a heavy frame, which reads in grey too
                width = (5.0 if fresh else theme.outline_width) * self.scale
                pen = QPen(QColor(theme.fresh if fresh else theme.outline), width)
                if look.dashed and not fresh:
                    pen.setStyle(Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.drawRoundedRect(rect, 5 * self.scale, 5 * self.scale)
                painter.setPen(QColor(look.text))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, token)
                x += w + gap
        painter.end()


class MergeReplayView(QWidget):
    replay_finished = Signal()

    def __init__(self, sources: TokenizerSources, parent: QWidget | None = None):
        super().__init__(parent)
        self.sources = sources
        self.word = QLineEdit(" tokenization")
        self.word.setPlaceholderText("a word to replay")
        self.chooser = QComboBox()
        self.chooser.addItem("GPT-4's ranks (cl100k_base)", CL100K)
        self.chooser.addItem("This lesson's merges", LESSON)
        self.play = QPushButton("Replay")
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.rows = ReplayRows()
        self.scroll_area = scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.rows)
        head = QHBoxLayout()
        head.addWidget(QLabel("Word:"))
        head.addWidget(self.word, 2)
        head.addWidget(self.chooser, 1)
        head.addWidget(self.play)
        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addWidget(self.caption)
        layout.addWidget(scroll, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(STEP_MS)
        self.timer.timeout.connect(self._advance)
        self.play.clicked.connect(self.start)
        self.word.returnPressed.connect(self.start)
        self._pending = False
        self._animate = True
        sources.ready.connect(self._on_ready)

    def start(self, word: str | None = None, animate: bool = True) -> None:
        """Replay ``word`` (or the one typed) from its bytes, one merge per tick (or all at once)."""
        if isinstance(word, str):
            self.word.setText(word)
        self._animate = animate
        key = self.chooser.currentData()
        tokenizer = self.sources.get(key)
        if tokenizer is None:
            self._pending = True
            error = self.sources.error(key)
            self.caption.setText(error or "Loading the tokenizer…")
            return
        self._pending = False
        try:
            piece, pieces = replay_word(tokenizer, self.word.text())
            rows = merge_replay(tokenizer, piece)
        except Exception as exc:  # noqa: BLE001 (a tokenizer from a file may fail on this word: said, not raised)
            self.caption.setText(one_line(str(exc)) if is_bad_input(exc) else internal_problem(exc))
            self.rows.set_rows([], 0)
            return
        note = f" The split cuts the text into {pieces} pieces first; this is the longest." if pieces > 1 else ""
        self.caption.setText(
            f"“{show_text(piece)}”: {len(rows[0].tokens)} starting symbols, "
            f"{len(rows) - 1} merges, {len(rows[-1].tokens)} tokens at the end. The merge with the lowest "
            f"rank always goes first.{note}"
        )
        colouring = colouring_of(self.sources.session.lesson) if key == LESSON else None
        if animate:
            self.rows.set_rows(rows, 1, colouring)
            self.timer.start()
        else:
            self.timer.stop()
            self.rows.set_rows(rows, len(rows), colouring)

    def _advance(self) -> None:
        self.rows.reveal(self.rows.revealed + 1)
        # keep the newest merge on screen when large type pushes it below the fold
        bottom = int(self.rows.row_height() * (self.rows.revealed + 0.5))
        self.scroll_area.ensureVisible(0, bottom, 0, 0)
        if self.rows.revealed >= len(self.rows.rows):
            self.timer.stop()
            self.replay_finished.emit()

    def _on_ready(self, key: str) -> None:
        if self._pending and key == self.chooser.currentData():
            self.start(animate=self._animate)

    def set_scale(self, factor: float) -> None:
        self.rows.scale = factor
        self.rows.measure_rows()

    def set_theme(self, theme: ExplorerTheme) -> None:
        self.rows.theme = theme
        # bold type is wider: the rows measure themselves again
        self.rows.measure_rows()
