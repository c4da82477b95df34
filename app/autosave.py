"""Autosave and recovery: the lesson is written now and then to the application data folder.

A clean exit removes the file; finding it at start-up means the last run ended without one (a
crash, a power cut), so the window offers to bring the lesson back. The file holds unsaved work,
so it is readable by its owner alone, and it is never deleted unread: one that cannot be read is
moved aside under a name of its own, and the user is told where.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, Signal, Slot

from engine.errors import BpeLabError, is_bad_input
from engine.formats.lesson_file import LessonFile, load_lesson, save_lesson
from engine.writing import clean_stale
from widgets.worker import Worker

FILE_NAME = "autosave.bpelab"
# an autosave that cannot be read is renamed to this, with the time it was found
UNREADABLE_NAME = "autosave-unreadable-{stamp}.bpelab"
# how often the window writes an unsaved lesson
INTERVAL_MS = 30_000
# lessons with more text than this are written from a thread
LARGE = 1_000_000


class UnreadableAutosaveError(BpeLabError):
    """The autosave an earlier run left cannot be read; it was moved aside (``moved``), or, where it
    could not be moved (``moved`` is None), left where it is; never deleted."""

    def __init__(self, message: str, moved: Path | None):
        super().__init__(message)
        self.moved = moved


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
        save_lesson(lesson, self.path, private=True)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        self.failed.emit(failure_message(error))

    def pending_path_exists(self) -> bool:
        """Whether a run left an autosave here (read or not)."""
        return self.path.exists()

    def pending(self) -> LessonFile | None:
        """The lesson a crashed run left behind, or None. One that cannot be read is moved aside
        and ``UnreadableAutosaveError`` says why and where it is now."""
        if not self.path.exists():
            return None
        try:
            return load_lesson(self.path)
        except BpeLabError as exc:
            moved = self._move_aside()
            where = (f"it was kept as {moved}" if moved is not None
                     else f"it is still at {self.path}, and is left there")
            raise UnreadableAutosaveError(f"The lesson an earlier run autosaved could not be read ({exc}): "
                                          f"{where}.", moved) from None

    def _move_aside(self) -> Path | None:
        """Rename the unreadable autosave so this run may autosave again; None when it cannot be moved."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for n in range(100):
            target = self.folder / UNREADABLE_NAME.format(stamp=stamp if n == 0 else f"{stamp}-{n}")
            if target.exists():
                continue
            try:
                self.path.rename(target)
            except OSError:
                return None
            return target
        return None

    def clear(self) -> None:
        self.wait()
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            pass
