"""The autosave file: written whole, read back, thrown away when unreadable; a failed write reported."""

import os

import pytest

import app.autosave
from app.autosave import Autosave
from engine.formats.lesson_file import LessonFile, load_lesson
from engine.algorithm.settings import Settings


def test_write_and_read_back(tmp_path):
    autosave = Autosave(tmp_path / "data")
    assert autosave.pending() is None
    lesson = LessonFile("a b a b", False, Settings(merges=3), 2, "held", {"answers": {}})
    autosave.write(lesson)
    assert autosave.pending() is None  # this run's own autosave is no crashed run's
    autosave.release()  # the run ends without clearing it
    later = Autosave(tmp_path / "data")
    assert later.pending() == LessonFile("a b a b", False, Settings(merges=3).resolved(), 2, "held", {"answers": {}})
    later.drop_pending()
    assert later.pending() is None and not autosave.path.exists()
    autosave.clear()  # twice is fine


def test_a_run_that_holds_its_lock_is_never_offered(tmp_path):
    live = Autosave(tmp_path)
    live.write(LessonFile("still being typed"))
    other = Autosave(tmp_path)
    assert not other.has_pending() and other.pending() is None
    live.clear()
    live.release()
    assert list(tmp_path.iterdir()) == []  # a clean end leaves nothing behind


def test_background_write_is_whole_once_waited_for(qtbot, tmp_path):
    autosave = Autosave(tmp_path)
    big = "word " * 300_000
    autosave.write(LessonFile(big), background=True)
    autosave.wait()
    assert load_lesson(autosave.path).text == big


def test_a_start_removes_what_a_save_killed_long_ago_left(tmp_path):
    from engine.files.writing import TEMP_SUFFIX

    left = tmp_path / f".autosave.bpelab.k1ll3d99{TEMP_SUFFIX}"
    left.write_bytes(b"half a lesson")
    os.utime(left, (0, 0))
    Autosave(tmp_path)
    assert not left.exists()


def test_an_unreadable_autosave_is_moved_aside_never_deleted(tmp_path):
    from app.autosave import FILE_NAME, UnreadableAutosaveError

    left = tmp_path / FILE_NAME  # as earlier versions named their one autosave
    left.write_text("{ half a lesson", encoding="utf-8")
    autosave = Autosave(tmp_path)
    with pytest.raises(UnreadableAutosaveError) as raised:
        autosave.pending()
    moved = raised.value.moved
    assert moved is not None and moved.parent == tmp_path and str(moved) in str(raised.value)
    assert moved.read_text(encoding="utf-8") == "{ half a lesson"
    assert not left.exists() and autosave.pending() is None
    # a second unreadable one, of a run that ended, gets a name of its own
    crashed = Autosave(tmp_path)
    crashed.write(LessonFile("x"))
    crashed.release()
    crashed.path.write_text("{ another half", encoding="utf-8")
    with pytest.raises(UnreadableAutosaveError) as again:
        autosave.pending()
    assert again.value.moved != moved and moved.exists() and not crashed.path.exists()


def test_a_folder_that_cannot_be_made_is_reported_not_raised(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    autosave = Autosave(blocker / "sub")
    said = []
    autosave.failed.connect(said.append)
    autosave.write(LessonFile("a b"))
    assert autosave.pending() is None
    assert len(said) == 1 and said[0].startswith("The lesson could not be autosaved")


@pytest.mark.parametrize("background", [True, False])
def test_any_exception_while_writing_is_reported_and_nothing_stays_busy(qtbot, tmp_path, monkeypatch, background):
    def broken(lesson, path, private=False):
        raise RuntimeError("simulated")

    monkeypatch.setattr(app.autosave, "save_lesson", broken)
    autosave = Autosave(tmp_path)
    with qtbot.waitSignal(autosave.failed, timeout=10_000) as blocker:
        autosave.write(LessonFile("a b"), background=background)
    assert "RuntimeError: simulated" in blocker.args[0]
    autosave.wait()
    assert not autosave.writing and autosave.pending() is None


@pytest.mark.parametrize("background", [True, False])
def test_a_write_that_gets_through_says_so(qtbot, tmp_path, background):
    autosave = Autosave(tmp_path)
    failed = []
    autosave.failed.connect(failed.append)
    with qtbot.waitSignal(autosave.written, timeout=10_000):
        autosave.write(LessonFile("a b"), background=background)
    autosave.wait()
    assert load_lesson(autosave.path).text == "a b" and failed == []


def test_an_internal_error_while_writing_is_called_one(tmp_path, monkeypatch):
    from engine.errors import InternalError

    def broken(lesson, path, private=False):
        raise InternalError("tables disagree")

    monkeypatch.setattr(app.autosave, "save_lesson", broken)
    autosave = Autosave(tmp_path)
    said = []
    autosave.failed.connect(said.append)
    autosave.write(LessonFile("a b"))
    assert said == ["The lesson could not be autosaved: an internal error (InternalError: tables disagree)"]


def test_an_autosave_nobody_has_seen_is_neither_overwritten_nor_deleted(make_window, tmp_path):
    from engine.formats.lesson_file import LessonFile, load_lesson, save_lesson

    left = tmp_path / "appdata" / "autosave.bpelab"
    left.parent.mkdir(parents=True, exist_ok=True)
    save_lesson(LessonFile("what the crashed run was doing", word_counts=False), left)
    window = make_window()
    window.session.request_corpus("new words new", False)
    assert window.session.dirty
    window.files.write_autosave()
    window.close()
    # the crashed run's lesson is still there for the next start to offer
    assert load_lesson(left).text == "what the crashed run was doing"


def test_a_discarded_autosave_goes_and_the_run_keeps_its_own(make_window, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from engine.formats.lesson_file import LessonFile, save_lesson

    left = tmp_path / "appdata" / "autosave.bpelab"
    left.parent.mkdir(parents=True, exist_ok=True)
    save_lesson(LessonFile("what the crashed run was doing"), left)
    window = make_window()
    window.answers = [QMessageBox.StandardButton.Discard]
    assert not window.files.offer_recovery()
    assert not left.exists()  # seen and discarded
    window.session.request_corpus("new words new", False)
    window.files.write_autosave()
    assert window.files.autosave.path.exists()
    window.close()
    assert not window.files.autosave.path.exists()  # a clean exit removes this run's own autosave
    assert list(left.parent.iterdir()) == []


def test_a_start_with_a_file_still_offers_what_an_earlier_run_left(qapp, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QApplication, QMessageBox

    import app.main
    from app.autosave import Autosave
    from app.window import MainWindow
    from engine.formats.lesson_file import LessonFile, save_lesson

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app.main.make_application()  # named as the window will be, so the default folder is the same
    left = Autosave().path
    left.parent.mkdir(parents=True, exist_ok=True)
    save_lesson(LessonFile("what the crashed run was doing"), left)
    named = tmp_path / "named.txt"
    named.write_text("the named file", encoding="utf-8")
    asked = []

    def ask(self, title, text, buttons, default):
        asked.append(title)
        return QMessageBox.StandardButton.Discard

    monkeypatch.setattr(MainWindow, "ask", ask)
    monkeypatch.setattr(QApplication, "exec", lambda *args: 0)
    before = set(QApplication.topLevelWidgets())
    assert app.main.run_window([str(named)]) == 0
    windows = [w for w in QApplication.topLevelWidgets() if w not in before and isinstance(w, MainWindow)]
    try:
        assert asked == ["Recover the lesson?"]
        # discarded, the named file opens
        assert windows[0].session.lesson.text == "the named file"
    finally:
        for window in windows:
            window.session.mark_saved()
            window.close()
