"""Opening a lesson is all or nothing, text that no file can hold never reaches a save, and a
window whose save failed stays open."""

import json

import pytest
from PySide6.QtWidgets import QMessageBox

from engine.formats.lesson_file import LessonFile, load_lesson, save_lesson
from engine.algorithm.settings import Settings

B = QMessageBox.StandardButton
KEPT_TEXT = "kept 4\nkeeper 2\nkeeps 3\n"
BROKEN_VIEW_TEXT = "a lesson no view can show"


def lesson_json(text="some text", **settings) -> dict:
    data = json.loads(LessonFile(text).to_json())
    data["settings"].update(settings)
    return data


def write(path, data) -> None:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")


BAD_LESSONS = {
    "lowercase given as a word": lesson_json(lowercase="yes"),
    "a vocabulary size past any count": lesson_json(vocab_size=3_000_000_000),
    "special tokens given as a number": lesson_json(special_tokens=5),
    "a marker given as a list": lesson_json(end_of_word=["x"]),
    "a negative step": {**lesson_json(), "step": -1},
    "cut short": '{"format": "bpe-lab-lesson", "version": 1, "corpus": {"te',
    "a lone surrogate escape": '{"format": "bpe-lab-lesson", "version": 1, "corpus": {"text": "a \\ud800 b"}}',
}


@pytest.fixture
def opened(make_window, tmp_path, monkeypatch):
    """A window with a.bpelab open at step 3, and views that fail on the lesson BROKEN_VIEW_TEXT."""
    from widgets.vocab_panel import VocabPanel

    taken = VocabPanel._on_lesson_changed

    def vocab_fails(self, lesson):
        if lesson.text == BROKEN_VIEW_TEXT:
            raise ValueError("simulated: the vocabulary panel cannot show this lesson")
        taken(self, lesson)

    monkeypatch.setattr(VocabPanel, "_on_lesson_changed", vocab_fails)
    path = tmp_path / "a.bpelab"
    save_lesson(LessonFile(KEPT_TEXT, True, Settings(min_frequency=1), 3), path)
    window = make_window()
    assert window.files.open_path(path)
    assert window.session.step == 3 and not window.session.dirty
    return window, path


def snapshot(window):
    s = window.session
    return s.lesson, s.state, s.step, s.source, window.files.path, window.windowTitle(), s.dirty


def test_every_bad_lesson_is_refused_and_keeps_lesson_path_title_and_dirty_flag(opened, tmp_path):
    window, path = opened
    before = snapshot(window)
    for name, data in BAD_LESSONS.items():
        bad = tmp_path / "bad.bpelab"
        write(bad, data)
        told = len(window.told)
        assert not window.files.open_path(bad), name
        assert len(window.told) == told + 1, name
        assert "unchanged" in window.told[-1], name
        assert snapshot(window) == before, name
        assert window.corpus_panel.text() == KEPT_TEXT, name
    assert "lowercase must be true or false" in window.told[0]
    assert window.files.save()
    saved = load_lesson(path)
    assert (saved.text, saved.step, saved.settings.min_frequency) == (KEPT_TEXT, 3, 1)


