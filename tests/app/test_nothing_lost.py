"""Nothing typed is lost: every lesson BPE Lab writes it opens again with the same content, and an
autosave goes only once what it holds is safe in a lesson file or discarded by the user in words."""

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st
from PySide6.QtWidgets import QMessageBox

import engine.formats.lesson_file as lesson_file
from engine.formats.lesson_file import LessonFile, LessonTooLargeError, load_lesson, save_lesson
from engine.algorithm.settings import Settings

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

B = QMessageBox.StandardButton
NOT_COUNTS = "low 5\nlower 2\nThe sentence a teacher typed here.\nnewest 6 7\nwidest 3\n"


def same_content(a: LessonFile, b: LessonFile) -> bool:
    return replace(a, settings=a.settings.resolved()) == replace(b, settings=b.settings.resolved())


# -- 1. word-count text that does not parse yet ---------------------------------------------------

def test_the_default_lesson_saves_and_opens_lines_that_are_not_word_counts(make_window, tmp_path):
    window = make_window()
    assert window.session.source.word_counts  # the default lesson counts words
    window.session.request_corpus(NOT_COUNTS, True)
    assert window.session.dirty
    path = tmp_path / "typed.bpelab"
    assert window.files.save_to(path)
    assert load_lesson(path).text == NOT_COUNTS

    again = make_window()
    assert again.files.open_path(path)
    assert again.told == []
    assert again.corpus_panel.text() == NOT_COUNTS and again.corpus_panel.counted.isChecked()
    assert again.files.path == path and not again.session.dirty
    assert "line 3" in again.corpus_panel.hint.text()  # the line to fix, as while typing
    assert again.session.state is None  # nothing trains until the text does
    # and no view calls the corpus empty
    assert "does not train yet" in again.timeline.status.text()
    assert "does not train yet" in again.pairs_panel.heading.text()
    # fixing the line trains it, and the lesson saved again holds the fix
    again.session.request_corpus(NOT_COUNTS.replace("The sentence a teacher typed here.\n", "").replace(" 6 7", " 6"),
                                 True)
    assert again.session.state is not None and again.session.dirty
    assert again.files.save()
    assert "sentence" not in load_lesson(path).text


def test_an_autosave_of_unparsed_counts_is_offered_after_a_crash(make_window):
    first = make_window()
    first.session.request_corpus(NOT_COUNTS, True)
    first.files.write_autosave()
    assert first.files.autosave.path.exists()
    first.crash()  # the process is killed: no close, the next start finds the autosave
    second = make_window()
    second.answers = [B.Yes]
    assert second.files.offer_recovery()
    assert second.told == []
    assert second.corpus_panel.text() == NOT_COUNTS and second.session.dirty
    assert second.files.current_file().text == NOT_COUNTS


# -- 2. opening is all or nothing, quiz progress included -----------------------------------------

def test_quiz_progress_that_cannot_be_restored_leaves_the_old_lesson_path_and_title(make_window, tmp_path,
                                                                                      monkeypatch):
    from widgets.quiz_panel import QuizPanel

    window = make_window()
    window.views["Quiz"]  # the quiz is built, so it keeps the lesson's answers
    a = tmp_path / "a.bpelab"
    save_lesson(LessonFile("apple 3\napply 2\n", True, Settings(min_frequency=1), 2), a)
    assert window.files.open_path(a)
    window.session.request_corpus("apple 3\napply 2\nape 1\n", True)  # unsaved work in A
    before = (window.session.lesson, window.session.source, window.files.path, window.windowTitle(),
              window.session.dirty, window.files.current_file())
    b = tmp_path / "b.bpelab"
    save_lesson(LessonFile("banana 4\nband 2\n", True, Settings(), 0, "", {"version": 1, "source": "bundled",
                                                                           "position": 1}), b)
    taken = QuizPanel.restore_progress

    def fails(self, data):
        if data.get("position") == 1:
            raise ValueError("simulated: a pack this quiz cannot read")
        taken(self, data)

    monkeypatch.setattr(QuizPanel, "restore_progress", fails)
    assert not window.files.open_path(b)
    assert "unchanged" in window.told[-1]
    after = (window.session.lesson, window.session.source, window.files.path, window.windowTitle(),
             window.session.dirty, window.files.current_file())
    assert after == before
    assert window.corpus_panel.text() == "apple 3\napply 2\nape 1\n"
    # Ctrl+S writes A's own lesson to A, never B over A
    assert window.files.save()
    assert load_lesson(a).text == "apple 3\napply 2\nape 1\n"


