"""Autosave and recovery: the lesson is written now and then to the application data folder.

A clean exit removes the file; finding it at start-up means the last run ended without one (a
crash, a power cut), so the window offers to bring the lesson back.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, Signal, Slot

from engine.errors import BpeLabError, is_bad_input
from engine.formats.lesson_file import LessonFile, load_lesson, save_lesson
from engine.writing import clean_stale
from widgets.worker import Worker

FILE_NAME = "autosave.bpelab"
# how often the window writes an unsaved lesson
INTERVAL_MS = 30_000
# lessons with more text than this are written from a thread
LARGE = 1_000_000


def default_folder() -> Path:
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


def failure_message(error: BaseException) -> str:
    if isinstance(error, OSError):
        reason = error.strerror or str(error)
    elif is_bad_input(error):
        reason = str(error)
    else:
        reason = f"an internal error ({type(error).__name__}: {error})"
    return f"The lesson could not be autosaved: {reason}"


class Autosave(QObject):
    """Writes the lesson now and then; a write that fails interrupts nobody (the user's own file
    is what matters) but is never lost either: ``failed(message)`` says why, and ``written()``
    says when a later write got through."""

    failed = Signal(str)
    written = Signal()

    def __init__(self, folder: str | Path | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.folder = Path(folder) if folder is not None else default_folder()
        self.path = self.folder / FILE_NAME
        self._writer: Worker | None = None
        # a run killed while it saved left its temporary here; later saves clean their own folders
        clean_stale(self.folder)

    @property
    def writing(self) -> bool:
        """A write from a thread has not ended yet."""
        return self._writer is not None and self._writer.is_running

    def write(self, lesson: LessonFile, background: bool = False) -> None:
        """Write the lesson, at once or (``background``) from a thread, for a large text whose JSON
        takes a while to write."""
        if not background:
            try:
                self._write(lesson)
            except Exception as exc:  # noqa: BLE001 (reported, never raised into the window's timer)
                self._on_errored(exc)
            else:
                self.written.emit()
            return
        self.wait()
        writer = Worker(self._write, lesson)
        writer.returned.connect(self.written)
        writer.errored.connect(self._on_errored)
        self._writer = writer
        writer.start()

    def wait(self) -> None:
        if self._writer is not None:
            self._writer.wait()
            self._writer = None

    def _write(self, lesson: LessonFile) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        save_lesson(lesson, self.path)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        self.failed.emit(failure_message(error))

    def pending_path_exists(self) -> bool:
        """Whether a run left an autosave here (read or not)."""
        return self.path.exists()

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
