"""Compare merges on a long text: the walk runs in a child process, gives the report the walk in
process gives, and a cancel ends it at once."""

from __future__ import annotations

import dataclasses

import pytest

import app.compare_merges as compare_merges
from app.session import Session
from engine.drain import drain
from engine.formats.load import Source, export
from engine.lesson.lesson import Lesson
from resources.presets import python_docs_text
from tests.child_processes import forkserver_children, gone

# a bound on "it stopped", not a measure of speed
STOPPED_WITHIN_MS = 3_000


@pytest.fixture
def hf_list(tmp_path):
    """A text the walk takes seconds on, and the merge list the hf tie rule makes of it."""
    text = python_docs_text()[0][:20_000]
    lesson = Lesson(text).train()
    other = Lesson(text, settings=dataclasses.replace(lesson.settings, tie_break="hf")).train()
    path = tmp_path / "hf.json"
    export(Source(other.tokenizer_at(other.last_step), other.steps, "lesson"), "hf", path)
    return lesson, str(path)


def test_the_walk_in_a_child_reports_what_the_walk_here_reports(hf_list, monkeypatch):
    lesson, path = hf_list
    text = lesson.text[:4_000]
    there = drain(compare_merges.comparing(path, text, False, lesson.settings))
    monkeypatch.setattr(compare_merges, "WALK_IN_CHILD_FROM", len(text) + 1)
    here = drain(compare_merges.comparing(path, text, False, lesson.settings))
    assert there == here and there.report.first is not None


def test_cancel_mid_walk_ends_its_process_and_keeps_the_lesson(hf_list, make_window, qtbot):
    lesson, path = hf_list
    window = make_window(session=Session(lesson))
    window.choose_merge_path = lambda: path
    window.compare_action.trigger()
    qtbot.waitUntil(lambda: window.compare_panel.verdict.text() == compare_merges.STAGES[2], timeout=60_000)
    qtbot.waitUntil(lambda: len(forkserver_children()) == 1, timeout=60_000)
    (walk,) = forkserver_children()
    window.compare_panel.cancel_button.click()
    qtbot.waitUntil(lambda: gone(walk), timeout=STOPPED_WITHIN_MS)
    assert window.compare_panel.verdict.text() == "Compare cancelled: the lesson is as it was."
    assert window.session.lesson is lesson
