"""The quiz's state machine without Qt: answering, refusing, hints, teacher mode's hidden verdict
and score, moving between questions, lesson questions, and progress through a lesson file."""

import json

import pytest

from engine.formats.lesson_file import LessonFile, load_lesson, save_lesson
from engine.quiz.generated import MISCONCEPTIONS
from engine.quiz.packs import FORMAT
from engine.quiz.questions import ChooseQuestion, Misconception, NumberQuestion, Option, Pack
from engine.quiz.progress import BUNDLED, LESSON, ProgressError, QuizProgress, read_progress

WORD = Misconception("token-is-word", "A token is a word", "It is a piece.")
COUNT = NumberQuestion("count", "How many times does `s t` occur?", hint="Weight by count.", answer=9,
                       reveal_step=3)
THIRDS = ChooseQuestion("thirds", "Pick the right three.", multiple=True, options=(
    Option("a", correct=True), Option("b", correct=True), Option("c", correct=True), Option("d")))
ONE = ChooseQuestion("one", "Pick the second.", options=(
    Option("first", misconception="token-is-word"), Option("second", correct=True)))
PACK = Pack("Test pack", (COUNT, THIRDS, ONE), {WORD.id: WORD})


@pytest.fixture
def quiz():
    return QuizProgress(PACK)


def test_a_right_answer_scores_and_locks_the_visit(quiz):
    result = quiz.check("9")
    assert result.correct and quiz.result is result and quiz.revealed
    assert quiz.score() == (1.0, 1) and quiz.score_text() == "Score: 1 of 1"
    assert not quiz.can_check and quiz.check("8") is None  # checked once per visit
    assert quiz.return_action() == "next"


def test_an_answer_that_cannot_be_graded_is_refused_and_not_counted(quiz):
    refused = quiz.check("  ")
    assert not refused.valid and quiz.refusal == refused.message and "number" in refused.message
    assert quiz.result is None and quiz.can_check and quiz.score() == (0.0, 0)
    assert quiz.score_text() == "Score: nothing answered yet"
    assert quiz.check("1").valid and quiz.refusal == ""


def test_a_wrong_answer_names_its_misconception(quiz):
    quiz.go_to(2)
    result = quiz.check([0])
    assert not result.correct and result.misconception is WORD
    assert quiz.score() == (0.0, 1)


def test_the_first_checked_answer_is_the_one_the_score_keeps(quiz):
    quiz.check("9")
    quiz.go_to(1)
    quiz.go_to(0)
    assert quiz.result is None and quiz.position_text() == "Question 1 of 3 · answered before"
    assert not quiz.check("8").correct
    assert quiz.score() == (1.0, 1) and quiz.position_text() == "Question 1 of 3"


def test_a_hint_once_and_only_where_there_is_one(quiz):
    assert quiz.can_hint and not quiz.hinted
    assert quiz.show_hint() and quiz.hinted and not quiz.can_hint
    assert not quiz.show_hint()
    quiz.next()
    assert not quiz.hinted and not quiz.can_hint and not quiz.show_hint()  # THIRDS has no hint


def test_moving_through_a_pack(quiz):
    first = quiz.visit
    quiz.check("9")
    quiz.next()
    assert quiz.question is THIRDS and quiz.visit != first and quiz.result is None
    assert quiz.go_to(2) and quiz.question is ONE and not quiz.has_more and not quiz.can_go_next
    quiz.next()
    assert quiz.question is ONE  # the last question stays
    assert not quiz.go_to(3) and not quiz.go_to(-1) and quiz.question is ONE
    assert quiz.go_to(1) and quiz.question is THIRDS and quiz.position_text() == "Question 2 of 3"


def test_the_tiles_show_the_answer_only_once_the_verdict_is_out(quiz):
    assert quiz.tiles_step() is None
    quiz.check("9")
    assert quiz.tiles_step() == 3
    quiz.next()
    quiz.check([0, 1, 2])
    assert quiz.tiles_step() is None  # a pack question no step shows


