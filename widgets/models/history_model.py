"""The lesson's history as a table: one row per step, the numbers the growth chart plots.

Rows are steps 0..n (step 0 is the corpus before any merge). The columns are filled once per
lesson from the lesson's history index; the held-out column is the curve the session counted
(``held_out_counted``): the model counts nothing itself.
"""

from __future__ import annotations

from bisect import bisect_left

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal, Slot

from engine.lesson.heldout import TextCurve
from engine.lesson.lesson import Lesson
from widgets.session_view import SessionView

COLUMNS = (
    "step",
    "vocabulary size",
    "tokens",
    "characters per token",
    "held-out tokens",
    "held-out characters per token",
)
STEP, VOCAB, TOKENS, PER_TOKEN, HELD_OUT, HELD_OUT_PER_TOKEN = range(len(COLUMNS))


class HistoryModel(QAbstractTableModel):
    """Steps, vocabulary sizes, token totals (training and held-out) of the session's lesson."""

    # the held-out column was recomputed (or cleared)
    held_out_changed = Signal()
    # counting the held-out text failed: the column is cleared, the message says why
    held_out_failed = Signal(str)

    def __init__(self, session: SessionView, parent: QObject | None = None):
        super().__init__(parent)
        self.session = session
        self.merges: list[int] = []
        self.vocab: list[int] = []
        self.tokens: list[int] = []
        self.characters = 0
        self.held_out: TextCurve | None = session.held_out_curve
        session.lesson_changed.connect(self._on_lesson_changed)
        session.held_out_counted.connect(self._on_held_out_counted)
        session.held_out_count_failed.connect(self.held_out_failed)
        self._load()

    # -- Qt model -------------------------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.merges)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            if 0 <= section < len(COLUMNS):
                return COLUMNS[section].capitalize()
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return None
        value = self.value(index.row(), index.column())
        if role == Qt.ItemDataRole.DisplayRole and isinstance(value, float):
            return f"{value:.2f}"
        return value

    # -- what the charts read -------------------------------------------------------------------

    @property
    def last_step(self) -> int:
        return len(self.merges) - 1 if self.merges else 0

    def value(self, row: int, column: int):
        if column == STEP:
            return self.merges[row]
        if column == VOCAB:
            return self.vocab[row]
        if column == TOKENS:
            return self.tokens[row]
        if column == PER_TOKEN:
            return self.characters / self.tokens[row] if self.tokens[row] else 0.0
        if self.held_out is None:
            return None
        if column == HELD_OUT:
            return self.held_out.tokens[row]
        if column == HELD_OUT_PER_TOKEN:
            return self.held_out.characters_per_token(row)
        return None

    def characters_per_token(self) -> list[float]:
        c = self.characters
        return [c / t if t else 0.0 for t in self.tokens]

    def held_out_characters_per_token(self) -> list[float]:
        curve = self.held_out
        if curve is None:
            return []
        c = curve.characters
        return [c / t if t else 0.0 for t in curve.tokens]

    def step_at_vocab(self, size: float) -> int:
        """The first step whose vocabulary reaches ``size`` (sizes never shrink)."""
        if not self.vocab:
            return 0
        return min(bisect_left(self.vocab, size), self.last_step)

    # -- held-out text: counted by the session, shown here ---------------------------------------

    @Slot(object)
    def _on_held_out_counted(self, curve: TextCurve | None) -> None:
        self._publish(curve)

    def _publish(self, curve: TextCurve | None) -> None:
        self.held_out = curve
        if self.merges:
            first = self.index(0, HELD_OUT)
            last = self.index(len(self.merges) - 1, HELD_OUT_PER_TOKEN)
            self.dataChanged.emit(first, last)
        self.held_out_changed.emit()

    # -- following the session ------------------------------------------------------------------

    def _load(self) -> None:
        session = self.session
        self.merges, self.vocab, self.tokens, self.characters = [], [], [], 0
        if session.state is None:
            return
        lesson = session.lesson
        history = lesson.history
        self.merges = list(range(history.last_step + 1))
        self.vocab = history.vocab_sizes()
        self.tokens = history.totals()
        self.characters = lesson.characters

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        # the held-out curve of the lesson before means nothing in this one; the session counts anew
        self.beginResetModel()
        self._load()
        self.held_out = None
        self.endResetModel()
