"""A cover over a panel whose contents would answer the quiz question on screen.

The panel's widgets are hidden, not emptied: they keep following the lesson underneath, and come
back as they stand the moment the cover lifts.
"""

from __future__ import annotations

from PySide6.QtWidgets import QBoxLayout, QLabel, QWidget


class AnswerCover:
    def __init__(self, layout: QBoxLayout, text: str):
        self._layout = layout
        self.label = QLabel(text)
        self.label.setObjectName("hint")
        self.label.setWordWrap(True)
        self.label.hide()
        layout.insertWidget(0, self.label)
        self._covered: list[QWidget] = []

    @property
    def covering(self) -> bool:
        return bool(self._covered)

    def set_covering(self, on: bool) -> None:
        if on == self.covering:
            return
        if on:
            items = (self._layout.itemAt(i) for i in range(self._layout.count()))
            widgets = (item.widget() for item in items if item is not None)
            self._covered = [w for w in widgets if w is not None and w is not self.label and not w.isHidden()]
            for w in self._covered:
                w.hide()
            self.label.show()
        else:
            self.label.hide()
            for w in self._covered:
                w.show()
            self._covered = []
