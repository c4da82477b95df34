"""The main window: keys, edits that retrain and undo, lesson files, bad input, look."""

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl, Signal
from PySide6.QtGui import QDropEvent, QFontDatabase, QFontInfo, QImage, QPainter
from PySide6.QtWidgets import QMessageBox, QWidget

from app.window import LATER
from engine.formats.lesson_file import LessonFile, load_lesson, save_lesson

B = QMessageBox.StandardButton
CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def type_corpus(window, text):
    window.corpus_panel.editor.setPlainText(text)
    window.corpus_panel.flush()


@pytest.fixture
def window(make_window, qtbot):
    w = make_window()
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    w.tabs.currentWidget().setFocus()
    return w


# -- keys and timeline --------------------------------------------------------------------------


def test_timeline_keys_step_play_and_jump(window, qtbot):
    s = window.session
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_Right)
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_Right)
    assert s.step == 2
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_Left)
    assert s.step == 1
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_End)
    assert s.step == s.lesson.last_step > 5
    assert "Training stopped: nothing left to merge" in window.timeline.status.text()
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_Home)
    assert s.step == 0
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_Space)
    assert window.timeline.playing
    qtbot.waitUntil(lambda: s.step >= 1)
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_Space)
    assert not window.timeline.playing


def test_arrow_keys_move_the_cursor_while_typing_not_the_lesson(window, qtbot):
    editor = window.corpus_panel.editor
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_Right)
    assert window.session.step == 0
    assert editor.textCursor().position() == 1


def test_slider_and_status_line_follow_the_step(window):
    window.timeline.slider.setValue(1)
    assert window.session.step == 1
    assert window.timeline.status.text().startswith("Merged e + s into es: it appeared 9 times, tied with s + t")
    window.session.request_step(3)
    assert window.timeline.slider.value() == 3
    assert window.timeline.step_label.text() == f"Step 3 of {window.session.last_step}"


def test_play_stops_at_the_end(window, qtbot):
    window.timeline.speed.setCurrentIndex(window.timeline.speed.count() - 1)
    window.session.request_step(window.session.last_step - 2)
    window.timeline.play()
    qtbot.waitUntil(lambda: not window.timeline.playing)
    assert window.session.step == window.session.last_step


# -- edits, retraining, undo --------------------------------------------------------------------


def test_editing_the_corpus_retrains_from_step_zero_and_undo_brings_it_back(window):
    s = window.session
    s.request_step(4)
    type_corpus(window, "tea 2\nteam 1\nteams 1\nsteam 1\nseat 1")
    assert s.step == 0
    assert s.lesson.corpus.words == ("tea", "team", "teams", "steam", "seat")
    assert window.session.dirty
    window.session.undo_stack.undo()
    assert s.lesson.text == CLASSIC
    assert s.step == 4  # undo returns to where the class was
    assert window.corpus_panel.editor.toPlainText() == CLASSIC
    window.session.undo_stack.redo()
    assert s.lesson.corpus.words[0] == "tea"


def test_changing_a_setting_retrains_and_is_undoable(window):
    form = window.corpus_panel.settings_form
    form.marker.setCurrentIndex(form.marker.findData(None))
    assert window.session.lesson.settings.marker is None
    assert window.session.lesson.initial_tokens == 95 - 16
    window.session.undo_stack.undo()
    assert window.session.lesson.settings.marker == "</w>"
    assert form.marker.currentData() == "</w>"


def test_switching_to_running_text_reads_the_counts_as_words(window):
    window.corpus_panel.running.setChecked(True)
    assert "5" in window.session.lesson.corpus.words


def test_presets_load_as_one_undoable_step(window):
    window.session.request_preset("tea")
    lesson = window.session.lesson
    assert [s.token for s in lesson.steps] == ["ea", "tea", "team"]
    assert lesson.held_out
    window.session.undo_stack.undo()
    assert window.session.lesson.text == CLASSIC


