"""File > Compare merges…: anyone's merge list walked beside the lesson on screen, off the GUI thread.

``MergeComparison.start(path, lesson)`` reads the list, trains the lesson's text with its settings
afresh (the lesson shown is the session's, never touched from another thread) and walks the two
lists (``engine.compare.walk``). It says each stage as it starts; ``cancel()`` stops at the next.
A run ends with ``compared(Compared)``, ``failed(reason)`` or ``cancelled()``; a newer start
replaces a run still going, whose end is then not heard.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, SignalInstance

from engine.algorithm.settings import Settings
from engine.compare.walk import Report
from engine.errors import BpeLabError, internal_detail, is_bad_input, one_line
from engine.lesson.lesson import Lesson
from widgets.worker import Worker

# the stages a run says, in order
STAGES = ("Reading the merge list…", "Training the lesson…", "Walking the two lists…")


@dataclass(frozen=True, slots=True)
class Compared:
    """A finished walk and the settings that say its pairs and tokens."""

    report: Report
    settings: Settings


def comparing(path: str, text: str, word_counts: bool, settings: Settings) -> Generator[str, None, Compared]:
    """The walk as a generator: each stage's name as it starts, the ``Compared`` as its return."""
    from engine.compare.merge_lists import pairs_of, read_merge_list
    from engine.compare.mistakes import Training
    from engine.compare.walk import compare, trained

    yield STAGES[0]
    found = read_merge_list(path, settings)
    yield STAGES[1]
    training = Training(text, word_counts, settings)
    if training.corpus().is_empty:  # a tokenizer read from a file keeps no corpus either
        raise BpeLabError("the lesson on screen has no training text to compare with: type or open a text first")
    lesson = trained(training)
    yield STAGES[2]
    pairs = pairs_of(found, list(lesson.history.base))
    return Compared(compare(training, pairs, path, found.kind, lesson), settings)


def failure(error: BaseException) -> str:
    """What the user reads when a compare fails: the engine's one-line reason for a bad file."""
    if is_bad_input(error):
        return one_line(str(error))
    return f"an internal error of BPE Lab ({internal_detail(error)}), not a problem with your file"


class MergeComparison(QObject):
    progressed = Signal(str)
    compared = Signal(object)  # Compared
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._worker: Worker | None = None

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, path: str, lesson: Lesson) -> None:
        self.cancel(quietly=True)
        worker = Worker(comparing, path, lesson.text, lesson.word_counts, lesson.settings)
        self._worker = worker
        # each signal is heard only from the run still wanted
        worker.yielded.connect(lambda stage: self._on_yielded(worker, stage))
        worker.returned.connect(lambda done: self._on_ended(worker, self.compared, done))
        worker.errored.connect(lambda error: self._on_ended(worker, self.failed, failure(error)))
        worker.aborted.connect(lambda: self._on_ended(worker, self.cancelled))
        worker.start()

    def cancel(self, quietly: bool = False) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.quit()
            if not quietly:
                self.cancelled.emit()

    def _on_yielded(self, worker: Worker, stage: str) -> None:
        if worker is self._worker:
            self.progressed.emit(stage)

    def _on_ended(self, worker: Worker, signal: SignalInstance, *payload: object) -> None:
        if worker is self._worker:
            self._worker = None
            signal.emit(*payload)