def test_teacher_mode_hides_the_verdict_and_the_score_change_until_reveal(quiz):
    quiz.go_to(1)
    assert quiz.check([0, 1]).score == pytest.approx(2 / 3)
    quiz.next()
    quiz.check([0])
    assert quiz.score_text() == "Score: 0.67 of 2"
    quiz.set_teacher_mode(True)
    quiz.go_to(0)
    assert quiz.return_action() == "check"
    quiz.check("1")
    # checked and kept for the lesson file, but the class sees neither verdict nor score yet
    assert quiz.result is not None and not quiz.revealed and quiz.can_reveal
    assert quiz.score() == (pytest.approx(2 / 3), 3) and quiz.progress()["answers"]["count"]["score"] == 0.0
    assert quiz.score_text() == "Score: 0.67 of 2"
    assert quiz.tiles_step() is None and quiz.return_action() == "reveal"
    assert quiz.reveal() and quiz.revealed and not quiz.can_reveal
    assert quiz.score_text() == "Score: 0.67 of 3" and quiz.return_action() == "next"
    assert quiz.tiles_step() == 3 and not quiz.reveal()


def test_a_question_answered_before_changes_no_hidden_score(quiz):
    quiz.check("9")
    quiz.set_teacher_mode(True)
    quiz.go_to(0)
    quiz.check("8")
    assert not quiz.revealed and quiz.score_text() == "Score: 1 of 1"


def test_leaving_teacher_mode_reveals_what_was_hidden(quiz):
    quiz.set_teacher_mode(True)
    quiz.check("9")
    assert not quiz.revealed
    quiz.set_teacher_mode(False)
    assert quiz.revealed and quiz.score_text() == "Score: 1 of 1"


# -- questions about the lesson ---------------------------------------------------------------


class Maker:
    """Builds lesson questions on request: at once, or later (``pending``) as a thread would."""

    def __init__(self, lesson=True, later=False):
        self.lesson, self.later, self.pending = lesson, later, False
        self.asked = 0
        self.quiz = None

    def ask(self) -> bool:
        if not self.lesson:
            return False
        self.asked += 1
        question = NumberQuestion(f"lesson-{self.asked}", "At step 2, how many tokens?", answer=self.asked)
        if self.later:
            self.pending, self.waiting = True, question
        else:
            self.quiz.add_lesson_question(question)
        return True

    def finish(self) -> None:
        self.pending = False
        self.quiz.add_lesson_question(self.waiting)


def with_maker(**kw):
    maker = Maker(**kw)
    maker.quiz = QuizProgress(PACK, maker)
    return maker.quiz, maker


def test_lesson_questions_come_one_at_a_time():
    quiz, maker = with_maker()
    quiz.set_source(LESSON)
    assert quiz.question.id == "lesson-1" and quiz.position_text() == "Lesson question 1"
    assert quiz.pack.misconceptions == MISCONCEPTIONS and quiz.pack.questions == (quiz.question,)
    assert quiz.has_more and quiz.can_go_next and not quiz.go_to(0)
    quiz.check("1")
    quiz.next()
    assert quiz.question.id == "lesson-2" and quiz.result is None and quiz.score() == (1.0, 1)


def test_a_lesson_question_being_built_holds_next_back():
    quiz, maker = with_maker(later=True)
    quiz.set_source(LESSON)
    assert quiz.question is None and quiz.building and "Building" in quiz.empty_reason()
    maker.finish()
    quiz.next()
    assert maker.asked == 2 and quiz.building and not quiz.can_go_next
    quiz.next()
    assert maker.asked == 2  # one question at a time
    maker.finish()
    assert quiz.question.id == "lesson-2"


def test_without_a_lesson_the_quiz_says_so():
    quiz, maker = with_maker(lesson=False)
    quiz.set_source(LESSON)
    assert quiz.question is None and "Open or train a lesson first" in quiz.empty_reason()
    maker.lesson = True
    assert quiz.step_changed(0) and quiz.question.id == "lesson-1"
    assert not quiz.step_changed(0)  # a question is up, about this step: nothing new to ask


def test_a_question_about_another_step_is_replaced_until_it_is_answered():
    quiz, maker = with_maker()
    quiz.lesson_changed(2)
    quiz.set_source(LESSON)
    assert quiz.step_changed(5) and quiz.question.id == "lesson-2"  # lesson-1 was about step 2
    quiz.check("2")
    # "show on the tiles" moves the lesson to where the answer shows: the answered question stays
    assert not quiz.step_changed(7) and quiz.question.id == "lesson-2"
    quiz.set_source(BUNDLED)
    assert not quiz.step_changed(1) and quiz.question is COUNT


