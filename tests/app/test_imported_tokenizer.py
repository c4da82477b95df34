"""A tokenizer file opened in the window: its merges step by step like a trained lesson, read in the
background, with every view saying there is no corpus rather than showing counts it cannot know."""

import re

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QMessageBox

from engine.formats.hf import save_hf
from engine.formats.lesson_file import LessonFile
from engine.formats.tiktoken_file import save_tiktoken
from engine.lesson.source import FileSource
from engine.lesson.lesson import Lesson
from engine.readable.display import for_settings
from engine.algorithm.settings import Settings

B = QMessageBox.StandardButton
TEXT = "low lower newest widest lowest newer " * 3
WAIT = 60_000
# a count said as a number of times ("0 times", "×0", "(0)"): what no view may claim here
FALSE_COUNT = re.compile(r"\b0 times|×0\b|\(0\)|appeared 0|occurs 0|count then: 0")


def trained(**settings) -> Lesson:
    return Lesson(TEXT, settings=Settings(min_frequency=1, merges=15, **settings)).train()


@pytest.fixture
def tokenizer_json(tmp_path):
    path = tmp_path / "tokenizer.json"
    save_hf(trained().tokenizer, path)
    return path


def open_and_wait(window, qtbot, path) -> None:
    before = window.session.lesson
    assert window.files.open_path(path)
    # read off the GUI thread: the lesson on screen stays until the file's lesson is ready
    assert window.session.training and window.session.lesson is before
    qtbot.waitUntil(lambda: not window.session.training, timeout=WAIT)


def everything_shown(window) -> str:
    """The words every view shows of the lesson at its current step."""
    pairs = window.pairs_panel.shown()
    vocab = window.vocab_panel.shown()
    charts = window.views["Charts"]
    parts = [pairs.heading, pairs.count_line, *map(str, pairs.rows), vocab.heading, *map(str, vocab.last_rows),
             window.views["Tiles"].caption_text(), window.corpus_panel.hint.text(), window.windowTitle(),
             window.timeline.shown().status, charts.growth.readout_text(window.session.step), str(charts.pairs.shown()),
             str(window.vocab_panel.model.index(window.vocab_panel.model.rowCount() - 1, 0).data(Qt.ItemDataRole.ToolTipRole))]
    return "\n".join(parts)


def test_a_tokenizer_json_opens_as_a_read_only_lesson_of_its_merges(make_window, qtbot, tokenizer_json):
    window = make_window()
    open_and_wait(window, qtbot, tokenizer_json)
    session = window.session
    lesson = session.lesson
    assert isinstance(lesson.source, FileSource)
    assert session.last_step == 15 and session.step == 0
    assert not session.dirty and window.files.path is None
    assert "tokenizer.json (imported tokenizer, read-only)" in window.windowTitle()
    # Open Recent offers it again, and it is still not the path a save would write to
    assert window.files.recent_files()[0] == str(tokenizer_json.resolve())
    assert "no training corpus" in window.corpus_panel.hint.text()
    panel = window.tokenize_panel
    panel.input.setText("lowest newer")
    vocab_rows = []
    for k in range(session.last_step + 1):
        session.request_step(k)
        shown = everything_shown(window)
        assert not FALSE_COUNT.search(shown), (k, FALSE_COUNT.search(shown).group(), shown)
        vocab_rows.append(window.vocab_panel.model.rowCount())
        panel.refresh()
        expected = [for_settings(lesson.settings).token(t) for t in lesson.tokenizer_at(k).encode("lowest newer").tokens]
        assert [token for token, _fill in panel.chips_shown()] == expected, k
        assert f"after {k} merge" in panel.summary.text()
    assert vocab_rows == sorted(vocab_rows) and vocab_rows[-1] > vocab_rows[0]
    nxt = lesson.steps[3]
    session.request_step(3)
    assert f"{session.show(nxt.pair[0])} + {session.show(nxt.pair[1])}" in window.pairs_panel.shown().heading
    assert "not known" in window.pairs_panel.shown().heading


def test_saving_an_imported_tokenizer_says_there_is_no_lesson_to_save(make_window, qtbot, tokenizer_json):
    window = make_window()
    open_and_wait(window, qtbot, tokenizer_json)
    assert not window.files.save()
    assert "no training corpus" in window.told[-1]
    assert tokenizer_json.read_bytes()  # the file itself is never written
    # typing a text of one's own makes an ordinary lesson with the file's settings
    window.corpus_panel.corpus_requested.emit("tea team teams", False)
    assert window.session.lesson.corpus is not None
    assert window.session.lesson.text == "tea team teams"


