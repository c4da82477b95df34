"""``bpe-lab snapshot [LESSON_OR_TEXT] --step N --out FILE.png [--size WxH] [--theme light|dark]
[--zoom Z] [--view VIEW] [--classroom] [--predict] [--reveal]``.

Renders the window at a step with no display (Qt's offscreen platform), for slides and for
checks. With no file it renders the default lesson; a ``.bpelab`` file opens as a lesson, any
other file as training text. With no ``--view`` the PNG is the whole window on the tiles; a
central view (tiles, charts, quiz, explorer, its languages page) is the whole window on that
view; a panel (pairs, vocab, tokenize) is that panel alone at the size asked. ``--classroom``
renders classroom mode on a projector of the size asked; there the panels are hidden, so a
panel is shown alone in the dark theme at classroom type (24 px, zoom 1.5 or more).

The window is staged by ``open_window`` and ``stage`` (the legibility tests stage it the same way).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from app.commands.common import non_negative
from engine.errors import BpeLabError

_SIZE = re.compile(r"^(\d+)[xX×](\d+)$")

# the central views by name, and the tab each is in
TABS = {"tiles": "Tiles", "charts": "Charts", "quiz": "Quiz", "explorer": "Explorer", "languages": "Explorer"}
# the panels by name, and the window's attribute holding each one's dock
DOCKS = {"pairs": "pairs_dock", "vocab": "vocab_dock", "tokenize": "tokenize_dock"}
VIEWS = ("tiles", "charts", "pairs", "vocab", "tokenize", "quiz", "explorer", "languages")
# a panel alone in classroom mode: the zoom at which its 12 pt text is 24 px on a 96 dpi screen
CLASSROOM_PANEL_ZOOM = 1.5
# how long a render waits for GPT-4's tokenizer (the explorer's left side) before it shows what it has
TOKENIZER_WAIT_MS = 60_000


class BadCombination(BpeLabError):
    """Options that ask for two things one picture cannot show."""


def size(value: str) -> tuple[int, int]:
    import argparse

    m = _SIZE.match(value.strip())
    if m is None:
        raise argparse.ArgumentTypeError(f"'{value}' is not a size: write it like 1600x1000")
    w, h = int(m.group(1)), int(m.group(2))
    if not (200 <= w <= 8000 and 200 <= h <= 8000):
        raise argparse.ArgumentTypeError(f"{w}x{h} is out of range: each side from 200 to 8000 pixels")
    return w, h


def add_parser(sub) -> None:
    p = sub.add_parser("snapshot", help="render the window or one view at a step to a PNG, with no display")
    p.add_argument("lesson", nargs="?", metavar="LESSON_OR_TEXT", help="a .bpelab lesson or a UTF-8 text file")
    p.add_argument("--step", type=non_negative, default=None, metavar="N",
                   help="the step to show (default: the lesson's saved step, or 0)")
    p.add_argument("--out", required=True, metavar="FILE.png")
    p.add_argument("--size", type=size, default=(1600, 1000), metavar="WxH",
                   help="window size, or the projector's in classroom mode (default 1600x1000)")
    p.add_argument("--theme", choices=("light", "dark"), default="light")
    p.add_argument("--zoom", type=float, default=1.0, help="text zoom, as Ctrl+= would set it (default 1)")
    p.add_argument("--view", choices=VIEWS, default=None,
                   help="the view to show: tiles, charts, quiz, explorer or languages (the explorer's page) fill the "
                        "window's central area; pairs, vocab and tokenize render that panel alone at --size "
                        "(default: the whole window on the tiles)")
    p.add_argument("--classroom", action="store_true",
                   help="classroom mode on a projector of --size; a panel, which the mode hides, is shown alone "
                        "in the dark theme at classroom type (zoom 1.5 or more)")
    p.add_argument("--predict", action="store_true",
                   help="classroom mode's predict-first question over the tiles (needs --classroom)")
    p.add_argument("--reveal", action="store_true",
                   help="the quiz's first question answered with its first option, checked and revealed")


def check_combination(view: str | None, classroom: bool, predict: bool, reveal: bool) -> str | None:
    """The view to show for these options (``--predict`` means the tiles, ``--reveal`` the quiz);
    raises ``BadCombination`` for options that exclude each other."""
    if predict and reveal:
        raise BadCombination("--predict and --reveal are two pictures: make one snapshot of each")
    if predict and not classroom:
        raise BadCombination("--predict shows classroom mode's question: add --classroom")
    if predict and view not in (None, "tiles"):
        raise BadCombination(f"--predict asks over the tiles, not --view {view}: leave --view out or use tiles")
    if reveal and view not in (None, "quiz"):
        raise BadCombination(f"--reveal answers a quiz question, not --view {view}: leave --view out or use quiz")
    if predict:
        return "tiles"
    if reveal:
        return "quiz"
    return view


def source_for(name: str | None):
    from engine.files.reading import read_text
    from engine.formats.lesson_file import SUFFIX, LessonFile, load_lesson  # the parsers (help) load no lesson code

    if name is None:
        from app.session import DEFAULT_TEXT, default_held_out  # Qt: the parsers (help) start without it

        return LessonFile(DEFAULT_TEXT, word_counts=True, held_out=default_held_out())
    if Path(name).suffix == SUFFIX:
        return load_lesson(name)
    return LessonFile(read_text(name))


def settle(turns: int = 5) -> None:
    """Let the docks and views settle to the window's size (a few queued layout passes)."""
    from PySide6.QtWidgets import QApplication

    for _ in range(turns):
        QApplication.processEvents()


