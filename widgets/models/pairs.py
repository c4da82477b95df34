"""The pairs at the current step, best first, with ties marked and where each count comes from.

The pair that merges next is starred; at the end of the history none is: training stopped there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from engine.algorithm.corpus import Corpus
from engine.lesson.lesson import Lesson
from widgets.models.common import HeaderedTableModel, KeyRole, runs, word_shown
from widgets.session_view import SessionView

RANK, PAIR, COUNT, TIE, SOURCES = range(5)
HEADERS = ("#", "Pair", "Count", "Tie", "From")
# a classroom reads the top of the list; counting every pair of a large corpus is the engine's job
DEFAULT_LIMIT = 100
SOURCES_SHOWN = 4
KEPT_SOURCES = 1000
_ROLES = {Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, KeyRole, Qt.ItemDataRole.TextAlignmentRole}


@dataclass(frozen=True)
class _Sources:
    """A pair's sources as said at its count: the words they were read from (word -> occurrences),
    and the text."""

    count: int
    # None for a pair in more than KEPT_SOURCES words: said again on every step (the lesson state
    # keeps a large corpus's sources from step to step), not checked word by word
    words: frozenset[int] | None
    text: str


class PairsModel(HeaderedTableModel):
    headers = HEADERS
    right_aligned = frozenset({RANK, COUNT})

    def __init__(self, session: SessionView, limit: int = DEFAULT_LIMIT, parent=None):
        super().__init__(parent)
        self.session = session
        self.limit = limit
        self._rows: list[tuple[tuple[str, str], int]] = self._ranked()
        self._next: tuple[str, str] | None = self._next_pair()
        self._shared: set[int] = self._shared_counts()
        # "where it comes from" per pair: a pair in thousands of words is costly to say, and most
        # pairs on screen keep their words from one step to the next (``_keep_sources``)
        self._sources: dict[tuple[str, str], _Sources] = {}
        session.lesson_changed.connect(self._on_lesson_changed)
        session.step_changed.connect(self._on_step_changed)

    def _ranked(self) -> list[tuple[tuple[str, str], int]]:
        state = self.session.state
        return state.ranked_pairs(self.limit) if state is not None else []

    def _next_pair(self) -> tuple[str, str] | None:
        state = self.session.state
        following = state.next_step() if state is not None else None
        return following.pair if following is not None else None

    def _shared_counts(self) -> set[int]:
        seen: dict[int, int] = {}
        for _, count in self._rows:
            seen[count] = seen.get(count, 0) + 1
        return {c for c, n in seen.items() if n > 1}

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        self._sources = {}
        self.beginResetModel()
        self._rows = self._ranked()
        self._next = self._next_pair()
        self._shared = self._shared_counts()
        self.endResetModel()

    def _on_step_changed(self, change) -> None:
        old = self._rows
        rows = self._ranked()
        self._keep_sources(rows, change.words)
        if len(rows) < len(old):
            self.beginRemoveRows(QModelIndex(), len(rows), len(old) - 1)
            self._rows = old[: len(rows)]
            self.endRemoveRows()
        elif len(rows) > len(old):
            self.beginInsertRows(QModelIndex(), len(old), len(rows) - 1)
            self._rows = old + rows[len(old):]
            self.endInsertRows()
        n = min(len(old), len(rows))
        old_ties = [self.tie_text(r) for r in range(n)]
        self._rows = rows
        self._next = self._next_pair()
        self._shared = self._shared_counts()
        # a row changes when its pair or count moved, or when its tie mark did
        changed = [r for r in range(n) if old[r] != rows[r] or old_ties[r] != self.tie_text(r)]
        for first, last in runs(changed):
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(HEADERS) - 1))

    def pair_at(self, row: int) -> tuple[str, str]:
        return self._rows[row][0]

    def count_at(self, row: int) -> int:
        return self._rows[row][1]

    def is_next(self, row: int) -> bool:
        """Whether the pair of this row merges next (never at the end of the history)."""
        return self._next is not None and self._rows[row][0] == self._next

    def tie_text(self, row: int) -> str:
        pair, count = self._rows[row]
        shared = count in self._shared
        if self.is_next(row):
            return "★ next, tie" if shared else "★ next"
        if self._next is not None and count == self._rows[0][1]:
            return "tie for 1st"
        # equal counts further down decide nothing now: a mark there would read as a tie for the next merge
        return ""

    def _keep_sources(self, rows, changed_words) -> None:
        """Keep the sources said of the pairs still listed whose words the step left alone.

        A pair's sources change only when one of its words changed, or when a changed word
        gained the pair, which raises its count: same count and none of its words changed is
        the same text.
        """
        counts = dict(rows)
        changed = set(changed_words)
        # (a set checks the smaller side against the larger)
        self._sources = {pair: said for pair, said in self._sources.items()
                         if counts.get(pair) == said.count and said.words is not None
                         and said.words.isdisjoint(changed)}

    def _said_sources(self, pair: tuple[str, str], count: int) -> str:
        said = self._sources.get(pair)
        if said is None:
            state = self.session.state
            assert state is not None  # pairs are listed only while a lesson is trained
            sources = state.pair_sources(pair)
            words = frozenset(w for w, _ in sources) if len(sources) <= KEPT_SOURCES else None
            said = self._sources[pair] = _Sources(count, words, self._sources_text(state.corpus, sources))
        return said.text

    def _sources_text(self, corpus: Corpus, sources: list[tuple[int, int]]) -> str:
        """Which words a pair's count comes from (``sources``: the state's ``pair_sources``)."""
        session = self.session
        parts = []
        for w, occurrences in sources[:SOURCES_SHOWN]:
            word = word_shown(session.show, corpus.words[w])
            part = f"{word} ×{corpus.counts[w]}"
            if occurrences > 1:
                part += f" ({occurrences} times in it)"
            parts.append(part)
        if len(sources) > SOURCES_SHOWN:
            parts.append(f"and {len(sources) - SOURCES_SHOWN:,} more words")
        return ", ".join(parts)

    # -- Qt's model interface ------------------------------------------------------------------

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def row_values(self, row: int) -> tuple:
        pair, count = self._rows[row]
        show = self.session.show
        return (row + 1, f"{show(pair[0])} + {show(pair[1])}", count, self.tie_text(row),
                self._said_sources(pair, count))

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # views ask for many roles per cell: answer the unused ones first
        if role not in _ROLES or not index.isValid():
            return None
        pair, count = self._rows[index.row()]
        state = self.session.state
        if role == Qt.ItemDataRole.ToolTipRole and state is not None:  # rows are listed only while trained
            counts = state.corpus.counts
            return f"{count} = " + " + ".join(f"{occ}×{counts[w]}" for w, occ in state.pair_sources(pair)[:30])
        if role == KeyRole:
            return pair
        return super().data(index, role)
