"""A table view set up the same way for every panel: whole rows, no grid clutter, sized to text.

Sizing is cheap on purpose: rows take one height from the font (measuring each of 100,000 rows
on every change would stall the window), and columns fit the first rows only.

Painting is cheap too. The tables change on every merge step, and the style's item painting lays
out each cell's text through the full text engine, which made the tables most of a step's cost.
A table draws its own cells instead, from its model's rows read one call each (the model is a
``widgets.models.common.HeaderedTableModel``): the row's background (selection, the model's own
colour, alternate rows), then each cell's text on one line, numbers against the right edge,
elided when it does not fit (only the stretching column's text can be: the others fit their
contents, and a shortened cell's tooltip is its whole text). Each text is measured and laid out once (``QStaticText``) and kept
while the table shows it, not laid out in a rectangle by alignment flags on every paint.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QAbstractItemModel, QEvent, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics, QHelpEvent, QPainter, QPaintEvent, QPalette, QPen, QStaticText
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QTableView, QToolTip, QWidget

from widgets.models.common import HeaderedTableModel
from widgets.tab_titles import LEAST_POINTS

# how many rows Qt reads to size a column to its contents (those on screen first)
SIZE_FROM_ROWS = 25
# the cells' side padding, as the style sheets give it to QTableView::item
CELL_PADDING = 6
# how many fitted cell texts a table keeps before it starts again
FITS_KEPT = 2000
_DISPLAY = Qt.ItemDataRole.DisplayRole


def fitted(metrics: QFontMetrics, text: str, room: int) -> str:
    """The text as a cell ``room`` pixels wide shows it: whole, or cut with an ellipsis."""
    if metrics.horizontalAdvance(text) <= room:
        return text
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)


def _laid_out(metrics: QFontMetrics, text: str, room: int) -> tuple[QStaticText, int]:
    """The text as a cell ``room`` pixels wide shows it, laid out once, and the room left of it."""
    text = fitted(metrics, text, room)
    laid_out = QStaticText(text)
    laid_out.setTextFormat(Qt.TextFormat.PlainText)  # a token such as </w> is no tag
    return laid_out, room - metrics.horizontalAdvance(text)


def title_room(view: QWidget, model: QAbstractItemModel, column: int) -> int:
    """The width a column's bold title needs with its padding."""
    header = view.horizontalHeader() if isinstance(view, QTableView) else None
    bold = QFont(header.font() if header is not None else view.font())
    bold.setBold(True)
    title = model.headerData(column, Qt.Orientation.Horizontal, _DISPLAY)
    return QFontMetrics(bold).horizontalAdvance(str(title or "")) + 2 * CELL_PADDING + 4


