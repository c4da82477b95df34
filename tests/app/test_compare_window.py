"""File > Compare merges…: a merge list walked beside the lesson on screen, off the GUI thread."""

from __future__ import annotations

import threading

import pytest

from app.compare_merges import STAGES
from app.session import Session
from engine.algorithm.settings import Settings
from engine.lesson.lesson import Lesson

# x+y wins first; then c+d and a+b tie at 2, which the lesson's first rule gives to c+d (met first)
TIED = "xy xy xy cd cd ab ab"


@pytest.fixture
def window(make_window):
    lesson = Lesson(TIED, settings=Settings(end_of_word=None)).train()
    return make_window(session=Session(lesson))


def _compare(qtbot, window, path) -> None:
    window.choose_merge_path = lambda: str(path)
    window.compare_action.trigger()
    qtbot.waitUntil(lambda: not window.comparison.running, timeout=10_000)


def test_a_tie_broken_by_hf_shows_its_step_and_names_hf(qtbot, window, tmp_path):
    mine = tmp_path / "merges.txt"
    mine.write_text("x y\na b\nc d\n", encoding="utf-8")
    _compare(qtbot, window, mine)
    panel = window.compare_panel
    assert not window.compare_dock.isHidden()
    assert "at step 2" in panel.verdict.text() and "rule hf" in panel.verdict.text()
    assert "the lesson merges c + d (2 times); your list merges a + b (2 times)" in panel.parting.text()
    assert "c + d" in panel.ties.text() and "a + b" in panel.ties.text()
    assert window.timeline.parting_mark.step == 2 and not window.timeline.parting_mark.isHidden()


def test_show_on_the_tiles_lands_on_the_step_before_the_parting_merge(qtbot, window, tmp_path):
    mine = tmp_path / "merges.txt"
    mine.write_text("x y\na b\nc d\n", encoding="utf-8")
    _compare(qtbot, window, mine)
    window.tabs.setCurrentIndex(window.tabs.count() - 1)
    window.compare_panel.show_button.click()
    assert window.session.step == 1  # the tiles frame merge 2, the lesson's c + d, as the next one
    tiles = window.views["Tiles"]
    assert window.tabs.currentWidget() is tiles
    caption = tiles.caption_text()
    assert "Next merge: c + d" in caption and "your list merges (1) a + b" in caption
    assert tiles.canvas.rows.tie_number(("a", "b")) == 1  # bracketed on the rows, numbered as the caption says


def test_a_real_difference_is_bracketed_after_the_ties(qtbot, window, tmp_path):
    mine = tmp_path / "merges.txt"
    mine.write_text("x y\ny c\n", encoding="utf-8")  # y + c never occurs
    _compare(qtbot, window, mine)
    assert "a real difference" in window.compare_panel.verdict.text()
    window.compare_panel.show_button.click()
    tiles = window.views["Tiles"]
    assert "your list merges (2) y + c" in tiles.caption_text()


def test_an_identical_list_says_so(qtbot, window, tmp_path):
    mine = tmp_path / "mine.json"
    mine.write_text('[["x", "y"], ["c", "d"], ["a", "b"]]', encoding="utf-8")
    _compare(qtbot, window, mine)
    assert "identical" in window.compare_panel.verdict.text()
    assert window.compare_panel.show_button.isHidden()
    assert window.timeline.parting_mark.isHidden()


def test_a_malformed_file_gives_its_reason_and_leaves_the_lesson(qtbot, window, tmp_path):
    window.session.request_step(2)
    lesson = window.session.lesson
    bad = tmp_path / "merges.txt"
    bad.write_text("x y z\n", encoding="utf-8")
    _compare(qtbot, window, bad)
    said = window.compare_panel.verdict.text()
    assert said.startswith("This file cannot be compared: ") and "line 1" in said
    assert window.session.lesson is lesson and window.session.step == 2


def test_cancel_stops_the_run_and_reports_nothing_after(qtbot, window, tmp_path, monkeypatch):
    import engine.compare.merge_lists as merge_lists

    mine = tmp_path / "merges.txt"
    mine.write_text("x y\na b\nc d\n", encoding="utf-8")
    held, real = threading.Event(), merge_lists.read_merge_list

    def slow_read(path, settings):
        held.wait(10)  # the run stays in its first stage until the test lets it go
        return real(path, settings)

    monkeypatch.setattr(merge_lists, "read_merge_list", slow_read)
    reports = []
    window.choose_merge_path = lambda: str(mine)
    window.compare_action.trigger()
    window.comparison.done.connect(reports.append)
    qtbot.waitUntil(lambda: window.compare_panel.verdict.text() == STAGES[0], timeout=5000)
    assert not window.compare_panel.cancel_button.isHidden()
    window.compare_panel.cancel_button.click()
    held.set()
    from widgets.worker import wait_for_workers

    assert wait_for_workers(10_000)
    qtbot.wait(50)
    assert reports == [] and "cancelled" in window.compare_panel.verdict.text()
    assert window.compare_panel.cancel_button.isHidden()


def test_a_lesson_with_no_text_says_what_to_do(qtbot, make_window, tmp_path):
    window = make_window(session=Session(Lesson("", settings=Settings(end_of_word=None))))
    mine = tmp_path / "merges.txt"
    mine.write_text("x y\n", encoding="utf-8")
    _compare(qtbot, window, mine)
    assert "no training text to compare with: type or open a text first" in window.compare_panel.verdict.text()
