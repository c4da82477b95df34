import pytest

from app.session import Session
from engine.errors import TrainingError
from engine.formats.lesson_file import LessonFile
from engine.lesson.lesson import Lesson


def test_stepping_announces_new_and_previous_step(qtbot):
    session = Session()
    seen = []
    session.step_changed.connect(lambda change: seen.append((change.step, change.previous)))
    session.request_step(3)
    session.request_step(1)
    session.request_step(1)  # no move, no signal
    assert seen == [(3, 0), (1, 3)]
    assert session.state.tokens(2) == ["n", "e", "w", "es", "t", "</w>"]


def test_steps_are_clamped_to_the_history(qtbot):
    session = Session()
    session.request_step(10_000)
    assert session.step == session.lesson.last_step
    session.request_step(-5)
    assert session.step == 0


def test_new_lesson_is_announced(qtbot):
    session = Session()
    lesson = Lesson("tea tea team teams steam seat").train()
    with qtbot.waitSignal(session.lesson_changed) as blocker:
        session.set_lesson(lesson)
    assert blocker.args == [lesson]
    assert session.state.total_tokens == session.lesson.initial_tokens


def test_next_and_previous_move_one_step_and_stop_at_the_ends(qtbot):
    session = Session()
    session.request_previous()
    assert session.step == 0
    changes = []
    session.step_changed.connect(changes.append)
    session.request_next()
    session.request_next()
    assert session.step == 2 and changes[-1].words == (2, 3)
    session.request_step(session.last_step)
    session.request_next()
    assert session.step == session.last_step


def test_a_lesson_arrives_with_the_state_a_worker_built(qtbot):
    from engine.lesson.lesson import LessonState

    session = Session()
    lesson = Lesson("tea tea team teams steam seat").train()
    state = LessonState(lesson, 1)
    session.request_token_selection("es")
    cleared = []
    session.token_selected.connect(cleared.append)
    session.set_lesson(lesson, 2, state)
    assert session.state is state and session.step == 2
    assert session.selected_token == "" and cleared == [""]


def test_an_empty_lesson_has_no_state_and_ignores_steps(qtbot):
    session = Session()
    seen = []
    session.step_changed.connect(lambda *a: seen.append(a))
    session.set_lesson(Lesson(" \n\t "))
    session.request_next()
    assert session.state is None and session.step == 0 and session.last_step == 0 and not seen


def test_tokens_read_as_text_in_byte_lessons(qtbot):
    from engine.algorithm.settings import Settings

    session = Session(Lesson("hi there", settings=Settings(split="gpt2", units="bytes")))
    assert session.show("Ġthere") == "␣there"


# -- every change goes through the session --------------------------------------------------------

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def test_a_step_change_names_exactly_the_words_whose_tokens_changed(qtbot):
    import random

    session = Session(Lesson("the cat sat on the mat; the cats sat at the hat, that cat").train())
    changes = []
    session.step_changed.connect(changes.append)
    words = range(len(session.lesson.corpus))
    for k in random.Random(3).choices(range(session.last_step + 1), k=30):
        before = [list(session.state.tokens(w)) for w in words]
        previous = session.step
        changes.clear()
        session.request_step(k)
        if k == previous:
            assert changes == []
            continue
        (change,) = changes
        assert (change.step, change.previous) == (k, previous)
        assert change.words == tuple(w for w in words if session.state.tokens(w) != before[w])
        assert change.words  # every merge re-splits at least one word


def test_the_corpus_panel_edit_is_one_undo_step_and_undo_brings_back_lesson_and_step(make_window):
    window = make_window()
    session = window.session
    session.request_step(4)
    tokens_at_4 = [list(session.state.tokens(w)) for w in range(len(session.lesson.corpus))]
    window.corpus_panel.corpus_requested.emit("tea 2\nteam 1\nseat 1", True)
    assert session.lesson.corpus.words == ("tea", "team", "seat") and session.step == 0
    assert session.undo_stack.count() == 1 and session.dirty
    session.undo_stack.undo()
    assert session.lesson.text == CLASSIC and session.step == 4
    assert [session.state.tokens(w) for w in range(len(session.lesson.corpus))] == tokens_at_4
    assert not session.dirty


