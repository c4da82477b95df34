"""What phones are asked: the projector's own choices and numbering, the right answer kept back."""

from __future__ import annotations

import pytest

from app.session import Session
from app.vote_questions import from_predict, from_quiz
from engine.lesson.lesson import Lesson
from engine.quiz.questions import ChooseQuestion, FillQuestion, NumberQuestion, Option, OrderQuestion, Question
from widgets.classroom.predict import question_for
from widgets.quiz.answers import OrderEditor

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


@pytest.fixture
def session(qapp):
    return Session(Lesson(CLASSIC, word_counts=True))


def test_a_predict_question_keeps_the_projectors_order_and_numbering(session):
    q = question_for(session)
    vote = from_predict(q)
    assert vote.kind == "pair" and vote.qid == "merge-1"
    assert [o.key for o in vote.options] == [str(i) for i in range(len(q.choices))]
    assert [o.label for o in vote.options] == [q.pair_text(c.pair) for c in q.choices]
    assert vote.correct == (str(q.winner_index),)
    assert vote.options[q.winner_index].tokens == ("e", "s")


def test_the_marker_reads_as_on_the_tiles(session):
    session.request_step(2)  # next: es t + </w>
    vote = from_predict(question_for(session))
    assert ("est", "</w>") in [o.tokens for o in vote.options]


def test_tied_choices_carry_the_tie_rule_and_an_untied_question_none(session):
    first = question_for(session)  # e s, s t and t </w> all 9
    assert first.choices_tie
    assert from_predict(first).note == first.tie_note() and "tie goes to" in from_predict(first).note
    untied = next(s for s in range(1, session.last_step) if not _ties(session, s))
    session.request_step(untied)
    assert from_predict(question_for(session)).note == ""


def _ties(session, step):
    session.request_step(step)
    q = question_for(session)
    return q is None or q.choices_tie


def test_the_answer_never_goes_to_phones(session):
    shown = from_predict(question_for(session)).to_json()
    assert "correct" not in shown and "note" not in shown


def test_choose_one_and_choose_many():
    options = (Option("`a`"), Option("b", correct=True), Option("c", correct=True))
    one = from_quiz(ChooseQuestion(id="c1", prompt="Which **one**?", options=options[:2]))
    many = from_quiz(ChooseQuestion(id="c2", prompt="Which?", options=options, multiple=True, hint="secret hint"))
    assert (one.kind, one.prompt, one.correct) == ("choose", "Which one?", ("1",))
    assert [o.label for o in one.options] == ["a", "b"]
    assert (many.kind, many.correct) == ("multi", ("1", "2"))
    assert "secret hint" not in str(many.to_json())


def test_a_number_and_its_tolerance():
    exact = from_quiz(NumberQuestion(id="n", prompt="How many?", answer=9))
    near = from_quiz(NumberQuestion(id="n2", prompt="About?", answer=2.5, tolerance=0.5))
    assert (exact.kind, exact.correct, exact.note) == ("number", ("9",), "")
    assert near.correct == ("2.5",) and "0.5" in near.note and near.tolerance == 0.5
    assert "tolerance" not in near.to_json()


def test_a_number_within_the_tolerance_is_right_at_the_reveal_as_the_quiz_marks_it():
    from engine.quiz.grading import grade
    from engine.vote.tally import count

    quiz = NumberQuestion(id="n2", prompt="About?", answer=2.5, tolerance=0.5)
    vote = from_quiz(quiz)
    answers = [("2",), ("3",), ("3.25",), ("1.9",), ("2.5",)]
    rows = {r.label: r.correct for r in count(vote, 1, False, answers).rows}
    assert rows == {"2": True, "3": True, "3.25": False, "1.9": False, "2.5": True}
    assert rows == {a: grade(quiz, float(a)).correct for (a,) in answers}


def test_a_fill_question_shows_its_gaps():
    one = from_quiz(FillQuestion(id="f", prompt="Fill it", text="A [[1]] is a piece.", blanks=(("token", "tokens"),)))
    two = from_quiz(FillQuestion(id="g", prompt="", text="A [[1]] is not a [[2]].", blanks=(("token",), ("word",))))
    assert one.kind == "fill" and "A ____ is a piece." in one.prompt and one.correct == ("token", "tokens")
    assert "[ 1 ]" in two.prompt and "[ 2 ]" in two.prompt and two.correct == ("token / word",)


def test_an_order_question_lists_its_items_as_the_panel_does(qtbot):
    q = OrderQuestion(id="o", prompt="Order", items=("a", "b", "c", "d"))
    vote = from_quiz(q, seed=3)
    editor = OrderEditor(q, seed=3)
    qtbot.addWidget(editor)
    assert [o.label for o in vote.options] == [editor.list.item(i).text() for i in range(editor.list.count())]
    assert vote.correct == ("0", "1", "2", "3")
    assert [o.key for o in vote.options] != ["0", "1", "2", "3"]  # shuffled, never the answer


def test_a_kind_phones_cannot_answer_is_none():
    assert from_quiz(Question(id="q", prompt="?")) is None


def test_typed_answers_are_bars_the_most_given_first_the_right_one_kept(qtbot):
    from PySide6.QtWidgets import QWidget

    from app.vote_tally import reveal_of
    from engine.vote.ballot import VoteSession
    from engine.vote.question import VoteQuestion
    from widgets.classroom.vote_reveal import VoteReveal

    q = VoteQuestion("quiz-n", "number", "How many?", correct=("2",))
    session = VoteSession()
    session.show(q)
    session.open_round()
    answers = ["9", "9", "10", "3", "3.0", "2"] + [str(n) for n in range(20, 32)]
    for i, answer in enumerate(answers):
        session.vote(session.room_code, f"voter-{i:012d}", q.qid, answer)
    session.close_round()
    reveal = reveal_of(q, session.round_tallies())
    assert [b.label for b in reveal.bars[:4]] == ["3", "9", "2", "10"]  # 3 and 3.0 are one answer
    assert [b.correct for b in reveal.bars[:4]] == [False, False, True, False]
    host = QWidget()
    qtbot.addWidget(host)
    host.resize(1024, 400)  # room for a few rows: the rest are summed, the right answer still shown
    host.show()
    chart = VoteReveal(host)
    chart.show_reveal(reveal)
    chart.grab()
    shown = [bar for _row, bar in chart.rows]
    assert len(shown) < len(reveal.bars) and any(b.correct for b in shown)
    assert shown[-1].label.endswith("other answers") and sum(b.counts[0] for b in shown) == len(answers)
