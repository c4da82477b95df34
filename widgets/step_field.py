"""The timeline's "go to step" field: type a step, press Return, and the lesson goes there.

It asks with ``session.request_step`` like the slider; between uses it shows the step the lesson is
at. Ctrl+G (the window's Lesson > Go to step…) puts the focus in it with the number selected.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QSpinBox

from widgets.session_view import SessionView
from widgets.shortcuts import key_text


class StepField(QSpinBox):
    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        self.setObjectName("goToStep")
        self.setAccessibleName("Go to step")
        # a bare number: the row is full at 200 % zoom; its tooltip and accessible name say what it is
        self.setToolTip(f"Type a step and press Return to go there ({key_text('go to step')})")
        # arrows and typing only ask on Return: every digit typed is not a step to go to
        self.setKeyboardTracking(False)
        self.setButtonSymbols(QAbstractSpinBox.ButtonSymbols.NoButtons)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.lineEdit().returnPressed.connect(self._on_return_pressed)
        session.lesson_changed.connect(self._show_step)
        session.step_changed.connect(self._show_step)
        self._show_step()

    def focus_for_typing(self) -> None:
        if self.isEnabled():
            self.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self.selectAll()

    def _on_return_pressed(self) -> None:
        self.session.request_step(self.value())

    def _show_step(self, *_change) -> None:
        session = self.session
        self.blockSignals(True)
        self.setRange(0, session.last_step)
        self.setValue(session.step)
        self.blockSignals(False)
        self.setEnabled(session.state is not None and session.last_step > 0)