@pytest.mark.parametrize("broken", ["vocabulary panel", "settings form"])
def test_a_view_that_cannot_take_the_new_lesson_leaves_every_view_on_the_old_one(opened, tmp_path, monkeypatch,
                                                                                  broken):
    from widgets.settings_form import SettingsForm

    window, path = opened
    if broken == "settings form":
        shown = SettingsForm.show_settings

        def form_fails(self, settings):
            if settings.lowercase:
                raise ValueError("simulated: the settings form cannot show this lesson")
            shown(self, settings)

        monkeypatch.setattr(SettingsForm, "show_settings", form_fails)
    type_corpus = window.corpus_panel.corpus_requested.emit
    type_corpus(KEPT_TEXT + "kept 1\n", True)  # unsaved work: the dirty flag stays up too
    before = snapshot(window)
    assert before[-1]
    other = tmp_path / "other.bpelab"
    save_lesson(LessonFile(BROKEN_VIEW_TEXT, settings=Settings(lowercase=broken == "settings form")), other)
    assert not window.files.open_path(other)
    assert "could not be opened" in window.told[-1] and "simulated" in window.told[-1]
    assert "unchanged" in window.told[-1]
    assert snapshot(window) == before
    assert window.vocab_panel.model.rowCount() > 0
    assert window.corpus_panel.text() == KEPT_TEXT + "kept 1\n"
    assert window.corpus_panel.settings_form.current().min_frequency == 1
    assert window.files.save()
    assert load_lesson(path).text == KEPT_TEXT + "kept 1\n"


def test_pasted_text_with_a_lone_surrogate_is_cleaned_said_and_saves(make_window, tmp_path):
    window = make_window()
    # the session is the way in for every text (a Qt string can hold a lone half; a Python call can too)
    window.session.request_corpus("tea \ud800 team", False)
    assert window.session.lesson.text == "tea \ufffd team"
    assert "replacement character" in window.corpus_panel.hint.text()
    window.session.request_held_out("x\udc00y")
    assert window.session.lesson.held_out == "x\ufffdy"
    window.session.request_large_text("big \udfff text")
    assert window.session.lesson.text == "big \ufffd text"
    path = tmp_path / "cleaned.bpelab"
    window.files.save_to(path)
    assert load_lesson(path).text == "big \ufffd text"
    assert not window.session.dirty


@pytest.mark.parametrize("error", [PermissionError(13, "Permission denied"),
                                   UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")])
def test_a_window_whose_save_failed_stays_open_and_says_why(make_window, tmp_path, monkeypatch, error):
    window = make_window()
    window.show()
    window.files.path = tmp_path / "mine.bpelab"
    window.corpus_panel.corpus_requested.emit("unsaved 2\nwork 1", True)
    assert window.session.dirty

    def fail(*_args):
        raise error

    monkeypatch.setattr("app.lesson_open_save.save_lesson", fail)
    window.answers = [B.Save]
    assert not window.close()
    assert window.isVisible()
    assert "not saved" in window.told[-1]
    assert ("Permission denied" if isinstance(error, OSError) else "UnicodeEncodeError") in window.told[-1]
    assert window.session.dirty
    monkeypatch.undo()
    window.answers = [B.Save]
    assert window.close()
    assert load_lesson(tmp_path / "mine.bpelab").text == "unsaved 2\nwork 1"


def test_every_setting_a_lesson_may_hold_is_shown_as_it_is(make_window, tmp_path):
    path = tmp_path / "large.bpelab"
    settings = Settings(min_frequency=5_000_000, vocab_size=2_000_000_000)
    save_lesson(LessonFile("big numbers big numbers", settings=settings), path)
    window = make_window()
    assert window.files.open_path(path)
    assert window.corpus_panel.settings_form.current() == settings.resolved()


def test_mutated_lessons_through_the_window_open_whole_or_leave_everything_as_it_was(make_window, tmp_path):
    import random

    from tests.engine.formats.mutations import Mutator, make_seeds

    mutator = Mutator(make_seeds(tmp_path / "seeds")["lesson"], tmp_path / "work")
    rng = random.Random("window-lessons")
    window = make_window()
    refused = 0
    for n in range(150):
        path = mutator.next(rng)
        before, told = snapshot(window), len(window.told)
        if window.files.open_path(path):
            assert window.files.path == path and not window.session.dirty, n
            assert window.session.source == load_lesson(path), n
        else:
            refused += 1
            assert snapshot(window) == before, n
            assert len(window.told) == told + 1 and "unchanged" in window.told[-1], n
            assert "Traceback" not in window.told[-1] and "internal error" not in window.told[-1], n
    assert refused >= 15
