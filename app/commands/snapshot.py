"""``bpe-lab snapshot [LESSON_OR_TEXT] --step N --out FILE.png [--size WxH] [--theme light|dark]``.

Renders the whole window at a step with no display (Qt's offscreen platform), for slides and for
checks. With no file it renders the default lesson; a ``.bpelab`` file opens as a lesson, any
other file as training text.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from app.commands.common import non_negative
from engine.errors import BpeLabError

_SIZE = re.compile(r"^(\d+)[xX×](\d+)$")


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
    p = sub.add_parser("snapshot", help="render the window at a step to a PNG, with no display")
    p.add_argument("lesson", nargs="?", metavar="LESSON_OR_TEXT", help="a .bpelab lesson or a UTF-8 text file")
    p.add_argument("--step", type=non_negative, default=None, metavar="N",
                   help="the step to show (default: the lesson's saved step, or 0)")
    p.add_argument("--out", required=True, metavar="FILE.png")
    p.add_argument("--size", type=size, default=(1600, 1000), metavar="WxH", help="window size (default 1600x1000)")
    p.add_argument("--theme", choices=("light", "dark"), default="light")
    p.add_argument("--zoom", type=float, default=1.0, help="text zoom, as Ctrl+= would set it (default 1)")


def source_for(name: str | None):
    from engine.files.reading import read_text
    from engine.formats.lesson_file import SUFFIX, LessonFile, load_lesson  # the parsers (help) load no lesson code

    if name is None:
        from app.session import DEFAULT_TEXT, default_held_out  # Qt: the parsers (help) start without it

        return LessonFile(DEFAULT_TEXT, word_counts=True, held_out=default_held_out())
    if Path(name).suffix == SUFFIX:
        return load_lesson(name)
    return LessonFile(read_text(name))


def render(source, step: int | None, out: str, size: tuple[int, int], theme: str, zoom: float = 1.0) -> int:
    """Render ``source`` at ``step`` to ``out``; returns the step shown."""
    from PySide6.QtCore import QCoreApplication, QEvent

    from app.main import make_application  # Qt: the parsers (help) start without it

    app = make_application()
    from app.window import MainWindow  # Qt: the parsers (help) start without it
    from app.training_worker import build_lesson
    from engine.files.writing import write_atomic
    from widgets.saving import png_bytes  # Qt: the parsers (help) start without it

    lesson, state = build_lesson(source)
    if lesson.is_empty:
        raise BpeLabError("the corpus is empty: there is nothing to show")
    last = lesson.last_step
    if step is None:
        step = min(source.step, last)
    if step > last:
        raise BpeLabError(f"step {step} is past the end: this lesson has steps 0 to {last}")
    window = MainWindow(persist=False, theme=theme)
    window.set_zoom(zoom)
    window.resize(*size)
    window.corpus_panel.show_source(source)
    window.session.set_lesson(lesson, step, state)
    window.show()
    # let the docks and views settle to the window's size before grabbing it
    for _ in range(3):
        app.processEvents()
    image = window.grab()
    window.close()
    # deleted now, not when an event loop next runs (none may): a window left alive in the process
    # (its menus and docks are windows too) makes every later style or font change slower
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    write_atomic(out, png_bytes(image.toImage()))
    return step


def run(args) -> int:
    # no display is needed, and none is used even when there is one
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if not args.out.lower().endswith(".png"):
        raise BpeLabError(f"{args.out}: the output must be a .png file")
    source = source_for(args.lesson)
    render(source, args.step, args.out, args.size, args.theme, args.zoom)
    return 0
