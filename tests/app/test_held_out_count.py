"""The held-out count: a very long text is counted in a child process, with the curve counted here,
and a newer count ends the one still running."""

from __future__ import annotations

import app.held_out_count as held_out_count
from app.held_out_count import HeldOutCounter
from engine.lesson.heldout import token_curve
from engine.lesson.lesson import Lesson
from resources.presets import python_docs_text
from tests.child_processes import forkserver_children, gone

# a bound on "it stopped", not a measure of speed
STOPPED_WITHIN_MS = 3_000


def test_a_long_text_counted_in_a_child_gives_the_curve_counted_here(qtbot, monkeypatch):
    monkeypatch.setattr(held_out_count, "SYNC_LIMIT", 10)
    monkeypatch.setattr(held_out_count, "IN_CHILD_FROM", 10)
    text = "the lowest newest widest low lower " * 20
    lesson = Lesson("low lower newest widest " * 50, held_out=text).train()
    counter = HeldOutCounter()
    with qtbot.waitSignal(counter.counted, timeout=60_000) as counted:
        counter.count(lesson, True)
    assert counted.args[0] == token_curve(lesson.tokenizer, text, lesson.last_step)


def test_a_newer_count_ends_the_child_still_counting(qtbot, monkeypatch):
    monkeypatch.setattr(held_out_count, "IN_CHILD_FROM", 10)
    text, _ = python_docs_text()
    long = Lesson(text[:20_000], held_out=text * 40).train()  # seconds to count
    counter = HeldOutCounter()
    curves = []
    counter.counted.connect(curves.append)
    counter.count(long, True)
    qtbot.waitUntil(lambda: len(forkserver_children()) == 1, timeout=60_000)
    (child,) = forkserver_children()
    counter.count(Lesson("tea tea team", held_out="").train(), True)
    qtbot.waitUntil(lambda: gone(child), timeout=STOPPED_WITHIN_MS)
    qtbot.wait(50)
    assert curves == [None]  # the newer count's answer only
