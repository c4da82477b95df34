"""The worker helper's contract: one outcome then finished, every exception reported, a cooperative stop."""

import gc
import threading
import time
import weakref

import pytest
from PySide6.QtCore import QCoreApplication, QObject

from engine.errors import BpeLabError
from widgets.worker import Worker, abort_if_requested, running_workers, wait_for_workers

WAIT = 10_000
OUTCOMES = ("returned", "errored", "aborted")


def record(worker: Worker) -> list:
    """Every signal the worker sends, in the order the GUI thread receives them, with its value."""
    seen = []
    worker.started.connect(lambda: seen.append(("started", None)))
    worker.yielded.connect(lambda value: seen.append(("yielded", value)))
    worker.returned.connect(lambda value: seen.append(("returned", value)))
    worker.errored.connect(lambda error: seen.append(("errored", error)))
    worker.aborted.connect(lambda: seen.append(("aborted", None)))
    worker.finished.connect(lambda: seen.append(("finished", None)))
    return seen


def run_to_end(qtbot, worker: Worker) -> list:
    seen = record(worker)
    with qtbot.waitSignal(worker.finished, timeout=WAIT):
        worker.start()
    # nothing arrives after finished: every signal was posted before the thread ended
    assert wait_for_workers(WAIT)
    QCoreApplication.processEvents()
    return seen


def kinds(seen: list) -> list[str]:
    return [kind for kind, _ in seen]


def test_a_function_returns_its_result_once_then_finishes(qtbot):
    seen = run_to_end(qtbot, Worker(lambda a, b=0: a + b, 2, b=3))
    assert seen == [("started", None), ("returned", 5), ("finished", None)]


@pytest.mark.parametrize("error", [RuntimeError("boom"), AssertionError("pair counted but found nowhere"),
                                   MemoryError(), BpeLabError("line 1: not a count")])
def test_any_exception_is_reported_with_the_exception_object(qtbot, error):
    def fail():
        raise error

    seen = run_to_end(qtbot, Worker(fail))
    assert kinds(seen) == ["started", "errored", "finished"]
    assert seen[1][1] is error


def test_a_generator_yields_in_order_and_returns_its_value(qtbot):
    def count(n):
        for i in range(n):
            yield i
        return "done"

    seen = run_to_end(qtbot, Worker(count, 50))
    assert [v for k, v in seen if k == "yielded"] == list(range(50))
    assert kinds(seen)[-2:] == ["returned", "finished"] and seen[-2][1] == "done"


def test_an_error_after_some_progress_is_still_reported(qtbot):
    def fail_midway():
        yield 1
        raise KeyError("gone")

    seen = run_to_end(qtbot, Worker(fail_midway))
    assert kinds(seen) == ["started", "yielded", "errored", "finished"]
    assert isinstance(seen[2][1], KeyError)


def test_quit_stops_a_generator_at_its_next_yield(qtbot):
    go_on = threading.Event()
    closed = []

    def endless():
        try:
            i = 0
            while True:
                yield i
                go_on.wait(WAIT / 1000)
                i += 1
        finally:
            closed.append(True)

    worker = Worker(endless)
    seen = record(worker)
    with qtbot.waitSignal(worker.yielded, timeout=WAIT):
        worker.start()
    with qtbot.waitSignal(worker.finished, timeout=WAIT):
        worker.quit()
        go_on.set()
    wait_for_workers(WAIT)
    QCoreApplication.processEvents()
    assert [k for k in kinds(seen) if k in OUTCOMES] == ["aborted"]
    assert kinds(seen)[-1] == "finished" and kinds(seen).count("finished") == 1
    assert closed == [True]  # the generator's cleanup ran


def test_work_that_does_not_yield_stops_where_it_checks(qtbot):
    asked = threading.Event()
    after = []

    def long_loop():
        asked.wait(WAIT / 1000)
        abort_if_requested()
        after.append("went on")

    worker = Worker(long_loop)
    seen = record(worker)
    worker.start()
    with qtbot.waitSignal(worker.finished, timeout=WAIT):
        worker.quit()
        asked.set()
    wait_for_workers(WAIT)
    QCoreApplication.processEvents()
    assert kinds(seen) == ["started", "aborted", "finished"] and not after


def test_a_result_that_comes_after_quit_is_reported_as_aborted(qtbot):
    release = threading.Event()
    worker = Worker(lambda: release.wait(WAIT / 1000) and "late")
    seen = record(worker)
    worker.start()
    with qtbot.waitSignal(worker.finished, timeout=WAIT):
        worker.quit()
        release.set()
    wait_for_workers(WAIT)
    QCoreApplication.processEvents()
    assert kinds(seen) == ["started", "aborted", "finished"]


def test_abort_if_requested_outside_a_worker_does_nothing():
    abort_if_requested()


def test_receivers_run_on_the_gui_thread(qtbot):
    threads = []
    worker = Worker(lambda: threading.current_thread())
    worker.returned.connect(lambda worker_thread: threads.append((worker_thread, threading.current_thread())))
    with qtbot.waitSignal(worker.finished, timeout=WAIT):
        worker.start()
    worker_thread, receiver_thread = threads[0]
    assert worker_thread is not threading.main_thread()
    assert receiver_thread is threading.main_thread()
    wait_for_workers(WAIT)


def test_a_worker_whose_owner_is_gone_runs_to_its_end_and_is_then_let_go(qtbot):
    release = threading.Event()
    results = []
    owner = QObject()
    worker = Worker(lambda: release.wait(WAIT / 1000) and "result")
    owner.worker = worker
    worker.returned.connect(results.append)
    worker.start()
    gone = weakref.ref(worker)
    # the owner and every reference to the worker are dropped while its thread still runs: Qt
    # would abort the process ("QThread: Destroyed while thread is still running") if that freed it
    del owner, worker
    gc.collect()
    assert gone() is not None and running_workers() == 1
    release.set()
    assert wait_for_workers(WAIT)
    qtbot.waitUntil(lambda: results == ["result"], timeout=WAIT)
    # once the thread has ended, nothing keeps the worker alive
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=WAIT)
    gc.collect()
    assert gone() is None


def test_the_ended_thread_is_let_go_without_anyone_waiting(qtbot):
    worker = Worker(lambda: None)
    with qtbot.waitSignal(worker.finished, timeout=WAIT):
        worker.start()
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=WAIT)
    assert not worker.is_running and worker.wait(0)


def test_waiting_for_all_workers_can_ask_them_to_stop_first(qtbot):
    def endless():
        while True:
            yield
            time.sleep(0.001)

    workers = [Worker(endless) for _ in range(3)]
    seen = [record(w) for w in workers]
    for worker in workers:
        worker.start()
    assert wait_for_workers(WAIT, stop=True)
    qtbot.waitUntil(lambda: all(kinds(s)[-1:] == ["finished"] for s in seen), timeout=WAIT)
    assert all("aborted" in kinds(s) for s in seen)


def test_a_worker_runs_once(qtbot):
    worker = Worker(lambda: None)
    with qtbot.waitSignal(worker.finished, timeout=WAIT):
        worker.start()
    with pytest.raises(RuntimeError):
        worker.start()
