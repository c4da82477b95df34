import pytest

from engine.errors import InternalError
from engine.vote.question import VoteOption, VoteQuestion, VoteQuestionError

from .questions import FILL, PAIR


def test_phones_get_the_prompt_and_the_choices_but_never_the_answer_or_the_note():
    sent = PAIR.to_json()
    assert sent == {"qid": "merge-1", "kind": "pair", "prompt": "Which pair merges next?", "options": [
        {"key": "0", "label": "e + s", "tokens": ["e", "s"]},
        {"key": "1", "label": "s + t", "tokens": ["s", "t"]},
        {"key": "2", "label": "t + </w>", "tokens": ["t", "</w>"]}]}
    assert "correct" not in str(sent) and "first met" not in str(sent)
    assert "</w>" not in str(FILL.to_json()) and FILL.to_json()["options"] == []


@pytest.mark.parametrize("kind, options, correct", [
    ("poll", (VoteOption("0", "a"),), ()),  # no such kind
    ("choose", (), ()),  # nothing to choose
    ("choose", (VoteOption("0", "a"), VoteOption("0", "b")), ()),  # a key twice
    ("choose", (VoteOption("0", "a"),), ("1",)),  # right answer not offered
    ("number", (VoteOption("0", "a"),), ()),  # a number has no options
])
def test_a_question_no_phone_could_answer_is_a_bug_reported_at_once(kind, options, correct):
    with pytest.raises(VoteQuestionError) as caught:
        VoteQuestion("q", kind, "?", options, correct)
    assert isinstance(caught.value, InternalError)


def test_only_a_number_question_has_a_tolerance_and_never_a_negative_one():
    VoteQuestion("n", "number", "About?", correct=("2.5",), tolerance=0.5)
    for kind, tolerance in (("number", -0.5), ("fill", 1.0)):
        with pytest.raises(VoteQuestionError):
            VoteQuestion("n", kind, "About?", correct=("2.5",), tolerance=tolerance)
