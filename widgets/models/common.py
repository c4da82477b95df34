"""What the models share: custom roles, a row's cells in one call, and turning changed rows into as
few signals as possible."""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

# the raw tokens of a row (a list of str), for delegates that draw tiles
TokensRole = Qt.ItemDataRole.UserRole + 1
# the row's token as the engine spells it (vocabulary), or its pair (pairs)
KeyRole = Qt.ItemDataRole.UserRole + 2
# the word's frequency in the corpus (words)
CountRole = Qt.ItemDataRole.UserRole + 3


# a cell shows at most this many characters of a word: a text with no spaces is one word of
# millions, and a cell is read, not scrolled
WORD_SHOWN = 200


def word_shown(show, word: str) -> str:
    """A word as a cell shows it (``show``: how a token reads), its head only when it is long."""
    return show(word) if len(word) <= WORD_SHOWN else f"{show(word[:WORD_SHOWN])}… ({len(word):,} symbols)"


_DISPLAY = Qt.ItemDataRole.DisplayRole
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class HeaderedTableModel(QAbstractTableModel):
    """A flat table whose column titles are the class's ``headers``.

    A row's cells come from ``row_values`` in one call, and its colour from ``row_background``:
    the tables (``widgets.tables``) paint from them, since asking Qt's way, an index and a call per
    cell and per role, was most of what a table cost on each merge step. ``data`` answers from the
    same two, so both ways read the same cells.
    """

    headers: tuple[str, ...] = ()
    # the columns of numbers, drawn against the right edge of their cells
    right_aligned: frozenset[int] = frozenset()

    def row_values(self, row: int) -> tuple:
        """The row's cells as displayed, one per column."""
        raise NotImplementedError

    def row_background(self, row: int) -> QColor | None:
        """The row's own background, or None for the table's."""
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY) -> Any:
        if not index.isValid():
            return None
        if role == _DISPLAY:
            return self.row_values(index.row())[index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if index.column() in self.right_aligned else None
        if role == Qt.ItemDataRole.BackgroundRole:
            return self.row_background(index.row())
        return None

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        return None


def runs(rows: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs: [1, 2, 3, 7] -> (1, 3), (7, 7)."""
    run: tuple[int, int] | None = None  # the run being read
    for r in rows:
        if run is not None and r == run[1] + 1:
            run = (run[0], r)
            continue
        if run is not None:
            yield run
        run = (r, r)
    if run is not None:
        yield run
