"""A published concept page opened in the quiz tab: its questions, misconception feedback with the
fix, worked examples and reading text all reach the screen."""

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from widgets.quiz_panel import QuizPanel

PAGE = Path(__file__).parents[2] / "engine" / "quiz" / "data" / "published_page.md"


@pytest.fixture
def panel(qtbot):
    p = QuizPanel()
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    qtbot.waitExposed(p)
    assert p.open_pack(str(PAGE))
    return p


def test_every_question_of_the_page_is_offered(panel):
    assert len(panel.pack.questions) == 6
    shown = panel.shown().prompt
    assert shown.startswith("The corpus is low ×5") and shown.rstrip().endswith("occur?")
    assert "Published" not in shown and "Source:" not in shown


def test_a_wrong_answer_shows_the_misconception_and_its_fix(qtbot, panel):
    qtbot.keyClicks(panel.focusWidget(), "2")
    qtbot.keyClick(panel.focusWidget(), Qt.Key.Key_Return)
    text = panel.misconception.text()
    assert "Tokens are the pieces" in text and "Count the tiles" in text
    # the fix is its own part, and nothing of the next section runs on into it
    assert "Every language" not in text and "Version" not in text


def test_worked_examples_and_readings_share_the_picker(qtbot, panel):
    assert panel.examples_button.isVisible()
    panel.show_examples()
    view = panel.example_view
    titles = [view.picker.itemText(i) for i in range(view.picker.count())]
    assert titles == ["The first merge", "Encoding a new word", "Reading: What a token is", "Reading: encoding"]
    assert view.counter.text() == "Step 1 of 3"
    view.picker.setCurrentIndex(2)
    assert "A tokenizer cuts text" in view.text.text()
    assert not view.counter.isVisible() and not view.next.isEnabled()
    view.picker.setCurrentIndex(0)
    assert view.counter.isVisible() and view.next.isEnabled()
