"""Training off the GUI thread: progress now and then, a finished lesson, and a stop when asked.

The worker (widgets.worker) builds the corpus, trains the full history and builds the lesson state
at the requested step, all in its own thread; the window receives a finished lesson and only swaps
it in. Stopping is cooperative: the run checks between parts of the corpus and between merges,
so a cancelled run leaves the current lesson untouched. What is particular to training lives here:
the interpreter's switch interval and the GUI's cycle collector while it runs, progress at most
every PROGRESS_INTERVAL.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Generator, Iterator

from PySide6.QtCore import QObject, Signal, Slot

from app import collector
from engine.algorithm.collector import collector_paused
from engine.readable.tile_colours import colour_every_token, keep_colours
from engine.algorithm.corpus import Corpus
from engine.drain import drain
from engine.formats.lesson_file import LessonFile
from engine.formats.load import Recognised
from engine.lesson_io.from_tokenizer import read_imported
from engine.lesson.lesson import Lesson, LessonState
from engine.lesson_io.as_file import lesson_from_file
from widgets.worker import Worker, abort_if_requested

# below this many characters a lesson trains on the spot: a thread would only add a flicker
SMALL_TEXT = 20_000
# While a worker trains, the GUI thread needs the interpreter back often: each paint calls into
# Python hundreds of times (item models, delegates), and by default a running thread keeps the
# interpreter for 5 ms before handing it over, which stalls a paint by far more than a frame.
SWITCH_WHILE_TRAINING = 0.0005
# progress reaches the GUI at most this often, so a fast run does not flood the event loop: each
# report repaints the bar and, beneath it, the timeline and the window (5 ms under their style sheet)
PROGRESS_INTERVAL = 0.1


def tagged(phase: str, run: Iterator[tuple[int, int]]):
    """``run``'s (done, total) reports as (phase, done, total), the form the runner reads; a stop
    asked for ends it between reports. Returns what ``run`` returns."""
    while True:
        try:
            done, total = next(run)
        except StopIteration as end:
            return end.value
        abort_if_requested()
        yield phase, done, total


# a run's reports: (phase, done, total)
Progress = tuple[str, int, int]


def lesson_training(source: LessonFile, earlier_colours: dict[str, int] | None = None,
                    ) -> Generator[Progress, None, tuple[Lesson, LessonState | None]]:
    """Build (lesson, state) for a source, yielding ("counting", characters counted, characters in
    all) and then ("training", merges done, merges expected) now and then.

    The generator's return value is the pair; ``state`` is None for an empty corpus. In a worker,
    a stop asked for ends it between parts of the corpus or between merges. ``earlier_colours``:
    the colours of the lesson this one replaces, which its tokens keep while they exist.
    """
    if source.word_counts:
        lesson = lesson_from_file(source)
    else:
        corpus = yield from tagged("counting", Corpus.counting(source.text, source.settings))
        lesson = Lesson(source.text, False, source.settings, source.held_out, corpus=corpus)
    if lesson.is_empty:
        return lesson, None
    total = lesson.target_merges() or 0
    last = 0.0
    for step in lesson.training():
        abort_if_requested()
        now = time.monotonic()
        if now - last >= PROGRESS_INTERVAL:
            last = now
            yield "training", step.step, total
    # what the window would otherwise count on its own thread when the lesson arrives; a stop is
    # looked for between the parts, each of which takes up to half a second on a large vocabulary
    abort_if_requested()
    if lesson.held_out.strip():
        lesson.held_out_curve(lesson.held_out)
    lesson.characters  # noqa: B018 (counted once and kept, here rather than on the GUI thread)
    # the lesson this one replaces hands on its colours, so the colouring is made once, here
    keep_colours(lesson, earlier_colours)
    colour_every_token(lesson)
    abort_if_requested()
    return lesson, LessonState(lesson, source.step)


@dataclass(frozen=True)
class TokenizerFile:
    """A tokenizer file to open as a lesson (``tokenizer_reading`` reads it), at step ``step``."""

    path: str | os.PathLike[str]
    step: int = 0
    # what recognising the file found, its parsed JSON included, when the window has done that already
    recognised: Recognised | None = field(default=None, compare=False)


Source = LessonFile | TokenizerFile
# what a run does with its source: report progress, return (lesson, state)
Job = Callable[[Any], Generator[Progress, None, tuple[Lesson, LessonState | None]]]


def tokenizer_reading(request: TokenizerFile) -> Generator[Progress, None, tuple[Lesson, LessonState | None]]:
    """Like ``lesson_training`` for a tokenizer file: its merges become the lesson's steps."""
    lesson = yield from tagged("training", read_imported(request.path, request.recognised))
    abort_if_requested()
    return lesson, LessonState(lesson, request.step)


