"""A quiz question about the live lesson hides the Pairs panel, which would answer it, until answered."""

from engine.quiz.progress import LESSON


def test_the_pairs_are_hidden_until_the_question_on_this_step_is_answered(make_window, qtbot):
    window = make_window()
    window.show()
    qtbot.waitExposed(window)
    pairs = window.pairs_panel
    assert pairs.table.isVisible()
    quiz = window.views["Quiz"]
    window.show_view("Quiz")
    quiz.set_source(LESSON)
    qtbot.waitUntil(lambda: quiz.current_question() is not None, timeout=10000)
    question = quiz.current_question()
    assert question.title == "Which pair merges next?"
    # the crowned "next" pair and its count are the answer
    assert not pairs.table.isVisible() and not pairs.heading.isVisible()
    assert pairs.answer_cover.label.isVisible()
    # another view in the centre: the question is out of sight, and the pairs are back
    window.show_view("Tiles")
    assert pairs.table.isVisible() and not pairs.answer_cover.label.isVisible()
    window.show_view("Quiz")
    assert not pairs.table.isVisible()
    quiz.answer_digit(1 + [o.correct for o in question.options].index(True))
    quiz.check()
    assert pairs.table.isVisible() and pairs.heading.text().startswith("Next:")
    quiz.next_question()
    assert quiz.current_question() is not question and not pairs.table.isVisible()


def test_in_teacher_mode_the_pairs_wait_for_the_reveal(make_window, qtbot):
    window = make_window()
    window.show()
    qtbot.waitExposed(window)
    quiz = window.views["Quiz"]
    window.show_view("Quiz")
    quiz.set_teacher_mode(True)
    quiz.set_source(LESSON)
    qtbot.waitUntil(lambda: quiz.current_question() is not None, timeout=10000)
    question = quiz.current_question()
    quiz.answer_digit(1 + [o.correct for o in question.options].index(True))
    quiz.check()
    assert not window.pairs_panel.table.isVisible()  # checked, not yet shown to the class
    quiz.reveal()
    assert window.pairs_panel.table.isVisible()
