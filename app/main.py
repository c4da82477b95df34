"""Starting the window: the platform check, the Qt application with its icon and fonts, the default lesson.

Qt ends a program it cannot show on (no display, a platform plugin missing or unloadable) with an
abort and a core dump. So before the QApplication exists, ``platform_problem`` looks for what Qt
will need and says in one line what is wrong and how to fix it; and while it is being made, a fatal
Qt message ends the run with one such line instead of the abort.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path
from typing import Mapping, Sequence

from app.about import app_icon, bundled_fonts_folder
from app.collector import collect_in_gui_thread

EXIT_NO_WINDOW = 2
REINSTALL = ("the installation is damaged: copy the bpe-lab folder again and run its install.sh, "
             "or reinstall with pip (pip install --force-reinstall bpe-lab)")
NO_DISPLAY = ("start BPE Lab from a desktop session, or on a machine with no screen under a virtual one "
              "(xvfb-run -a bpe-lab); the bpe-lab commands (train, encode, snapshot...) need no display")


# the platform plugins Qt ships for Linux: one of them missing means a damaged installation, another name a typo
QT_PLATFORMS = ("xcb", "wayland", "wayland-egl", "offscreen", "minimal", "eglfs", "linuxfb", "vnc", "vkkhrdisplay")


def missing_part(error: ImportError) -> int:
    """Say in one line which part of a damaged installation is missing; the exit status."""
    cause: BaseException = error
    while cause.__cause__ is not None:  # numpy, for one, wraps the loader's own reason
        cause = cause.__cause__
    reason = next((line.strip() for line in str(cause).splitlines() if line.strip()), type(cause).__name__)
    print(f"bpe-lab: part of BPE Lab is missing ({reason}): {REINSTALL}", file=sys.stderr)
    return EXIT_NO_WINDOW


def _platforms(environ: Mapping[str, str]) -> list[str]:
    """The Qt platform plugins Qt will try, in order (QT_QPA_PLATFORM may list several, with options)."""
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return [name.split(":")[0].strip() for name in chosen.split(";") if name.strip()]
    return ["wayland", "xcb"] if environ.get("WAYLAND_DISPLAY") else ["xcb"]


def _plugin_present(name: str) -> bool:
    from PySide6.QtCore import QCoreApplication

    for folder in QCoreApplication.libraryPaths():
        platforms = Path(folder) / "platforms"
        if any(platforms.glob(f"libq{name}.so*")) or any(platforms.glob(f"qt{name}*.dll")):
            return True
    return False


def _x_display_problem(display: str) -> str | None:
    """Why the X display cannot be reached, or None; only what can be told without Qt."""
    if not display:
        return f"no display found (DISPLAY is not set): {NO_DISPLAY}"
    host, _, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if not number.isdigit():
        return f"DISPLAY={display} is not a display name (it looks like :0 or host:0): set it right, or {NO_DISPLAY}"
    try:
        if host in ("", "unix") or host.startswith("/"):
            path = host if host.startswith("/") else f"/tmp/.X11-unix/X{number}"
            with socket.socket(socket.AF_UNIX) as s:
                s.settimeout(3)
                try:
                    s.connect("\0" + path)  # X servers on Linux also listen on the abstract name
                except OSError:
                    s.connect(path)
        else:
            socket.create_connection((host, 6000 + int(number)), timeout=3).close()
    except OSError as exc:
        return f"cannot open the display {display} ({exc.strerror or exc}): is the X server running? {NO_DISPLAY}"
    return None


def _wayland_reachable(environ: Mapping[str, str]) -> bool:
    name = environ.get("WAYLAND_DISPLAY", "")
    if not name:
        return False
    path = Path(name) if os.path.isabs(name) else Path(environ.get("XDG_RUNTIME_DIR", "/nonexistent")) / name
    return path.exists()


def platform_problem(environ: Mapping[str, str] = os.environ) -> str | None:
    """Why Qt could not open a window here, in one line that names the fix; None when it can."""
    try:
        import PySide6.QtCore  # noqa: F401 (its shared libraries load here, or fail)
    except (ImportError, OSError) as exc:
        return f"Qt could not be loaded ({exc}): {REINSTALL}"
    if sys.platform != "linux":
        return None  # Windows and macOS always have their one platform; nothing more to look for
    names = _platforms(environ)
    present = [n for n in names if _plugin_present(n)]
    if not present and environ.get("QT_QPA_PLATFORM") and names[0] not in QT_PLATFORMS:
        return (f"QT_QPA_PLATFORM={environ['QT_QPA_PLATFORM']} names no Qt platform plugin installed here: "
                "unset it (or use xcb, wayland or offscreen)")
    if not present:
        return f"the Qt platform plugin '{names[0]}' is missing: {REINSTALL}"
    for name in present:
        if name == "xcb":
            return _x_display_problem(environ.get("DISPLAY", ""))
        if name != "wayland" or _wayland_reachable(environ):
            return None
    return f"cannot reach the Wayland display {environ.get('WAYLAND_DISPLAY', '')}: {NO_DISPLAY}"


class _FatalQtStart:
    """While the QApplication is made: a fatal Qt message ends the run with one line, not an abort.

    Qt's warnings before it (the first says why the plugin would not start) are held and the first
    given as the reason; when the start succeeds they are printed as Qt would have.
    """

    def __enter__(self):
        from PySide6.QtCore import qInstallMessageHandler

        self.warnings: list[str] = []
        self._previous = qInstallMessageHandler(self._handle)
        return self

    def _handle(self, kind, _context, message: str) -> None:
        from PySide6.QtCore import QtMsgType

        if kind == QtMsgType.QtFatalMsg:
            reason = (self.warnings[0] if self.warnings else message).splitlines()[0]
            print(f"bpe-lab: Qt could not start the window ({reason}): QT_DEBUG_PLUGINS=1 bpe-lab shows "
                  "which library is missing (Debian and Ubuntu: sudo apt-get install libxcb-cursor0 libxkbcommon-x11-0); "
                  f"if {REINSTALL}", file=sys.stderr, flush=True)
            os._exit(EXIT_NO_WINDOW)  # Qt aborts once this returns
        if kind != QtMsgType.QtDebugMsg:
            self.warnings.append(message)

    def __exit__(self, *exc) -> None:
        from PySide6.QtCore import qInstallMessageHandler

        qInstallMessageHandler(self._previous)
        for message in self.warnings:
            print(message, file=sys.stderr)


def qt_messages_to_log() -> None:
    """For a command that renders with no window on screen: Qt's warnings (the offscreen plugin's
    "This plugin does not support propagateSizeHints()") go to the ``qt`` logger at debug level,
    out of the command's output; a critical or fatal one is still said on stderr."""
    import logging

    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    log = logging.getLogger("qt")

    def handle(kind, _context, message: str) -> None:
        if kind in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
            print(f"bpe-lab: Qt: {message}", file=sys.stderr, flush=True)
        else:
            log.debug(message)

    qInstallMessageHandler(handle)