def test_a_question_about_another_step_leaves_the_screen_while_its_successor_is_built():
    quiz, maker = with_maker(later=True)
    quiz.set_source(LESSON)
    maker.finish()
    assert quiz.question.id == "lesson-1"
    assert quiz.step_changed(6) and quiz.question is None and "Building" in quiz.empty_reason()
    maker.finish()
    assert quiz.question.id == "lesson-2" and quiz.position_text() == "Lesson question 1"
    assert quiz.pack.questions == (quiz.question,)


def test_a_question_still_being_built_for_another_step_is_asked_again():
    quiz, maker = with_maker(later=True)
    quiz.set_source(LESSON)
    assert quiz.step_changed(4) and maker.asked == 2
    assert not quiz.step_changed(4) and maker.asked == 2


def test_an_empty_pack_says_so():
    quiz = QuizProgress(Pack("empty"))
    assert quiz.question is None and quiz.empty_reason() == "This pack has no questions."
    assert not quiz.can_check and not quiz.can_go_next and quiz.check("1") is None


def test_a_new_lesson_drops_the_old_questions():
    quiz, maker = with_maker()
    quiz.set_source(LESSON)
    quiz.next()
    quiz.lesson_changed()
    assert quiz.pack.questions == (quiz.question,) and quiz.question.id == "lesson-3"
    quiz.set_source(BUNDLED)
    quiz.add_lesson_question(NumberQuestion("late", "?", answer=1))  # built for the lesson, arrived late
    quiz.lesson_changed()
    assert quiz.question is COUNT and maker.asked == 3


def test_a_failed_lesson_question_shows_in_the_notice():
    quiz, _ = with_maker()
    quiz.lesson_failed("Could not build a question from the lesson: boom")
    assert "boom" in quiz.notice
    quiz.set_source(LESSON)
    assert quiz.notice == ""


# -- packs --------------------------------------------------------------------------------------


def write_pack(path, questions):
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "title": "From a file", "questions": questions}))
    return str(path)


def test_a_pack_file_becomes_a_source(quiz, tmp_path):
    path = write_pack(tmp_path / "p.json", [{"id": "f", "kind": "number", "prompt": "1 + 1?", "answer": 2},
                                            {"id": "bad", "kind": "order", "items": []}])
    assert quiz.open_pack(path)
    assert quiz.source == f"file:{path}" and quiz.question.id == "f"
    assert "1 questions loaded; 1 problem:" in quiz.notice
    assert quiz.sources()[-1] == (f"file:{path}", "Pack: From a file")


def test_a_pack_file_with_nothing_good_is_refused(quiz, tmp_path):
    path = write_pack(tmp_path / "bad.json", [{"id": "x", "kind": "order", "items": []}])
    assert not quiz.open_pack(path)
    assert "no question" in quiz.notice and quiz.source == BUNDLED and len(quiz.sources()) == 2
    assert not quiz.open_pack(str(tmp_path / "missing.json")) and quiz.notice


# -- progress -----------------------------------------------------------------------------------


def answered(quiz):
    quiz.check("9")
    quiz.next()
    quiz.check([0, 1])
    quiz.next()
    quiz.set_teacher_mode(True)


def test_progress_round_trip_through_its_saved_form(quiz):
    answered(quiz)
    saved = json.loads(json.dumps(quiz.progress()))
    again = QuizProgress(PACK)
    assert again.restore_progress(saved)
    assert again.score() == quiz.score() and again.question is ONE and again.teacher_mode
    assert again.progress() == quiz.progress()


def test_progress_round_trip_through_a_lesson_file(quiz, tmp_path):
    answered(quiz)
    save_lesson(LessonFile("low 5\n", word_counts=True, quiz=quiz.progress()), tmp_path / "l.bpelab")
    again = QuizProgress(PACK)
    again.restore_progress(load_lesson(tmp_path / "l.bpelab").quiz)
    assert again.score() == (pytest.approx(5 / 3), 2) and again.question is ONE and again.teacher_mode


def test_progress_written_before_the_session_existed_loads_the_same():
    # as the quiz panel saved it into lesson files: keys, types and meaning unchanged
    written = {"version": 1, "source": "bundled", "position": 1,
               "answers": {"count": {"score": 1.0, "correct": True}, "thirds": {"score": 0.5, "correct": False}},
               "teacher_mode": False}
    quiz = QuizProgress(PACK)
    assert quiz.restore_progress(written)
    assert quiz.score() == (1.5, 2) and quiz.question is THIRDS and not quiz.teacher_mode
    assert quiz.progress() == written