def wait_until(done, ms: int) -> None:
    """Turn the event loop until ``done()`` or ``ms`` have passed."""
    from PySide6.QtCore import QDeadlineTimer, QThread
    from PySide6.QtWidgets import QApplication

    deadline = QDeadlineTimer(ms)
    while not done() and not deadline.hasExpired():
        QApplication.processEvents()
        QThread.msleep(10)


def open_window(source, step: int | None, size: tuple[int, int], theme: str, zoom: float = 1.0, **window_options):
    """A window on ``source`` at ``step``, shown at ``size`` and settled; returns (window, step)."""
    from app.main import make_application  # Qt: the parsers (help) start without it

    make_application()
    from app.training_worker import build_lesson
    from app.window import MainWindow  # Qt: the parsers (help) start without it

    lesson, state = build_lesson(source)
    if lesson.is_empty:
        raise BpeLabError("the corpus is empty: there is nothing to show")
    last = lesson.last_step
    if step is None:
        step = min(source.step, last)
    if step > last:
        raise BpeLabError(f"step {step} is past the end: this lesson has steps 0 to {last}")
    window = MainWindow(persist=False, theme=theme, **window_options)
    window.set_zoom(zoom)
    window.resize(*size)
    # the panels arranged for this width before the window shows: shown side by side at a large
    # zoom, their minimums would hold the window wider than the size asked
    window.arrange_docks()
    window.corpus_panel.show_source(source)
    window.session.set_lesson(lesson, step, state)
    window.show()
    settle(3)
    return window, step


class _Projector:
    """The screen classroom mode goes full screen on: the size asked, whatever screen the offscreen
    platform reports (its one screen is 800x800)."""

    def __init__(self, width: int, height: int):
        from PySide6.QtCore import QRect

        self._rect = QRect(0, 0, width, height)

    def geometry(self):
        return self._rect


def enter_classroom(window, size: tuple[int, int]) -> None:
    """Classroom mode as on a projector of ``size``."""
    projector = _Projector(*size)
    window.screen = lambda: projector
    window.showFullScreen = window.show  # the offscreen platform would make it its own screen's size
    window.classroom.enter()
    settle()
    # full screen holds the window at the screen's size once the hidden panels' minimums are gone
    # (entering sets it while they still count); shown without a window manager, it is set again
    window.setGeometry(0, 0, *size)
    settle()


