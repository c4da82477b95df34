"""A table view set up the same way for every panel: whole rows, no grid clutter, sized to text.

Sizing is cheap on purpose: rows take one height from the font (measuring each of 100,000 rows
on every change would stall the window), and columns fit the first rows only.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

# how many rows Qt reads to size a column to its contents (those on screen first)
SIZE_FROM_ROWS = 25


class Table(QTableView):
    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_rows()
            fit = getattr(self, "fit_columns", None)
            if fit is not None:
                fit()

    def _fit_rows(self) -> None:
        # rows follow the font, so zoom makes them taller instead of clipping the text
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)


def make_table(model, stretch_column: int | None = None) -> QTableView:
    view = Table()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setShowGrid(False)
    view.setWordWrap(False)
    vertical = view.verticalHeader()
    vertical.hide()
    vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view._fit_rows()
    header = view.horizontalHeader()
    header.setResizeContentsPrecision(SIZE_FROM_ROWS)
    header.setHighlightSections(False)
    if stretch_column is not None:
        header.setSectionResizeMode(stretch_column, QHeaderView.ResizeMode.Stretch)
    else:
        header.setStretchLastSection(True)

    # columns fit their contents when a lesson arrives or the font changes, not on every step:
    # a column sized to contents re-reads its rows on each change the model announces
    def fit_columns() -> None:
        for column in range(model.columnCount()):
            if header.sectionResizeMode(column) != QHeaderView.ResizeMode.Stretch:
                view.resizeColumnToContents(column)

    view.fit_columns = fit_columns
    model.modelReset.connect(fit_columns)
    model.rowsInserted.connect(lambda *_: fit_columns() if model.rowCount() <= SIZE_FROM_ROWS else None)
    fit_columns()
    return view
