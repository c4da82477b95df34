"""The vocabulary at the current step: the base symbols, then each learned token in merge order.

Stepping forward inserts the new tokens' rows at the end; stepping back removes them. The row of
the token selected anywhere in the window is highlighted.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from engine.lesson.lesson import Lesson
from widgets.models.common import HeaderedTableModel, KeyRole
from widgets.session_view import SessionView

ID, TOKEN, MADE, PARENTS, COUNT = range(5)
HEADERS = ("Id", "Token", "Step", "From", "Count")
# readable on light and dark backgrounds alike
SELECTED = QColor(255, 196, 0, 110)
_ROLES = {Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, KeyRole, Qt.ItemDataRole.BackgroundRole,
          Qt.ItemDataRole.TextAlignmentRole}


class VocabModel(HeaderedTableModel):
    headers = HEADERS
    right_aligned = frozenset({ID, COUNT})

    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        self._base: list[str] = []
        self._rows = 0
        self._row_of: dict[str, int] = {}
        self._load()
        session.lesson_changed.connect(self._on_lesson_changed)
        session.step_changed.connect(self._on_step_changed)
        session.token_selected.connect(self._on_token_selected)
        self._selected = session.selected_token

    def _load(self) -> None:
        lesson = self.session.lesson
        self._base = lesson.base_vocab if self.session.state is not None else []
        # the learned tokens' rows come from the history index when asked: a loop over 100,000
        # merges here would hold the GUI thread (an imported tokenizer)
        self._row_of = {t: r for r, t in enumerate(self._base)}
        self._rows = len(self._base) + self.session.step

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        self.beginResetModel()
        self._load()
        self._selected = self.session.selected_token
        self.endResetModel()

    def _on_step_changed(self, change) -> None:
        new, previous = change.step, change.previous
        base = len(self._base)
        if new > previous:
            self.beginInsertRows(QModelIndex(), base + previous, base + new - 1)
            self._rows = base + new
            self.endInsertRows()
        elif new < previous:
            self.beginRemoveRows(QModelIndex(), base + new, base + previous - 1)
            self._rows = base + new
            self.endRemoveRows()

    def _on_token_selected(self, token: str) -> None:
        old, self._selected = self._selected, token
        for t in (old, token):
            row = self._row(t)
            if row is not None and row < self._rows:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(HEADERS) - 1),
                                      [Qt.ItemDataRole.BackgroundRole])

    def token_at(self, row: int) -> str:
        base = len(self._base)
        return self._base[row] if row < base else self.session.lesson.steps[row - base].token

    def _row(self, token: str) -> int | None:
        """The row of a token at the last step: a base symbol's own, else the first merge that made it."""
        row = self._row_of.get(token)
        if row is None and token and self.session.state is not None:
            step = self.session.lesson.history.made_by(token)
            row = None if step is None else len(self._base) + step.step - 1
        return row

    def row_of(self, token: str) -> int | None:
        row = self._row(token)
        return row if row is not None and row < self._rows else None

    # -- Qt's model interface ------------------------------------------------------------------

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def _token_and_step(self, row: int):
        """The row's token, and the merge that made it (None for a base symbol)."""
        base = len(self._base)
        if row < base:
            return self._base[row], None
        step = self.session.lesson.steps[row - base]
        return step.token, step

    def row_values(self, row: int) -> tuple:
        token, step = self._token_and_step(row)
        session = self.session
        lesson = session.lesson
        tokenizer = lesson.tokenizer
        # no ids before training; the table has no rows then
        token_id = tokenizer.token_to_id(token) if tokenizer is not None else ""
        if step is None:
            return token_id, session.show(token), "base", "", ""
        parents = f"{session.show(step.pair[0])} + {session.show(step.pair[1])}"
        return token_id, session.show(token), step.step, parents, step.count if lesson.corpus is not None else ""

    def row_background(self, row: int) -> QColor | None:
        token, _ = self._token_and_step(row)
        return SELECTED if token and token == self._selected else None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # views ask for many roles per cell: answer the unused ones first
        if role not in _ROLES or not index.isValid():
            return None
        token, step = self._token_and_step(index.row())
        if role == KeyRole:
            return token
        if role == Qt.ItemDataRole.ToolTipRole:
            if step is None:
                return None
            session = self.session
            parents = f"{session.show(step.pair[0])} + {session.show(step.pair[1])}"
            if session.lesson.corpus is None:
                return f"Merge {step.step} of the file: {parents} (the file keeps no counts)"
            return f"Made at step {step.step} from {parents}, which appeared {step.count} times then"
        return super().data(index, role)
