"""A layout that puts its items in a row and starts another row when the width runs out.

A strip of controls in one QHBoxLayout clips its labels to "Rows b", "Reduc", "E……" when the
window is narrow or the zoom large; in this layout the strip takes a second line instead, and each
control keeps its whole text. Put a label and the control it names in one small widget so that
they stay together.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QHBoxLayout, QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, gap: int = 10):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = gap
        self.setContentsMargins(0, 0, 0, 0)

    # -- QLayout's item list -------------------------------------------------------------------

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt's name)
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt's name)
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt's name)
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    # -- sizes ---------------------------------------------------------------------------------

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 (Qt's name)
        return Qt.Orientation(0)

    # No height-for-width: a scroll area holding a page with such a layout would size the page by
    # every item's preferred height (plots included) and scroll where nothing needs to. The strip
    # sets its widget's minimum height to the lines it needs at the width it is given instead.

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """Everything on one line."""
        shown = [item.sizeHint() for item in self._items if not item.isEmpty()]
        width = sum(s.width() for s in shown) + self._gap * max(0, len(shown) - 1)
        return self._with_margins(QSize(width, max((s.height() for s in shown), default=0)))

    def minimumSize(self) -> QSize:  # noqa: N802 (Qt's name)
        """The widest item alone on its line."""
        size = QSize()
        for item in self._items:
            if not item.isEmpty():
                size = size.expandedTo(item.minimumSize())
        return self._with_margins(size)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 (Qt's name)
        super().setGeometry(rect)
        height = self._place(rect, move=True)
        holder = self.parentWidget()
        if holder is not None and holder.minimumHeight() != height:
            holder.setMinimumHeight(height)  # one more line, or one fewer: the layout above follows

    def _with_margins(self, size: QSize) -> QSize:
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the items out in ``rect`` (when ``move``); the height they take either way."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, line = area.x(), area.y(), 0
        for item in self._items:
            if item.isEmpty():  # a hidden widget takes no room
                continue
            # an item that wraps its own contents (a strip in a strip) is given the line's width,
            # not its one-line width, which would reach past the edge
            least = item.minimumSize()
            width = max(least.width(), min(item.sizeHint().width(), area.width()))
            tall = item.heightForWidth(width) if item.hasHeightForWidth() else item.sizeHint().height()
            hint = QSize(width, max(least.height(), tall))
            if x > area.x() and x + hint.width() > area.right() + 1:
                x, y, line = area.x(), y + line + self._gap // 2, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._gap
            line = max(line, hint.height())
        return y + line - rect.y() + m.bottom()


def group(*widgets: QWidget) -> QWidget:
    """Widgets that stay side by side on one line of a wrapping strip (a label and its control)."""
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        row.addWidget(widget)
    return holder