def load_bundled_fonts() -> None:
    """The bundle carries fonts for the glyphs and scripts BPE Lab shows, for systems that lack them."""
    from PySide6.QtGui import QFontDatabase

    folder = bundled_fonts_folder()
    if folder is None or not folder.is_dir():
        return
    for font in sorted(folder.iterdir()):
        if font.suffix.lower() in (".ttf", ".otf", ".ttc"):
            QFontDatabase.addApplicationFont(str(font))


def make_application(argv: Sequence[str] = ()):
    """The one QApplication, named so QSettings and QStandardPaths find BPE Lab's folders."""
    from PySide6.QtWidgets import QApplication

    # pyqtgraph, imported later by the charts, otherwise prefers PyQt6 when both are installed
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    assert isinstance(app, QApplication), "the window needs a QApplication, not a QCoreApplication"
    app.setApplicationName("BPE Lab")
    app.setOrganizationName("BPE Lab")
    # the desktop entry's name: Wayland and the task bar match the window to its menu entry and icon
    app.setDesktopFileName("bpe-lab")
    # every window and dialog without an icon of its own takes this one
    app.setWindowIcon(app_icon())
    # Fusion draws the same on every platform and follows the theme's palette fully; set once, as
    # setting it again repolishes every widget alive (a second call in one process, the snapshot's)
    if app.style().name().lower() != "fusion":
        app.setStyle("Fusion")
        load_bundled_fonts()
    collect_in_gui_thread()
    return app


def window_arguments(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]]:
    """``bpe-lab [FILE] [--close-after SECONDS]``; what is left goes to Qt (e.g. ``-style``)."""
    parser = argparse.ArgumentParser(prog="bpe-lab", exit_on_error=False)
    parser.add_argument("path", nargs="?")
    parser.add_argument("--close-after", type=float, metavar="SECONDS",
                        help="close the window after SECONDS, as File > Quit does (to check an installation)")
    return parser.parse_known_args(list(argv))


def run_window(argv: Sequence[str]) -> int:
    """``bpe-lab [FILE]``: the main window, on FILE or on the default lesson."""
    try:
        args, qt_args = window_arguments(argv)
    except argparse.ArgumentError as exc:
        print(f"bpe-lab: {exc} (see 'bpe-lab --help')", file=sys.stderr)
        return EXIT_NO_WINDOW
    problem = platform_problem()
    if problem:
        print(f"bpe-lab: {problem}", file=sys.stderr)
        return EXIT_NO_WINDOW
    try:
        with _FatalQtStart():
            app = make_application(qt_args)
        # here, not at the top: a broken installation's missing file is said in one line
        from app.window import MainWindow
    except ImportError as exc:  # a file of the installation is gone or broken
        return missing_part(exc)

    window = MainWindow()
    window.show()
    if args.close_after is not None:
        from PySide6.QtCore import QTimer

        from app.close_after import CloseAfter  # imports Qt: the commands import this module without it

        closing = CloseAfter(app, window, args.close_after)
        if args.path:
            def open_named() -> None:
                if not window.files.open_path(args.path):
                    closing.failed = True

            # opened inside the event loop: a message box it shows then runs in a loop that the
            # close can leave (before app.exec(), leaving it would leave nothing)
            QTimer.singleShot(0, window, open_named)
        code = app.exec()
        closing.stop()
        return closing.status or code
    # what an earlier run left is offered whatever file was named: recovered, it is the lesson shown
    # (the named file can be opened after); declined, the named file opens
    if not window.files.offer_recovery() and args.path:
        window.files.open_path(args.path)
    return app.exec()