def test_empty_or_blank_corpus_disables_stepping_and_says_why(window):
    for text, words in (("", "empty"), ("   \n\t  ", "only spaces")):
        type_corpus(window, text)
        assert window.session.state is None
        assert not window.timeline.forward_button.isEnabled()
        assert not window.timeline.play_button.isEnabled()
        assert words in window.corpus_panel.hint.text()
        window.session.request_next()  # the → key: nothing happens, nothing breaks
        assert window.session.step == 0
        assert "empty" in window.timeline.status.text()


def test_a_bad_word_count_line_is_explained_and_keeps_the_lesson(window):
    type_corpus(window, "low 5\nlower two words")
    assert "line 2" in window.corpus_panel.hint.text()
    assert window.session.lesson.text == CLASSIC


# -- lesson files --------------------------------------------------------------------------------


def test_save_and_open_round_trip(window, make_window, tmp_path):
    window.session.request_preset("paragraph")
    window.session.request_step(7)
    path = tmp_path / "lesson.bpelab"
    window.choose_save_path = lambda: str(tmp_path / "lesson")  # the suffix is added
    assert window.files.save_as()
    assert not window.session.dirty
    assert window.windowTitle().startswith("lesson.bpelab")
    other = make_window()
    assert other.files.open_path(path)
    assert other.session.lesson.text == window.session.lesson.text
    assert other.session.lesson.settings.resolved() == window.session.lesson.settings.resolved()
    assert other.session.lesson.held_out == window.session.lesson.held_out
    assert other.session.step == 7
    assert other.files.path == path
    assert not other.session.dirty
    assert other.files.recent_files()[0] == str(path.resolve())


def test_an_opened_text_file_is_a_recent_file_that_opens_the_same_text_again(window, make_window, qtbot, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("tea team teams tea", encoding="utf-8")
    assert window.files.open_path(path)
    qtbot.waitUntil(lambda: not window.session.training, timeout=60_000)
    assert window.files.path is None  # a save still asks where: the text file is never overwritten
    assert window.files.recent_files()[0] == str(path.resolve())
    other = make_window()
    other._fill_recent_menu()
    action = next(a for a in other.recent_menu.actions() if a.text() == "notes.txt")
    action.trigger()
    qtbot.waitUntil(lambda: not other.session.training, timeout=60_000)
    assert other.session.lesson.text == "tea team teams tea"


def test_a_corrupt_lesson_file_leaves_the_current_lesson_alone(window, tmp_path):
    window.session.request_step(2)
    bad = tmp_path / "broken.bpelab"
    bad.write_text('{"format": "bpe-lab-lesson", "version": 1, "corpus": ', encoding="utf-8")
    assert not window.files.open_path(bad)
    assert "not valid JSON" in window.told[-1]
    assert window.session.lesson.text == CLASSIC and window.session.step == 2


def test_a_lesson_from_a_newer_version_is_refused_with_a_reason(window, tmp_path):
    newer = tmp_path / "newer.bpelab"
    data = json.loads(LessonFile("a b").to_json())
    data["version"] = 99
    newer.write_text(json.dumps(data), encoding="utf-8")
    assert not window.files.open_path(newer)
    assert "newer BPE Lab" in window.told[-1]
    assert window.session.lesson.text == CLASSIC


def test_a_failed_save_says_so_and_leaves_the_old_file_whole(window, tmp_path, monkeypatch):
    path = tmp_path / "kept.bpelab"
    save_lesson(LessonFile("old text"), path)
    before = path.read_bytes()
    window.files.path = path
    type_corpus(window, "new text here")

    def refuse(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("engine.files.reading.os.replace", refuse)
    assert not window.files.save()
    assert "not saved" in window.told[-1] and "No space left" in window.told[-1]
    assert path.read_bytes() == before
    assert window.session.dirty
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".kept")] == []


