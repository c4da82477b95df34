"""A jump in a large lesson is built off the GUI thread: the step shown stays until it lands, a
step asked for meanwhile replaces it, and cancelling leaves the lesson where it was."""

import pytest

import engine.lesson.corpus_arrays
import engine.lesson.lesson
from app.session import Session
from engine.lesson.lesson import Lesson, LessonState
from engine.algorithm.settings import Settings


@pytest.fixture
def large(monkeypatch):
    """A session whose lesson counts as large, so every jump past a few steps is built apart."""
    monkeypatch.setattr(engine.lesson.lesson, "LARGE_CORPUS", 0)
    monkeypatch.setattr(engine.lesson.lesson, "SLOW_REBUILD", 0)
    monkeypatch.setattr(engine.lesson.corpus_arrays, "REBUILT_STEPS", 2)
    lesson = Lesson(" ".join(["lowest", "newer", "wider", "low", "newest"] * 3), False, Settings()).train()
    session = Session(lesson)
    assert session.state._arrays is not None
    return session


def test_a_jump_lands_with_the_words_it_changed(qtbot, large):
    session = large
    last = session.lesson.last_step
    assert session.state.slow_move(last) and not session.state.slow_move(1)
    started, changes = [], []
    session.step_move_started.connect(started.append)
    session.step_changed.connect(changes.append)
    with qtbot.waitSignal(session.step_changed, timeout=10_000):
        session.request_step(last)
        assert session.moving and session.step == 0  # the step shown stays until the jump lands
    assert started == [last] and not session.moving
    assert session.step == last
    expected = LessonState(session.lesson, 0).go_to(last)
    assert changes == [expected]
    for w in range(len(session.lesson.corpus)):
        assert session.state.tokens(w) == session.lesson.history.word_tokens(w, last)


def test_a_step_asked_for_during_a_jump_replaces_it(qtbot, large):
    session = large
    changes = []
    session.step_changed.connect(changes.append)
    session.request_step(session.lesson.last_step)
    session.request_step(1)  # a single step: at once, and the jump is dropped
    assert not session.moving and session.step == 1
    qtbot.wait(300)
    assert [c.step for c in changes] == [1] and session.step == 1


def test_a_cancelled_jump_leaves_the_step_shown(qtbot, large):
    session = large
    ended, changes = [], []
    session.step_move_ended.connect(lambda: ended.append(True))
    session.step_changed.connect(changes.append)
    session.request_step(session.lesson.last_step)
    session.request_move_cancel()
    assert ended == [True] and not session.moving
    qtbot.wait(300)
    assert changes == [] and session.step == 0


def test_the_timeline_shows_a_jump_being_built_and_its_cancel_stays_at_the_step(qtbot, large):
    from widgets.timeline import Timeline

    session = large
    timeline = Timeline(session)
    qtbot.addWidget(timeline)
    timeline.move_cancel_requested.connect(session.request_move_cancel)
    timeline.cancel_requested.connect(lambda: pytest.fail("Cancel during a jump stops no training"))
    session.request_step(session.lesson.last_step)
    assert timeline.shown().training and "Going to step" in timeline.progress_label.text()
    timeline.cancel_button.click()
    assert not session.moving and not timeline.shown().training
    qtbot.wait(300)
    assert session.step == 0 and timeline.shown().slider == 0
