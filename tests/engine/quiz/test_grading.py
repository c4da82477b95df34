"""Grading of every kind: right, wrong, tolerance, alternatives, part marks, order, misconceptions."""

import pytest

from engine.quiz import grade
from engine.quiz.grading import parse_number
from engine.quiz.questions import (
    ChooseQuestion,
    FillQuestion,
    Misconception,
    NumberQuestion,
    Option,
    OrderQuestion,
    WrongAnswer,
)

WORD = Misconception("token-is-word", "A token is a word", "why not", "what instead")
KNOWN = {WORD.id: WORD}


def number(**kw):
    return NumberQuestion(id="n", prompt="How many?", **kw)


def test_number_exact():
    q = number(answer=9)
    assert grade(q, "9").correct
    assert grade(q, 9).score == 1.0
    wrong = grade(q, "8")
    assert not wrong.correct and wrong.score == 0 and "9" in wrong.message and "too low" in wrong.message


def test_number_tolerance_is_inclusive_on_both_sides():
    q = number(answer=400, tolerance=40)
    assert grade(q, "360").correct and grade(q, "440").correct and grade(q, "400").correct
    assert not grade(q, "359").correct and not grade(q, "441").correct


def test_number_accepts_what_people_type():
    assert parse_number(" 1,000 ") == 1000
    assert parse_number("1 000") == 1000
    assert parse_number("1.5") == parse_number("1,5") == 1.5
    assert grade(number(answer=1.5, tolerance=0.01), "1,50").correct


def test_number_wrong_answer_names_its_misconception():
    q = number(answer=2, wrong=(WrongAnswer(1, "token-is-word"),))
    result = grade(q, "1", KNOWN)
    assert not result.correct and result.misconception == WORD
    assert grade(q, "3", KNOWN).misconception is None


def test_number_nonsense_is_not_an_attempt():
    q = number(answer=2)
    for answer in ("", "   ", "two", None):
        result = grade(q, answer)
        assert not result.valid and not result.correct and result.message


def choose(multiple=False, correct=(0,), misconception_on=None):
    options = tuple(
        Option(f"option {i}", i in correct, "token-is-word" if i == misconception_on else "") for i in range(4)
    )
    return ChooseQuestion(id="c", prompt="Which?", options=options, multiple=multiple)


def test_choose_one_right_and_wrong_with_misconception():
    q = choose(correct=(2,), misconception_on=1)
    assert grade(q, 2).correct and grade(q, [2]).correct
    wrong = grade(q, 1, KNOWN)
    assert not wrong.correct and wrong.misconception == WORD and "option 2" in wrong.message
    assert grade(q, 3, KNOWN).misconception is None
    assert not grade(q, [1, 2]).valid
    assert not grade(q, []).valid
    assert not grade(q, [7]).valid


@pytest.mark.parametrize(
    "chosen, score",
    [
        ({0, 1, 2}, 1.0),
        ({0, 1}, 2 / 3),
        ({0}, 1 / 3),
        ({0, 1, 3}, 1 / 3),  # two found, one wrong
        ({0, 3}, 0.0),
        ({3}, 0.0),
    ],
)
def test_choose_many_gives_part_marks(chosen, score):
    q = choose(multiple=True, correct=(0, 1, 2), misconception_on=3)
    result = grade(q, chosen, KNOWN)
    assert result.score == pytest.approx(score)
    assert result.correct == (chosen == {0, 1, 2})
    assert (result.misconception == WORD) == (3 in chosen)


def test_choose_many_says_how_many_were_found():
    q = choose(multiple=True, correct=(0, 1, 2))
    assert "2 of the 3" in grade(q, {0, 1}).message


def fill(**kw):
    return FillQuestion(id="f", prompt="", text="A [[1]] is not a [[2]].", blanks=(("token", "tokens"), ("word",)), **kw)


def test_fill_accepts_alternatives_ignoring_case_and_spaces():
    q = fill()
    assert grade(q, ["Tokens", "  WORD "]).correct
    assert grade(q, ["token", "word"]).correct


def test_fill_accepts_plural_and_spacing_forms_of_a_listed_answer():
    q = FillQuestion(id="f", prompt="", text="[[1]] [[2]] [[3]]",
                     blanks=(("message", "turn"), ("white space",), ("special",)))
    assert grade(q, ["messages", "whitespace", "Specials"]).correct
    assert grade(q, ["turns", "white-space", "special"]).correct
    assert grade(q, ["Message", "White  Space", "special"]).correct
    # other words stay wrong: a form is only a listed answer's plural or spacing
    assert grade(q, ["massage", "space", "spatial"]).parts == (False, False, False)


def test_the_bundled_chat_markers_gap_takes_messages():
    from resources.quiz import bundled_pack

    q = next(q for q in bundled_pack().questions if q.id == "chat-markers")
    assert grade(q, ["messages", "special", "end"]).correct


def test_fill_counts_each_gap():
    q = fill()
    result = grade(q, ["token", "letter"])
    assert not result.correct and result.score == 0.5 and result.parts == (True, False)
    assert "gap 2" in result.message and "word" in result.message
    assert not grade(q, ["", " "]).valid


def test_fill_can_be_case_sensitive():
    q = fill(case_sensitive=True)
    assert not grade(q, ["Token", "word"]).correct
    assert grade(q, ["token", "word"]).correct


def test_order_right_and_wrong():
    q = OrderQuestion(id="o", prompt="Order", items=("a", "b", "c", "d"))
    assert grade(q, [0, 1, 2, 3]).correct
    result = grade(q, [0, 2, 1, 3])
    assert not result.correct and result.score == 0 and result.parts == (True, False, False, True)
    assert "2 of 4" in result.message and "a → b → c → d" in result.message
    assert not grade(q, [0, 1, 2]).valid
    assert not grade(q, [0, 0, 1, 2]).valid
