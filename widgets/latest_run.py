"""One job at a time off the GUI thread, where only the newest run is heard.

A view that can be asked again before its last answer arrives (compare merges, where the tie rules
part) wants the answer to the latest question only. ``LatestRun(job, failure)`` drives the generator
function ``job`` in a ``Worker``: each stage it yields arrives as ``progressed(stage)``, and the run
ends with ``done(result)``, ``failed(reason)`` (``failure(exception)`` says the reason in words) or
``cancelled()``. A newer ``start`` replaces a run still going, whose signals are then not heard.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, SignalInstance

from widgets.worker import Worker


class LatestRun(QObject):
    progressed = Signal(str)
    done = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, job: Callable[..., object], failure: Callable[[BaseException], str],
                 parent: QObject | None = None):
        super().__init__(parent)
        self._job = job
        self._failure = failure
        self._worker: Worker | None = None

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self, *args: object) -> None:
        self.cancel(quietly=True)
        worker = Worker(self._job, *args)
        self._worker = worker
        # each signal is heard only from the run still wanted
        worker.yielded.connect(lambda stage: self._heard(worker, self.progressed, stage, ends=False))
        worker.returned.connect(lambda result: self._heard(worker, self.done, result))
        worker.errored.connect(lambda error: self._heard(worker, self.failed, self._failure(error)))
        worker.aborted.connect(lambda: self._heard(worker, self.cancelled))
        worker.start()

    def cancel(self, quietly: bool = False) -> None:
        """Stop the run at its next stage; ``cancelled`` is said at once unless ``quietly``."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.quit()
            if not quietly:
                self.cancelled.emit()

    def _heard(self, worker: Worker, signal: SignalInstance, *payload: object, ends: bool = True) -> None:
        if worker is self._worker:
            if ends:
                self._worker = None
            signal.emit(*payload)
