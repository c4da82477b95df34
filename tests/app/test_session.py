from app.session import Session
from engine.lesson import Lesson


def test_stepping_announces_new_and_previous_step(qtbot):
    session = Session()
    seen = []
    session.step_changed.connect(lambda change: seen.append((change.step, change.previous)))
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


def test_next_and_previous_move_one_step_and_stop_at_the_ends(qtbot):
    session = Session()
    session.request_previous()
    assert session.step == 0
    changes = []
    session.step_changed.connect(changes.append)
    session.request_next()
    session.request_next()
    assert session.step == 2 and changes[-1].words == (2, 3)
    session.request_step(session.last_step)
    session.request_next()
    assert session.step == session.last_step


def test_a_lesson_arrives_with_the_state_a_worker_built(qtbot):
    from engine.lesson import LessonState

    session = Session()
    lesson = Lesson("tea tea team teams steam seat").train()
    state = LessonState(lesson, 1)
    session.request_token_selection("es")
    cleared = []
    session.token_selected.connect(cleared.append)
    session.set_lesson(lesson, 2, state)
    assert session.state is state and session.step == 2
    assert session.selected_token == "" and cleared == [""]


def test_an_empty_lesson_has_no_state_and_ignores_steps(qtbot):
    session = Session()
    seen = []
    session.step_changed.connect(lambda *a: seen.append(a))
    session.set_lesson(Lesson(" \n\t "))
    session.request_next()
    assert session.state is None and session.step == 0 and session.last_step == 0 and not seen


def test_tokens_read_as_text_in_byte_lessons(qtbot):
    from engine.settings import Settings

    session = Session(Lesson("hi there", settings=Settings(split="gpt2", units="bytes")))
    assert session.show("Ġthere") == "␣there"
