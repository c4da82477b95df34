"""The app's Session is what views are typed to receive, so a view's session can be the real one."""

import inspect

from app.session import Session
from widgets.session_view import SessionView


def test_the_session_satisfies_the_view_protocol(qtbot):
    assert isinstance(Session(), SessionView)


def test_something_short_of_a_session_does_not(qtbot):
    class OnlyALesson:
        lesson = None
        state = None

    assert not isinstance(OnlyALesson(), SessionView)


def test_views_are_offered_no_way_to_replace_the_lesson():
    offered = {name for name, _ in inspect.getmembers(SessionView) if not name.startswith("_")}
    assert {"load", "set_lesson", "request_corpus", "undo_stack", "runner", "mark_saved"}.isdisjoint(offered)
    assert {"lesson_changed", "step_changed", "request_step", "lesson", "state"} <= offered
