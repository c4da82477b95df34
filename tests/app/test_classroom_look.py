"""Classroom mode's one look, read from the painted pixels at 1280x720 in both themes: every text a
class reads on every view is 7:1 against what is painted behind it and 24 px or more, a widget or
dialog made in the mode gets the same look, and the band under the views says why the last merge won.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from engine.readable.describe import describe_position, tie_rule
from tests.app.painted_text import MeasuredText, measured_texts
from widgets.charts import ChartsView
from widgets.explorer import ExplorerView
from widgets.quiz.session_link import quiz_view
from widgets.tiles import TileView

# classroom mode drives the whole window through every view: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

VIEWS = [("Tiles", TileView), ("Charts", ChartsView), ("Explorer", ExplorerView), ("Quiz", quiz_view)]
SIZE = (1280, 720)
LEAST_CONTRAST, LEAST_PX = 7.0, 24


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


@pytest.fixture(params=["light", "dark"])
def window(request, make_window, qtbot, monkeypatch):
    # the offscreen screen is no projector's: the mode sizes itself as on a 1280x720 one, and the
    # window is given that size once in the mode (full screen would make it the offscreen screen's)
    monkeypatch.setattr("app.classroom._screen_fit", lambda window: min(SIZE[0] / 1920, SIZE[1] / 1080))
    w = make_window(views=VIEWS, theme=request.param)
    monkeypatch.setattr(w, "showFullScreen", w.show)
    w.show()
    qtbot.waitExposed(w)
    w.session.request_step(3)
    return w


def enter(w) -> None:
    w.classroom.enter()
    w.setGeometry(QRect(0, 0, *SIZE))
    settle()
    assert w.size().toTuple() == SIZE


def unreadable(texts: list[MeasuredText]) -> list[str]:
    return [str(t) for t in texts if t.contrast < LEAST_CONTRAST or t.pixels < LEAST_PX]


@pytest.mark.parametrize("title", [title for title, _ in VIEWS])
def test_every_text_on_every_view_reads_from_the_back_of_the_room(window, title):
    enter(window)
    window.show_view(title)
    settle()
    texts = measured_texts(window)
    assert window.classroom.band in [t.widget for t in texts]
    assert len(texts) > 1, "the view shows some text of its own"
    assert unreadable(texts) == []


def test_the_quiz_hinted_answered_wrong_and_revealed_reads_from_the_back(window):
    enter(window)
    window.show_view("Quiz")
    quiz = window.views["Quiz"]
    quiz.show_hint()
    settle()
    hinted = measured_texts(window)
    assert quiz.hint in {t.widget for t in hinted}  # brought into view under the options
    assert unreadable(hinted) == []
    assert quiz.answer_digit(4)  # "every word becomes exactly one token": a common misconception
    quiz.check()
    quiz.reveal()
    settle()
    texts = measured_texts(window)
    shown = {t.widget for t in texts}
    # scrolled to the feedback: the verdict, the why and the misconception are all in sight
    assert {quiz.verdict, quiz.why, quiz.misconception} <= shown
    assert unreadable(texts) == []


def test_a_label_a_view_and_a_dialog_made_in_the_mode_get_its_look_and_lose_it_after(window, qtbot):
    enter(window)
    window.show_view("Charts")
    charts = window.views["Charts"]
    label = QLabel("A sentence added to a view once the mode is on")
    charts.layout().addWidget(label)
    settle()
    added = [t for t in measured_texts(window) if t.widget is label]
    assert len(added) == 1 and unreadable(added) == []

    # a view of a kind the mode has never heard of, added while it is on
    window.add_view("Notes", lambda session: QLabel("A view added while the mode is on"))
    window.show_view("Notes")
    settle()
    notes = [t for t in measured_texts(window) if t.widget is window.views["Notes"]]
    assert len(notes) == 1 and unreadable(notes) == []

    box = QMessageBox(QMessageBox.Icon.Information, "BPE Lab", "A message opened in the mode", parent=window)
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    settle()
    texts = measured_texts(box)
    assert any("opened in the mode" in t.text for t in texts)
    assert unreadable(texts) == []
    box.close()

    window.classroom.leave()
    settle()
    assert label.fontInfo().pixelSize() < LEAST_PX  # the desktop's type again


@pytest.mark.parametrize("window", ["light"], indirect=True)
def test_the_band_says_the_last_merge_its_count_and_the_tie_rule_on_every_view(window):
    window.session.request_step(1)  # e + s, tied with s + t and t + </w>
    enter(window)
    lesson = window.session.lesson
    rule = tie_rule(lesson.settings)
    for title, _ in VIEWS:
        window.show_view(title)
        settle()
        band = window.classroom.band
        assert band.isVisible() and band.visibleRegion().boundingRect().height() >= band.height() - 1
        said = band.text().replace("\u2060", "")
        assert said.startswith(f"Step 1: {describe_position(lesson, 1)}")
        assert "9 times" in said and "tied with s + t" in said and rule in said
        # the pair counts the next merge is chosen from, on the tiles only
        assert ("Pair counts now: es + t: 9" in said) == (title == "Tiles")


@pytest.mark.parametrize("window", ["light"], indirect=True)
def test_the_band_keeps_the_next_merge_while_the_class_predicts_it(window):
    enter(window)
    window.classroom.set_predict_first(True)
    settle()
    window.show_view("Tiles")
    settle()
    said = window.classroom.band.text().replace("\u2060", "")
    following = window.session.state.next_step()
    assert following is not None
    assert said.startswith("Step 3: Merged est + </w>")
    assert "Pair counts" not in said and f"{following.pair[0]} + {following.pair[1]}" not in said


@pytest.mark.parametrize("window", ["light"], indirect=True)
def test_leaving_puts_the_window_and_the_application_palettes_back(window):
    quiz = window.views["Quiz"]
    before = (window.palette().color(window.backgroundRole()).name(),
              QApplication.palette().color(window.backgroundRole()).name(), window.styleSheet(),
              quiz.full_screen_offered)
    enter(window)
    assert QApplication.palette().color(window.backgroundRole()).name() == "#000000"
    assert not quiz.full_screen_offered  # the mode is full screen already
    window.classroom.leave()
    settle()
    after = (window.palette().color(window.backgroundRole()).name(),
             QApplication.palette().color(window.backgroundRole()).name(), window.styleSheet(),
             quiz.full_screen_offered)
    assert after == before
    assert window.classroom.band.isHidden()
