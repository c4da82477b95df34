"""Questions from the lesson on screen, built one at a time: on the spot for a small lesson, in a
thread for a large one (counting every pair of a big corpus takes a noticeable moment).

``ask()`` ends in exactly one of ``ready(question)``, ``exhausted()`` (nothing can be asked at this
step) or ``failed(message)``. A new lesson drops an answer still being built for the old one.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal, Slot

from engine.quiz.generated import LiveLesson, next_in_cycle

# a round through the generators, so each question asks something different
KINDS = ("next-pair", "pair-count", "word-split", "vocab-size", "in-pieces")
# lessons with more base symbols than this (in their distinct words) build questions in a thread
LARGE_LESSON = 50_000


class LessonQuestions(QObject):
    ready = Signal(object)
    exhausted = Signal()
    failed = Signal(str)
    # carries a worker's result back to the GUI thread (a queued connection)
    _built = Signal(int, object, int, object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.live: LiveLesson | None = None
        # the step of the question shown or being built: a question about another step is stale
        self.asked_step: int | None = None
        self.pending = False
        self._count = 0
        self._ticket = 0
        self._built.connect(self._on_built)

    def set_lesson(self, history, step: int = 0) -> None:
        """The lesson's history index (None for no lesson) and the step it is at."""
        self.live = LiveLesson(history, step) if history is not None else None
        self.asked_step = None
        self._ticket += 1  # a question still being built is about the old lesson
        self.pending = False

    def set_step(self, step: int) -> None:
        if self.live is not None:
            self.live = self.live.at_step(step)

    def ask(self, large: int | None = None) -> bool:
        """Build the next question; False when there is no lesson to ask about."""
        if self.live is None:
            return False
        self._ticket += 1
        ticket, count = self._ticket, self._count
        live = self.live
        self.asked_step = live.step
        if live.size() < (LARGE_LESSON if large is None else large):
            question, moved = next_in_cycle(live, count, KINDS)
            self._on_built(ticket, question, moved, live)
            return True
        self.pending = True
        built = self._built

        def work() -> None:
            try:
                question, moved = next_in_cycle(live, count, KINDS)
            except Exception as exc:  # noqa: BLE001 (reported in the panel, never lost in a thread)
                question, moved = exc, 0
            built.emit(ticket, question, moved, live)

        threading.Thread(target=work, name="quiz-question", daemon=True).start()
        return True

    @Slot(int, object, int, object)
    def _on_built(self, ticket: int, question, moved: int, live: LiveLesson) -> None:
        if ticket != self._ticket:
            return
        self.pending = False
        if isinstance(question, Exception):
            self.failed.emit(f"Could not build a question from the lesson: {question}")
            return
        self._count += moved
        if question is None:
            self.exhausted.emit()
        else:
            self.ready.emit(question)
