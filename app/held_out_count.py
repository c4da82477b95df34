"""Counting the held-out text after every step: on the spot when it is short, in a worker when long.

The session owns the counter and announces what it counted; the growth chart's model only shows
the curve it is given. ``engine.lesson.heldout.token_curve`` does the counting (one encoding of each
distinct word, not one encoding per step). Only the latest count asked for is reported: a new text
or lesson makes a count still running worthless, and is stopped. A very long text is counted in a
child process (``engine.child``), which a stop (a newer count, closing the window) ends at once:
``token_curve`` splits the whole text in one call, seconds that no stop could reach.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from engine.algorithm.tokenizer import Tokenizer
from engine.child import run_in_child
from engine.errors import is_bad_input
from engine.lesson.heldout import TextCurve, token_curve
from engine.lesson.lesson import Lesson
from widgets.worker import Worker, abort_if_requested

# a pasted text longer than this is counted off the GUI thread (10,000 characters take about 10 ms)
SYNC_LIMIT = 10_000
# a text at least this long is counted in a child process: 9 MB take 2.5 s, and a child costs about
# a second to start and receive the text
IN_CHILD_FROM = 3_000_000


def counted_curve(tokenizer: Tokenizer, text: str, steps: int) -> TextCurve:
    """``token_curve``, in a child process that a stop of the worker ends when the text is very long."""
    if len(text) < IN_CHILD_FROM:
        return token_curve(tokenizer, text, steps)
    return run_in_child(token_curve, tokenizer, text, steps, check=abort_if_requested,
                        what="the count of the held-out text")


def failure_message(error: BaseException) -> str:
    reason = str(error) if is_bad_input(error) else f"an internal error ({type(error).__name__}: {error})"
    return f"The held-out text could not be counted: {reason}"


class HeldOutCounter(QObject):
    # the curve of the text last asked for, or None (no text, no trained lesson, or a failure)
    counted = Signal(object)
    # counting failed (after counted(None)): what the charts say beside the text
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.curve: TextCurve | None = None
        # the worker counting the text last asked for (a new text or lesson replaces it)
        self._counting: Worker | None = None

    def count(self, lesson: Lesson, trained: bool) -> None:
        """Count ``lesson``'s held-out text (one the tokenizer was not trained on) after every step."""
        if self._counting is not None:
            self._counting.quit()
        self._counting = None
        text = lesson.held_out
        if not text.strip() or not trained:
            self._publish(None)
            return
        counted = lesson.counted_held_out_curve(text)
        if counted is not None:
            # the training worker counted the lesson's own held-out text already
            self._publish(counted)
            return
        if len(text) <= SYNC_LIMIT:
            try:
                curve = lesson.held_out_curve(text)
            except Exception as exc:  # noqa: BLE001 (said like a failure in the worker)
                self._fail(exc)
            else:
                self._publish(curve)
            return
        worker = Worker(counted_curve, lesson.tokenizer, text, lesson.last_step)
        worker.returned.connect(self._on_counted)
        worker.errored.connect(self._on_count_failed)
        self._counting = worker
        worker.start()

    def _from_last_count(self) -> bool:
        """Whether the sender is the worker counting the current text (then it is done)."""
        if self._counting is None or self.sender() is not self._counting:
            return False
        self._counting = None
        return True

    @Slot(object)
    def _on_counted(self, curve: TextCurve) -> None:
        if self._from_last_count():
            self._publish(curve)

    @Slot(object)
    def _on_count_failed(self, error: BaseException) -> None:
        if self._from_last_count():
            self._fail(error)

    def _fail(self, error: BaseException) -> None:
        self._publish(None)
        self.failed.emit(failure_message(error))

    def _publish(self, curve: TextCurve | None) -> None:
        self.curve = curve
        self.counted.emit(curve)
