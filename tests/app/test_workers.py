"""Training in the background: progress, the finished lesson, errors, and a cooperative stop."""

import pytest

from engine.errors import BpeLabError
from engine.formats.lesson_file import LessonFile
from engine.algorithm.settings import Settings
from app import collector
from app.training_worker import TrainingRunner, build_lesson
from widgets.worker import wait_for_workers
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


def test_a_large_text_reports_its_counting_before_its_merges(qtbot):
    runner = TrainingRunner()
    seen = []
    runner.counted.connect(lambda d, t: seen.append(("counting", d, t)))
    runner.progressed.connect(lambda d, t: seen.append(("training", d, t)))
    text = BIG * 40
    source = LessonFile(text, settings=Settings(merges=20))
    with qtbot.waitSignal(runner.done, timeout=120_000):
        runner.start(source, background=True)
    runner.wait()
    counted = [s for s in seen if s[0] == "counting"]
    assert counted and counted[-1][1:] == (len(text), len(text))
    assert seen.index(counted[-1]) < next(i for i, s in enumerate(seen) if s[0] == "training")


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


def test_a_stop_asked_while_the_tokens_are_coloured_ends_the_run_before_its_state_is_built(qtbot, monkeypatch):
    # the parts after the last merge take up to a second on a large vocabulary: a stop is heard between them
    import app.training_worker as training_worker
    from widgets.worker import Worker, _local

    states = []
    monkeypatch.setattr(training_worker, "colour_every_token", lambda lesson: _local.worker.quit())
    monkeypatch.setattr(training_worker, "LessonState", lambda *args: states.append(args))
    worker = Worker(training_worker.lesson_training, LessonFile(BIG))
    with qtbot.waitSignal(worker.aborted, timeout=60_000):
        worker.start()
    worker.wait()
    assert states == []


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


def test_bad_input_in_the_worker_comes_back_as_the_engine_error(qtbot):
    runner = TrainingRunner()
    with qtbot.waitSignal(runner.errored) as blocker:
        runner.start(LessonFile("low five", word_counts=True), background=True)
    runner.wait()
    assert isinstance(blocker.args[0], BpeLabError) and "line 1" in str(blocker.args[0])


def test_window_trains_a_large_text_in_the_background_and_stays_on_the_old_lesson_until_done(make_window, qtbot):
    window = make_window()
    old = window.session.lesson
    window.session.request_preset("python-docs")
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
    window.session.request_preset("python-docs")
    window.timeline.cancel_button.click()
    assert not window.session.training
    assert window.session.lesson is old
    assert "Training stopped" in window.corpus_panel.hint.text()
    window.session.runner.wait()


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


def test_the_gui_collector_waits_while_a_worker_trains_and_the_new_lesson_is_frozen_out_of_its_sight(qtbot):
    import gc

    assert collector.collecting()
    frozen = gc.get_freeze_count()
    runner = TrainingRunner()
    try:
        with qtbot.waitSignal(runner.done, timeout=60_000):
            runner.start(LessonFile(BIG, settings=Settings(merges=50)), background=True)
            assert not collector.collecting()
        # the new lesson's objects left the collector's generations as it arrived
        assert gc.get_freeze_count() > frozen
        assert collector.collecting()
        # a cancelled run freezes nothing and starts the collector again
        frozen = gc.get_freeze_count()
        runner.start(LessonFile(BIG * 5), background=True)
        assert not collector.collecting()
        runner.cancel()
        assert collector.collecting() and gc.get_freeze_count() <= frozen
        runner.wait()
    finally:
        gc.unfreeze()


def test_the_worker_counts_the_held_out_text_so_the_window_does_not():
    from engine.lesson.heldout import token_curve

    held_out = "the lowest newer widest words " * 50
    lesson, state = build_lesson(LessonFile(BIG, settings=Settings(merges=60), held_out=held_out))
    counted = lesson.counted_held_out_curve(held_out)
    assert counted is not None
    assert counted == token_curve(lesson.tokenizer, held_out, lesson.last_step)
    assert lesson.counted_held_out_curve("another text") is None
    assert lesson.held_out_curve(held_out) is counted


