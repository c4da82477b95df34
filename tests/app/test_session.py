from app.session import Session
from engine.lesson import Lesson


def test_stepping_announces_new_and_previous_step(qtbot):
    session = Session()
    seen = []
    session.step_changed.connect(lambda new, old: seen.append((new, old)))
    session.request_step(3)
    session.request_step(1)
    session.request_step(1)  # no move, no signal
    assert seen == [(3, 0), (1, 3)]
    assert session.state.tokens(2) == ["n", "e", "w", "es", "t", "</w>"]


def test_steps_are_clamped_to_the_history(qtbot):
    session = Session()
    session.request_step(10_000)
    assert session.step == session.lesson.last_step
    session.request_step(-5)
    assert session.step == 0


def test_new_lesson_is_announced(qtbot):
    session = Session()
    with qtbot.waitSignal(session.lesson_changed):
        session.set_lesson(Lesson("tea tea team teams steam seat").train())
    assert session.state.total_tokens == session.lesson.initial_tokens
