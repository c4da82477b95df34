"""Training off the GUI thread: a worker that yields progress and stops when asked.

The worker builds the corpus, trains the full history and builds the lesson state at the
requested step, all in its own thread; the window receives a finished lesson and only swaps it
in. Stopping is cooperative: the loop checks a flag between merges, so a cancelled run leaves
the current lesson untouched.
"""

from __future__ import annotations

import sys
import threading
import time

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot

from app import collector
from engine.corpus import Corpus
from engine.errors import BpeLabError
from engine.formats.lesson_file import LessonFile
from engine.lesson import Lesson, LessonState

# below this many characters a lesson trains on the spot: a thread would only add a flicker
SMALL_TEXT = 20_000
# While a worker trains, the GUI thread needs the interpreter back often: each paint calls into
# Python hundreds of times (item models, delegates), and by default a running thread keeps the
# interpreter for 5 ms before handing it over, which stalls a paint by far more than a frame.
SWITCH_WHILE_TRAINING = 0.0005
# progress reaches the GUI at most this often, so a fast run does not flood the event loop
PROGRESS_INTERVAL = 0.05


# every training thread started and not yet seen finished. Qt aborts the process when a QThread
# object is destroyed while its thread runs, so no owner (a closed window, a failed test) may be
# the last to hold one: this list lets go of a thread only once it has ended.
_THREADS: list[tuple[QThread, "TrainingWorker"]] = []


def _forget_finished_threads() -> None:
    _THREADS[:] = [(t, w) for t, w in _THREADS if not t.isFinished()]


def wait_for_all_threads(ms: int = 60_000) -> None:
    for thread, _ in list(_THREADS):
        thread.wait(ms)
    _forget_finished_threads()


class Cancelled(Exception):
    pass


def build_lesson(source: LessonFile, should_stop=lambda: False, progress=lambda done, total: None):
    """(lesson, state) for a source: corpus, full training, and the state at the source's step."""
    def between_parts() -> None:
        if should_stop():
            raise Cancelled

    if source.word_counts:
        lesson = Lesson.from_file(source)
    else:
        corpus = Corpus.from_text_in_parts(source.text, source.settings, between_parts)
        lesson = Lesson(source.text, False, source.settings, source.held_out, corpus=corpus)
    if lesson.is_empty:
        return lesson, None
    total = lesson.target_merges() or 0
    last = 0.0
    for step in lesson.training():
        if should_stop():
            raise Cancelled
        now = time.monotonic()
        if now - last >= PROGRESS_INTERVAL:
            last = now
            progress(step.step, total)
    # what the window would otherwise count on its own thread when the lesson arrives
    if lesson.held_out.strip():
        lesson.held_out_curve(lesson.held_out)
    lesson.characters
    return lesson, LessonState(lesson, source.step)


class TrainingWorker(QObject):
    """Trains one source; lives in its own QThread."""

    yielded = Signal(int, int)  # merges done, merges expected (0: until no pair repeats)
    finished = Signal(object, object)  # lesson, state (None for an empty corpus)
    errored = Signal(str)
    cancelled = Signal()

    def __init__(self, source: LessonFile):
        super().__init__()
        self.source = source
        self._stop = threading.Event()

    def stop(self) -> None:
        """Ask the run to end at the next merge; safe from any thread."""
        self._stop.set()

    @Slot()
    def run(self) -> None:
        try:
            lesson, state = build_lesson(self.source, self._stop.is_set, self.yielded.emit)
        except Cancelled:
            self.cancelled.emit()
        except BpeLabError as exc:
            self.errored.emit(str(exc))
        except MemoryError:
            self.errored.emit("the corpus is too large for the memory available: try a smaller text")
        else:
            self.finished.emit(lesson, state)


class TrainingRunner(QObject):
    """Starts training runs, one at a time: a new run cancels the one before it.

    ``done(lesson, state, source)``, ``failed(message, source)``, ``cancelled()``, and while a run
    lasts ``progressed(done, total)``.
    """

    started = Signal()
    progressed = Signal(int, int)
    done = Signal(object, object, object)
    failed = Signal(str, object)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._thread: QThread | None = None
        self._worker: TrainingWorker | None = None
        self._source: LessonFile | None = None
        self._threads: list[QThread] = []
        self._switch: float | None = None

    @property
    def busy(self) -> bool:
        return self._worker is not None

    def start(self, source: LessonFile, background: bool | None = None) -> None:
        """Train ``source``; small texts train at once unless ``background`` says otherwise."""
        self.cancel(quietly=True)
        if background is None:
            background = len(source.text) >= SMALL_TEXT
        if not background:
            try:
                lesson, state = build_lesson(source)
            except BpeLabError as exc:
                self.failed.emit(str(exc), source)
            else:
                self.done.emit(lesson, state, source)
            return
        thread = QThread()
        worker = TrainingWorker(source)
        worker.moveToThread(thread)
        thread.started.connect(worker.run)
        worker.yielded.connect(self.progressed)
        worker.finished.connect(self._on_finished)
        worker.errored.connect(self._on_errored)
        worker.cancelled.connect(self._on_cancelled)
        for signal in (worker.finished, worker.errored, worker.cancelled):
            # direct: quit() is thread-safe, and a queued call would wait for the GUI thread, which
            # may itself be waiting for this thread to end (closing the window)
            signal.connect(thread.quit, Qt.ConnectionType.DirectConnection)
        _forget_finished_threads()
        _THREADS.append((thread, worker))
        self._threads.append(thread)
        self._thread, self._worker, self._source = thread, worker, source
        if self._switch is None:
            self._switch = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_WHILE_TRAINING)
            collector.hold()
        self.started.emit()
        thread.start()

    def _restore_switch(self, trained: bool = False) -> None:
        if self._switch is not None and self._worker is None:
            sys.setswitchinterval(self._switch)
            self._switch = None
            collector.release(trained)

    def cancel(self, quietly: bool = False) -> None:
        worker = self._worker
        if worker is None:
            return
        worker.stop()
        self._worker = self._thread = self._source = None
        self._restore_switch()
        if not quietly:
            self.cancelled.emit()

    def wait(self, ms: int = 60_000) -> None:
        """Block until every thread has ended (closing the window, tests)."""
        for thread in self._threads:
            thread.wait(ms)
        self._threads = [t for t in self._threads if not t.isFinished()]
        _forget_finished_threads()

    def _current(self) -> bool:
        return self.sender() is self._worker

    @Slot(object, object)
    def _on_finished(self, lesson, state) -> None:
        if self._current():
            source = self._source
            self._worker = self._thread = self._source = None
            self._restore_switch(trained=True)
            self.done.emit(lesson, state, source)

    @Slot(str)
    def _on_errored(self, message: str) -> None:
        if self._current():
            source = self._source
            self._worker = self._thread = self._source = None
            self._restore_switch()
            self.failed.emit(message, source)

    @Slot()
    def _on_cancelled(self) -> None:
        pass  # a cancelled run was already forgotten when it was asked to stop
