"""The corpus words: one row per distinct word, with its count and its tokens at the current step."""

from __future__ import annotations

from itertools import islice
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from engine.lesson.lesson import Lesson
from widgets.models.common import WORD_SHOWN, CountRole, HeaderedTableModel, TokensRole, runs, word_shown
from widgets.session_view import SessionView

WORD, COUNT, TOKENS, LENGTH = range(4)
HEADERS = ("Word", "Count", "Tokens now", "Tokens")
_ROLES = {Qt.ItemDataRole.DisplayRole, TokensRole, CountRole, Qt.ItemDataRole.TextAlignmentRole}
# past this many separate runs of changed rows a step sends one signal for all of them
MAX_SIGNALS = 8


class WordsModel(HeaderedTableModel):
    headers = HEADERS
    right_aligned = frozenset({COUNT, LENGTH})

    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        session.lesson_changed.connect(self._on_lesson_changed)
        session.step_changed.connect(self._on_step_changed)

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        self.beginResetModel()
        self.endResetModel()

    def _on_step_changed(self, change) -> None:
        # only the words the merges touched change: one signal per run of neighbouring rows, or
        # one spanning them all when a step touches words all over a large corpus
        changed = change.words
        spans = list(islice(runs(changed), MAX_SIGNALS + 1)) if changed else []
        if len(spans) > MAX_SIGNALS:
            spans = [(min(changed), max(changed))]
        for first, last in spans:
            self.dataChanged.emit(self.index(first, TOKENS), self.index(last, LENGTH),
                                  [Qt.ItemDataRole.DisplayRole, TokensRole])

    # -- Qt's model interface ------------------------------------------------------------------

    def rowCount(self, parent=QModelIndex()) -> int:
        if parent.isValid() or self.session.state is None:
            return 0
        corpus = self.session.lesson.corpus
        return len(corpus) if corpus is not None else 0  # a tokenizer read from a file has no words

    def row_values(self, w: int) -> tuple:
        session = self.session
        state = session.state
        assert state is not None  # words are listed only while a lesson is trained
        corpus = state.corpus
        # as many tokens as a cell can show of a long word, read without listing it whole
        tokens = state.tokens_head(w, WORD_SHOWN)
        count = state.token_count(w)
        shown = " · ".join(session.show(t) for t in tokens)
        if count > len(tokens):
            shown = f"{shown} · … {count - len(tokens):,} more"
        return word_shown(session.show, corpus.words[w]), corpus.counts[w], shown, count

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # views ask for many roles per cell: answer the unused ones first
        if role not in _ROLES or not index.isValid():
            return None
        state = self.session.state
        if state is None:  # no trained lesson: no rows
            return None
        if role == TokensRole:
            return state.tokens(index.row())
        if role == CountRole:
            return state.corpus.counts[index.row()]
        return super().data(index, role)