def test_a_tiktoken_file_and_a_drop_and_the_command_line_open_it_too(make_window, qtbot, tmp_path):
    path = tmp_path / "bytes.tiktoken"
    save_tiktoken(trained(units="bytes", split="gpt4").tokenizer, path)
    window = make_window()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    drop = QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    window.dropEvent(drop)
    qtbot.waitUntil(lambda: not window.session.training, timeout=WAIT)
    assert window.session.lesson.corpus is None and window.session.lesson.source.kind == "tiktoken"
    started = make_window(path=str(path))
    qtbot.waitUntil(lambda: isinstance(started.session.lesson.source, FileSource), timeout=WAIT)
    assert started.session.last_step == window.session.last_step > 0


def test_a_bad_tokenizer_file_is_refused_with_the_reason_and_the_lesson_kept(make_window, qtbot, tmp_path):
    window = make_window()
    path = tmp_path / "tokenizer.json"
    path.write_text('{"model": {"type": "BPE", "unk_token": "<unk>", "vocab": {"<unk>": 0, "a": 1}, "merges": []}}',
                    encoding="utf-8")
    before = window.session.lesson, window.windowTitle(), window.session.dirty
    window.files.open_path(path)
    qtbot.waitUntil(lambda: not window.session.training, timeout=WAIT)
    assert "holds no merges" in window.told[-1] and "unchanged" in window.told[-1]
    assert (window.session.lesson, window.windowTitle(), window.session.dirty) == before
    assert str(path.resolve()) not in window.files.recent_files()


def test_the_quiz_charts_and_handout_say_there_is_no_corpus(make_window, qtbot, tokenizer_json, tmp_path):
    from widgets.handout import write_handout
    from widgets.handout_dialog import export_handout
    from engine.errors import BpeLabError

    window = make_window()
    open_and_wait(window, qtbot, tokenizer_json)
    window.session.request_step(4)
    with pytest.raises(BpeLabError, match="no training corpus"):
        write_handout(window.session.lesson, tmp_path / "h.pdf", [1, 2])
    assert export_handout(window) is None  # said before any dialog asks where to write it
    assert "no training corpus" in window.told[-1]
    assert not list(tmp_path.glob("*.pdf"))
    quiz = window.views["Quiz"]
    assert quiz.lesson_questions.live is None  # no question about a lesson with no words
    charts = window.views["Charts"]
    assert "no training corpus" in charts.notice_text()


def test_a_file_long_enough_to_report_progress_opens_with_the_progress_shown(make_window, qtbot, tokenizer_json,
                                                                             monkeypatch):
    import engine.lesson_io.from_tokenizer

    # a report every merge, as a file of many thousand merges gives one every few thousand
    monkeypatch.setattr(engine.lesson_io.from_tokenizer, "_REPORT_EVERY", 1)
    window = make_window()
    reports = []
    window.session.runner.progressed.connect(lambda done, total: reports.append((done, total)))
    open_and_wait(window, qtbot, tokenizer_json)
    assert isinstance(window.session.lesson.source, FileSource)
    assert reports and all(0 < done <= total for done, total in reports)


def test_a_tokenizer_file_is_parsed_once_and_its_reading_is_called_so(make_window, qtbot, tokenizer_json, monkeypatch):
    import engine.formats.load as load

    parsed = []
    real_parse = load.parse_json
    monkeypatch.setattr(load, "parse_json", lambda text, name: parsed.append(name) or real_parse(text, name))
    window = make_window()
    assert window.files.open_path(tokenizer_json)
    assert window.session.training
    assert window.timeline.progress_label.text() == "Reading tokenizer file…"
    qtbot.waitUntil(lambda: not window.session.training, timeout=WAIT)
    assert isinstance(window.session.lesson.source, FileSource)
    assert parsed == [str(tokenizer_json)]
    # a text trained next is training again
    window.session.load(LessonFile("low lower " * 2000), background=True)
    assert window.timeline.progress_label.text() == "Training…"
    qtbot.waitUntil(lambda: not window.session.training, timeout=WAIT)