class Table(QTableView):
    """A table of a ``HeaderedTableModel``'s rows, each row read in one call (``row_values``)."""

    def __init__(self, model: HeaderedTableModel, parent: QWidget | None = None):
        super().__init__(parent)
        self._rows = model
        self.setModel(model)
        # (text, room) -> the text as it fits, laid out, and the room left of it: measuring and
        # laying out a text cost more than drawing it, and a step shows mostly texts drawn before
        self._fits: dict[tuple[str, int], tuple[QStaticText, int]] = {}
        # the least a column may be, measured again when the titles change type
        self.least_section: Callable[[], int] | None = None
        self._set_least: int | None = None

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        model = self._rows
        rows = model.rowCount()
        if not rows:
            super().paintEvent(event)
            return
        area = event.rect()
        first = max(0, self.rowAt(area.top()))
        last = self.rowAt(area.bottom())
        last = rows - 1 if last < 0 else last
        right = model.right_aligned
        columns = [(c, self.columnViewportPosition(c) + CELL_PADDING, self.columnWidth(c) - 2 * CELL_PADDING,
                    c in right)
                   for c in range(model.columnCount()) if not self.isColumnHidden(c)]
        columns = [(c, x, room, r) for c, x, room, r in columns
                   if x + room + CELL_PADDING > area.left() and x - CELL_PADDING <= area.right()]

        palette = self.palette()
        group = QPalette.ColorGroup.Active if self.isEnabled() else QPalette.ColorGroup.Disabled
        text_color = palette.color(group, QPalette.ColorRole.Text)
        chosen_color = palette.color(group, QPalette.ColorRole.HighlightedText)
        base = palette.color(group, QPalette.ColorRole.Base)
        alternate = palette.color(group, QPalette.ColorRole.AlternateBase)
        highlight = palette.color(group, QPalette.ColorRole.Highlight)
        selection = self.selectionModel()
        chosen = {i.row() for i in selection.selectedRows()} if selection is not None else set()
        metrics = self.fontMetrics()
        if len(self._fits) > FITS_KEPT:
            self._fits.clear()
        known = self._fits
        # one line, centred in the row as Qt's AlignVCenter centres it
        above = (self.rowHeight(first) - metrics.height()) // 2
        width = self.viewport().width()
        alternating = self.alternatingRowColors()

        painter = QPainter(self.viewport())
        painter.setFont(self.font())
        draw = painter.drawStaticText
        for r in range(first, last + 1):
            if self.isRowHidden(r):
                continue
            y, h = self.rowViewportPosition(r), self.rowHeight(r)
            selected = r in chosen
            background = None if selected else model.row_background(r)
            if selected:
                painter.fillRect(0, y, width, h, highlight)
            elif background is not None:
                painter.fillRect(0, y, width, h, background)
            elif alternating and r % 2:
                painter.fillRect(0, y, width, h, alternate)
            else:
                painter.fillRect(0, y, width, h, base)
            painter.setPen(chosen_color if selected else text_color)
            values = model.row_values(r)
            for c, x, room, right_edge in columns:
                value = values[c]
                if value is None or value == "":
                    continue
                key = (value if isinstance(value, str) else str(value), room)
                fit = known.get(key)
                if fit is None:
                    fit = known[key] = _laid_out(metrics, key[0], room)
                draw(x + fit[1] if right_edge else x, y + above, fit[0])
        current = self.currentIndex()
        if self.hasFocus() and current.isValid() and first <= current.row() <= last:
            # where the keyboard is, for those who move through the rows without a mouse
            pen = QPen(chosen_color if current.row() in chosen else text_color)
            pen.setStyle(Qt.PenStyle.DotLine)
            painter.setPen(pen)
            y = self.rowViewportPosition(current.row())
            painter.drawRect(0, y, width - 1, self.rowHeight(current.row()) - 1)
        painter.end()

    def cell_shown(self, row: int, column: int) -> str:
        """A cell's text as the table draws it: whole, or shortened with "…"."""
        value = self._rows.row_values(row)[column]
        text = "" if value is None else str(value)
        return fitted(self.fontMetrics(), text, self.columnWidth(column) - 2 * CELL_PADDING)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            index = self.indexAt(event.pos())
            if index.isValid():
                value = self._rows.row_values(index.row())[index.column()]
                full = "" if value is None else str(value)
                if full and self.cell_shown(index.row(), index.column()) != full:
                    # a shortened cell's whole text, where the pointer is
                    QToolTip.showText(event.globalPos(), full, self.viewport())
                    return True
        return super().viewportEvent(event)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fits.clear()
            self.fit_rows()
            self.fit_columns()
            # once more when the style sheet has reached the header too
            QTimer.singleShot(0, self, self.fit_columns)  # dropped if the table goes first
            QTimer.singleShot(0, self, self.fit_titles)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.fit_titles()

    # -- column titles in smaller type where the table is too narrow for them --------------------

    def points(self) -> float:
        """The cells' type in points (a classroom look sizes it in pixels)."""
        font = self.font()
        return font.pointSizeF() if font.pointSizeF() > 0 else font.pixelSize() * 72 / max(1, self.logicalDpiY())

    def title_font_at(self, points: float) -> QFont:
        font = self.title_font()
        font.setPointSizeF(points)
        return font

    def width_for_titles(self, title_font: QFont) -> int:
        """The width that shows every column whole with its title in ``title_font`` (the
        stretching one its title's width), frame and scroll bar included."""
        header = self.horizontalHeader()
        metrics = QFontMetrics(title_font)
        widths = self.column_widths(title_font)
        width = 0
        for column in range(header.count()):
            if header.isSectionHidden(column):
                continue
            title = str(self._rows.headerData(column, Qt.Orientation.Horizontal, _DISPLAY) or "")
            width += widths.get(column, metrics.horizontalAdvance(title) + 2 * CELL_PADDING + 4)
        scroll_bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        return width + 2 * self.frameWidth() + scroll_bar

    def least_width(self) -> int:
        """The width that shows every column whole with the titles in their least type."""
        return self.width_for_titles(self.title_font_at(LEAST_POINTS))

    def fit_titles(self) -> None:
        """The column titles in the cells' type, or as much smaller as makes every column fit the
        table's width, as the views' tab titles do: zoomed in on a small screen the bold titles
        alone need more than a dock has, and the last columns would be cut off at its edge. Where
        the cells alone are wider than the table, the titles keep their type."""
        header = self.horizontalHeader()
        full = points = self.points()
        while points > LEAST_POINTS and self.width_for_titles(self.title_font_at(points)) > self.width():
            points = max(LEAST_POINTS, points - 0.5)
        if self.width_for_titles(self.title_font_at(points)) > self.width():
            points = full  # the cells are wider than the table even so: tiny titles would help no one
        # empty at full size: the window's sheet then sizes the titles with everything else
        sheet = "" if points >= full else f"QHeaderView {{ font-size: {points:.1f}pt; }}"
        changed = header.styleSheet() != sheet
        if changed:
            header.setStyleSheet(sheet)
        # the least a column may be: as it was set, or as small as the smaller titles need
        if self._set_least is None:
            self._set_least = header.minimumSectionSize()
        least = self._set_least
        if sheet and self.least_section is not None:
            least = min(least, self.least_section())
        if least != header.minimumSectionSize():
            header.setMinimumSectionSize(least)
            changed = True
        if changed:
            self.fit_columns()

    def fit_rows(self) -> None:
        # rows follow the font, so zoom makes them taller instead of clipping the text
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)

    # columns fit their contents when a lesson arrives or the font changes, not on every step:
    # a column sized to contents re-reads its rows on each change the model announces
    def fit_columns(self) -> None:
        header = self.horizontalHeader()
        for column, width in self.column_widths().items():
            # never capped: a pair, a tie mark, an id is read whole; the stretching column (where a
            # count comes from, a token's parents) gives way, its full text in the cell's tooltip
            header.resizeSection(column, width)

    def title_font(self) -> QFont:
        """The column titles' font: the header's (which may take smaller type than the cells), bold
        as the style sheets draw it."""
        bold = QFont(self.horizontalHeader().font())
        bold.setBold(True)
        return bold

    def column_widths(self, title_font: QFont | None = None) -> dict[int, int]:
        """The width each column that does not stretch needs for its title (in ``title_font``, or
        the header's own) and its cells."""
        model, header = self._rows, self.horizontalHeader()
        # measured here as the cells are drawn (text plus padding): the rows in view and the last
        # rows, where a vocabulary keeps its longest tokens and largest ids
        metrics = self.fontMetrics()
        # the style sheets draw column titles bold with side padding, which the header's own size
        # hint does not know of: a title sized by it loses its first letters ("oun" for Count)
        title_metrics = QFontMetrics(title_font or self.title_font())
        rows = model.rowCount()
        first = max(0, min(self.rowAt(0), rows - SIZE_FROM_ROWS))
        measured = set(range(first, min(rows, first + SIZE_FROM_ROWS))) | set(range(max(0, rows - SIZE_FROM_ROWS), rows))
        cells = [model.row_values(row) for row in sorted(measured)]
        widths = {}
        for column in range(model.columnCount()):
            if header.sectionResizeMode(column) == QHeaderView.ResizeMode.Stretch:
                continue
            title = model.headerData(column, Qt.Orientation.Horizontal, _DISPLAY)
            width = title_metrics.horizontalAdvance(str(title or "")) + 2 * CELL_PADDING + 4
            if title_font is None:
                width = max(width, header.sectionSizeHint(column))
            for values in cells:
                value = values[column]
                if value is not None:
                    width = max(width, metrics.horizontalAdvance(str(value)) + 2 * CELL_PADDING + 2)
            widths[column] = width
        return widths


def make_table(model: HeaderedTableModel, stretch_column: int | None = None) -> Table:
    view = Table(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setShowGrid(False)
    view.setWordWrap(False)
    vertical = view.verticalHeader()
    vertical.hide()
    vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.fit_rows()
    header = view.horizontalHeader()
    header.setResizeContentsPrecision(SIZE_FROM_ROWS)
    header.setHighlightSections(False)
    if stretch_column is not None:
        header.setSectionResizeMode(stretch_column, QHeaderView.ResizeMode.Stretch)
        # the stretching column shortens its text rather than make the table scroll sideways
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.least_section = lambda: title_room(view, model, stretch_column)
        header.setMinimumSectionSize(view.least_section())
    else:
        header.setStretchLastSection(True)

    model.modelReset.connect(view.fit_columns)
    model.rowsInserted.connect(lambda *_: view.fit_columns() if model.rowCount() <= SIZE_FROM_ROWS else None)
    view.fit_columns()
    return view
