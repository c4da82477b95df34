"""The central views inside the window: what they tell it is kept, saved and followed."""

from engine.formats.lesson_file import load_lesson


def test_every_view_is_a_tab(make_window):
    window = make_window()
    assert list(window.views) == ["Tiles", "Charts", "Quiz", "Explorer"]
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == list(window.views)


def test_a_pasted_held_out_text_is_unsaved_work_then_saved_in_the_lesson(make_window, tmp_path, qtbot):
    window = make_window()
    assert not window.session.dirty
    charts = window.views["Charts"]
    charts.held_out_box.setPlainText("an unseen sentence for the held-out curve")
    qtbot.waitUntil(lambda: window.session.dirty, timeout=3000)
    assert "•" in window.windowTitle()
    path = tmp_path / "held.bpelab"
    assert window.files.save_to(path)
    assert not window.session.dirty
    assert load_lesson(path).held_out == "an unseen sentence for the held-out curve"

    reopened = make_window(path=str(path))
    qtbot.waitUntil(lambda: reopened.files.path == path, timeout=10000)
    assert reopened.views["Charts"].held_out_box.toPlainText() == "an unseen sentence for the held-out curve"
    assert not reopened.session.dirty


def test_answering_the_quiz_is_unsaved_work(make_window, qtbot):
    window = make_window()
    quiz = window.views["Quiz"]
    quiz.progress_changed.emit()
    assert window.session.dirty


def test_the_tiles_merge_within_a_play_step_at_every_speed(make_window):
    window = make_window()
    tiles = window.views["Tiles"]
    speed = window.timeline.speed
    for index in range(speed.count()):
        speed.setCurrentIndex(index)
        interval = window.session.play_interval
        assert interval == int(1000 / speed.itemData(index))
        assert 0 < tiles.canvas.merge_ms <= interval


def test_show_on_the_tiles_steps_the_lesson_and_shows_the_tiles(make_window, qtbot):
    from engine.quiz.progress import LESSON

    window = make_window()
    quiz = window.views["Quiz"]
    window.show_view("Quiz")
    quiz.set_source(LESSON)
    qtbot.waitUntil(lambda: quiz.current_question() is not None and quiz.current_question().reveal_step is not None,
                    timeout=10000)
    question = quiz.current_question()
    quiz.answer_digit(1 + [o.correct for o in question.options].index(True))
    quiz.check()
    quiz.show_on_tiles()
    assert window.session.step == question.reveal_step
    assert window.tabs.currentWidget() is window.views["Tiles"]