def test_a_long_opened_text_reaches_the_editor_just_after_its_lesson(make_window, qtbot):
    from widgets.corpus_panel import LONG_TEXT

    window = make_window()
    text = ("the lowest newer widest words and more words " * (LONG_TEXT // 40))[: LONG_TEXT + 5000]
    window.session.load(LessonFile(text, settings=Settings(merges=20)), background=True)
    qtbot.waitUntil(lambda: not window.session.training, timeout=60_000)
    assert window.session.lesson.text == text
    qtbot.waitUntil(lambda: window.corpus_panel.text() == text, timeout=5_000)


def _break_the_trainer(monkeypatch, error):
    from engine.algorithm.trainer import Trainer

    def fail(self):
        raise error

    monkeypatch.setattr(Trainer, "_refill_top", fail)


@pytest.mark.parametrize("background", [True, False])
def test_any_exception_in_training_ends_the_run_with_the_exception(qtbot, monkeypatch, background):
    error = AssertionError("pair 3+4 counts 2 but is nowhere in the corpus")
    _break_the_trainer(monkeypatch, error)
    runner = TrainingRunner()
    errors = []
    runner.errored.connect(lambda exc, source: errors.append((exc, source)))
    source = LessonFile(BIG)
    with qtbot.waitSignal(runner.errored, timeout=60_000):
        runner.start(source, background=background)
    assert errors == [(error, source)]  # the exception itself: callers tell kinds apart by class
    assert not runner.busy
    runner.wait()


def test_bad_input_trained_on_the_spot_comes_back_as_the_engine_error(qtbot):
    runner = TrainingRunner()
    errors = []
    runner.errored.connect(lambda exc, source: errors.append(exc))
    runner.start(LessonFile("low five", word_counts=True), background=False)
    assert len(errors) == 1 and isinstance(errors[0], BpeLabError) and "line 1" in str(errors[0])


def test_a_failed_run_restores_the_interpreter_and_the_collector(qtbot, monkeypatch):
    import sys

    _break_the_trainer(monkeypatch, RuntimeError("simulated"))
    before = sys.getswitchinterval()
    runner = TrainingRunner()
    with qtbot.waitSignal(runner.errored, timeout=60_000):
        runner.start(LessonFile(BIG), background=True)
    assert sys.getswitchinterval() == before
    assert collector.collecting()
    runner.wait()


def test_the_window_ends_training_and_says_so_when_the_engine_breaks(make_window, qtbot, monkeypatch):
    window = make_window()
    _break_the_trainer(monkeypatch, RuntimeError("simulated"))
    old = window.session.lesson
    with qtbot.waitSignal(window.session.training_ended, timeout=60_000):
        window.session.request_preset("python-docs")
    assert not window.session.training and not window.session.runner.busy
    assert window.session.lesson is old
    assert "internal error" in window.corpus_panel.hint.text()
    window.close()  # nothing left running to wait for
    assert wait_for_workers(5_000)


def test_the_collector_is_installed_once_for_the_process(qapp):
    installed = collector._collector
    collector.collect_in_gui_thread()
    assert collector._collector is installed and collector.collecting()


def test_a_full_collection_waits_until_the_oldest_generation_grew_by_a_quarter(qapp, monkeypatch):
    """As Python's own collector: a full walk of every object is not made at every tenth middle one."""
    import gc

    walks = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: walks.append(generation) or 0)
    held = [10_000]
    monkeypatch.setattr(gc, "get_objects", lambda generation=None: range(held[0]))
    monkeypatch.setattr(gc, "get_count", lambda: (701, 11, 11))
    check = collector._GuiThreadCollector.__new__(collector._GuiThreadCollector)
    check.threshold, check.long_lived = (700, 10, 10), 0
    check.check()
    assert walks == [0, 1, 2] and check.long_lived == 10_000
    walks.clear()
    held[0] = 12_000  # a fifth more: a middle collection only
    check.check()
    assert walks == [0, 1]
    walks.clear()
    held[0] = 12_600  # over a quarter more: the full walk
    check.check()
    assert walks == [0, 1, 2] and check.long_lived == 12_600