def close_window(window) -> None:
    """Close a window opened for a picture, leaving nothing of it in the process."""
    from PySide6.QtCore import QCoreApplication, QEvent

    if window.classroom.active:
        leave_classroom(window)  # and let its queued settling run while the window is alive
    window.session.mark_saved()  # a quiz answered for the picture is no work to save
    window.close()
    # deleted now, not when an event loop next runs (none may): a window left alive in the process
    # (its menus and docks are windows too) makes every later style or font change slower
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def leave_classroom(window) -> None:
    window.classroom.leave()
    settle()
    del window.screen, window.showFullScreen  # the window's own again


def stage(window, view: str | None, predict: bool = False, reveal: bool = False, size: tuple[int, int] | None = None):
    """Show ``view`` in ``window`` (in classroom mode or not) and return the widget to grab: the
    window for a central view, the panel's dock, floating at ``size``, for a panel."""
    from widgets.classroom import ASKING  # the covers wait for the mode

    if view in DOCKS:
        return _float_panel(window, getattr(window, DOCKS[view]), size or window.size().toTuple())
    window.show_view(TABS[view or "tiles"])
    settle()
    if view in ("explorer", "languages"):
        explorer = window.views["Explorer"]
        explorer.tabs.setCurrentWidget(explorer.languages if view == "languages" else explorer.tabs.widget(0))
        wait_until(lambda: explorer.left.split is not None, TOKENIZER_WAIT_MS)
        settle()
    if predict:
        window.classroom.set_predict_first(True)
        wait_until(lambda: window.classroom.prompt_state == ASKING, 5_000)
        settle()
    if reveal:
        _answer_and_reveal(window.views["Quiz"])
    return window


def _float_panel(window, dock, size: tuple[int, int]):
    dock.setFloating(True)
    dock.show()
    dock.resize(*size)
    dock.raise_()
    settle()
    return dock


def _answer_and_reveal(quiz) -> None:
    editor = quiz.editor
    if editor is not None and editor.numbered_options():
        editor.pick_number(1)
    quiz.check()
    quiz.reveal()
    settle()


def panel_look(theme: str, zoom: float, classroom: bool) -> tuple[str, float]:
    """The theme and zoom a panel is shown alone in: in classroom mode dark, at classroom type."""
    return ("dark", max(zoom, CLASSROOM_PANEL_ZOOM)) if classroom else (theme, zoom)


def render(source, step: int | None, out: str, size: tuple[int, int], theme: str, zoom: float = 1.0,
           view: str | None = None, classroom: bool = False, predict: bool = False, reveal: bool = False) -> int:
    """Render ``source`` at ``step`` to ``out``; returns the step shown."""

    from engine.files.writing import write_atomic
    from widgets.saving import png_bytes  # Qt: the parsers (help) start without it

    view = check_combination(view, classroom, predict, reveal)
    if view in DOCKS:
        theme, zoom = panel_look(theme, zoom, classroom)
    window, step = open_window(source, step, size, theme, zoom)
    try:
        if classroom and view not in DOCKS:
            enter_classroom(window, size)
        image = stage(window, view, predict, reveal, size).grab()
    finally:
        close_window(window)
    write_atomic(out, png_bytes(image.toImage()))
    return step


def run(args) -> int:
    # no display is needed, and none is used even when there is one
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if not args.out.lower().endswith(".png"):
        raise BpeLabError(f"{args.out}: the output must be a .png file")
    check_combination(args.view, args.classroom, args.predict, args.reveal)
    source = source_for(args.lesson)
    render(source, args.step, args.out, args.size, args.theme, args.zoom,
           args.view, args.classroom, args.predict, args.reveal)
    return 0
