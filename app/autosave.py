"""Autosave and recovery: the lesson is written now and then to the application data folder.

A clean exit removes the file; finding it at start-up means the last run ended without one (a
crash, a power cut), so the window offers to bring the lesson back.
"""

from __future__ import annotations

import threading
from pathlib import Path

from engine.errors import BpeLabError
from engine.formats.lesson_file import LessonFile, load_lesson, save_lesson

FILE_NAME = "autosave.bpelab"
# how often the window writes an unsaved lesson
INTERVAL_MS = 30_000
# lessons with more text than this are written from a thread
LARGE = 1_000_000


def default_folder() -> Path:
    from PySide6.QtCore import QStandardPaths

    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


class Autosave:
    def __init__(self, folder: str | Path | None = None):
        self.folder = Path(folder) if folder is not None else default_folder()
        self.path = self.folder / FILE_NAME

    def write(self, lesson: LessonFile, background: bool = False) -> None:
        """Write the lesson; a failure is silent on purpose (the user's own file is what matters).

        ``background``: write from a thread, for a large text whose JSON takes a while to write.
        """
        if background:
            self.wait()
            self._writer = threading.Thread(target=self._write, args=(lesson,), daemon=True)
            self._writer.start()
        else:
            self._write(lesson)

    def wait(self) -> None:
        writer = getattr(self, "_writer", None)
        if writer is not None:
            writer.join()
            self._writer = None

    def _write(self, lesson: LessonFile) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            save_lesson(lesson, self.path)
        except (OSError, BpeLabError):
            pass

    def pending(self) -> LessonFile | None:
        """The lesson a crashed run left behind, or None; an unreadable one is thrown away."""
        if not self.path.exists():
            return None
        try:
            return load_lesson(self.path)
        except BpeLabError:
            self.clear()
            return None

    def clear(self) -> None:
        self.wait()
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            pass