def test_settings_and_presets_from_the_corpus_panel_are_undo_steps(make_window):
    from engine.algorithm.settings import Settings

    window = make_window()
    session = window.session
    window.corpus_panel.settings_requested.emit(Settings(end_of_word=None))
    assert session.lesson.settings.marker is None
    window.corpus_panel.preset_requested.emit("tea")
    assert session.lesson.corpus.words[0] == "tea"
    assert session.undo_stack.count() == 2
    session.undo_stack.undo()
    assert session.lesson.text == CLASSIC and session.lesson.settings.marker is None


def test_a_failed_edit_is_reported_and_keeps_the_lesson(qtbot):
    session = Session()
    problems = []
    session.problem_reported.connect(problems.append)
    session.request_corpus("low 5\nlower two words", True)
    assert session.lesson.text == CLASSIC
    assert "line 2" in problems[-1] and "before this edit" in problems[-1]


def _break_training(monkeypatch, error):
    from engine.algorithm.trainer import Trainer

    def fail(self):
        raise error

    monkeypatch.setattr(Trainer, "_refill_top", fail)


def test_bad_input_is_said_in_the_engine_words_without_calling_it_internal(qtbot):
    session = Session()
    problems = []
    session.problem_reported.connect(problems.append)
    session.request_corpus("low 5\nlower two words", True)
    assert problems[-1].startswith("line 2") and "internal" not in problems[-1]


@pytest.mark.parametrize("error", [RuntimeError("simulated"), TrainingError("pair 3+4 counts 2 but is nowhere")])
def test_an_internal_error_is_called_one_and_the_lesson_kept(qtbot, monkeypatch, error):
    # a TrainingError is a BpeLabError too, yet no fault of the text: its class says so, not its words
    session = Session()
    problems = []
    session.problem_reported.connect(problems.append)
    _break_training(monkeypatch, error)
    session.request_corpus("a new text of my own", False)
    assert session.lesson.text == CLASSIC and not session.training
    assert "internal error" in problems[-1] and type(error).__name__ in problems[-1]
    assert "not a problem with your text" in problems[-1] and "lesson is kept" in problems[-1]


def test_running_out_of_memory_asks_for_a_smaller_text(qtbot, monkeypatch):
    session = Session()
    problems = []
    session.problem_reported.connect(problems.append)
    _break_training(monkeypatch, MemoryError())
    session.request_corpus("a new text of my own", False)
    assert "smaller text" in problems[-1] and "internal" not in problems[-1]


def test_a_lesson_that_cannot_be_loaded_says_whose_fault_it_is(qtbot, monkeypatch):
    session = Session()
    said = []
    session.load_failed.connect(said.append)
    _break_training(monkeypatch, RuntimeError("simulated"))
    session.load(LessonFile("some other text"))
    assert "internal error" in said[-1] and "report" in said[-1]
    assert session.lesson.text == CLASSIC


def test_training_announced_by_the_session_alone(qtbot):
    from resources.presets import preset

    session = Session()
    seen = []
    session.training_started.connect(lambda: seen.append("started"))
    session.training_ended.connect(lambda: seen.append("ended"))
    problems = []
    session.problem_reported.connect(problems.append)
    session.request_preset("python-docs")
    assert session.training and seen == ["started"]
    session.request_cancel()
    assert not session.training and seen == ["started", "ended"]
    assert "Training stopped" in problems[-1]
    assert session.lesson.text == CLASSIC
    # undo still knows the change, so the class can get the preset back with Ctrl+Z, Ctrl+Y
    assert session.undo_stack.undoText() == f"Load the preset “{preset('python-docs').title}”"
    session.runner.wait()


# -- the held-out text ---------------------------------------------------------------------------


