"""Work off the GUI thread: the one way BPE Lab runs a job that would freeze the window.

In the manner of napari's and superqt's ``thread_worker``: a ``Worker`` calls a function, or
drives a generator function, in a thread of its own, and tells the GUI thread what happened::

    worker = Worker(count_pairs, corpus)           # not started yet: connect first
    worker.returned.connect(self._on_counted)      # the function's result
    worker.errored.connect(self._on_count_failed)  # the exception object, whatever its class
    worker.start()

A generator function reports progress: each value it yields arrives as ``yielded(value)``, in
order. ``quit()`` asks the work to stop: a generator is closed at its next ``yield``; code deeper
down (a callback, a loop that does not yield) calls ``abort_if_requested()``.

Every run ends with exactly one of ``returned(result)``, ``errored(exception)`` or ``aborted()``,
then ``finished()``: any exception, ``MemoryError`` included, is caught and reported, so a caller
waiting for the end always hears of it. The worker object lives in the thread that made it (the
GUI thread), so its signals reach receivers there queued, after the event loop turns.

Left out: pausing, sending values into a generator, a thread pool (each worker has its thread;
BPE Lab runs a handful at a time).
"""

from __future__ import annotations

import atexit
import inspect
import threading
from functools import partial
from typing import Callable

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot


class Aborted(Exception):
    """Raised inside the work to stop at once; the worker reports ``aborted``, not an error."""


# how long leaving Python waits for each worker still running, asked to stop
EXIT_WAIT_MS = 10_000

# which worker the current thread runs, for abort_if_requested()
_local = threading.local()

# Every worker started and not yet let go. Qt aborts the whole process when a QThread object is
# destroyed while its thread still runs, and a worker freed with its signals still queued would
# take them with it; so no owner (a closed panel, a failed test) may hold the last reference: a
# worker leaves this set only once its thread has ended and its ``finished`` has been delivered.
_RUNNING: set["Worker"] = set()


def abort_if_requested() -> None:
    """In a worker's thread: raise ``Aborted`` if ``quit()`` was asked. Elsewhere: nothing."""
    worker = getattr(_local, "worker", None)
    if worker is not None and worker.abort_requested:
        raise Aborted


def wait_for_workers(ms: int = -1, stop: bool = False) -> bool:
    """Block until every running worker's thread has ended (closing the window, tests).

    ``stop``: ask each to quit first. True when all ended within ``ms`` milliseconds each (-1: no
    limit). What they reported arrives when the GUI thread's event loop next runs.
    """
    workers = list(_RUNNING)
    if stop:
        for worker in workers:
            worker.quit()
    return all(worker.wait(ms) for worker in workers)


def running_workers() -> int:
    """Workers started and not yet let go (their end not yet delivered to the GUI thread)."""
    return len(_RUNNING)


# a thread still running when the interpreter goes would take the process down with it
atexit.register(wait_for_workers, EXIT_WAIT_MS, stop=True)


class _Thread(QThread):
    """A thread that runs one callable. It has no event loop, so nothing has to ask it to quit:
    it ends when the callable returns (a queued quit would wait for the GUI thread, which may
    itself be waiting for this thread to end)."""

    def __init__(self, target: Callable[[], None]):
        super().__init__()
        self._target: Callable[[], None] | None = target

    def run(self) -> None:
        # let go of the worker as the run starts, so the two hold no reference cycle afterwards
        target, self._target = self._target, None
        if target is not None:  # a second start() has nothing to run
            target()


class Worker(QObject):
    """Runs ``work(*args, **kwargs)`` once in a thread; see the module's docstring for the signals."""

    started = Signal()
    yielded = Signal(object)
    returned = Signal(object)
    errored = Signal(object)
    aborted = Signal()
    finished = Signal()

    def __init__(self, work: Callable[..., object], *args: object, **kwargs: object):
        # no parent: a worker must outlive a closed owner until its thread ends (see _RUNNING)
        super().__init__()
        self._call: tuple[Callable[..., object], tuple[object, ...], dict[str, object]] | None = (work, args, kwargs)
        self._abort = threading.Event()
        self._thread = _Thread(self._run)
        # connected first, so it runs before any owner's slot for the same signal
        self.finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)

    # -- what owners call -----------------------------------------------------------------------

    def start(self) -> None:
        if self._call is None or self in _RUNNING:
            raise RuntimeError("a worker runs once: make a new one")
        _RUNNING.add(self)
        self._thread.start()

    def quit(self) -> None:
        """Ask the work to stop at its next ``yield`` (or ``abort_if_requested``); safe from any thread."""
        self._abort.set()

    @property
    def abort_requested(self) -> bool:
        return self._abort.is_set()

    @property
    def is_running(self) -> bool:
        return self._thread.isRunning()

    def wait(self, ms: int = -1) -> bool:
        """Block until the thread has ended; True if it did within ``ms`` milliseconds (-1: no limit)."""
        if not self._thread.isRunning():
            return True
        return self._thread.wait(ms) if ms >= 0 else self._thread.wait()

    # -- in the worker's thread -----------------------------------------------------------------

    def _run(self) -> None:
        _local.worker = self
        try:
            self.started.emit()
            try:
                result = self._drive(self._call_once())
            except Aborted:
                self.aborted.emit()
            except BaseException as exc:  # noqa: BLE001 (reported to the GUI thread, never lost with the thread)
                self.errored.emit(exc)
            else:
                if self.abort_requested:
                    self.aborted.emit()  # asked to stop: a result that came anyway is not wanted
                else:
                    self.returned.emit(result)
            self.finished.emit()
        finally:
            _local.worker = None

    def _call_once(self) -> object:
        call, self._call = self._call, None  # the arguments go with the run, not with the worker object
        if call is None:  # start() lets a worker run once; reported like any failure of the work
            raise RuntimeError("a worker runs once: make a new one")
        work, args, kwargs = call
        return work(*args, **kwargs)

    def _drive(self, result: object) -> object:
        """A plain function's result as it is; a generator run to its ``return``, yielding on the way."""
        if not inspect.isgenerator(result):
            return result
        while True:
            try:
                value = next(result)
            except StopIteration as end:
                return end.value
            if self.abort_requested:
                result.close()  # runs the generator's finally blocks
                raise Aborted
            self.yielded.emit(value)

    # -- back in the GUI thread -----------------------------------------------------------------

    @Slot()
    def _on_finished(self) -> None:
        # a moment later: after the owners' slots for ``finished``, and outside any slot of this
        # worker, since dropping the last reference destroys the object
        QTimer.singleShot(0, partial(Worker._let_go, self))

    def _let_go(self) -> None:
        self._thread.wait()  # returns at once: the thread was leaving run() when it said finished
        _RUNNING.discard(self)
