"""The race of the textbook loop against the trainer on the lesson's corpus, run off the GUI thread.

On the Python documentation the textbook loop takes half a minute, so the race runs in a worker:
it reports each merge made, and ``stop()`` ends it at the next one. What it says (progress, then
the measured paragraph) reaches the view as sentences.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from engine.algorithm.corpus import Corpus
from engine.algorithm.textbook_race import TRAINER, Race, RaceProgress, race
from engine.errors import is_bad_input, one_line
from engine.readable.explorer import duration, race_caption
from widgets.explorer.sources import internal_problem
from widgets.worker import Worker

# a progress sentence at most this often (in merges), so a quick race does not flood the caption
EVERY = 10


def progress_sentence(progress: RaceProgress) -> str:
    if progress.runner == TRAINER or progress.trainer_seconds is None:
        return f"Timing the trainer: {progress.done:,} merges made…"
    return (f"Timing the textbook loop: merge {progress.done:,} of {progress.total:,} after "
            f"{duration(progress.seconds)}; the trainer made all {progress.total:,} in "
            f"{duration(progress.trainer_seconds)}…")


class RaceRunner(QObject):
    """Runs one race at a time; ``said`` carries each sentence, ``running_changed`` the state."""

    said = Signal(str)
    running_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._worker: Worker | None = None
        self.result: Race | None = None

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, corpus: Corpus | None) -> None:
        self.drop()
        self.result = None
        if corpus is None:
            self.said.emit("This lesson has merges but no training text (it was read from a tokenizer file): "
                           "the race needs a corpus to train on. Choose a preset or type some text in Corpus.")
            return
        if corpus.is_empty:
            self.said.emit("The lesson's corpus is empty: type or open some training text in Corpus first.")
            return
        worker = Worker(race, corpus)
        worker.yielded.connect(self._on_yielded)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        worker.aborted.connect(self._on_aborted)
        worker.finished.connect(self._on_finished)
        self._worker = worker
        self.said.emit("Timing the trainer…")
        self.running_changed.emit(True)
        worker.start()

    def stop(self) -> None:
        """Ask a running race to stop at its next merge (it then says so)."""
        if self._worker is not None:
            self._worker.quit()

    def drop(self) -> None:
        """Stop a running race and say nothing more of it (another demonstration takes the caption)."""
        if self._worker is not None:
            self._worker.quit()
            self._worker = None
            self.running_changed.emit(False)

    def _current(self) -> bool:
        return self.sender() is self._worker

    def _on_yielded(self, progress: RaceProgress) -> None:
        if self._current() and progress.done % EVERY == 0:
            self.said.emit(progress_sentence(progress))

    def _on_returned(self, result: Race) -> None:
        if self._current():
            self.result = result
            self.said.emit(race_caption(result))

    def _on_errored(self, error: BaseException) -> None:
        if self._current():
            self.said.emit(one_line(str(error)) if is_bad_input(error) else internal_problem(error))

    def _on_aborted(self) -> None:
        if self._current():
            self.said.emit("Race stopped: no times to show. Start it again to time both loops.")

    def _on_finished(self) -> None:
        if self._current():
            self._worker = None
            self.running_changed.emit(False)
