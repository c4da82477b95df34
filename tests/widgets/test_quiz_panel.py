"""The quiz panel: answering with the keyboard alone, feedback, teacher mode, lesson questions,
progress saved through the lesson file."""

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from engine import Corpus, Settings, train
from engine.lesson.history import History
from engine.formats.lesson_file import LessonFile, lesson_from_data
from engine.quiz import grade, pack_from_data
from engine.quiz.packs import FORMAT
from engine.quiz.progress import LESSON
from widgets.quiz_panel import QuizPanel

MD_PACK = Path(__file__).parents[1] / "engine" / "quiz" / "data" / "concepts.md"

PACK = {
    "format": FORMAT, "version": 1, "title": "Test pack",
    "misconceptions": [{"id": "token-is-word", "title": "A token is a word", "text": "It is a piece.", "fix": "Count tiles."}],
    "questions": [
        {"id": "n", "kind": "number", "title": "Count", "prompt": "How many times does `s t` occur?", "answer": 9,
         "hint": "Weight by count.", "explanation": "6 + 3 = 9.", "wrong": [{"answer": 1, "misconception": "token-is-word"}]},
        {"id": "one", "kind": "choose", "prompt": "Pick the second.",
         "options": [{"text": "first", "misconception": "token-is-word"}, {"text": "second", "correct": True}, {"text": "third"}]},
        {"id": "many", "kind": "choose", "multiple": True, "prompt": "Pick first and third.",
         "options": [{"text": "first", "correct": True}, {"text": "second"}, {"text": "third", "correct": True}]},
        {"id": "gaps", "kind": "fill", "text": "A [[1]] is not a [[2]].", "blanks": [["token"], ["word"]]},
        {"id": "order", "kind": "order", "prompt": "Order them.", "items": ["alpha", "beta", "gamma", "delta"]},
    ],
    "examples": [{"id": "ex", "title": "An example", "steps": ["one", "two", "three"]}],
}


@pytest.fixture
def panel(qtbot):
    p = QuizPanel(pack_from_data(PACK, "test.json"))
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    qtbot.waitExposed(p)
    p.activateWindow()
    return p


def key(qtbot, panel, k, modifier=Qt.KeyboardModifier.NoModifier):
    """A key press on whatever has the focus, as a person at the keyboard would."""
    target = panel.focusWidget() or panel
    qtbot.keyClick(target, k, modifier)


def test_number_by_keyboard_right_then_return_moves_on(qtbot, panel):
    assert panel.current_question().id == "n"
    qtbot.keyClicks(panel.focusWidget(), "9")
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.verdict.text().startswith("✔")
    assert "6 + 3 = 9" in panel.why.text()
    assert panel.score() == (1.0, 1)
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.current_question().id == "one"


def test_wrong_number_shows_the_misconception_and_why(qtbot, panel):
    qtbot.keyClicks(panel.focusWidget(), "1")
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.verdict.text().startswith("✘")
    assert "9" in panel.why.text()
    assert "A token is a word" in panel.misconception.text() and "Count tiles." in panel.misconception.text()
    assert panel.score() == (0.0, 1)


def test_an_empty_answer_is_not_counted(qtbot, panel):
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.score() == (0.0, 0)
    assert "number" in panel.verdict.text().lower()
    assert panel.check_button.isEnabled()


