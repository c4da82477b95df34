"""Questions from the lesson on screen, built one at a time: on the spot for a small lesson, in a
thread for a large one (counting every pair of a big corpus takes a noticeable moment).

``ask()`` ends in exactly one of ``ready(question)``, ``exhausted()`` (nothing can be asked at this
step) or ``failed(message)``. A new lesson drops an answer still being built for the old one.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from engine.quiz.generated import LiveLesson, next_in_cycle
from widgets.worker import Worker

# a round through the generators, so each question asks something different
KINDS = ("next-pair", "pair-count", "word-split", "vocab-size", "in-pieces", "characters-per-token",
         "words-whole")
# lessons with more base symbols than this (in their distinct words) build questions in a thread
LARGE_LESSON = 50_000


class LessonQuestions(QObject):
    ready = Signal(object)
    exhausted = Signal()
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.live: LiveLesson | None = None
        self.pending = False
        self._count = 0
        # the worker building the question asked last, and the lesson it builds from
        self._worker: Worker | None = None
        self._asked: LiveLesson | None = None

    def set_lesson(self, history, step: int = 0) -> None:
        """The lesson's history index (None for no lesson) and the step it is at."""
        self.live = LiveLesson(history, step) if history is not None else None
        self._forget_asked()  # a question still being built is about the old lesson

    def set_step(self, step: int) -> None:
        if self.live is not None:
            self.live = self.live.at_step(step)

    def ask(self, large: int | None = None) -> bool:
        """Build the next question; False when there is no lesson to ask about."""
        if self.live is None:
            return False
        self._forget_asked()
        live = self.live
        if live.size() < (LARGE_LESSON if large is None else large):
            try:
                question, moved = next_in_cycle(live, self._count, KINDS)
            except Exception as exc:  # noqa: BLE001 (reported in the panel, as from a thread)
                self._built(live, exc, 0)
            else:
                self._built(live, question, moved)
            return True
        self.pending = True
        worker = Worker(next_in_cycle, live, self._count, KINDS)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        self._worker, self._asked = worker, live
        worker.start()
        return True

    def _forget_asked(self) -> None:
        self._worker = self._asked = None
        self.pending = False

    def _answer_to_last_ask(self) -> LiveLesson | None:
        """The lesson the last question is built from, if the sender is its worker (else None)."""
        if self._worker is None or self.sender() is not self._worker:
            return None
        live = self._asked
        self._forget_asked()
        return live

    @Slot(object)
    def _on_returned(self, result) -> None:
        live = self._answer_to_last_ask()
        if live is not None:
            question, moved = result
            self._built(live, question, moved)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        live = self._answer_to_last_ask()
        if live is not None:
            self._built(live, error, 0)

    def _built(self, live: LiveLesson, question, moved: int) -> None:
        if isinstance(question, BaseException):
            self.failed.emit(f"Could not build a question from the lesson: {question}")
            return
        self._count += moved
        if question is None:
            self.exhausted.emit()
        else:
            self.ready.emit(question)
