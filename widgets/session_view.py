"""What a view may use of the session: its signals, what it reads, and the intents it may call.

Views receive the session in ``__init__`` typed as ``SessionView``, never as the app's ``Session``:
widgets do not import app/, and a view that reaches for anything not listed here (the undo stack,
``load``, the training runner) is writing the lesson, which only the session does. ``Session``
satisfies this structurally; app/session.py says so to the type checker, and a test checks it at
run time.

Left out on purpose: everything that replaces the lesson or writes a file.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PySide6.QtCore import SignalInstance

from engine.formats.lesson_file import LessonFile
from engine.lesson.heldout import TextCurve
from engine.lesson.lesson import Lesson, LessonState


@runtime_checkable
class SessionView(Protocol):
    # -- signals: facts, each with what changed ---------------------------------------------------

    @property
    def lesson_changed(self) -> SignalInstance:
        """A new trained lesson (a ``Lesson``) replaced the old one: views rebuild."""

    @property
    def step_changed(self) -> SignalInstance:
        """The step moved: a ``StepChange``."""

    @property
    def token_selected(self) -> SignalInstance:
        """A token was picked somewhere (``str``; "" clears the selection)."""

    @property
    def training_started(self) -> SignalInstance: ...

    @property
    def tokenizer_reading_started(self) -> SignalInstance: ...

    @property
    def counting_progressed(self) -> SignalInstance: ...

    @property
    def training_progressed(self) -> SignalInstance: ...

    @property
    def training_ended(self) -> SignalInstance: ...

    @property
    def held_out_changed(self) -> SignalInstance:
        """The held-out text changed (``str``) with no new lesson."""

    @property
    def held_out_counted(self) -> SignalInstance:
        """The held-out text's curve (a ``TextCurve``, or None when there is none to count)."""

    @property
    def held_out_count_failed(self) -> SignalInstance:
        """Counting the held-out text failed: why (``str``), after ``held_out_counted(None)``."""

    @property
    def source_changed(self) -> SignalInstance: ...

    @property
    def problem_reported(self) -> SignalInstance: ...

    @property
    def play_interval_changed(self) -> SignalInstance: ...

    @property
    def step_move_started(self) -> SignalInstance: ...

    @property
    def step_move_progressed(self) -> SignalInstance: ...

    @property
    def step_move_ended(self) -> SignalInstance: ...

    # -- what views read ------------------------------------------------------------------------------

    @property
    def lesson(self) -> Lesson: ...

    @property
    def state(self) -> LessonState | None: ...

    @property
    def source(self) -> LessonFile: ...

    @property
    def step(self) -> int: ...

    @property
    def last_step(self) -> int: ...

    @property
    def selected_token(self) -> str: ...

    @property
    def training(self) -> bool: ...

    @property
    def moving(self) -> bool: ...

    @property
    def play_interval(self) -> int: ...

    @property
    def merge_duration(self) -> int: ...

    @property
    def text_waiting(self) -> bool: ...

    @property
    def why_untrained(self) -> str: ...

    @property
    def held_out_preset(self) -> str | None: ...

    @property
    def held_out_curve(self) -> TextCurve | None: ...

    def show(self, token: str) -> str: ...

    # -- intents ----------------------------------------------------------------------------------------

    def request_step(self, k: int) -> None: ...

    def request_next(self) -> None: ...

    def request_previous(self) -> None: ...

    def request_token_selection(self, token: str) -> None: ...

    def request_play_interval(self, ms: int) -> None: ...

    def request_held_out(self, text: str) -> None: ...