def build_lesson(source: Source, job: Job = lesson_training) -> tuple[Lesson, LessonState | None]:
    """(lesson, state) for a source, trained on the spot (small texts, the CLI)."""
    # the CLI runs with the cycle collector on; the window has it off already (app.collector)
    with collector_paused():
        return drain(job(source))


class TrainingRunner(QObject):
    """Starts training runs, one at a time: a new run cancels the one before it.

    ``done(lesson, state, source)``, ``errored(error, source)``, ``cancelled()``, and while a run
    lasts ``counted(characters, characters in all)`` then ``progressed(done, total)``. Any
    exception ends a run with ``errored``: the exception
    itself, so the caller words it by its class (bad input, memory, an internal error).
    """

    started = Signal()
    counted = Signal(int, int)
    progressed = Signal(int, int)
    done = Signal(object, object, object)
    errored = Signal(object, object)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._worker: Worker | None = None
        self._source: Source | None = None
        # every run this runner started whose thread may still run, cancelled ones included
        self._workers: list[Worker] = []
        self._switch: float | None = None

    @property
    def busy(self) -> bool:
        return self._worker is not None

    def start(self, source: Source, background: bool | None = None, job: Job = lesson_training) -> None:
        """Train ``source`` (or with ``job``, build its lesson another way: ``tokenizer_reading``);
        small texts train at once unless ``background`` says otherwise."""
        self.cancel(quietly=True)
        if background is None:
            # a tokenizer file is read in the background: its size says nothing of the text's
            background = isinstance(source, TokenizerFile) or len(source.text) >= SMALL_TEXT
        if not background:
            try:
                lesson, state = build_lesson(source, job)
            except Exception as exc:  # noqa: BLE001 (every failure reaches the caller, by its class)
                self.errored.emit(exc, source)
            else:
                self.done.emit(lesson, state, source)
            return
        worker = Worker(job, source)
        worker.yielded.connect(self._on_yielded)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        self._workers = [w for w in self._workers if w.is_running] + [worker]
        self._worker, self._source = worker, source
        if self._switch is None:
            self._switch = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_WHILE_TRAINING)
            collector.hold()
        self.started.emit()
        worker.start()

    def _restore_switch(self, trained: bool = False) -> None:
        if self._switch is not None and self._worker is None:
            sys.setswitchinterval(self._switch)
            self._switch = None
            collector.release(trained)

    def cancel(self, quietly: bool = False) -> None:
        worker = self._worker
        if worker is None:
            return
        worker.quit()
        self._worker = self._source = None
        self._restore_switch()
        if not quietly:
            self.cancelled.emit()

    def wait(self, ms: int = 60_000) -> None:
        """Block until every run's thread has ended (closing the window, tests)."""
        for worker in self._workers:
            worker.wait(ms)
        self._workers = [w for w in self._workers if w.is_running]

    def _current(self) -> bool:
        return self._worker is not None and self.sender() is self._worker

    def _finish(self, trained: bool) -> Source:
        source = self._source
        assert source is not None, "a run that reports has its source"
        self._worker = self._source = None
        self._restore_switch(trained)
        return source

    @Slot(object)
    def _on_yielded(self, progress: tuple[str, int, int]) -> None:
        if self._current():
            phase, done, total = progress
            (self.counted if phase == "counting" else self.progressed).emit(done, total)

    @Slot(object)
    def _on_returned(self, result) -> None:
        if self._current():
            lesson, state = result
            self.done.emit(lesson, state, self._finish(trained=True))

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        if self._current():
            self.errored.emit(error, self._finish(trained=False))
