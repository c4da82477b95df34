"""Wherever the quiz turns text into a number (a pack's gaps, a student's answer, saved progress)
or a link into a file name, text that no number or name can be is a ``BpeLabError`` or a refused
answer: Python's own limits (4,300 digits for a whole number, no NUL in a path) never show through."""

import json
import random

import pytest

from engine.errors import BpeLabError
from engine.formats.schema import shown
from engine.quiz import load_pack
from engine.quiz.grading import grade
from engine.quiz.images import ImageFiles, image_path, with_images
from engine.quiz.packs import FORMAT
from engine.quiz.questions import ChooseQuestion, FillQuestion, NumberQuestion, Option, OrderQuestion, Pack
from engine.quiz.progress import BUNDLED, ProgressError, QuizProgress, read_progress

LONG = "9" * 4301
GOOD = {"id": "n", "kind": "number", "prompt": "2 + 2?", "answer": 4}


def write_pack(path, *questions):
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "questions": [*questions, GOOD]}), encoding="utf-8")
    return path


@pytest.mark.parametrize("digits", [4300, 4301, 100_000])
def test_a_gap_numbered_past_pythons_digits_is_a_problem_of_its_question(tmp_path, digits):
    fill = {"id": "f", "kind": "fill", "prompt": "Fill it.", "text": f"a [[{'9' * digits}]] b", "blanks": [["x"]]}
    pack = load_pack(write_pack(tmp_path / "p.json", fill))
    assert [q.id for q in pack.questions] == ["n"]
    assert "question 'f'" in pack.errors[0] and "[[999999999...]]" in pack.errors[0]
    assert len(pack.errors[0]) < 300
    md = tmp_path / "p.md"
    md.write_text(f'---\nkind: "question"\nid: "q"\n---\nFill [[{"9" * digits}]] in.\n\n'
                  '```json\n{"type": "fill", "blanks": [["x"]]}\n```\n', encoding="utf-8")
    assert load_pack(md).questions == () and "[[999999999...]]" in load_pack(md).errors[0]


@pytest.mark.parametrize("field, text", [
    ("prompt", "See ![the tiles](tiles%00.png)."),
    ("hint", "![x](<a\x00b.png>)"),
    ("explanation", "![x][pic]\n\n[pic]: a%00.png"),
])
def test_an_image_link_no_file_can_be_named_by_is_refused_where_the_pack_is_read(tmp_path, field, text):
    question = dict(GOOD, id="q", **{field: text})
    pack = load_pack(write_pack(tmp_path / "p.json", question))
    assert [q.id for q in pack.questions] == ["n"]
    assert "question 'q'" in pack.errors[0] and "NUL character" in pack.errors[0]


def test_an_image_link_in_code_is_text_and_not_refused(tmp_path):
    pack = load_pack(write_pack(tmp_path / "p.json", dict(GOOD, id="q", prompt="Write `![x](a%00.png)` to break it.")))
    assert [q.id for q in pack.questions] == ["q", "n"] and pack.errors == ()


@pytest.mark.parametrize("url", ["a%00.png", "<a\x00.png>", "x" * 300 + ".png", "a/" + "b" * 256 + "/c.png"])
def test_an_image_shown_from_a_name_no_file_can_have_is_a_note(tmp_path, url):
    with pytest.raises(BpeLabError):
        image_path(tmp_path, url)
    assert "not shown" in with_images(f"![pic]({url})", tmp_path, ImageFiles())


@pytest.mark.parametrize("answer", [LONG, "-" + LONG, "1e400", 10 ** 5000, float("inf"), float("nan")],
                         ids=["long", "-long", "1e400", "10**5000", "inf", "nan"])
def test_a_number_answer_past_any_float_is_refused_not_raised(answer):
    result = grade(NumberQuestion("n", "?", answer=4), answer)
    assert not result.valid and "number" in result.message and len(result.message) < 120


@pytest.mark.parametrize("answer", [[LONG], [10 ** 5000], [float("inf")], [float("nan")], LONG],
                         ids=["[long]", "[10**5000]", "[inf]", "[nan]", "long"])
def test_chosen_or_ordered_indices_past_any_number_are_refused(answer):
    choose = ChooseQuestion("c", "?", options=(Option("a", correct=True), Option("b")))
    order = OrderQuestion("o", "?", items=("a", "b"))
    assert not grade(choose, answer).valid
    assert not grade(order, [*answer, 0] if isinstance(answer, list) else answer).valid