def test_a_binary_file_is_refused_unless_asked_to_replace_bytes(window, tmp_path):
    binary = tmp_path / "picture.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    window.answers = [B.Cancel]
    assert not window.files.open_path(binary)
    assert "binary" in window.asked[-1]
    assert window.session.lesson.text == CLASSIC
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("café café crème".encode("latin-1"))
    window.answers = [B.Open]
    assert window.files.open_path(latin)
    assert "not UTF-8" in window.asked[-1]
    assert window.session.lesson.text == "caf\ufffd caf\ufffd cr\ufffdme"
    assert window.files.path is None and window.session.dirty  # Save must ask where: the text file is not overwritten


def test_a_file_is_offered_with_replacement_characters_by_its_error_class_not_its_words(window, tmp_path,
                                                                                       monkeypatch):
    from engine.errors import BpeLabError, NotPlainTextError

    odd = tmp_path / "odd.txt"
    odd.write_bytes(b"odd \xff bytes")

    def not_plain(path):
        raise NotPlainTextError(f"{path} has an unusual shape")

    monkeypatch.setattr("app.lesson_open_save.read_text", not_plain)
    window.answers = [B.Cancel]
    assert not window.files.open_path(odd)
    assert "unusual shape" in window.asked[-1]

    def only_words(path):
        raise BpeLabError(f"{path} is not UTF-8 text and looks like a binary file, in words only")

    monkeypatch.setattr("app.lesson_open_save.read_text", only_words)
    assert not window.files.open_path(odd)
    assert len(window.asked) == 1 and "in words only" in window.told[-1]
    assert window.session.lesson.text == CLASSIC


def test_the_window_wires_and_never_changes_the_lesson_itself():
    import re

    import app.window

    source = Path(app.window.__file__).read_text(encoding="utf-8")
    # views say what they do by their type, checked once (a Protocol), not by probing
    assert "hasattr(" not in source and "getattr(" not in source
    assert "._interval" not in source
    # the session announces its own facts and is the only writer of the lesson
    assert not re.search(r"session\.\w+\.emit\(", source)
    assert not re.search(r"lesson\.\w+\s*=[^=]", source)


@pytest.mark.parametrize("module", ["app.window", "app.lesson_open_save", "app.session", "app.autosave",
                                    "widgets.handout_dialog", "app.collector"])
def test_the_window_and_its_helpers_use_each_object_through_its_api_not_by_probing(module):
    import importlib

    source = Path(importlib.import_module(module).__file__).read_text(encoding="utf-8")
    assert "hasattr(" not in source and "getattr(" not in source


def test_dropping_a_text_file_opens_it(window, tmp_path):
    dropped = tmp_path / "words.txt"
    dropped.write_text("hug hug pug pun bun", encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(dropped))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    assert window.session.lesson.corpus.words[:2] == ("hug", "pug")


def test_closing_with_unsaved_changes_asks(window):
    type_corpus(window, "one two two")
    window.answers = [B.Cancel]
    assert not window.close()
    assert "not saved" in window.asked[-1]
    assert window.isVisible()
    window.answers = [B.Discard]
    assert window.close()


# -- autosave ------------------------------------------------------------------------------------


def test_autosave_is_offered_back_after_a_crash(make_window, tmp_path):
    first = make_window()
    type_corpus(first, "recover 3\nme 2")
    first.session.request_step(1)
    first.files.write_autosave()
    assert first.files.autosave.path.exists()
    # a crash: the window never closes, so the autosave stays
    first.crash()
    second = make_window()
    second.answers = [B.Yes]
    assert second.files.offer_recovery()
    assert second.session.lesson.text == "recover 3\nme 2"
    assert second.session.step == 1
    assert second.session.dirty and second.files.path is None


def test_discarding_the_recovery_throws_the_autosave_away(make_window):
    first = make_window()
    type_corpus(first, "a b a b")
    first.files.write_autosave()
    first.crash()
    second = make_window()
    second.answers = [B.Discard]
    assert not second.files.offer_recovery()
    assert not first.files.autosave.path.exists() and not second.files.autosave.has_pending()
    assert second.session.lesson.text == CLASSIC