def test_the_default_lesson_is_the_classic_preset_with_its_held_out_text(qtbot):
    from resources.presets import preset

    session = Session()
    classic = preset("classic")
    assert session.lesson.text == classic.text() and session.lesson.word_counts
    assert session.lesson.held_out == session.source.held_out == classic.held_out() != ""
    assert session.held_out_preset == classic.title
    # counted after every step, for the growth chart's second line
    qtbot.waitUntil(lambda: session.held_out_curve is not None, timeout=10_000)


def test_a_preset_brings_its_held_out_text_and_a_typed_corpus_clears_it(qtbot):
    from resources.presets import preset

    session = Session()
    session.request_preset("paragraph")
    assert session.lesson.held_out == preset("paragraph").held_out() != ""
    assert session.held_out_preset == preset("paragraph").title
    session.request_corpus("my own words, my own text", False)
    assert session.lesson.held_out == "" and session.held_out_preset is None
    session.undo_stack.undo()  # undo brings the preset's text back with its corpus
    assert session.lesson.held_out == preset("paragraph").held_out()


def test_a_held_out_text_of_the_users_own_is_kept_when_the_corpus_changes(qtbot):
    session = Session()
    session.request_preset("tea")
    session.request_held_out("tea for two")
    assert session.held_out_preset is None
    session.request_corpus("teapot teapots pot", False)
    assert session.lesson.held_out == "tea for two"
    session.request_large_text("another text " * 10)
    assert session.lesson.held_out == "tea for two"
    session.request_preset("classic")  # a preset brings its own
    assert session.held_out_preset is not None


def test_opening_a_text_file_clears_a_presets_held_out_text(make_window, tmp_path):
    window = make_window()
    window.session.request_preset("paragraph")
    text = tmp_path / "mine.txt"
    text.write_text("hug hug pug pun bun", encoding="utf-8")
    window.answers = []
    assert window.files.open_path(text)
    assert window.session.lesson.text == "hug hug pug pun bun"
    assert window.session.lesson.held_out == ""


def test_held_out_text_from_the_charts_reaches_the_lesson_and_is_unsaved_not_undone(make_window, qtbot):
    window = make_window()
    session = window.session
    charts = window.views["Charts"]
    charts.held_out_box.setPlainText("an unseen sentence")
    qtbot.waitUntil(lambda: session.lesson.held_out == "an unseen sentence", timeout=3000)
    assert session.dirty and session.undo_stack.count() == 0
    assert session.current_file().held_out == "an unseen sentence"
    assert charts.model.held_out.tokens[0] == len(session.lesson.tokenizer_at(0).encode("an unseen sentence"))
    assert "your own" in charts.held_out_label.text()
    session.request_preset("tea")
    assert charts.held_out_box.toPlainText() == session.lesson.held_out
    assert "“Six tea words" in charts.held_out_label.text()


# -- play pace -----------------------------------------------------------------------------------


def test_the_play_pace_is_announced_and_bounds_a_merge(qtbot):
    session = Session()
    with qtbot.waitSignal(session.play_interval_changed) as blocker:
        session.request_play_interval(100)
    assert blocker.args == [100] and session.play_interval == 100
    assert 0 < session.merge_duration <= 100
    session.request_play_interval(5000)
    assert session.merge_duration <= 5000


def test_the_held_out_text_is_counted_by_the_session_for_every_new_lesson_and_text(qtbot):
    session = Session(Lesson("low low lower newest", held_out="lowest").train())
    assert session.held_out_curve.tokens[0] == len("lowest") + 1  # its characters and the end marker
    counted = []
    session.held_out_counted.connect(counted.append)
    session.request_held_out("")
    assert counted == [None] and session.held_out_curve is None
    lesson = Lesson("tea tea team", held_out="teams").train()
    session.set_lesson(lesson)
    assert counted[-1] is session.held_out_curve
    assert counted[-1].tokens == tuple(len(lesson.tokenizer_at(k).encode("teams")) for k in range(lesson.last_step + 1))
