"""Questions built from the lesson, on the spot or in a worker: one answer per ask, failures reported."""

import pytest
from PySide6.QtCore import QCoreApplication

import widgets.quiz.lesson_questions as lesson_questions
from engine.lesson.lesson import Lesson
from widgets.quiz.lesson_questions import LessonQuestions
from widgets.worker import wait_for_workers

WAIT = 10_000
# a size threshold every lesson passes or none does
IN_A_THREAD, ON_THE_SPOT = 0, 10**9


@pytest.fixture
def questions(qtbot):
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True).train()
    built = LessonQuestions()
    built.set_lesson(lesson.history, 2)
    return built


@pytest.mark.parametrize("large", [IN_A_THREAD, ON_THE_SPOT])
def test_an_exception_while_building_is_reported_and_the_next_ask_works(qtbot, questions, monkeypatch, large):
    def broken(live, count, kinds):
        raise RuntimeError("simulated")

    real = lesson_questions.next_in_cycle
    monkeypatch.setattr(lesson_questions, "next_in_cycle", broken)
    with qtbot.waitSignal(questions.failed, timeout=WAIT) as blocker:
        questions.ask(large)
    assert "Could not build a question" in blocker.args[0] and "simulated" in blocker.args[0]
    assert not questions.pending
    monkeypatch.setattr(lesson_questions, "next_in_cycle", real)
    with qtbot.waitSignal(questions.ready, timeout=WAIT):
        questions.ask(large)
    assert not questions.pending
    wait_for_workers(WAIT)


def test_a_question_built_for_the_old_lesson_is_dropped(qtbot, questions):
    said = []
    for signal in (questions.ready, questions.exhausted, questions.failed):
        signal.connect(said.append)
    questions.ask(IN_A_THREAD)
    assert questions.pending
    questions.set_lesson(None)
    assert wait_for_workers(WAIT)
    QCoreApplication.processEvents()
    assert said == [] and not questions.pending


def test_the_panel_shows_the_failure_and_is_not_left_building(qtbot, monkeypatch):
    from engine.quiz.progress import LESSON
    from widgets.quiz_panel import QuizPanel

    def broken(live, count, kinds):
        raise AssertionError("pair counted but found nowhere")

    monkeypatch.setattr(lesson_questions, "LARGE_LESSON", IN_A_THREAD)
    monkeypatch.setattr(lesson_questions, "next_in_cycle", broken)
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True).train()
    panel = QuizPanel()
    qtbot.addWidget(panel)
    panel.set_lesson(lesson.history, 2)
    with qtbot.waitSignal(panel.lesson_questions.failed, timeout=WAIT):
        panel.set_source(LESSON)
    assert "found nowhere" in panel.notice.text()
    assert "Building" not in panel.message.text()
    assert not panel.lesson_questions.pending
    wait_for_workers(WAIT)