def test_a_clean_close_removes_the_autosave(make_window):
    window = make_window()
    type_corpus(window, "x y x y")
    window.files.write_autosave()
    window.answers = [B.Discard]
    window.close()
    assert not window.files.autosave.path.exists()


def test_a_failing_autosave_is_on_show_until_a_write_gets_through(make_window, tmp_path):
    from app.autosave import Autosave

    blocker = tmp_path / "not a folder"
    blocker.write_text("x", encoding="utf-8")
    autosave = Autosave(blocker / "appdata")
    window = make_window(autosave=autosave)
    window.show()
    assert window.statusBar().isHidden()
    type_corpus(window, "x y x y")
    window.files.write_autosave()
    assert window.statusBar().isVisible() and window.autosave_problem.isVisible()
    said = window.autosave_problem.text()
    assert said.startswith("The lesson could not be autosaved") and "not being autosaved" in said
    autosave.folder = tmp_path / "appdata"  # the folder can be made now
    autosave.path = autosave.folder / "autosave.bpelab"
    window.files.write_autosave()
    assert autosave.path.exists() and window.statusBar().isHidden()
    window.answers = [B.Discard]
    window.close()


def test_closing_the_window_stops_and_waits_for_every_worker(make_window, qtbot):
    import time

    from widgets.worker import Worker, abort_if_requested, running_workers

    def endless():
        while True:
            abort_if_requested()
            time.sleep(0.001)

    window = make_window()
    worker = Worker(endless)
    worker.start()
    assert worker.is_running
    window.close()
    assert not worker.is_running  # asked to stop and waited for, before the window went
    qtbot.waitUntil(lambda: running_workers() == 0, timeout=5_000)


# -- look ----------------------------------------------------------------------------------------


def test_zoom_scales_every_panel_and_theme_and_zoom_persist(make_window, qtbot):
    window = make_window()
    window.show()
    qtbot.waitExposed(window)
    labels = [window.timeline.status, window.pairs_panel.heading, window.corpus_panel.hint,
              window.tokenize_panel.summary, window.vocab_panel.heading]
    before = [label.font().pointSizeF() for label in labels]
    window.zoom_in_action.trigger()
    window.zoom_in_action.trigger()
    after = [label.font().pointSizeF() for label in labels]
    assert all(a > b * 1.2 for a, b in zip(after, before))
    window.dark_action.trigger()
    assert window.theme == "dark"
    window.close()
    again = make_window()
    assert again.theme == "dark" and again.zoom == pytest.approx(window.zoom)
    again.zoom_reset_action.trigger()
    assert again.timeline.status.font().pointSizeF() == pytest.approx(before[0])


def test_text_is_drawn_with_a_real_font(window):
    families = QFontDatabase.families()
    assert families, "Qt found no font at all: install one (fonts-dejavu-core)"
    info = QFontInfo(window.timeline.status.font())
    assert info.family() in families
    image = QImage(200, 60, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFF)
    painter = QPainter(image)
    painter.setFont(window.timeline.status.font())
    painter.drawText(10, 40, "BPE Lab")
    painter.end()
    inked = sum(1 for x in range(200) for y in range(60) if image.pixel(x, y) & 0xFFFFFF != 0xFFFFFF)
    assert inked > 100, "the text left no ink: the font has no glyphs"


def test_the_central_area_takes_views_from_factories(make_window):
    from PySide6.QtWidgets import QLabel

    window = make_window(views=[("One", lambda s: QLabel(f"step {s.step}")), ("Two", lambda s: QLabel("two"))])
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["One", "Two"]
    window.add_view("Three", lambda s: QLabel("three"))
    assert window.tabs.count() == 3 and window.views["Three"].text() == "three"


class Progress(QWidget):
    """A view whose progress the lesson file keeps, as the quiz's answers are."""

    progress_changed = Signal()

    def __init__(self, session):
        super().__init__()
        self.data = {}

    def progress(self):
        return dict(self.data)

    def restore_progress(self, data):
        self.data = dict(data)


