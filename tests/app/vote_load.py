"""A whole class voting in two rounds against a real vote server, with the GUI thread's longest
wait measured meanwhile: the load test's run and the bench's (bench/bench_vote_server.py).

The students run in their own process (tests/app/vote_students.py); this process holds the server
on its thread, plays the projector on the GUI thread (the tally read on every notice, the round
closed and a second opened) and ticks a 5 ms timer there, whose gaps are the GUI thread's stalls.
Only the voting is measured: the students' process starting up is not.
"""

from __future__ import annotations

import multiprocessing
# loaded now, not when the students start: the app imports nothing while votes arrive, and the
# collector's first collections then would walk what these imports made
import multiprocessing.popen_spawn_posix  # noqa: F401
import multiprocessing.queues  # noqa: F401
import queue
import threading
import time
from dataclasses import dataclass, field

from PySide6.QtCore import QEventLoop, Qt, QTimer

from app.vote_server import VoteServer
from engine.vote.ballot import VoteSession
from engine.vote.question import VoteOption, VoteQuestion
from engine.vote.tally import Tally
from tests.app import vote_students
from tests.app.vote_client import free_port

CODE = "7305"
QUESTION = VoteQuestion("merge-1", "pair", "Which pair merges next?",
                        tuple(VoteOption(k, label) for k, label in zip(vote_students.OPTIONS, ("e + s", "s + t", "t + </w>"))),
                        ("0",))
START_WAIT_S = 60.0  # a fresh interpreter importing aiohttp on a busy machine


class GapMeter:
    """The gaps between ticks of a fast timer on the GUI thread, while it runs. Where Linux tells a
    thread's time spent waiting for a CPU (schedstat), ``queued`` holds that share of each gap: on a
    busy machine it is the other programs' doing, not the process's."""

    def __init__(self, interval_ms: int = 5):
        self.gaps: list[float] = []
        self.queued: list[float] = []
        self._last: tuple[float, float] | None = None
        self._schedstat = f"/proc/self/task/{threading.get_native_id()}/schedstat"
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def _queued_s(self) -> float:
        try:
            with open(self._schedstat, encoding="ascii") as f:
                return int(f.read().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):  # not Linux, or no scheduler statistics
            return 0.0

    def _tick(self) -> None:
        now, queued = time.perf_counter(), self._queued_s()
        if self._last is not None:
            self.gaps.append(now - self._last[0])
            self.queued.append(queued - self._last[1])
        self._last = (now, queued)

    def start(self) -> None:
        self._last = None
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()


def wait_until(predicate, timeout_s: float) -> bool:
    """Run the GUI thread's event loop until ``predicate()`` holds or the time is up."""
    if predicate():
        return True
    loop = QEventLoop()
    deadline = time.monotonic() + timeout_s
    check = QTimer()
    check.setInterval(5)
    check.timeout.connect(lambda: (predicate() or time.monotonic() > deadline) and loop.quit())
    check.start()
    loop.exec()
    check.stop()
    return predicate()


@dataclass
class LoadRun:
    problems: list[str] = field(default_factory=list)  # every refused request, failure or missed step
    tallies: list[Tally] = field(default_factory=list)  # each round's, as closed
    seconds: list[float] = field(default_factory=list)  # each round: open to every vote counted
    gaps: list[float] = field(default_factory=list)  # the GUI thread's, over the voting only
    queued: list[float] = field(default_factory=list)  # of each gap, the time spent waiting for a CPU
    notices: int = 0  # tally_changed signals the GUI thread received
    stop_seconds: float = 0.0


def run_class(students: int = vote_students.STUDENTS, round_timeout_s: float = 10.0) -> LoadRun:
    """Two rounds of ``students`` voting; needs a QApplication. Stops everything it started."""
    run = LoadRun()
    session = VoteSession(CODE)
    session.show(QUESTION)
    session.open_round()
    context = multiprocessing.get_context("spawn")  # never fork a process that runs Qt
    outbox = context.Queue()
    server = VoteServer(session, host="127.0.0.1", port=free_port())
    failed: list[str] = []
    server.failed.connect(failed.append)

    def counted() -> None:
        run.notices += 1
        session.tally()  # what the projector does with each notice

    server.tally_changed.connect(counted)
    server.start()
    if failed:
        run.problems.extend(failed)
        return run
    students_process = context.Process(target=vote_students.run, args=(server.address, CODE, QUESTION.qid, outbox,
                                                                       students), daemon=True)
    messages: list[tuple] = []

    def arrived(kind: str, *args) -> bool:
        while True:
            try:
                messages.append(outbox.get_nowait())
            except queue.Empty:
                break
        return any(m[:1 + len(args)] == (kind, *args) for m in messages)

    meter = GapMeter()
    students_process.start()
    try:
        if not wait_until(lambda: arrived("joined"), START_WAIT_S):
            run.problems.append("the students never joined")
            return run
        for round_number in (1, 2):
            if round_number == 2:
                session.close_round()
                session.open_round()
                server.changed()
            meter.start()
            began = time.perf_counter()
            done = wait_until(lambda n=round_number: arrived("voted", n) and session.tally().voters == students,
                              round_timeout_s)
            run.seconds.append(time.perf_counter() - began)
            meter.stop()
            if not done:
                run.problems.append(f"round {round_number}: not every vote was counted within {round_timeout_s} s "
                                    f"({session.tally().voters} of {students})")
            run.problems.extend(p for m in messages if m[:2] == ("voted", round_number) for p in m[2])
            run.tallies.append(session.close_round())
        if not wait_until(lambda: arrived("done"), round_timeout_s):
            run.problems.append("the students did not finish")
    finally:
        run.gaps, run.queued = meter.gaps, meter.queued
        began = time.perf_counter()
        server.stop()
        run.stop_seconds = time.perf_counter() - began
        students_process.join(10)
        if students_process.is_alive():
            students_process.kill()
            students_process.join()
            run.problems.append("the students' process had to be killed")
        elif students_process.exitcode != 0:
            run.problems.append(f"the students' process ended with {students_process.exitcode}")
    return run
