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


def make_application(argv: Sequence[str] = ()):
    """The one QApplication, named so QSettings and QStandardPaths find BPE Lab's folders."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    app.setApplicationName("BPE Lab")
    app.setOrganizationName("BPE Lab")
    # Fusion draws the same on every platform and follows the theme's palette fully
    app.setStyle("Fusion")
    from app.collector import collect_in_gui_thread

    collect_in_gui_thread()
    return app


def run_window(argv: Sequence[str]) -> int:
    """``bpe-lab [FILE]``: the main window, on FILE or on the default lesson."""
    if not _has_display():
        print(
            "bpe-lab: no display found (DISPLAY is not set): start it from a desktop session, "
            "or set QT_QPA_PLATFORM=offscreen to run without one",
            file=sys.stderr,
        )
        return 2
    app = make_application(argv)

    from app.window import MainWindow

    window = MainWindow(path=argv[0] if argv else None)
    window.show()
    if not argv:
        window.files.offer_recovery()
    return app.exec()