def test_a_view_with_progress_has_it_saved_in_the_lesson_and_given_back(make_window, tmp_path):
    window = make_window(views=[("Quiz", Progress)])
    window.views["Quiz"].data = {"answers": {"q1": {"score": 1}}}
    window.choose_save_path = lambda: str(tmp_path / "quiz.bpelab")
    assert window.files.save_as()
    assert load_lesson(tmp_path / "quiz.bpelab").quiz == {"answers": {"q1": {"score": 1}}}
    other = make_window(views=[("Quiz", Progress)])
    other.files.open_path(tmp_path / "quiz.bpelab")
    assert other.views["Quiz"].data == {"answers": {"q1": {"score": 1}}}


def test_progress_opened_before_its_view_is_built_is_kept_and_given_to_it(make_window, tmp_path):
    answers = {"answers": {"q1": {"score": 1}}}
    save_lesson(LessonFile("low 5\nlower 2", True, quiz=answers), tmp_path / "quiz.bpelab")
    window = make_window(views=[("Tiles", lambda s: QWidget()), ("Quiz", Progress)])
    assert "Quiz" in LATER  # the quiz is built after the window's first paint
    window.files.open_path(tmp_path / "quiz.bpelab")
    assert not window.views.built("Quiz")
    # saved before the view exists: the answers stay in the file
    window.choose_save_path = lambda: str(tmp_path / "again.bpelab")
    assert window.files.save_as()
    assert load_lesson(tmp_path / "again.bpelab").quiz == answers
    assert window.views["Quiz"].data == answers and not window.session.dirty


def test_a_huge_paste_trains_in_the_background_and_shows_read_only(window, qtbot):
    from widgets.corpus_panel import EDITOR_LIMIT

    huge = "the cat sat on the mat " * (EDITOR_LIMIT // 20)
    mime = QMimeData()
    mime.setText(huge)
    window.corpus_panel.editor.insertFromMimeData(mime)
    assert window.session.training or window.session.lesson.text == huge
    qtbot.waitUntil(lambda: not window.session.training, timeout=60_000)
    assert window.session.lesson.text == huge
    assert window.corpus_panel.editor.isReadOnly()
    assert "read-only" in window.corpus_panel.hint.text()
    window.session.undo_stack.undo()
    qtbot.waitUntil(lambda: window.session.lesson.text == CLASSIC, timeout=60_000)
    assert not window.corpus_panel.editor.isReadOnly()


def test_a_json_text_that_is_no_tokenizer_opens_as_training_text(window, tmp_path):
    words = tmp_path / "words.json"
    words.write_text('["hug", "pug", "hug"]', encoding="utf-8")
    assert window.files.open_path(words)
    assert window.session.lesson.text == '["hug", "pug", "hug"]'


def test_a_quiz_pack_beside_the_lesson_moves_with_it(make_window, tmp_path):
    import json
    import shutil

    from resources.quiz import bundled_text

    first = tmp_path / "class"
    first.mkdir()
    pack = first / "packs" / "week1.json"
    pack.parent.mkdir()
    pack.write_text(bundled_text(), encoding="utf-8")
    window = make_window()
    quiz = window.views["Quiz"]
    assert quiz.open_pack(str(pack))
    window.choose_save_path = lambda: str(first / "lesson.bpelab")
    assert window.files.save_as()
    saved = json.loads((first / "lesson.bpelab").read_text(encoding="utf-8"))["quiz"]["source"]
    assert saved == "file:packs/week1.json"  # named from the lesson's folder, not from this machine's root
    # the folder copied elsewhere (another machine, a USB stick): the lesson still finds its pack
    moved = tmp_path / "elsewhere"
    shutil.copytree(first, moved)
    shutil.rmtree(first)
    other = make_window()
    assert other.files.open_path(moved / "lesson.bpelab")
    other_quiz = other.views["Quiz"]
    assert other_quiz.session.source == "file:" + str((moved / "packs" / "week1.json").resolve())
    assert "could not be opened" not in other_quiz.session.notice