def test_a_pack_file_source_is_opened_again(tmp_path):
    path = write_pack(tmp_path / "p.json", [{"id": "f", "kind": "number", "prompt": "1 + 1?", "answer": 2},
                                            {"id": "g", "kind": "number", "prompt": "2 + 2?", "answer": 4}])
    quiz = QuizProgress(PACK)
    quiz.open_pack(path)
    quiz.next()
    again = QuizProgress(PACK)
    again.restore_progress(quiz.progress())
    assert again.source == f"file:{path}" and again.question.id == "g"


def test_a_lesson_source_is_restored_and_asks_afresh():
    quiz, maker = with_maker()
    quiz.set_source(LESSON)
    again, _ = with_maker()
    again.restore_progress(quiz.progress())
    assert again.source == LESSON and again.question.id == "lesson-1"


@pytest.mark.parametrize("data, kept", [
    ({"answers": {"count": {"score": "lots"}, "thirds": {"score": 1}, "x": 3, "y": {"score": float("nan")},
                  "z": {"score": True}, "one": {"score": 7, "correct": "yes"}, "many": {"score": -1, "correct": True}},
      "position": "far", "source": ["file:x"], "teacher_mode": "yes"},
     {"thirds": (1.0, False), "one": (1.0, False), "many": (0.0, True)}),
    ({"answers": [1, 2], "position": True, "source": 5, "teacher_mode": 1}, {}),
    ({"source": "somewhere", "answers": None, "position": 99}, {}),
])
def test_damaged_progress_keeps_what_is_sound(data, kept):
    quiz = QuizProgress(PACK)
    assert quiz.restore_progress(data)
    assert quiz.source == BUNDLED and quiz.question is COUNT and not quiz.teacher_mode
    assert {k: (a.score, a.correct) for k, a in read_progress(data).answers.items()} == kept
    assert quiz.score() == (sum(s for s, _ in kept.values()), len(kept))


def test_a_pack_file_that_no_longer_opens_says_so():
    quiz = QuizProgress(PACK)
    quiz.restore_progress({"version": 1, "source": "file:/nowhere/pack.json", "position": 2, "answers": {}})
    assert quiz.source == BUNDLED and "could not be opened again" in quiz.notice and quiz.question is ONE


def test_a_lesson_opens_no_file_whose_name_is_not_a_packs(tmp_path, monkeypatch):
    import engine.quiz.progress as session

    opened = []
    monkeypatch.setattr(session, "load_pack", lambda path: opened.append(path))
    quiz = QuizProgress(PACK)
    quiz.restore_progress({"version": 1, "source": "file:/home/me/.ssh/id_rsa", "position": 0, "answers": {}})
    assert opened == []
    assert quiz.source == BUNDLED and "only quiz packs named *.json or *.md" in quiz.notice


@pytest.mark.parametrize("data", [["a", "list"], "text", 3, {"version": 2}, {"version": "1"}, {"version": True}])
def test_unreadable_progress_is_refused_and_leaves_the_quiz_as_it_was(quiz, data):
    quiz.check("9")
    quiz.next()
    before = quiz.progress()
    with pytest.raises(ProgressError):
        read_progress(data)
    assert not quiz.restore_progress(data)
    assert quiz.progress() == before and "not loaded" in quiz.notice


def test_nothing_saved_changes_nothing(quiz):
    quiz.check("9")
    assert quiz.restore_progress({}) and quiz.score() == (1.0, 1)


def test_a_pack_is_named_from_the_lesson_folder_only_when_it_lies_inside(tmp_path):
    from engine.quiz.progress import pack_path_relative, pack_path_resolved

    inside = {"source": f"file:{tmp_path / 'packs' / 'a.json'}", "position": 2}
    outside = {"source": f"file:{tmp_path.parent / 'b.json'}"}
    relative = pack_path_relative(inside, tmp_path)
    assert relative == {"source": "file:packs/a.json", "position": 2}
    assert pack_path_resolved(relative, tmp_path / "moved") == {
        "source": f"file:{(tmp_path / 'moved').resolve() / 'packs' / 'a.json'}", "position": 2}
    # a pack elsewhere keeps its full name both ways; other sources and damaged data pass through
    assert pack_path_relative(outside, tmp_path) == outside
    assert pack_path_resolved(outside, tmp_path) == outside
    for data in ({"source": "bundled"}, {"source": 5}, ["not", "an", "object"], None):
        assert pack_path_relative(data, tmp_path) == data and pack_path_resolved(data, tmp_path) == data
