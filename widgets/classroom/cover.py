"""A widget laid over another one (its host), keeping to the host's size as it changes.

The covers are children of the host rather than windows of their own, so they go full screen with
the window, and a screen grab of the window shows them as the class sees them.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QWidget

import widgets.classroom.look as look


class Cover(QWidget):
    def __init__(self, host: QWidget):
        super().__init__(host)
        self.host = host
        self.hide()
        host.installEventFilter(self)

    def area(self) -> QRect:
        """The part of the host to cover (all of it unless a subclass says otherwise)."""
        return self.host.rect()

    def place(self) -> None:
        self.setGeometry(self.area())
        self.raise_()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        self.place()
        super().showEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() not in (QEvent.Type.Resize, QEvent.Type.Show):
            return False
        # a host being destroyed may still send events once the cover's Python side is gone
        if watched is getattr(self, "host", None) and not self.isHidden():
            self.place()
        return False


class BlankCover(Cover):
    """A black (or white) screen: the class looks at the teacher or the board, not at the tiles."""

    white = False

    def set_white(self, white: bool) -> None:
        self.white = white
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        QPainter(self).fillRect(self.rect(), QColor(look.TEXT if self.white else look.GROUND))
