"""What the models share: custom roles and turning changed rows into as few signals as possible."""

from __future__ import annotations

from typing import Iterable, Iterator

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

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


class HeaderedTableModel(QAbstractTableModel):
    """A flat table whose column titles are the class's ``headers``."""

    headers: tuple[str, ...] = ()

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        return None


def runs(rows: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs: [1, 2, 3, 7] -> (1, 3), (7, 7)."""
    first = last = None
    for r in rows:
        if last is not None and r == last + 1:
            last = r
            continue
        if first is not None:
            yield first, last
        first = last = r
    if first is not None:
        yield first, last