def test_a_fill_answer_of_digits_is_text():
    fill = FillQuestion("f", "?", text="[[1]]", blanks=(("42",),))
    assert grade(fill, [LONG]).parts == (False,) and grade(fill, ["42"]).correct


def test_a_value_too_long_to_write_is_named_in_a_message():
    assert shown(10 ** 5000) == "a number too long to show" and shown([1, 10 ** 5000]) == "a number too long to show"


# -- saved progress --------------------------------------------------------------------------

PACK = Pack("Test", (NumberQuestion("a", "1 + 1?", answer=2), NumberQuestion("b", "2 + 2?", answer=4)))


@pytest.mark.parametrize("data", [
    {"version": 1, "source": "file:pack\x00.json"},
    {"version": 1, "source": "file:pack\udc80.json"},
    {"version": 10 ** 5000},
], ids=["NUL", "surrogate", "version 10**5000"])
def test_progress_naming_what_no_file_or_version_can_be_is_refused_before_the_quiz_changes(data):
    quiz = QuizProgress(PACK)
    quiz.check("2")
    quiz.next()
    before = quiz.progress()
    with pytest.raises(ProgressError):
        read_progress(data)
    assert not quiz.restore_progress(data)
    assert quiz.progress() == before and "not loaded" in quiz.notice


@pytest.mark.parametrize("bad", ["gap", "image"])
def test_progress_naming_a_pack_the_reader_refuses_gives_way_to_the_first_pack(tmp_path, bad):
    question = ({"id": "f", "kind": "fill", "prompt": "?", "text": f"[[{LONG}]]", "blanks": [["x"]]} if bad == "gap"
                else dict(GOOD, id="i", prompt="![x](a%00.png)"))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "questions": [question]}), encoding="utf-8")
    quiz = QuizProgress(PACK)
    assert quiz.restore_progress({"version": 1, "source": f"file:{path}", "position": 0,
                                  "answers": {"a": {"score": 1, "correct": True}}})
    assert quiz.source == BUNDLED and "could not be opened again" in quiz.notice and str(path) in quiz.notice
    assert quiz.score() == (1.0, 1)


@pytest.mark.parametrize("data, score, position", [
    ({"answers": {"a": {"score": 10 ** 4299}}}, (1.0, 1), 0),
    ({"answers": {"a": {"score": -(10 ** 400)}}}, (0.0, 1), 0),
    ({"answers": {"a\udc80": {"score": 1}}}, (0, 0), 0),
    ({"position": 10 ** 5000}, (0, 0), 0),
    ({"position": -1}, (0, 0), 0),
    ({"position": 1}, (0, 0), 1),
], ids=["score 10**4299", "score -10**400", "surrogate id", "position 10**5000", "position -1", "position 1"])
def test_numbers_out_of_every_range_keep_their_defaults(data, score, position):
    saved = read_progress(data)
    quiz = QuizProgress(PACK)
    assert quiz.restore_progress(data)
    assert quiz.score() == score and saved.position == position == quiz.index
    json.dumps(quiz.progress(), ensure_ascii=False).encode("utf-8")  # what is kept can be saved again


NASTY = [None, True, 0, -1, 1, 2, 10 ** 4300, 10 ** 5000, -(10 ** 5000), 1e308, float("inf"), float("nan"),
         "", "1", LONG, "\x00", "\udc80", "file:", "file:x.json", "file:x\x00.json", "file:a%00.md", "lesson",
         "bundled", [], [1, [2]], {}, {"score": 1}, {"score": 10 ** 5000, "correct": "yes"}]


def mutated(rng: random.Random, value, depth=0):
    """``value`` with one part replaced, removed or added: a damaged progress record."""
    if isinstance(value, dict) and value and depth < 3 and rng.random() < 0.8:
        key = rng.choice(list(value))
        choice = rng.random()
        if choice < 0.2:
            return {k: v for k, v in value.items() if k != key}
        if choice < 0.3:
            return {**value, rng.choice(["x", "\udc80", LONG, "version"]): rng.choice(NASTY)}
        return {**value, key: mutated(rng, value[key], depth + 1)}
    return rng.choice(NASTY)


def test_damaged_progress_is_read_or_refused_never_an_error_of_another_class():
    rng = random.Random(20261201)
    quiz = QuizProgress(PACK)
    quiz.check("2")
    good = quiz.progress()
    for _ in range(600):
        data = mutated(rng, mutated(rng, good))
        try:
            read_progress(data)
        except BpeLabError:
            pass
        again = QuizProgress(PACK)
        again.restore_progress(data)
        json.dumps(again.progress(), ensure_ascii=False).encode("utf-8")
