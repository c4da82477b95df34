"""The vocabulary at the current step: the base symbols, then each learned token in merge order,
then the special tokens and the unknown token, with the ids they take at that step (right after the
regular tokens, as in the tokenizer the step exports): every token the heading counts has its row.

Stepping forward inserts the new tokens' rows before the special ones; stepping back removes them.
The row of the token selected anywhere in the window is highlighted.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from engine.algorithm.settings import UNKNOWN
from engine.lesson.lesson import Lesson
from widgets.models.common import HeaderedTableModel, KeyRole
from widgets.session_view import SessionView

ID, TOKEN, MADE, PARENTS, COUNT = range(5)
HEADERS = ("Id", "Token", "Step", "From", "Count")
# readable on light and dark backgrounds alike
SELECTED = QColor(255, 196, 0, 110)
# what the Step column says of the tokens no merge makes, and their tooltips
SPECIAL, UNKNOWN_KIND = "special", "unknown"
EXTRA_TIPS = {
    SPECIAL: "A special token: never split and never merged; typed text becomes it only where that is allowed",
    UNKNOWN_KIND: "The unknown token: what a character that training never saw encodes as",
}
_ROLES = {Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, KeyRole, Qt.ItemDataRole.BackgroundRole,
          Qt.ItemDataRole.TextAlignmentRole}


class VocabModel(HeaderedTableModel):
    headers = HEADERS
    right_aligned = frozenset({ID, COUNT})

    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        self._base: list[str] = []
        # (token, kind) of the special tokens, then the unknown token where there is one
        self._extras: list[tuple[str, str]] = []
        self._rows = 0
        self._row_of: dict[str, int] = {}
        self._load()
        session.lesson_changed.connect(self._on_lesson_changed)
        session.step_changed.connect(self._on_step_changed)
        session.token_selected.connect(self._on_token_selected)
        self._selected = session.selected_token

    def _load(self) -> None:
        lesson = self.session.lesson
        trained = self.session.state is not None
        self._base = lesson.base_vocab if trained else []
        settings = lesson.settings
        self._extras = [(t, SPECIAL) for t in settings.special_tokens] if trained else []
        if trained and settings.units == "chars":
            self._extras.append((UNKNOWN, UNKNOWN_KIND))
        # the learned tokens' rows come from the history index when asked: a loop over 100,000
        # merges here would hold the GUI thread (an imported tokenizer)
        self._row_of = {t: r for r, t in enumerate(self._base)}
        self._rows = len(self._base) + self.session.step + len(self._extras)

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        self.beginResetModel()
        self._load()
        self._selected = self.session.selected_token
        self.endResetModel()

    def _on_step_changed(self, change) -> None:
        new, previous = change.step, change.previous
        base, extras = len(self._base), len(self._extras)
        if new > previous:
            self.beginInsertRows(QModelIndex(), base + previous, base + new - 1)
            self._rows = base + new + extras
            self.endInsertRows()
        elif new < previous:
            self.beginRemoveRows(QModelIndex(), base + new, base + previous - 1)
            self._rows = base + new + extras
            self.endRemoveRows()
        if extras and new != previous:
            # their ids follow the regular tokens, whose number the step changed
            self.dataChanged.emit(self.index(base + new, ID), self.index(self._rows - 1, ID),
                                  [Qt.ItemDataRole.DisplayRole])

    def _on_token_selected(self, token: str) -> None:
        old, self._selected = self._selected, token
        for t in (old, token):
            row = self.row_of(t)
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(HEADERS) - 1),
                                      [Qt.ItemDataRole.BackgroundRole])

    def token_at(self, row: int) -> str:
        return self._token_and_step(row)[0]

    def _learned_rows(self) -> int:
        return self._rows - len(self._extras)

    def _row(self, token: str) -> int | None:
        """The row of a token at the last step: a base symbol's own, else the first merge that made it
        (a special or unknown token's row is the current one)."""
        for i, (extra, _) in enumerate(self._extras):
            if extra == token:
                return self._learned_rows() + i
        row = self._row_of.get(token)
        if row is None and token and self.session.state is not None:
            step = self.session.lesson.history.made_by(token)
            row = None if step is None else len(self._base) + step.step - 1
        return row

    def row_of(self, token: str) -> int | None:
        if any(extra == token for extra, _ in self._extras):
            return self._row(token)
        row = self._row(token)
        # a learned token's row is shown only once its merge has been made
        return row if row is not None and row < self._learned_rows() else None

    # -- Qt's model interface ------------------------------------------------------------------

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self._rows

    def _token_and_step(self, row: int):
        """The row's token, and the merge that made it (None for a base symbol, a special token and
        the unknown token)."""
        base = len(self._base)
        if row < base:
            return self._base[row], None
        learned = self._learned_rows()
        if row >= learned:
            return self._extras[row - learned][0], None
        step = self.session.lesson.steps[row - base]
        return step.token, step

    def kind_of(self, token: str) -> str | None:
        """``SPECIAL`` or ``UNKNOWN_KIND`` for a token no merge makes, else None."""
        return next((kind for extra, kind in self._extras if extra == token), None)

    def _extra_kind(self, row: int) -> str | None:
        learned = self._learned_rows()
        return self._extras[row - learned][1] if row >= learned else None

    def row_values(self, row: int) -> tuple:
        token, step = self._token_and_step(row)
        session = self.session
        lesson = session.lesson
        kind = self._extra_kind(row)
        if kind is not None:
            # right after the regular tokens of this step, in the order the tokenizer gives them
            regular = len(self._base) + lesson.history.vocab(session.step).learned
            return regular + row - self._learned_rows(), session.show(token), kind, "", ""
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
                kind = self._extra_kind(index.row())
                return EXTRA_TIPS[kind] if kind is not None else None
            session = self.session
            parents = f"{session.show(step.pair[0])} + {session.show(step.pair[1])}"
            if session.lesson.corpus is None:
                return f"Merge {step.step} of the file: {parents} (the file keeps no counts)"
            return f"Made at step {step.step} from {parents}, which appeared {step.count} times then"
        return super().data(index, role)
