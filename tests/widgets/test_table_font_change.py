"""A table fits its columns again when its type grows (classroom mode, zoom)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QFont

from widgets.models.common import HeaderedTableModel
from widgets.tables import Table


class _Rows(HeaderedTableModel):
    headers = ("Token", "Count")

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 (Qt's name)
        return 2

    def row_values(self, row: int) -> tuple:
        return (f"token {row}", row)


def test_a_font_change_refits_the_columns_to_the_larger_type(qtbot):
    table = Table(_Rows())
    qtbot.addWidget(table)
    table.fit_columns()
    before = table.columnWidth(0)
    table.setFont(QFont(table.font().family(), 40))
    qtbot.wait(50)
    assert table.columnWidth(0) > before
