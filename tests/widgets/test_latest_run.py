"""A LatestRun hears only its newest run: an older one's stages and result are dropped."""

from __future__ import annotations

import threading

from widgets.latest_run import LatestRun


def _counting(gate: threading.Event, value: int):
    yield f"waiting {value}"
    gate.wait(5)
    yield f"counting {value}"
    return value * 10


def _failure(error: BaseException) -> str:
    return f"it failed: {error}"


def test_a_newer_start_replaces_the_run_still_going(qtbot):
    run = LatestRun(_counting, _failure)
    heard: list[object] = []
    run.progressed.connect(heard.append)
    run.done.connect(heard.append)
    old_gate, new_gate = threading.Event(), threading.Event()
    run.start(old_gate, 1)
    run.start(new_gate, 2)
    old_gate.set()
    new_gate.set()
    qtbot.waitUntil(lambda: 20 in heard, timeout=5_000)
    assert all("1" not in str(h) and h != 10 for h in heard)
    assert heard[-1] == 20 and not run.running


def test_cancel_says_so_once_and_drops_the_result(qtbot):
    run = LatestRun(_counting, _failure)
    ends: list[str] = []
    run.done.connect(lambda _r: ends.append("done"))
    run.cancelled.connect(lambda: ends.append("cancelled"))
    gate = threading.Event()
    run.start(gate, 3)
    run.cancel()
    gate.set()
    qtbot.wait(200)
    assert ends == ["cancelled"] and not run.running
    run.cancel()  # nothing running: nothing said
    assert ends == ["cancelled"]


def _broken():
    yield "starting"
    raise ValueError("no such file")


def test_a_failure_arrives_in_words(qtbot):
    run = LatestRun(_broken, _failure)
    with qtbot.waitSignal(run.failed, timeout=5_000) as failed:
        run.start()
    assert failed.args == ["it failed: no such file"]
