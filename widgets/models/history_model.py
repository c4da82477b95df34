"""The lesson's history as a table: one row per step, the numbers the growth chart plots.

Rows are steps 0..n (step 0 is the corpus before any merge). The columns are filled once per
lesson from the lesson's history index; the held-out column is computed by
``engine.heldout.token_curve`` (one encoding of each distinct word, not one encoding per step),
in a worker thread when the text is long.
"""

from __future__ import annotations

from bisect import bisect_left

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QRunnable, Qt, QThreadPool, Signal

from engine.heldout import TextCurve, token_curve

COLUMNS = (
    "step",
    "vocabulary size",
    "tokens",
    "characters per token",
    "held-out tokens",
    "held-out characters per token",
)
STEP, VOCABULARY, TOKENS, PER_TOKEN, HELD_OUT, HELD_OUT_PER_TOKEN = range(len(COLUMNS))

# a pasted text longer than this is counted off the GUI thread (10,000 characters take about 10 ms)
SYNC_LIMIT = 10_000


class _CurveSignals(QObject):
    finished = Signal(int, object)


class _CurveJob(QRunnable):
    def __init__(self, generation: int, tokenizer, text: str, steps: int, signals: _CurveSignals):
        super().__init__()
        self.generation, self.tokenizer, self.text, self.steps = generation, tokenizer, text, steps
        self.signals = signals

    def run(self) -> None:
        curve = token_curve(self.tokenizer, self.text, self.steps)
        self.signals.finished.emit(self.generation, curve)


class HistoryModel(QAbstractTableModel):
    """Steps, vocabulary sizes, token totals (training and held-out) of the session's lesson."""

    # the held-out column was recomputed (or cleared)
    held_out_changed = Signal()

    def __init__(self, session, parent: QObject | None = None):
        super().__init__(parent)
        self.session = session
        self.merges: list[int] = []
        self.vocabulary: list[int] = []
        self.tokens: list[int] = []
        self.characters = 0
        self.held_out_text = ""
        self.held_out: TextCurve | None = None
        self.busy = False
        self._generation = 0
        self._signals = _CurveSignals(self)
        self._signals.finished.connect(self._on_curve_finished)
        session.lesson_changed.connect(self._on_lesson_changed)
        self._load()
        self._count_held_out(session.lesson.held_out if session.state else "")

    # -- Qt model -------------------------------------------------------------------------------

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.merges)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            if 0 <= section < len(COLUMNS):
                return COLUMNS[section].capitalize()
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
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
        if column == VOCABULARY:
            return self.vocabulary[row]
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

    def step_at_vocabulary(self, size: float) -> int:
        """The first step whose vocabulary reaches ``size`` (sizes never shrink)."""
        if not self.vocabulary:
            return 0
        return min(bisect_left(self.vocabulary, size), self.last_step)

    # -- held-out text --------------------------------------------------------------------------

    def set_held_out(self, text: str) -> None:
        """Count a text the tokenizer was not trained on, after every step."""
        if text == self.held_out_text and (self.held_out is not None or not text.strip()):
            return
        self._count_held_out(text)

    def _count_held_out(self, text: str) -> None:
        self.held_out_text = text
        self._generation += 1
        lesson = self.session.lesson
        if not text.strip() or self.session.state is None:
            self._publish(None)
            return
        counted = lesson.counted_held_out_curve(text)
        if counted is not None:
            # the training worker counted the lesson's own held-out text already
            self._publish(counted)
            return
        if len(text) <= SYNC_LIMIT:
            self._publish(lesson.held_out_curve(text))
            return
        self.busy = True
        job = _CurveJob(self._generation, lesson.tokenizer, text, lesson.last_step, self._signals)
        QThreadPool.globalInstance().start(job)

    def _on_curve_finished(self, generation: int, curve: TextCurve) -> None:
        if generation == self._generation:
            self._publish(curve)

    def _publish(self, curve: TextCurve | None) -> None:
        self.busy = False
        self.held_out = curve
        if self.merges:
            first = self.index(0, HELD_OUT)
            last = self.index(len(self.merges) - 1, HELD_OUT_PER_TOKEN)
            self.dataChanged.emit(first, last)
        self.held_out_changed.emit()

    # -- following the session ------------------------------------------------------------------

    def _load(self) -> None:
        session = self.session
        self.merges, self.vocabulary, self.tokens, self.characters = [], [], [], 0
        if session.state is None:
            return
        lesson = session.lesson
        history = lesson.history
        self.merges = list(range(history.last_step + 1))
        self.vocabulary = history.vocab_sizes()
        self.tokens = history.totals()
        self.characters = lesson.characters

    def _on_lesson_changed(self) -> None:
        self.beginResetModel()
        self._load()
        self.held_out = None
        self.endResetModel()
        # a lesson without a held-out text of its own keeps the one the user pasted
        self._count_held_out(self.session.lesson.held_out or self.held_out_text)
