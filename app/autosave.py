"""Autosave and recovery: the lesson is written now and then to the application data folder.

Each run writes its own file (``autosave-RUN.bpelab``) and holds a lock on ``autosave-RUN.lock``
while it lives, so two windows open at once never write over each other's work, and a start never
offers a lesson a live run is still working on. A clean exit removes the run's file; a file whose
run holds no lock any more means that run ended without closing (a crash, a power cut), so the
window offers to bring the lesson back. The file holds unsaved work, so it is readable by its
owner alone, and it is never deleted unread: one that cannot be read is moved aside under a name of
its own, and the user is told where. Where the system has no file locks, every other run's file is
taken for one that ended.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, Signal, Slot

from engine.errors import BpeLabError, is_bad_input
from engine.formats.lesson_file import LessonFile, load_lesson, save_lesson
from engine.files.writing import clean_stale
from widgets.worker import Worker

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

# the one autosave of earlier versions, offered as a run's that ended
FILE_NAME = "autosave.bpelab"
RUN_NAME = "autosave-{run}.bpelab"
LOCK_NAME = "autosave-{run}.lock"
_RUN_FILE = re.compile(r"^autosave-(?P<run>[a-z0-9]{8})\.(?P<kind>bpelab|lock)$")
_RUN_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"
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
    """Writes this run's lesson now and then; a write that fails interrupts nobody (the user's own
    file is what matters) but is never lost either: ``failed(message)`` says why, and ``written()``
    says when a later write got through. ``pending()`` claims the autosave of a run that ended."""

    failed = Signal(str)
    written = Signal()

    def __init__(self, folder: str | Path | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.folder = Path(folder) if folder is not None else default_folder()
        self.run = "".join(_RUN_LETTERS[b % len(_RUN_LETTERS)] for b in os.urandom(8))
        self.path = self.folder / RUN_NAME.format(run=self.run)
        self._writer: Worker | None = None
        # this run's lock, taken before its first write; and the claim on an ended run's autosave
        self._lock: int | None = None
        self.pending_path: Path | None = None
        self._pending_lock: int | None = None
        # a run killed while it saved left its temporary here; later saves clean their own folders
        clean_stale(self.folder)

    @property
    def writing(self) -> bool:
        """A write from a thread has not ended yet."""
        return self._writer is not None and self._writer.is_running

    def write(self, lesson: LessonFile, background: bool = False, then_drop_pending: bool = False) -> None:
        """Write the lesson, at once or (``background``) from a thread, for a large text whose JSON
        takes a while to write. ``then_drop_pending``: the lesson holds the claimed autosave's work
        (it was recovered), which is deleted once this write has it safe."""
        job = self._write_and_drop if then_drop_pending else self._write
        if not background:
            try:
                job(lesson)
            except Exception as exc:  # noqa: BLE001 (reported, never raised into the window's timer)
                self._on_errored(exc)
            else:
                self.written.emit()
            return
        self.wait()
        writer = Worker(job, lesson)
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
        if self._lock is None:
            self._lock = _hold(self.folder / LOCK_NAME.format(run=self.run))
        save_lesson(lesson, self.path, private=True)

    def _write_and_drop(self, lesson: LessonFile) -> None:
        self._write(lesson)
        self.drop_pending()

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        self.failed.emit(failure_message(error))

    # -- the autosaves of runs that ended -----------------------------------------------------------

    def _ended_runs(self) -> list[Path]:
        """The autosaves here whose run holds no lock (it ended without closing), newest first."""
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return []
        found = []
        for entry in entries:
            match = _RUN_FILE.match(entry.name)
            if entry.name != FILE_NAME and (match is None or match["kind"] != "bpelab" or match["run"] == self.run):
                continue
            if match is not None and _is_held(self.folder / LOCK_NAME.format(run=match["run"])):
                continue
            try:
                found.append((entry.stat().st_mtime, Path(entry.path)))
            except OSError:
                continue
        return [path for _, path in sorted(found, reverse=True)]

    def has_pending(self) -> bool:
        """Whether a run that ended left an autosave here (read or not)."""
        return self.pending_path is not None or bool(self._ended_runs())

    def pending(self) -> LessonFile | None:
        """The lesson the newest run that ended left behind, claimed by this run (no other start
        offers it meanwhile), or None. One that cannot be read is moved aside and
        ``UnreadableAutosaveError`` says why and where it is now."""
        if self.pending_path is not None and self.pending_path.exists():
            return load_lesson(self.pending_path)  # claimed already; its lock is this run's now
        for path in self._ended_runs():
            match = _RUN_FILE.match(path.name)
            lock = _hold(self.folder / LOCK_NAME.format(run=match["run"])) if match is not None else None
            if match is not None and lock is None and fcntl is not None:
                continue  # another start claimed it a moment ago
            self._release_pending()
            self.pending_path, self._pending_lock = path, lock
            try:
                return load_lesson(path)
            except BpeLabError as exc:
                moved = self._move_aside(path)
                where = (f"it was kept as {moved}" if moved is not None
                         else f"it is still at {path}, and is left there")
                if moved is not None:
                    self.drop_pending()
                raise UnreadableAutosaveError(f"The lesson an earlier run autosaved could not be read ({exc}): "
                                              f"{where}.", moved) from None
        return None

    def _move_aside(self, path: Path) -> Path | None:
        """Rename an unreadable autosave out of the way; None when it cannot be moved."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for n in range(100):
            target = self.folder / UNREADABLE_NAME.format(stamp=stamp if n == 0 else f"{stamp}-{n}")
            if target.exists():
                continue
            try:
                path.rename(target)
            except OSError:
                return None
            return target
        return None

    def drop_pending(self) -> None:
        """Delete the claimed autosave: its work is safe elsewhere, or the user discarded it."""
        path = self.pending_path
        if path is None:
            return
        _unlink(path)
        match = _RUN_FILE.match(path.name)
        if match is not None:
            _unlink(self.folder / LOCK_NAME.format(run=match["run"]))
        self._release_pending()

    def _release_pending(self) -> None:
        if self._pending_lock is not None:
            os.close(self._pending_lock)
        self.pending_path, self._pending_lock = None, None

    # -- this run's own --------------------------------------------------------------------------

    def clear(self) -> None:
        """Remove this run's autosave (its work is saved, or the user let it go)."""
        self.wait()
        _unlink(self.path)

    def release(self) -> None:
        """Let this run's locks go, as its end does: its lock file goes, and an autosave it claimed
        but did not settle stays for the next start."""
        self.wait()
        self._release_pending()
        if self._lock is not None:
            if not self.path.exists():
                _unlink(self.folder / LOCK_NAME.format(run=self.run))
            os.close(self._lock)
            self._lock = None


def _hold(path: Path) -> int | None:
    """An open descriptor holding ``path``'s exclusive lock (the file made if missing), or None when
    another run holds it or the system has no such lock."""
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)  # flock: POSIX only
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def _is_held(lock: Path) -> bool:
    """Whether a live run holds ``lock`` (a missing lock file is held by no one)."""
    if fcntl is None or not lock.exists():
        return False
    fd = _hold(lock)
    if fd is None:
        return True
    os.close(fd)
    return False


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