def test_hint_on_request(qtbot, panel):
    assert not panel.hint.isVisible()
    key(qtbot, panel, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    assert panel.hint.isVisible() and "Weight by count." in panel.hint.text()


def test_choose_one_with_digit_keys(qtbot, panel):
    panel.go_to(1)
    key(qtbot, panel, Qt.Key.Key_1)
    key(qtbot, panel, Qt.Key.Key_2)
    assert panel.editor.answer() == [1]
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.verdict.text().startswith("✔")


def test_choose_one_wrong_option_names_its_misconception(qtbot, panel):
    panel.go_to(1)
    key(qtbot, panel, Qt.Key.Key_1)
    key(qtbot, panel, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert "A token is a word" in panel.misconception.text()


def test_choose_many_part_marks_by_keyboard(qtbot, panel):
    panel.go_to(2)
    key(qtbot, panel, Qt.Key.Key_1)
    key(qtbot, panel, Qt.Key.Key_2)
    key(qtbot, panel, Qt.Key.Key_2)  # toggled off again
    assert panel.editor.answer() == [0]
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.score() == (0.5, 1)
    assert "Partly" in panel.verdict.text()
    assert "(missed)" in panel.editor.labels[2].text()


def test_choose_by_mouse_on_the_button_or_its_text(qtbot, panel):
    panel.go_to(1)
    qtbot.mouseClick(panel.editor.labels[0], Qt.MouseButton.LeftButton)
    assert panel.editor.answer() == [0]
    qtbot.mouseClick(panel.editor.buttons[1], Qt.MouseButton.LeftButton)
    assert panel.editor.answer() == [1]
    qtbot.mouseClick(panel.check_button, Qt.MouseButton.LeftButton)
    assert panel.score() == (1.0, 1)
    qtbot.mouseClick(panel.editor.labels[0], Qt.MouseButton.LeftButton)
    assert panel.editor.answer() == [1]  # locked once checked


def test_fill_by_keyboard_return_moves_to_the_next_gap(qtbot, panel):
    panel.go_to(3)
    qtbot.keyClicks(panel.focusWidget(), "Token")
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.focusWidget() is panel.editor.edits[1]
    qtbot.keyClicks(panel.focusWidget(), "word")
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.verdict.text().startswith("✔") and panel.score() == (1.0, 1)


def test_order_by_keyboard_alone(qtbot, panel):
    panel.go_to(4)
    editor = panel.editor
    assert editor.answer() != [0, 1, 2, 3]  # shown shuffled
    # selection sort with Alt+arrows: bring each item up to its place
    for target in range(4):
        row = editor.answer().index(target)
        editor.list.setCurrentRow(row)
        for _ in range(row - target):
            key(qtbot, panel, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert editor.answer() == [0, 1, 2, 3]
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.verdict.text().startswith("✔")


def test_order_arrow_keys_select_and_ctrl_moves(qtbot, panel):
    panel.go_to(4)
    editor = panel.editor
    editor.list.setFocus()
    editor.list.setCurrentRow(0)
    first = editor.answer()[0]
    key(qtbot, panel, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert editor.answer()[1] == first and editor.list.currentRow() == 1
    key(qtbot, panel, Qt.Key.Key_Down)
    assert editor.list.currentRow() == 2 and editor.answer()[1] == first


def test_order_move_buttons_for_the_mouse(qtbot, panel):
    panel.go_to(4)
    editor = panel.editor
    editor.list.setCurrentRow(1)
    second = editor.answer()[1]
    up = next(b for b in editor.findChildren(type(panel.check_button)) if b.text() == "Move up")
    qtbot.mouseClick(up, Qt.MouseButton.LeftButton)
    assert editor.answer()[0] == second


def test_locked_after_checking(qtbot, panel):
    panel.go_to(1)
    key(qtbot, panel, Qt.Key.Key_2)
    panel.check()
    key(qtbot, panel, Qt.Key.Key_1)
    assert panel.editor.answer() == [1]
    assert not panel.check_button.isEnabled()
    assert panel.check() is None and panel.score() == (1.0, 1)


def test_teacher_mode_hides_feedback_until_revealed(qtbot, panel):
    panel.teacher_box.setChecked(True)
    qtbot.keyClicks(panel.focusWidget(), "1")
    key(qtbot, panel, Qt.Key.Key_Return)
    assert "checked" in panel.verdict.text().lower()
    assert "9" not in panel.why.text() and not panel.misconception.isVisible()
    assert panel.feedback.property("verdict") == "hidden"
    # Return now reveals (the reveal button has the focus), it does not skip the question
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.verdict.text().startswith("✘") and "A token is a word" in panel.misconception.text()
    assert panel.current_question().id == "n"


def test_teacher_mode_shows_the_new_score_with_the_verdict(qtbot, panel):
    panel.editor.edit.setText("9")
    panel.check()
    panel.next_question()
    assert panel.score_label.text() == "Score: 1 of 1"
    panel.set_teacher_mode(True)
    key(qtbot, panel, Qt.Key.Key_1)
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.feedback.property("verdict") == "hidden" and panel.score_label.text() == "Score: 1 of 1"
    key(qtbot, panel, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert panel.verdict.text().startswith("✘") and panel.score_label.text() == "Score: 1 of 2"


def test_teacher_reveal_shortcut(qtbot, panel):
    panel.set_teacher_mode(True)
    qtbot.keyClicks(panel.focusWidget(), "9")
    panel.check()
    assert not panel.verdict.text().startswith("✔")
    key(qtbot, panel, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert panel.verdict.text().startswith("✔")


def test_full_screen_and_back(qtbot):
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    host = QWidget()
    qtbot.addWidget(host)
    panel = QuizPanel(pack_from_data(PACK, "t.json"))
    QVBoxLayout(host).addWidget(panel)
    host.show()
    panel.set_full_screen(True)
    assert panel.isWindow() and not panel.chrome.isVisible()
    qtbot.keyClick(panel, Qt.Key.Key_Escape)
    assert not panel.isWindow() and panel.parent() is host and panel.chrome.isVisible()


def test_worked_examples_step_with_arrows(qtbot, panel):
    panel.show_examples()
    view = panel.example_view
    assert view.counter.text() == "Step 1 of 3"
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert view.counter.text() == "Step 3 of 3" and "three" in view.text.text()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert panel.current_question() is not None and panel.buttons.isVisible()


def test_a_malformed_pack_loads_what_it_can_and_says_what_is_wrong(qtbot, panel):
    assert panel.open_pack(str(MD_PACK))
    assert len(panel.pack.questions) == 5
    assert "5 problems" in panel.notice.text() and "bad-json" in panel.notice.text()
    assert panel.current_question().id == "count-st"


def test_a_pack_with_nothing_good_is_refused(qtbot, panel, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": FORMAT, "version": 1, "questions": [{"id": "x", "kind": "order", "items": []}]}))
    assert not panel.open_pack(str(bad))
    assert "no question" in panel.notice.text() and panel.source != f"file:{bad}"


# -- questions from the lesson ----------------------------------------------------------------


def classic_lesson():
    """The history index of the classic lesson."""
    corpus = Corpus.from_word_counts("low 5\nlower 2\nnewest 6\nwidest 3\n", Settings())
    _, steps = train(corpus)
    return History(corpus, steps)


def right_answer(question):
    if hasattr(question, "answer"):
        return question.answer
    return [i for i, o in enumerate(question.options) if o.correct]


def test_lesson_questions_ask_about_the_current_step_and_reveal_on_the_tiles(qtbot, panel):
    history = classic_lesson()
    panel.set_lesson(history, 0)
    panel.set_source(LESSON)
    question = panel.current_question()
    assert question.title == "Which pair merges next?" and "step 0" in question.prompt
    assert not panel.tiles_button.isEnabled()  # not before answering: it would give the answer away
    key(qtbot, panel, Qt.Key.Key_1 + [o.correct for o in question.options].index(True))
    key(qtbot, panel, Qt.Key.Key_Return)
    assert panel.verdict.text().startswith("✔")
    with qtbot.waitSignal(panel.step_requested) as signal:
        key(qtbot, panel, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    # the step asked about, where the tiles crown e + s; at step 1 the crown would be on es + t
    assert signal.args == [0]


def test_lesson_questions_follow_the_step_and_cycle_kinds(qtbot, panel):
    history = classic_lesson()
    panel.set_lesson(history, 0)
    panel.set_source(LESSON)
    panel.set_current_step(4)
    titles = set()
    for _ in range(5):
        panel.next_question()
        q = panel.current_question()
        titles.add(q.title)
        assert grade(q, right_answer(q), panel.pack.misconceptions).correct
    assert len(titles) == 5
    assert "step 4" in panel.current_question().prompt or panel.current_question().reveal_step >= 4


def test_lesson_source_without_a_lesson_says_so(qtbot, panel):
    panel.set_source(LESSON)
    assert panel.current_question() is None
    assert "lesson" in panel.message.text().lower()
    history = classic_lesson()
    panel.set_lesson(history, 2)
    assert panel.current_question() is not None


# -- progress ----------------------------------------------------------------------------------


def test_score_and_position_survive_a_lesson_file_round_trip(qtbot, panel):
    qtbot.keyClicks(panel.focusWidget(), "9")
    panel.check()
    panel.next_question()
    key(qtbot, panel, Qt.Key.Key_1)
    panel.check()
    panel.next_question()
    panel.next_question()
    panel.set_teacher_mode(True)
    assert panel.score() == (1.0, 2)

    saved = LessonFile("low 5\n", word_counts=True, quiz=panel.progress()).to_json()
    loaded = lesson_from_data(json.loads(saved), "lesson.bpelab")

    again = QuizPanel(pack_from_data(PACK, "test.json"))
    qtbot.addWidget(again)
    again.restore_progress(loaded.quiz)
    assert again.score() == (1.0, 2)
    assert again.current_question().id == "gaps"
    again.go_to(0)
    assert "answered before" in again.position_label.text()
    again.editor.edit.setText("1")
    again.check()
    assert again.score() == (1.0, 2)  # the first answer's score stands
    assert again.teacher_box.isChecked()
    assert "1 of 2" in again.score_label.text()


def test_restore_ignores_damaged_progress(qtbot, panel):
    panel.restore_progress({"answers": {"n": {"score": "lots"}, "one": {"score": 1}, "x": 3},
                            "position": "far", "source": "file:/nowhere.json"})
    assert panel.score() == (1.0, 1)
    assert panel.source == "bundled" and panel.current_question().id == "n"


def test_unreadable_progress_is_refused_with_a_notice(qtbot, panel):
    panel.editor.edit.setText("9")
    panel.check()
    panel.restore_progress({"version": 7, "answers": {}})
    assert panel.score() == (1.0, 1) and "not loaded" in panel.notice.text()


def test_a_large_lesson_builds_its_questions_in_a_thread(qtbot, panel, monkeypatch):
    import widgets.quiz.lesson_questions as lesson_questions

    monkeypatch.setattr(lesson_questions, "LARGE_LESSON", 0)
    history = classic_lesson()
    panel.set_lesson(history, 2)
    panel.set_source(LESSON)
    assert panel.current_question() is None and "Building" in panel.message.text()
    assert not panel.next_button.isEnabled()
    qtbot.waitUntil(lambda: panel.current_question() is not None)
    first = panel.current_question()
    assert "step 2" in first.prompt and panel.next_button.isEnabled()
    panel.next_question()
    qtbot.waitUntil(lambda: panel.current_question() is not first)
    assert panel.current_question().title != first.title


def test_explanations_keep_tokens_that_look_like_tags(qtbot, panel):
    from PySide6.QtGui import QTextDocument

    history = classic_lesson()
    panel.set_lesson(history, 2)  # est + </w> merges next
    panel.set_source(LESSON)
    question = panel.current_question()
    panel.editor.buttons[[o.correct for o in question.options].index(True)].setChecked(True)
    panel.check()
    shown = QTextDocument()
    shown.setMarkdown(panel.why.text())
    assert "est + </w> occurs 9 times" in shown.toPlainText()
    prompt = QTextDocument()
    prompt.setMarkdown(panel.prompt.text())
    assert prompt.toPlainText().strip() == question.prompt


def test_following_the_session_both_ways(qtbot):
    from app.session import Session
    from engine.lesson.lesson import Lesson
    from widgets.quiz.session_link import quiz_view

    session = Session(Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True))
    panel = quiz_view(session)
    qtbot.addWidget(panel)
    panel.set_source(LESSON)
    assert "step 0" in panel.current_question().prompt
    session.request_step(3)
    panel.next_question()
    question = panel.current_question()
    assert question.reveal_step is not None and question.reveal_step >= 3
    panel.editor.set_locked(False)
    answer = right_answer(question)
    if isinstance(answer, list):
        panel.editor.buttons[answer[0]].setChecked(True)
    else:
        panel.editor.edit.setText(str(int(answer)))
    panel.check()
    panel.show_on_tiles()
    assert session.step == question.reveal_step
    # its own answer shown on the tiles keeps the question answered on screen
    assert panel.current_question() is question
    tea = Lesson("tea tea team teams steam seat").train()
    session.set_lesson(tea)
    # questions about the old corpus are gone: the new one is about the tea words at step 0
    assert len(panel.pack.questions) == 1 and panel.lesson_questions.live.corpus is tea.corpus and panel.lesson_questions.live.step == 0
    assert panel.current_question().reveal_step <= tea.last_step
    session.set_lesson(Lesson(""))
    assert panel.current_question() is None and "lesson" in panel.message.text().lower()


def test_a_question_not_yet_answered_follows_the_session_to_its_step(qtbot):
    from app.session import Session
    from engine.lesson.lesson import Lesson
    from widgets.quiz.session_link import quiz_view

    session = Session(Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True))
    panel = quiz_view(session)
    qtbot.addWidget(panel)
    panel.show()  # the class sees the quiz (a hidden one asks when shown)
    panel.set_source(LESSON)
    assert panel.current_question().prompt.startswith("The lesson is at step 0.")
    for k in (session.last_step, 3, 7, 1):
        session.request_step(k)
        question = panel.current_question()
        # the question on screen is about the step the timeline shows, never the one it was asked at
        assert panel.lesson_questions.live.step == session.step == k
        assert "step 0" not in question.prompt + question.hint
        if k < session.last_step:
            # round the kinds to "which pair merges next?": it names the step the timeline shows
            while question.title != "Which pair merges next?":
                panel.next_question()
                question = panel.current_question()
            assert question.prompt.startswith(f"The lesson is at step {k}.")
    question = panel.current_question()
    panel.editor.set_locked(False)
    answer = right_answer(question)
    if isinstance(answer, list):
        panel.editor.buttons[answer[0]].setChecked(True)
    else:
        panel.editor.edit.setText(str(int(answer)))
    panel.check()
    session.request_step(5)
    # an answered question stays while the class looks at the tiles; the next one is about step 5
    assert panel.current_question() is question
    panel.next_question()
    assert panel.current_question() is not question and panel.lesson_questions.live.step == 5


def test_a_hidden_quiz_asks_about_the_step_on_screen_when_shown(qtbot, panel):
    history = classic_lesson()
    panel.set_lesson(history, 0)
    panel.set_source(LESSON)
    asked = panel.current_question()
    panel.hide()
    for k in (1, 2, 3):
        panel.set_current_step(k)
    assert panel.current_question() is asked  # nothing built for a quiz nobody sees
    panel.show()
    question = panel.current_question()
    assert question is not asked and question.reveal_step >= 3
    assert "step 3" in question.prompt or question.reveal_step > 3


def test_digits_answer_after_a_click_on_the_question_text(qtbot):
    from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QWidget

    host = QWidget()
    qtbot.addWidget(host)
    elsewhere = QLineEdit()  # another panel had the focus
    panel = QuizPanel(pack_from_data(PACK, "test.json"))
    row = QHBoxLayout(host)
    row.addWidget(elsewhere)
    row.addWidget(panel)
    host.resize(1200, 700)
    host.show()
    qtbot.waitExposed(host)
    host.activateWindow()
    panel.go_to(1)
    elsewhere.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is elsewhere, timeout=2000)
    qtbot.mouseClick(panel.prompt, Qt.MouseButton.LeftButton)
    assert panel.isAncestorOf(QApplication.focusWidget())
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_2)
    assert panel.editor.answer() == [1] and elsewhere.text() == ""


def test_the_verdict_scrolls_into_view_on_a_small_screen(qtbot):
    panel = QuizPanel(pack_from_data(PACK, "test.json"))
    qtbot.addWidget(panel)
    panel.set_scale(1.5)
    panel.resize(700, 330)  # a 1280x720 window's quiz with the type zoomed
    panel.show()
    qtbot.waitExposed(panel)
    panel.go_to(2)
    key(qtbot, panel, Qt.Key.Key_1)
    panel.check()
    viewport = panel.question_page.viewport()
    # the verdict was below the fold: the page scrolls down to it
    qtbot.waitUntil(lambda: panel.question_page.verticalScrollBar().value() > 0, timeout=2000)
    top = panel.verdict.mapTo(viewport, panel.verdict.rect().topLeft()).y()
    assert panel.verdict.isVisible() and 0 <= top and top + panel.verdict.height() <= viewport.height()


def test_a_number_answer_of_thousands_of_digits_is_refused_on_screen(qtbot, panel):
    panel.editor.edit.setText("9" * 5000)
    panel.check()
    shown = panel.why.text() + panel.verdict.text()
    assert panel.score() == (0, 0) and "not a number we can use" in shown and len(shown) < 200


@pytest.mark.parametrize("progress", [
    {"version": 1, "source": "file:pack\x00.json", "answers": {"n": {"score": 1}}},
    {"version": 10 ** 5000},
], ids=["NUL in the pack's name", "version of 5,000 digits"])
def test_progress_no_reader_accepts_leaves_the_panel_as_it_was(qtbot, panel, progress):
    panel.restore_progress(progress)
    assert panel.score() == (0, 0) and panel.current_question().id == "n" and "not loaded" in panel.notice.text()


def test_progress_naming_a_pack_with_a_gap_past_pythons_digits_shows_the_first_pack(qtbot, panel, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "questions": [
        {"id": "f", "kind": "fill", "prompt": "?", "text": "[[" + "9" * 4301 + "]]", "blanks": ["x"]}]}))
    panel.restore_progress({"version": 1, "source": f"file:{path}", "answers": {}})
    assert panel.source == "bundled" and panel.current_question().id == "n"
    assert "could not be opened again" in panel.notice.text()
