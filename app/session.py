"""The session: the one lesson every panel shows, and the signals that say it changed.

Widgets receive the session in ``__init__``, read ``session.lesson`` and ``session.state``, and
subscribe; user intent comes back through the ``request_*`` slots. A widget never reaches into
another widget.

``session.state`` is None while the lesson has no trained history: an empty corpus. Views show a
hint then, not an error.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from engine.lesson import Lesson, LessonState
from engine.describe import show

DEFAULT_TEXT = "low 5\nlower 2\nnewest 6\nwidest 3\n"


class Session(QObject):
    # a new trained lesson replaced the old one (corpus, settings or file): views rebuild
    lesson_changed = Signal()
    # the current step moved: (new step, previous step); state.last_changed lists the words it touched
    step_changed = Signal(int, int)
    # a token was picked somewhere (tile, vocabulary row, tokenize panel); "" clears the selection
    token_selected = Signal(str)
    # a training run in the background: started, progress (merges done, merges expected or 0), ended
    training_started = Signal()
    training_progressed = Signal(int, int)
    training_ended = Signal()

    def __init__(self, lesson: Lesson | None = None, parent: QObject | None = None):
        super().__init__(parent)
        if lesson is None:
            lesson = Lesson(DEFAULT_TEXT, word_counts=True)
        if not lesson.trained and not lesson.is_empty:
            lesson.train()
        self.lesson = lesson
        self.state = LessonState(lesson) if lesson.trained else None
        self.last_changed: list[int] = []
        self.selected_token = ""
        self.training = False

    @property
    def step(self) -> int:
        return self.state.step if self.state else 0

    @property
    def last_step(self) -> int:
        return self.lesson.last_step if self.state else 0

    def show(self, token: str) -> str:
        """A token as people read it (byte-level tokens as text with a visible space)."""
        return show(self.lesson.settings, token)

    def set_lesson(self, lesson: Lesson, step: int = 0, state: LessonState | None = None) -> None:
        """Show a lesson (trained, or empty) at the given step.

        A worker may pass the state it built off the GUI thread, so a large corpus costs nothing here.
        """
        if state is None and lesson.trained:
            state = LessonState(lesson, step)
        elif state is not None and state.step != step:
            state.go_to(step)
        self.lesson = lesson
        self.state = state
        self.last_changed = []
        had_selection = bool(self.selected_token)
        self.selected_token = ""
        self.lesson_changed.emit()
        if had_selection:
            # a token of the old lesson means nothing in the new one
            self.token_selected.emit("")

    @Slot(int)
    def request_step(self, k: int) -> None:
        if self.state is None:
            return
        previous = self.state.step
        self.last_changed = self.state.go_to(k)
        if self.state.step != previous:
            self.step_changed.emit(self.state.step, previous)

    @Slot()
    def request_next(self) -> None:
        self.request_step(self.step + 1)

    @Slot()
    def request_previous(self) -> None:
        self.request_step(self.step - 1)

    @Slot(str)
    def request_token_selection(self, token: str) -> None:
        if token != self.selected_token:
            self.selected_token = token
            self.token_selected.emit(token)
