"""``bpe-lab --close-after SECONDS``: the window closes itself, whatever dialog is open then.

Used to check an installation, often by a script with no one at the screen: a message box (a file
that would not open) or a question (unsaved changes) must not keep the run alive. At the time
given, every dialog open is dismissed as Escape would dismiss it, again for any that a closing
window asks, the window is closed as File > Quit closes it, and the event loop is left even where
a dialog or the window refused. A warning dismissed is said on stderr in one line, and the run
ends with status 2. Should the window's thread be stuck where no timer runs, a watchdog thread
ends the process a little later.

Left out: the dialogs of other programs (a native file dialog outside Qt's widgets).
"""

from __future__ import annotations

import os
import sys
import threading

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox, QWidget

EXIT_NOT_CLEAN = 2
# how often dialogs are dismissed once the time is up: one a closing window opens is met at once
SWEEP_MS = 50
# how long after the time given a window that never got to close is ended anyway
GRACE_SECONDS = 20


class CloseAfter(QObject):
    """Closes ``window`` and leaves the event loop ``seconds`` after it is made."""

    def __init__(self, app: QApplication, window: QWidget, seconds: float):
        super().__init__(window)
        self.app = app
        self.window = window
        self.warnings: list[str] = []  # what the dialogs dismissed said
        self.failed = False  # something asked of the run (opening its file) did not happen
        self._sweeper = QTimer(self)
        self._sweeper.setInterval(SWEEP_MS)
        self._sweeper.timeout.connect(self._dismiss_dialogs)
        QTimer.singleShot(max(0, int(seconds * 1000)), self, self._close)
        self._watchdog = threading.Timer(max(0.0, seconds) + GRACE_SECONDS, self._end_stuck_process)
        self._watchdog.daemon = True
        self._watchdog.start()

    @property
    def status(self) -> int:
        """0 for a clean run; 2 when a file did not open or a warning had to be dismissed."""
        return EXIT_NOT_CLEAN if self.failed or self.warnings else 0

    def stop(self) -> None:
        """The event loop is over: nothing more to dismiss, nothing to end."""
        self._watchdog.cancel()
        self._sweeper.stop()

    def _close(self) -> None:
        self._sweeper.start()  # runs inside the loop of any dialog the closing window opens
        self._dismiss_dialogs()
        self.window.close()
        self.app.exit(self.status)

    def _dismiss_dialogs(self) -> None:
        for _ in range(100):  # each pass dismisses the topmost; a dialog that will not go stops it
            dialog = self._topmost_dialog()
            if dialog is None:
                return
            if isinstance(dialog, QMessageBox):
                if dialog.icon() in (QMessageBox.Icon.Warning, QMessageBox.Icon.Critical):
                    self._say(dialog.text())
            dialog.close()  # a message box takes its Escape button (Cancel of Save, Discard, Cancel)
            if dialog.isVisible() and isinstance(dialog, QDialog):
                dialog.reject()  # a box with no Escape button refuses to close
            if dialog.isVisible():
                return

    def _topmost_dialog(self) -> QWidget | None:
        modal = QApplication.activeModalWidget()
        if modal is not None and modal is not self.window:
            return modal
        for widget in QApplication.topLevelWidgets():
            if widget is not self.window and isinstance(widget, QDialog) and widget.isVisible():
                return widget
        return None

    def _say(self, text: str) -> None:
        line = " ".join(text.split())
        if line and line not in self.warnings:
            self.warnings.append(line)
            print(f"bpe-lab: {line}", file=sys.stderr, flush=True)

    def _end_stuck_process(self) -> None:
        os.write(2, b"bpe-lab: the window did not close after --close-after (it was busy): ended\n")
        os._exit(EXIT_NOT_CLEAN)
