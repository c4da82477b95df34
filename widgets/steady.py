"""A holder that keeps a changing widget from laying the whole window out again.

A QLabel asks its parent layout for a new layout on every new text (a stack of pages does on every
page change), and Qt passes the request up through every layout to the main window, which then
lays out and repaints all of its docks. For a widget that changes on each merge step, that repaint
costs more than the step itself.

``steady(widget)`` puts the widget in a holder with no layout of its own: the widget's request
stops at the holder, which passes it on only when the widget needs another size: another line for
a longer text, more width than it has, a larger font. A new text that fits only repaints it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QWidget


class SteadyHolder(QWidget):
    """The widget's parent: sized by the layout it sits in, the widget always filling it."""

    def __init__(self, widget: QWidget, parent: QWidget | None = None):
        super().__init__(parent)
        self.widget = widget
        widget.setParent(self)
        self.setSizePolicy(widget.sizePolicy())
        self.setObjectName(f"{widget.objectName() or 'label'}Holder")
        self._hints = self._measure()
        # a widget shown or hidden by its owner shows or hides its holder with it
        widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if watched is self.widget and kind in (QEvent.Type.ShowToParent, QEvent.Type.HideToParent):
            self.setVisible(kind == QEvent.Type.ShowToParent)
        return False

    def _measure(self) -> tuple:
        """What, when it changes, calls for a new layout: the widget's limits, and the height it
        needs at its present width (or its whole hint when it does not wrap)."""
        widget = self.widget
        if widget.hasHeightForWidth():
            need = widget.heightForWidth(self.width())
        else:
            need = widget.sizeHint().height()
        return (widget.minimumSize(), widget.maximumSize(), need)

    def _fits(self) -> bool:
        """Whether the widget's smallest and natural widths still fit in the width it has."""
        widget = self.widget
        width = self.width()
        if widget.minimumSizeHint().width() > width:
            return False
        return widget.hasHeightForWidth() or widget.sizeHint().width() <= width

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            hints = self._measure()
            # the holder's limits are checked too: a resize in between may have measured the
            # widget's new limits (a larger font's fixed height) before they reached the holder
            widget = self.widget
            held = (self.minimumSize(), self.maximumSize()) == (widget.minimumSize(), widget.maximumSize())
            if hints != self._hints or not held or not self._fits():
                self._hints = hints
                self.setMinimumSize(self.widget.minimumSize())
                self.setMaximumSize(self.widget.maximumSize())
                self.updateGeometry()
            return True
        return super().event(event)

    def resizeEvent(self, event) -> None:
        self.widget.setGeometry(self.rect())
        hints = self._measure()
        # a wrapping widget's need follows the new width, which the layout chose knowing it; any
        # other change came in between (a larger font) and the layout has not heard of it yet
        unheard = hints != self._hints and not (self.widget.hasHeightForWidth() and hints[:2] == self._hints[:2])
        self._hints = hints
        if unheard:
            self.updateGeometry()
        super().resizeEvent(event)

    # the layout sees the widget's own hints, within its limits as a layout holding it would see
    # them (a label of fixed height still hints the height of its text)
    def sizeHint(self) -> QSize:
        return self._bounded(self.widget.sizeHint())

    def minimumSizeHint(self) -> QSize:
        return self._bounded(self.widget.minimumSizeHint())

    def _bounded(self, hint: QSize) -> QSize:
        return hint.expandedTo(self.widget.minimumSize()).boundedTo(self.widget.maximumSize())

    def hasHeightForWidth(self) -> bool:
        return self.widget.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        return self.widget.heightForWidth(width)


def steady(widget: QWidget) -> SteadyHolder:
    """The widget (a widget, a stack of pages), held so that it can change on every step without a
    window-wide layout."""
    return SteadyHolder(widget)