# -- 3. a recovery that has not finished keeps the autosave ---------------------------------------

BIG = " ".join(f"word{i % 5000} other{i % 733}" for i in range(40_000))


@pytest.mark.parametrize("how", ["quit", "cancel"])
def test_quitting_or_cancelling_a_recovery_still_training_keeps_the_autosave(make_window, how):
    first = make_window()
    first.session.request_large_text(BIG)
    first.files.write_autosave()
    first.files.autosave.wait()
    assert load_lesson(first.files.autosave.path).text == BIG
    first.crash()
    second = make_window()
    second.answers = [B.Yes]
    assert second.files.offer_recovery()
    assert second.session.training  # a large lesson trains in the background
    if how == "cancel":
        second.session.request_cancel()
        second.files.write_autosave()  # the lesson shown is not the recovered one: nothing overwrites it
    second.close()
    assert second.asked[1:] == []  # the default lesson had no unsaved work, so nothing more was asked
    assert load_lesson(first.files.autosave.path).text == BIG
    third = make_window()
    assert third.files.autosave.pending().text == BIG
    third.answers = [B.Discard]
    assert not third.files.offer_recovery()
    assert "deletes it for good" in third.asked[-1] and f"{len(BIG):,} characters" in third.asked[-1]
    assert not first.files.autosave.path.exists()  # discarded in so many words
    assert not third.files.autosave.has_pending()


def test_a_recovery_that_fails_to_open_keeps_the_autosave_and_says_where(make_window, monkeypatch):
    from engine.algorithm.trainer import Trainer

    first = make_window()
    first.session.request_corpus("keep 2\nme 3\n", True)
    first.files.write_autosave()
    first.crash()
    second = make_window()
    second.answers = [B.Yes]

    def fail(self):
        raise RuntimeError("simulated")

    monkeypatch.setattr(Trainer, "_refill_top", fail)
    second.files.offer_recovery()
    assert "could not be opened" in second.told[-1] and str(first.files.autosave.path) in second.told[-1]
    second.close()
    assert load_lesson(first.files.autosave.path).text == "keep 2\nme 3\n"
    from app.autosave import Autosave

    assert Autosave(first.files.autosave.folder).pending().text == "keep 2\nme 3\n"  # offered again


def test_an_unreadable_autosave_is_moved_aside_and_the_user_told_where(make_window, tmp_path):
    folder = tmp_path / "appdata"
    folder.mkdir()
    (folder / "autosave.bpelab").write_text('{"format": "bpe-lab-lesson", "ver', encoding="utf-8")
    window = make_window()
    assert not window.files.offer_recovery()
    kept = [p for p in folder.iterdir() if p.name.startswith("autosave-unreadable-")]
    assert len(kept) == 1 and str(kept[0]) in window.told[-1]
    assert kept[0].read_text(encoding="utf-8") == '{"format": "bpe-lab-lesson", "ver'
    # this run autosaves again, into the place now free
    window.session.request_corpus("new work 2\n", True)
    window.files.write_autosave()
    assert load_lesson(window.files.autosave.path).text == "new work 2\n"


def test_saving_elsewhere_while_a_recovery_trains_keeps_the_autosave(make_window, tmp_path):
    first = make_window()
    first.session.request_large_text(BIG)
    first.files.write_autosave()
    first.files.autosave.wait()
    first.crash()
    second = make_window()
    second.answers = [B.Yes]
    second.files.offer_recovery()
    second.session.request_cancel()
    assert second.files.save_to(tmp_path / "other.bpelab")  # the default lesson, not the recovered one
    assert load_lesson(first.files.autosave.path).text == BIG


