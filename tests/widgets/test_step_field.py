"""The timeline's "go to step" field asks the session for the step typed, on Return only."""

import pytest
from PySide6.QtCore import Qt

from app.session import Session
from widgets.step_field import StepField


@pytest.fixture
def field(qtbot):
    session = Session()
    made = StepField(session)
    qtbot.addWidget(made)
    return made


def type_step(qtbot, field: StepField, text: str) -> None:
    field.lineEdit().selectAll()
    qtbot.keyClicks(field.lineEdit(), text)


def test_a_typed_step_is_gone_to_on_return(field, qtbot):
    session = field.session
    asked = []
    session.step_changed.connect(lambda change: asked.append(change.step))
    type_step(qtbot, field, "4")
    assert session.step == 0 and asked == []  # a digit typed is not yet a request
    qtbot.keyClick(field.lineEdit(), Qt.Key.Key_Return)
    assert session.step == 4 and asked == [4]


def test_the_field_follows_the_lesson_and_keeps_to_its_steps(field, qtbot):
    session = field.session
    session.request_step(2)
    assert field.value() == 2 and field.maximum() == session.last_step > 2
    type_step(qtbot, field, str(session.last_step * 10))
    qtbot.keyClick(field.lineEdit(), Qt.Key.Key_Return)
    assert session.step <= session.last_step


def test_with_no_lesson_the_field_is_off(qtbot):
    session = Session()
    session.request_corpus("", False)
    qtbot.waitUntil(lambda: session.state is None, timeout=5000)
    field = StepField(session)
    qtbot.addWidget(field)
    assert not field.isEnabled()
