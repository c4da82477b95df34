"""Training in the background: progress, the finished lesson, errors, and a cooperative stop."""

from engine.formats.lesson_file import LessonFile
from engine.settings import Settings
from app.workers import TrainingRunner, build_lesson
from resources.presets import preset

BIG = preset("paragraph").text() * 40


def test_build_lesson_trains_to_the_step_asked_for():
    lesson, state = build_lesson(LessonFile("low 5\nlower 2\nnewest 6\nwidest 3", True, step=3))
    assert lesson.trained and state.step == 3
    assert state.tokens(2) == ["n", "e", "w", "est</w>"]


def test_an_empty_corpus_builds_no_state():
    lesson, state = build_lesson(LessonFile("  \n"))
    assert lesson.is_empty and state is None


def test_background_run_reports_progress_then_the_lesson(qtbot):
    runner = TrainingRunner()
    progress, done = [], []
    runner.progressed.connect(lambda d, t: progress.append((d, t)))
    runner.done.connect(lambda lesson, state, source: done.append((lesson, state, source)))
    source = LessonFile(BIG, settings=Settings(merges=150))
    with qtbot.waitSignal(runner.done, timeout=60_000):
        runner.start(source, background=True)
        assert runner.busy
    lesson, state, back = done[0]
    assert back is source and lesson.last_step == 150 and state.step == 0
    assert progress and all(t == 150 for _, t in progress)
    assert not runner.busy
    runner.wait()


def test_cancel_stops_between_merges_and_reports_nothing_else(qtbot):
    runner = TrainingRunner()
    done = []
    runner.done.connect(lambda *a: done.append(a))
    with qtbot.waitSignal(runner.cancelled):
        runner.start(LessonFile(BIG * 5), background=True)
        runner.cancel()
    runner.wait()
    qtbot.wait(20)
    assert not done and not runner.busy


def test_a_new_run_replaces_the_one_before(qtbot):
    runner = TrainingRunner()
    done = []
    runner.done.connect(lambda lesson, state, source: done.append(source.text[:5]))
    runner.start(LessonFile(BIG * 5), background=True)
    with qtbot.waitSignal(runner.done, timeout=60_000):
        runner.start(LessonFile("second second"), background=True)
    runner.wait()
    qtbot.wait(20)
    assert done == ["secon"]


def test_bad_input_in_the_worker_comes_back_as_a_message(qtbot):
    runner = TrainingRunner()
    with qtbot.waitSignal(runner.failed) as blocker:
        runner.start(LessonFile("low five", word_counts=True), background=True)
    runner.wait()
    assert "line 1" in blocker.args[0]


def test_window_trains_a_large_text_in_the_background_and_stays_on_the_old_lesson_until_done(make_window, qtbot):
    window = make_window()
    old = window.session.lesson
    window.load_preset("python-docs")
    assert window.session.training
    assert window.timeline.progress_row.isVisibleTo(window.timeline)
    assert window.session.lesson is old  # the panels keep answering on the old lesson meanwhile
    window.session.request_next()
    assert window.session.step == 1
    qtbot.waitUntil(lambda: not window.session.training, timeout=120_000)
    assert window.session.lesson.last_step == 1000
    assert len(window.session.lesson.corpus) > 5000
    assert not window.timeline.progress_row.isVisibleTo(window.timeline)


def test_cancelling_a_large_text_keeps_the_lesson_and_says_so(make_window, qtbot):
    window = make_window()
    old = window.session.lesson
    window.load_preset("python-docs")
    window.timeline.cancel_button.click()
    assert not window.session.training
    assert window.session.lesson is old
    assert "Training stopped" in window.corpus_panel.hint.text()
    window.runner.wait()


def test_the_interpreter_switches_often_only_while_a_worker_trains(qtbot):
    import sys

    before = sys.getswitchinterval()
    runner = TrainingRunner()
    with qtbot.waitSignal(runner.done, timeout=60_000):
        runner.start(LessonFile(BIG), background=True)
        assert sys.getswitchinterval() < before
    assert sys.getswitchinterval() == before
    runner.start(LessonFile(BIG * 5), background=True)
    runner.cancel()
    assert sys.getswitchinterval() == before
    runner.wait()