def test_two_windows_open_at_once_keep_their_own_autosaves(make_window):
    first = make_window()
    first.session.request_corpus("first window 2\n", True)
    first.files.write_autosave()
    second = make_window()  # the first still runs: its lesson is no crashed run's
    assert not second.files.offer_recovery() and second.asked == []
    second.session.request_corpus("second window 2\n", True)
    second.files.write_autosave()
    assert load_lesson(first.files.autosave.path).text == "first window 2\n"
    assert load_lesson(second.files.autosave.path).text == "second window 2\n"
    second.crash()
    third = make_window()  # offers the run that ended, never the one still open
    third.answers = [B.Yes]
    assert third.files.offer_recovery()
    assert third.corpus_panel.text() == "second window 2\n"
    third.files.autosave.wait()
    assert not second.files.autosave.path.exists()  # this run's autosave holds it now
    assert load_lesson(third.files.autosave.path).text == "second window 2\n"
    assert load_lesson(first.files.autosave.path).text == "first window 2\n"


# -- 4. a lesson too large to open again is never written ------------------------------------------

def test_a_lesson_larger_than_bpe_lab_opens_is_refused_before_writing(make_window, tmp_path, monkeypatch):
    monkeypatch.setattr(lesson_file, "MAX_LESSON_BYTES", 4_000)
    path = tmp_path / "big.bpelab"
    save_lesson(LessonFile("old 2\n", True), path)
    with pytest.raises(LessonTooLargeError):
        save_lesson(LessonFile('"quoted"\n' * 500), path)
    assert load_lesson(path).text == "old 2\n"
    window = make_window()
    window.session.request_corpus('"quoted"\n' * 500, False)
    assert not window.files.save_to(path)
    assert "not saved" in window.told[-1] and "more than" in window.told[-1]
    assert load_lesson(path).text == "old 2\n" and window.session.dirty


def test_the_lesson_reader_opens_what_the_writer_allows():
    from engine.files.reading import MAX_BYTES, MAX_LESSON_BYTES

    # a text of the largest size read, written with the escapes a text typically needs, fits
    assert MAX_LESSON_BYTES >= 2 * MAX_BYTES + 1024


# -- the rule itself: every state the session can hold opens again --------------------------------

TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
LINE = st.one_of(
    st.tuples(st.text(st.characters(exclude_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=8),
              st.integers(0, 10**6)).map(lambda p: f"{p[0]} {p[1]}"),
    TEXT,
    st.tuples(TEXT, st.integers(), st.integers()).map(lambda p: f"{p[0]} {p[1]} {p[2]}"),
)
CORPUS = st.lists(LINE, max_size=6).map("\n".join)
@st.composite
def lesson_settings(draw) -> Settings:
    """Any settings the settings form can hold."""
    units = draw(st.sampled_from(["chars", "bytes"]))
    markers = [None, "auto"] + (["</w>", "_", "▁", "<end>"] if units == "chars" else [])
    size = draw(st.sampled_from(["merges", "vocab", "none"]))
    return Settings(
        split=draw(st.sampled_from(["whitespace", "gpt2", "gpt4", "none"])),
        units=units,
        end_of_word=draw(st.sampled_from(markers)),
        lowercase=draw(st.booleans()),
        min_frequency=draw(st.integers(1, 5)),
        merges=draw(st.integers(0, 50)) if size == "merges" else None,
        vocab_size=draw(st.integers(1, 400)) if size == "vocab" else None,
        tie_break=draw(st.sampled_from(["first", "hf"])),
        special_tokens=tuple(draw(st.lists(st.sampled_from(["<|endoftext|>", "<|im_start|>", "[MASK]"]),
                                           unique=True))),
    )


SETTINGS = lesson_settings()
PROGRESS = st.one_of(st.just({}), st.fixed_dictionaries({
    "version": st.just(1),
    "source": st.sampled_from(["bundled", "lesson"]),
    "position": st.integers(0, 20),
    "answers": st.dictionaries(st.text(min_size=1, max_size=6), st.fixed_dictionaries(
        {"score": st.floats(0, 1), "correct": st.booleans()}), max_size=3),
    "teacher_mode": st.booleans(),
}))


@given(text=CORPUS, word_counts=st.booleans(), lesson_settings=SETTINGS, step=st.integers(0, 10**6),
       held_out=TEXT, quiz=PROGRESS)
@hsettings(max_examples=150, deadline=None)
def test_every_lesson_file_written_opens_with_the_same_content(tmp_path_factory, text, word_counts, lesson_settings,
                                                               step, held_out, quiz):
    lesson = LessonFile(text, word_counts, lesson_settings, step, held_out, quiz)
    path = tmp_path_factory.mktemp("round") / "l.bpelab"
    save_lesson(lesson, path)
    assert same_content(load_lesson(path), lesson)


@given(text=CORPUS, word_counts=st.booleans(), lesson_settings=SETTINGS, held_out=TEXT)
@hsettings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_state_the_window_holds_saves_to_a_lesson_it_opens_again(make_window, tmp_path, text, word_counts,
                                                                       lesson_settings, held_out):
    window = make_window()
    session = window.session
    session.request_settings(lesson_settings)
    session.request_corpus(text, word_counts)
    session.request_held_out(held_out)
    if session.state is not None:
        session.request_step(session.last_step // 2)
    expected = window.files.current_file()
    path = tmp_path / "state.bpelab"
    assert window.files.save_to(path), window.told
    assert same_content(load_lesson(path), expected)
    again = make_window()
    assert again.files.open_path(path)
    assert same_content(again.files.current_file(), expected)
    assert again.corpus_panel.text() == expected.text
    window.close()
    again.close()


# -- the files themselves ------------------------------------------------------------------------

def test_the_autosave_is_readable_by_its_owner_alone_whatever_the_umask(make_window):
    import os
    import stat

    old = os.umask(0o000)
    try:
        window = make_window()
        window.session.request_corpus("private work 2\n", True)
        window.files.write_autosave()
    finally:
        os.umask(old)
    assert stat.S_IMODE(window.files.autosave.path.stat().st_mode) == 0o600


@pytest.mark.parametrize("answer", [B.Save, B.Cancel])
def test_saving_over_a_read_only_lesson_asks_first(make_window, tmp_path, answer):
    import os
    import stat

    path = tmp_path / "kept.bpelab"
    save_lesson(LessonFile("kept 2\n", True), path)
    os.chmod(path, 0o444)
    window = make_window()
    assert window.files.open_path(path)
    window.session.request_corpus("kept 2\nnew 3\n", True)
    window.answers = [answer]
    saved = window.files.save()
    assert "read-only" in window.asked[-1]
    assert saved == (answer == B.Save)
    assert load_lesson(path).text == ("kept 2\nnew 3\n" if saved else "kept 2\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o444
    assert window.session.dirty == (not saved)
    if not saved:
        assert "not saved" in window.told[-1] and "read-only" in window.told[-1]


def test_a_start_removes_what_a_killed_save_left_beside_a_recent_lesson(make_window, tmp_path, qtbot):
    from engine.files.writing import TEMP_SUFFIX

    folder = tmp_path / "lessons"
    folder.mkdir()
    path = folder / "recent.bpelab"
    first = make_window()
    first.session.request_corpus("recent 2\n", True)
    assert first.files.save_to(path)
    left = folder / f".recent.bpelab.k1ll3d99{TEMP_SUFFIX}"
    left.write_bytes(b"half a lesson")  # a save killed a moment ago: no run holds it
    second = make_window()
    qtbot.waitUntil(lambda: not left.exists(), timeout=5_000)
    assert path.exists() and str(path.resolve()) in second.files.recent_files()


def test_a_killed_run_is_offered_at_the_next_start(make_window, tmp_path):
    import os
    import signal
    import subprocess
    import sys

    folder = tmp_path / "appdata"
    script = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from app.autosave import Autosave\n"
        "from app.window import MainWindow\n"
        f"w = MainWindow(persist=False, autosave=Autosave({str(folder)!r}))\n"
        f"w.session.request_corpus({NOT_COUNTS!r}, True)\n"
        "w.files.write_autosave()\n"
        "print('written', flush=True)\n"
        "sys.stdin.read()\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                           cwd=str(Path(__file__).resolve().parents[2]), text=True)
    try:
        assert run.stdout.readline().strip() == "written"
        window = make_window()  # the run still lives: nothing of it is offered
        assert not window.files.offer_recovery() and window.asked == []
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=30)
    after = make_window()
    after.answers = [B.Yes]
    assert after.files.offer_recovery()
    assert after.corpus_panel.text() == NOT_COUNTS and after.session.dirty
