"""The lesson's files: open, save, save as, recent files, autosave and recovery.

``LessonFiles`` asks the user through the window's hooks (``ask``, ``tell``, ``choose_open_path``,
``choose_save_path``), which tests replace, and hands every lesson to the session: it never
trains or writes the lesson itself. A view that keeps something in the lesson file (the quiz's
answers) says so by being a ``KeepsProgress``; the window registers it here once the view is built,
which may be after a lesson has been opened: the lesson's progress waits here for it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Protocol, runtime_checkable

from PySide6.QtCore import QObject, QSettings, QTimer, Signal, SignalInstance, Slot
from PySide6.QtWidgets import QMessageBox

from app.autosave import INTERVAL_MS, LARGE as AUTOSAVE_LARGE, Autosave, UnreadableAutosaveError
from app.session import Session
from engine.errors import BpeLabError, NotPlainTextError, ReadOnlyFileError, is_bad_input
from engine.files.reading import read_bytes, read_text
from engine.files.writing import clean_stale_folders
from engine.formats.lesson_file import SUFFIX, LessonFile, load_lesson, save_lesson
from engine.formats.load import Recognised, recognise
from engine.lesson.source import KINDS, FileSource

MAX_RECENT = 8
B = QMessageBox.StandardButton


@runtime_checkable
class KeepsProgress(Protocol):
    """A view whose progress the lesson file keeps (the quiz's answers), announced as it changes."""

    progress_changed: SignalInstance  # with no arguments

    def progress(self) -> dict: ...

    def restore_progress(self, data: dict) -> None: ...


class LessonFiles(QObject):
    # the lesson's file changed: opened, saved somewhere new, or none (New, a text, a recovery)
    path_changed = Signal()

    def __init__(self, window, session: Session, app_settings: QSettings | None, autosave: Autosave | None,
                 flush: Callable[[], None] = lambda: None):
        """``flush``: announce an edit still waiting to be made (typing that has not paused yet)."""
        super().__init__(window)
        self.window = window
        self.session = session
        self.app_settings = app_settings
        self.autosave = autosave
        # the lesson of an earlier run's autosave while it trains: once it is shown, the session
        # holds it as unsaved work and this run's autosave takes it over; the earlier run's file is
        # deleted only then, or when the user discards it in so many words
        self._recovering: LessonFile | None = None
        # (path, quiz progress) before a lesson swapped in: put back if the swap fails after all
        self._before_open: tuple[Path | None, dict | None] | None = None
        self.flush = flush
        self.path: Path | None = None
        self._keeper: KeepsProgress | None = None
        # the progress an opened lesson brought while no view kept it yet (the quiz is built after
        # the window's first paint)
        self._waiting_progress: dict | None = None
        # (source, path) while a lesson this object opened trains
        self._opening: tuple[LessonFile, Path | None] | None = None
        # a tokenizer or text file being opened: a recent file once it is shown, not the lesson's path
        self._recent_when_shown: Path | None = None
        self._load_failed = False
        session.loaded.connect(self._on_loaded)
        session.load_failed.connect(self._on_load_failed)
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(INTERVAL_MS)
        self.autosave_timer.timeout.connect(self.write_autosave)
        if autosave is not None:
            self.autosave_timer.start()
        # a save killed in an earlier run left a temporary beside a lesson: removed once the window shows
        QTimer.singleShot(0, self, self._clean_recent_folders)

    @Slot()
    def _clean_recent_folders(self) -> None:
        clean_stale_folders(Path(r).parent for r in self.recent_files())

    def keep_progress_of(self, view: KeepsProgress) -> None:
        """Save ``view``'s progress in the lesson file and give it back when a lesson is opened."""
        self._keeper = view
        if self._waiting_progress is not None:
            view.restore_progress(self._waiting_progress)
            self._waiting_progress = None
        view.progress_changed.connect(self.session.note_unsaved)

    def current_file(self) -> LessonFile:
        """The lesson as it would be saved, with the progress of the view that keeps it."""
        source = self.session.current_file()
        if self._keeper is not None:
            return replace(source, quiz=self._keeper.progress())
        if self._waiting_progress is not None:
            return replace(source, quiz=self._waiting_progress)
        return source

    def folder(self) -> str:
        return str(self.path.parent) if self.path else str(Path.home())

    # -- opening ----------------------------------------------------------------------------------

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current lesson (saved, discarded, or nothing to save)."""
        self.flush()
        if not self.session.dirty:
            return True
        answer = self.window.ask("Unsaved changes", "The lesson has changes that are not saved. Save them first?",
                                 B.Save | B.Discard | B.Cancel, B.Save)
        if answer == B.Save:
            return self.save()
        return answer == B.Discard

    def new_lesson(self) -> None:
        if self.maybe_save():
            self._load(LessonFile(""), None)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path = self.window.choose_open_path()
        if path:
            self.open_path(path)

    def open_after_asking(self, path: str | Path) -> bool:
        """Open ``path`` once unsaved work is saved or let go (a recent file, a dropped file)."""
        return self.maybe_save() and self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        """Open a lesson file or a text file; on any problem say so and keep the current lesson."""
        p = Path(path)
        if p.suffix == SUFFIX:
            try:
                source = load_lesson(p)
            except BpeLabError as exc:
                self.window.tell(f"{exc}\n\nThe current lesson is unchanged.")
                return False
            return self._load(source, p)
        recognised = recognised_tokenizer(p)
        if recognised is not None:
            # read in the background: its merges become a read-only lesson, or a message says why not
            self._start_opening(None, shown=p)
            self.session.load_tokenizer(p, recognised)
            return not self._load_failed
        text = self._read_text(p)
        if text is None:
            return False
        # a text file becomes a new, unsaved lesson: Save asks where, so the text file is never overwritten
        self._start_opening(None, shown=p)
        self.session.open_text(text)
        return True

    def _read_text(self, p: Path) -> str | None:
        """A text file's contents; one that is not plain UTF-8 is read with replacement characters
        if the user agrees. None when it is not opened (the user was told why, or said no)."""
        try:
            return read_text(p)
        except NotPlainTextError as exc:
            answer = self.window.ask("Not plain UTF-8 text", f"{exc}\n\nOpen it anyway, with every unreadable byte "
                                     "shown as the replacement character �?", B.Open | B.Cancel, B.Cancel)
            if answer != B.Open:
                return None
        except BpeLabError as exc:
            self.window.tell(str(exc))
            return None
        try:
            # through the same checked reader: a file swapped for a pipe meanwhile is refused, not waited on
            return read_bytes(p).decode("utf-8", errors="replace")
        except BpeLabError as exc:
            self.window.tell(str(exc))
            return None

    def _load(self, source: LessonFile, path: Path | None, clean: bool = True) -> bool:
        """Give the session a lesson to train and show; False when it failed at once (the user was
        told), True when it is shown or still training."""
        self._start_opening((source, path))
        self.session.load(source, clean)
        return not self._load_failed

    def _start_opening(self, opening: tuple[LessonFile, Path | None] | None, shown: Path | None = None) -> None:
        """What one open tracks, afresh: the lesson file and its path, or the tokenizer or text file
        that becomes a recent file once shown."""
        self._opening = opening
        self._recent_when_shown = shown
        self._load_failed = False
        self._before_open = None

    @Slot(object)
    def _on_loaded(self, source: LessonFile) -> None:
        """Part of the session's swap: a failure here (the quiz cannot take its answers back) puts
        the lesson before back, and ``_on_load_failed`` then undoes what this changed."""
        opening, self._opening = self._opening, None
        path = opening[1] if opening is not None and opening[0] is source else None
        shown, self._recent_when_shown = self._recent_when_shown, None
        self._before_open = (self.path, self._progress_now())
        if source.quiz:
            # the quiz's code comes only with a lesson that holds quiz answers
            from engine.quiz.progress import pack_path_resolved

            quiz = source.quiz if path is None else pack_path_resolved(source.quiz, path.parent)
            if self._keeper is not None:
                self._keeper.restore_progress(quiz)
            else:
                self._waiting_progress = quiz
        if source is self._recovering and self.autosave is not None:
            # the recovered lesson is the one shown, as unsaved work: this run's autosave takes it
            # over, and the earlier run's file goes once that write has it
            self._recovering = None
            self.autosave.write(source, background=len(source.text) > AUTOSAVE_LARGE, then_drop_pending=True)
        if shown is not None:
            # reopening it from the menu reads the file again: it is never the path a save writes to
            self._remember_recent(shown)
        self.path = path
        if path is not None:
            self._remember_recent(path)
        self.path_changed.emit()

    def _progress_now(self) -> dict | None:
        if self._keeper is not None:
            return self._keeper.progress()
        return self._waiting_progress

    @Slot(str)
    def _on_load_failed(self, message: str) -> None:
        self._opening = None
        self._recent_when_shown = None
        self._load_failed = True
        self._put_back()
        kept = ""
        if self._recovering is not None and self.autosave is not None:
            self._recovering = None
            kept = (f"\n\nThe autosaved lesson is kept in {self.autosave.pending_path}; BPE Lab offers it again at the "
                    "next start.")
        self.window.tell(f"The lesson could not be opened: {message}\n\nThe current lesson is unchanged.{kept}")

    def _put_back(self) -> None:
        """Undo what ``_on_loaded`` changed for a lesson the session then could not show."""
        before, self._before_open = self._before_open, None
        if before is None:
            return
        path, progress = before
        if self._keeper is not None and progress:
            self._keeper.restore_progress(progress)
        else:
            self._waiting_progress = progress
        if path != self.path:
            self.path = path
            self.path_changed.emit()

    # -- saving -----------------------------------------------------------------------------------

    def save(self) -> bool:
        if self._refuse_imported():
            return False
        if self.path is None:
            return self.save_as()
        return self.save_to(self.path)

    def _refuse_imported(self) -> bool:
        """An imported tokenizer has no corpus, so no lesson file can hold it: say so (True) rather
        than write an empty lesson."""
        source = self.session.lesson.source
        if not isinstance(source, FileSource):
            return False
        self.window.tell(f"{source.name} is an imported tokenizer: it has no training corpus, so there is no "
                         "lesson to save. Keep the file itself, or type a training text to make a lesson of your own.")
        return True

    def title(self) -> str:
        """What the window's title names: the lesson file, an imported tokenizer, or an untitled lesson."""
        if self.path is not None:
            return self.path.name
        source = self.session.lesson.source
        if isinstance(source, FileSource):
            return f"{source.name} (imported tokenizer, read-only)"
        return "Untitled lesson"

    def save_as(self) -> bool:
        if self._refuse_imported():
            return False
        chosen = self.window.choose_save_path()
        if not chosen:
            return False
        p = Path(chosen)
        if p.suffix != SUFFIX:
            p = p.with_name(p.name + SUFFIX)
        return self.save_to(p)

    def save_to(self, path: Path) -> bool:
        self.flush()
        try:
            lesson = self.current_file()
            if lesson.quiz:
                from engine.quiz.progress import pack_path_relative  # the quiz: only a lesson with answers

                lesson = replace(lesson, quiz=pack_path_relative(lesson.quiz, path.parent))
            try:
                save_lesson(lesson, path)
            except ReadOnlyFileError as exc:
                # as desktop editors do: a read-only file is replaced only when the user says so
                answer = self.window.ask("Replace a read-only file?", f"{exc.path} is read-only. Replace it "
                                         "with this lesson anyway? The new file is read-only too.",
                                         B.Save | B.Cancel, B.Cancel)
                if answer != B.Save:
                    self.window.tell(f"The lesson was not saved: {exc}.")
                    return False
                save_lesson(lesson, path, overwrite_read_only=True)
        except Exception as exc:  # noqa: BLE001 (a save that fails in any way is said, and keeps the window open)
            self.window.tell(f"The lesson was not saved: {save_problem(exc)}")
            return False
        self.path = path
        self.session.mark_saved()
        self._remember_recent(path)
        if self.autosave is not None:
            self.autosave.clear()  # what it held is in the lesson file now
        self.path_changed.emit()
        return True

    # -- recent files -----------------------------------------------------------------------------

    def _remember_recent(self, path: Path) -> None:
        if self.app_settings is None:
            return
        recent = [str(path.resolve())] + [r for r in self.recent_files() if r != str(path.resolve())]
        self.app_settings.setValue("recent", recent[:MAX_RECENT])

    def recent_files(self) -> list[str]:
        if self.app_settings is None:
            return []
        value = self.app_settings.value("recent", [])
        # QSettings gives one text for a list of one, and an empty value for none
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    # -- autosave and recovery --------------------------------------------------------------------

    def write_autosave(self) -> None:
        if self.autosave is not None and self.session.dirty:
            lesson = self.current_file()
            self.autosave.write(lesson, background=len(lesson.text) > AUTOSAVE_LARGE)

    def offer_recovery(self) -> bool:
        """If the last run left an autosave, offer to bring that lesson back. True when recovered
        (or still being recovered: a large lesson trains first). The autosave is deleted only when
        the user discards it in so many words."""
        if self.autosave is None:
            return False
        try:
            pending = self.autosave.pending()
        except UnreadableAutosaveError as exc:
            self.window.tell(str(exc))
            return False
        if pending is None:
            return False
        answer = self.window.ask("Recover the lesson?", "BPE Lab did not close properly last time. Bring back the "
                                 f"lesson it was working on?\n\nDiscard deletes it for good: {what_is_lost(pending)}.",
                                 B.Yes | B.Discard, B.Yes)
        if answer == B.Discard:
            self.autosave.drop_pending()
            return False
        # kept until the recovered lesson is shown: a quit or a failure before then loses nothing
        self._recovering = pending
        self._load(pending, None, clean=False)
        return True

    def close(self) -> None:
        """A clean exit: no autosave of this run is left to offer next time (an earlier run's that
        was not recovered or discarded stays for the next start)."""
        self.autosave_timer.stop()
        if self.autosave is not None:
            self.autosave.clear()
            self.autosave.release()


def what_is_lost(lesson: LessonFile) -> str:
    """The parts of an unsaved lesson, as a recovery dialog names them."""
    lines = lesson.text.count("\n") + (not lesson.text.endswith("\n"))
    parts = [f"its training text ({len(lesson.text):,} characters, {lines:,} lines)" if lesson.text
             else "its settings"]
    if lesson.held_out:
        parts.append(f"a held-out text of {len(lesson.held_out):,} characters")
    if lesson.quiz:
        parts.append("its quiz answers")
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def save_problem(error: BaseException) -> str:
    """Why a save failed, by the kind of error."""
    if is_bad_input(error):
        return str(error)
    if isinstance(error, OSError):
        return f"{error.strerror or error}; choose another folder"
    return (f"an internal error of BPE Lab ({type(error).__name__}: {error}); the lesson is still open: "
            "save it elsewhere or copy its text, and please report the error")


def recognised_tokenizer(path: Path) -> Recognised | None:
    """What a file or folder is when it is a tokenizer the window opens as a lesson, else None (a
    text, a lesson or a CSV: a CSV of words is a training text too). The file is parsed here once,
    and the reading passes the parse on."""
    if not (path.is_dir() or path.suffix.lower() in (".json", ".tiktoken") or path.name == "merges.txt"):
        return None
    try:
        recognised = recognise(path)
    except BpeLabError:
        return None  # JSON that is no tokenizer: the text path says what it is
    return recognised if recognised.kind in KINDS else None

