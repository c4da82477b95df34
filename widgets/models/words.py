"""The corpus words: one row per distinct word, with its count and its tokens at the current step."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt

from widgets.models.common import WORD_SHOWN, CountRole, HeaderedTableModel, TokensRole, runs, word_shown

WORD, COUNT, TOKENS, LENGTH = range(4)
HEADERS = ("Word", "Count", "Tokens now", "Tokens")
_ROLES = {Qt.ItemDataRole.DisplayRole, TokensRole, CountRole, Qt.ItemDataRole.TextAlignmentRole}
# past this many separate runs of changed rows a step sends one signal for all of them
MAX_SIGNALS = 8


class WordsModel(HeaderedTableModel):
    headers = HEADERS

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        session.lesson_changed.connect(self._on_lesson_changed)
        session.step_changed.connect(self._on_step_changed)

    def _on_lesson_changed(self) -> None:
        self.beginResetModel()
        self.endResetModel()

    def _on_step_changed(self, change) -> None:
        # only the words the merges touched change: one signal per run of neighbouring rows, or
        # one spanning them all when a step touches words all over a large corpus
        changed = change.words
        spans = list(runs(changed)) if changed else []
        if len(spans) > MAX_SIGNALS:
            spans = [(min(changed), max(changed))]
        for first, last in spans:
            self.dataChanged.emit(self.index(first, TOKENS), self.index(last, LENGTH),
                                  [Qt.ItemDataRole.DisplayRole, TokensRole])

    # -- Qt's model interface ------------------------------------------------------------------

    def rowCount(self, parent=QModelIndex()) -> int:
        if parent.isValid() or self.session.state is None:
            return 0
        return len(self.session.lesson.corpus)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        # views ask for many roles per cell on every paint: answer the unused ones first
        if role not in _ROLES or not index.isValid():
            return None
        session = self.session
        w, col = index.row(), index.column()
        corpus = session.lesson.corpus
        if role == Qt.ItemDataRole.DisplayRole:
            if col == WORD:
                return word_shown(session.show, corpus.words[w])
            if col == COUNT:
                return corpus.counts[w]
            if col == TOKENS:
                # as many tokens as a cell can show of a long word, read without listing it whole
                tokens = session.state.tokens_head(w, WORD_SHOWN)
                more = session.state.token_count(w) - len(tokens)
                shown = " · ".join(session.show(t) for t in tokens)
                return f"{shown} · … {more:,} more" if more else shown
            if col == LENGTH:
                return session.state.token_count(w)
        elif role == TokensRole:
            return session.state.tokens(w)
        elif role == CountRole:
            return corpus.counts[w]
        elif role == Qt.ItemDataRole.TextAlignmentRole and col in (COUNT, LENGTH):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
