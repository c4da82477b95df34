"""Starting the window: the Qt application, its platform check, and the default lesson."""

from __future__ import annotations

import os
import sys
from typing import Sequence


def _has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform != "linux":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_window(argv: Sequence[str]) -> int:
    """``bpe-lab [FILE]``: the main window, on FILE or on the default lesson."""
    if not _has_display():
        print(
            "bpe-lab: no display found (DISPLAY is not set): start it from a desktop session, "
            "or set QT_QPA_PLATFORM=offscreen to run without one",
            file=sys.stderr,
        )
        return 2
    from PySide6.QtWidgets import QApplication

    from app.window import MainWindow

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    app.setApplicationName("BPE Lab")
    app.setOrganizationName("BPE Lab")
    window = MainWindow(path=argv[0] if argv else None)
    window.show()
    return app.exec()
