"""Wiring a quiz panel to the session every panel shares: one call, both directions.

The panel itself knows nothing of the session (it takes plain engine objects); this keeps it
usable alone, in tests and in a presentation window.
"""

from __future__ import annotations

from engine.lesson.lesson import Lesson
from widgets.session_view import SessionView


def follow_session(panel, session: SessionView) -> None:
    """Keep ``panel`` on ``session``'s lesson and step; its "show on the tiles" moves the session."""

    def on_lesson_changed(lesson: Lesson) -> None:
        # questions made from the lesson need its corpus (an imported tokenizer has none)
        if session.state is not None and lesson.trained and not lesson.is_empty and lesson.corpus is not None:
            panel.set_lesson(lesson.history, session.step)
        else:
            panel.set_lesson(None, 0)

    session.lesson_changed.connect(on_lesson_changed)
    session.step_changed.connect(lambda change: panel.set_current_step(change.step))
    panel.step_requested.connect(session.request_step)
    on_lesson_changed(session.lesson)


def quiz_view(session):
    """A quiz panel following the session: a factory for the window's list of views."""
    from widgets.quiz_panel import QuizPanel  # the quiz comes after the first paint

    panel = QuizPanel()
    follow_session(panel, session)
    return panel
