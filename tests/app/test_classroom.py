"""Classroom mode as a teacher drives it: F5 in, every key, predict first, Esc out with nothing lost."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.classroom import KEY_LIST
from widgets.charts import ChartsView
from widgets.classroom import ASKING, HIDDEN, REVEALED
from widgets.explorer import ExplorerView
from widgets.quiz.session_link import quiz_view
from widgets.tiles import TileView

# classroom mode drives the whole window through every view: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

K = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
VIEWS = [("Tiles", TileView), ("Charts", ChartsView), ("Explorer", ExplorerView), ("Quiz", quiz_view)]


@pytest.fixture
def window(make_window, qtbot, monkeypatch):
    # the offscreen screen is 800x600; size the mode as on a 1080p projector
    monkeypatch.setattr("app.classroom._screen_fit", lambda window: 1.0)
    w = make_window(views=VIEWS)
    w.show()
    qtbot.waitExposed(w)
    w.session.request_step(3)
    return w


def press(qtbot, widget, key, modifiers=Qt.KeyboardModifier.NoModifier):
    qtbot.keyClick(widget, key, modifiers)
    QApplication.processEvents()


def enter(qtbot, w):
    press(qtbot, w, K.Key_F5)
    assert w.classroom.active
    return w.classroom


def looks(w):
    """What the mode may change and must give back, as plain values."""
    tiles, charts, explorer, quiz = (w.views[t] for t, _ in VIEWS)
    return {
        "full screen": bool(w.windowState() & Qt.WindowState.WindowFullScreen),
        "geometry": w.geometry().getRect(),
        "docks hidden": {d.objectName(): d.isHidden() for d in (w.corpus_dock, w.pairs_dock, w.vocab_dock,
                                                                 w.tokenize_dock)},
        "dock areas": {d.objectName(): w.dockWidgetArea(d) for d in (w.corpus_dock, w.pairs_dock)},
        # at projector size the views would squeeze the docks as they come back
        "dock sizes": {d.objectName(): d.size().toTuple() for d in (w.corpus_dock, w.vocab_dock, w.tokenize_dock)},
        "menu bar hidden": w.menuBar().isHidden(),
        "timeline hidden": w.timeline.isHidden(),
        "tab bar hidden": w.tabs.tabBar().isHidden(),
        "style sheet": w.styleSheet(),
        "window colour": w.palette().color(w.backgroundRole()).name(),
        "tab": w.tabs.currentIndex(),
        "tiles": (tiles.canvas.scale, tiles.canvas.theme.name, tiles.controls.isHidden()),
        "charts": charts.theme,
        "explorer": (explorer.scale, explorer.theme.name),
        "quiz": (quiz.scale, quiz.teacher_mode),
    }


def test_f5_enters_and_esc_restores_everything(window, qtbot):
    w = window
    w.pairs_dock.hide()  # a dock the teacher had closed stays closed afterwards
    w.tabs.setCurrentIndex(1)
    QApplication.processEvents()
    before = looks(w)
    assert not before["full screen"]

    classroom = enter(qtbot, w)
    inside = looks(w)
    assert inside["full screen"]
    assert all(inside["docks hidden"].values())
    assert inside["menu bar hidden"] and inside["timeline hidden"] and inside["tab bar hidden"]
    tiles, charts, explorer, quiz = (w.views[t] for t, _ in VIEWS)
    assert tiles.canvas.theme.name == "high contrast" and tiles.controls.isHidden()
    assert tiles.canvas.scale > before["tiles"][0]
    assert charts.theme.name == "projector dark" and charts.theme.font_size > before["charts"].font_size
    assert charts.metrics.theme == charts.theme  # the metrics chart in the classroom's look, as the growth chart
    assert explorer.theme.name == "high contrast" and explorer.scale > before["explorer"][0]
    assert quiz.scale > before["quiz"][0] and quiz.teacher_mode  # the verdict waits for the teacher

    press(qtbot, w, K.Key_Escape)
    assert not classroom.active
    assert looks(w) == before


def test_a_small_screen_starts_smaller_but_never_below_the_desktop_size(window, qtbot, monkeypatch):
    tiles, charts = window.views["Tiles"], window.views["Charts"]
    desktop = tiles.canvas.scale, charts.theme.font_size
    enter(qtbot, window)
    full = tiles.canvas.scale, charts.theme.font_size
    press(qtbot, window, K.Key_Escape)
    monkeypatch.setattr("app.classroom._screen_fit", lambda window: 0.6)
    enter(qtbot, window)
    small = tiles.canvas.scale, charts.theme.font_size
    assert desktop[0] <= small[0] < full[0] and desktop[1] <= small[1] < full[1]


def test_f5_again_leaves_and_menu_action_tracks_the_mode(window, qtbot):
    classroom = enter(qtbot, window)
    assert classroom.action.isChecked()
    press(qtbot, window, K.Key_F5)
    assert not classroom.active and not classroom.action.isChecked()
    assert classroom.action in window.menuBar().actions()[3].menu().actions()  # View menu


def test_closing_the_window_leaves_the_mode_first(window, qtbot):
    classroom = enter(qtbot, window)
    window.close()
    assert not classroom.active
    assert not window.menuBar().isHidden()


@pytest.mark.parametrize("key", [K.Key_PageDown, K.Key_Right, K.Key_Down, K.Key_Space])
def test_next_keys_step_forward(window, qtbot, key):
    enter(qtbot, window)
    press(qtbot, window, key)
    assert window.session.step == 4
    assert not window.timeline.playing  # Space steps here; it is not the window's play key


@pytest.mark.parametrize("key", [K.Key_PageUp, K.Key_Left, K.Key_Up, K.Key_Backspace])
def test_previous_keys_step_back(window, qtbot, key):
    enter(qtbot, window)
    press(qtbot, window, key)
    assert window.session.step == 2


def test_home_resets_and_end_jumps(window, qtbot):
    enter(qtbot, window)
    press(qtbot, window, K.Key_End)
    assert window.session.step == window.session.last_step
    press(qtbot, window, K.Key_Home)
    assert window.session.step == 0


def test_p_plays_and_pauses(window, qtbot):
    enter(qtbot, window)
    press(qtbot, window, K.Key_P)
    assert window.timeline.playing
    press(qtbot, window, K.Key_P)
    assert not window.timeline.playing


def test_home_also_pauses(window, qtbot):
    enter(qtbot, window)
    press(qtbot, window, K.Key_P)
    press(qtbot, window, K.Key_Home)
    assert not window.timeline.playing and window.session.step == 0


@pytest.mark.parametrize("key, white", [(K.Key_B, False), (K.Key_Period, False), (K.Key_W, True), (K.Key_Comma, True)])
def test_b_and_w_blank_the_screen_and_the_same_key_brings_it_back(window, qtbot, key, white):
    classroom = enter(qtbot, window)
    press(qtbot, window, key)
    assert classroom.blank.isVisible() and classroom.blank.white == white
    assert classroom.blank.geometry() == window.rect()
    pixel = window.grab().toImage().pixelColor(window.width() // 2, window.height() // 2).name()
    assert pixel == ("#ffffff" if white else "#000000")
    press(qtbot, window, key)
    assert classroom.blank.isHidden() and not window.timeline.playing


def test_b_on_a_white_screen_turns_it_black(window, qtbot):
    classroom = enter(qtbot, window)
    press(qtbot, window, K.Key_W)
    press(qtbot, window, K.Key_B)
    assert classroom.blank.isVisible() and not classroom.blank.white
    press(qtbot, window, K.Key_W)
    assert classroom.blank.isVisible() and classroom.blank.white


@pytest.mark.parametrize("key", [K.Key_PageDown, K.Key_X, K.Key_Return, K.Key_P, K.Key_2, K.Key_Escape, K.Key_F5])
def test_any_other_key_on_a_blank_screen_brings_the_lesson_back_and_does_not_act(window, qtbot, key):
    classroom = enter(qtbot, window)
    press(qtbot, window, K.Key_B)
    press(qtbot, window, key)
    assert classroom.blank.isHidden()
    assert classroom.active  # Esc and F5 first bring the lesson back; pressed again they leave
    assert window.session.step == 3 and not window.timeline.playing
    assert window.tabs.currentWidget() is window.views["Tiles"]


def test_number_keys_and_tab_switch_views(window, qtbot):
    enter(qtbot, window)
    tabs = window.tabs
    press(qtbot, window, K.Key_2)
    assert tabs.currentWidget() is window.views["Charts"]
    press(qtbot, window, K.Key_1)
    assert tabs.currentWidget() is window.views["Tiles"]
    press(qtbot, window, K.Key_Tab)
    assert tabs.currentWidget() is window.views["Charts"]
    press(qtbot, window, K.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert tabs.currentWidget() is window.views["Tiles"]
    press(qtbot, window, K.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert tabs.currentWidget() is window.views["Quiz"]
    press(qtbot, window, K.Key_9)  # no ninth view: nothing happens
    assert tabs.currentWidget() is window.views["Quiz"]


def test_on_the_quiz_the_arrows_are_the_quizs_own(window, qtbot):
    enter(qtbot, window)
    press(qtbot, window, K.Key_4)
    press(qtbot, window, K.Key_Right)
    assert window.session.step == 3
    quiz = window.views["Quiz"]
    assert quiz.editor.numbered_options() >= 1
    press(qtbot, window, K.Key_1)  # an open choice: the digit answers it
    assert window.tabs.currentWidget() is quiz and quiz.editor.answer() == [0]
    quiz.check()
    assert quiz.editor.locked
    press(qtbot, window, K.Key_1)  # nothing left to answer: the view keys work again
    assert window.tabs.currentWidget() is window.views["Tiles"]


def test_type_scale_follows_ctrl_keys_live(window, qtbot):
    classroom = enter(qtbot, window)
    tiles, charts = window.views["Tiles"], window.views["Charts"]
    start_tiles, start_points = tiles.canvas.scale, charts.theme.font_size
    press(qtbot, window, K.Key_Equal, CTRL)
    assert classroom.scale > 1 and tiles.canvas.scale > start_tiles and charts.theme.font_size > start_points
    press(qtbot, window, K.Key_0, CTRL)
    assert classroom.scale == 1 and tiles.canvas.scale == pytest.approx(start_tiles)
    press(qtbot, window, K.Key_Minus, CTRL)
    assert classroom.scale < 1 and tiles.canvas.scale < start_tiles
    assert window.zoom == 1.0  # the window's own zoom is not the mode's


@pytest.mark.parametrize("key, modifiers", [(K.Key_Question, Qt.KeyboardModifier.ShiftModifier),
                                            (K.Key_F1, Qt.KeyboardModifier.NoModifier)])
def test_question_mark_lists_every_key(window, qtbot, key, modifiers):
    classroom = enter(qtbot, window)
    press(qtbot, window, key, modifiers)
    overlay = classroom.keys_overlay
    assert overlay.isVisible() and overlay.geometry() == window.rect()
    text = overlay.text()
    for keys, what in KEY_LIST:
        assert keys in text and what in text
    assert "1 Tiles  2 Charts  3 Explorer  4 Quiz" in text
    press(qtbot, window, K.Key_Escape)  # Esc closes the list first, and stays in the mode
    assert overlay.isHidden() and classroom.active


def test_typing_in_the_explorer_stays_typing(window, qtbot):
    enter(qtbot, window)
    press(qtbot, window, K.Key_3)
    editor = window.views["Explorer"].editor
    editor.setFocus()
    editor.clear()
    qtbot.keyClicks(editor, "a b")
    press(qtbot, editor, K.Key_Space)
    assert editor.toPlainText() == "a b " and window.session.step == 3
    press(qtbot, editor, K.Key_PageDown)  # the clicker still steps
    assert window.session.step == 4
    press(qtbot, editor, K.Key_Equal, CTRL)  # and the type size still follows
    assert window.classroom.scale > 1
    press(qtbot, editor, K.Key_Escape)  # gives the focus back, the mode stays
    assert window.classroom.active and not editor.hasFocus()


# -- predict first --------------------------------------------------------------------------------


def test_predict_first_asks_reveals_merges_and_asks_again(window, qtbot):
    classroom = enter(qtbot, window)
    press(qtbot, window, K.Key_2)
    state = window.session.state
    expected = state.next_step()
    top = [pair for pair, _ in state.ranked_pairs(4)[:4]]

    press(qtbot, window, K.Key_A)  # the question goes up at once, over the tiles
    assert classroom.predict_first and classroom.predict_action.isChecked()
    prompt = classroom.prompt
    assert prompt.state == ASKING and prompt.isVisible() and prompt.question.merge == 4
    assert window.tabs.currentWidget() is window.views["Tiles"]
    assert window.session.step == 3
    asked = prompt.text()
    for a, b in top:
        assert f"{a} + {b}" in asked
    assert str(expected.count) not in asked  # the counts would give it away

    press(qtbot, window, K.Key_1)  # the class's answer, not a view switch
    assert prompt.guess == 0 and window.tabs.currentWidget() is window.views["Tiles"]

    press(qtbot, window, K.Key_Right)
    assert prompt.state == REVEALED and window.session.step == 3
    assert prompt.geometry().bottom() == prompt.host.rect().bottom()
    assert prompt.geometry().height() < prompt.host.height() / 2  # the tiles above show the framed winner
    answer = prompt.text()
    assert f"Answer: {expected.pair[0]} + {expected.pair[1]}" in answer and f"{expected.count} times" in answer

    press(qtbot, window, K.Key_Space)
    assert window.session.step == 4
    # the next question covers the tiles as soon as the merge has played: the frame never gives it away
    qtbot.waitUntil(lambda: prompt.state == ASKING, timeout=5000)
    assert prompt.question.merge == 5 and prompt.isVisible()
    assert not window.views["Tiles"].canvas.animating


def test_step_back_asks_about_the_earlier_merge(window, qtbot):
    classroom = enter(qtbot, window)
    classroom.set_predict_first(True)
    press(qtbot, window, K.Key_PageUp)
    qtbot.waitUntil(lambda: classroom.prompt_state == ASKING, timeout=5000)
    assert window.session.step == 2 and classroom.prompt.question.merge == 3


def test_the_question_stays_with_the_tiles(window, qtbot):
    classroom = enter(qtbot, window)
    classroom.set_predict_first(True)
    press(qtbot, window, K.Key_Tab)
    assert window.tabs.currentWidget() is window.views["Charts"] and not classroom.prompt.isVisible()
    press(qtbot, window, K.Key_PageDown)  # first back to the question, nothing revealed behind the class
    assert window.tabs.currentWidget() is window.views["Tiles"]
    assert classroom.prompt_state == ASKING and classroom.prompt.isVisible()


def test_playing_skips_questions_and_pausing_asks(window, qtbot):
    classroom = enter(qtbot, window)
    classroom.set_predict_first(True)
    press(qtbot, window, K.Key_P)
    assert window.timeline.playing and classroom.prompt_state == HIDDEN
    press(qtbot, window, K.Key_P)
    qtbot.waitUntil(lambda: classroom.prompt_state == ASKING, timeout=5000)
    assert classroom.prompt.question.merge == window.session.step + 1


def test_the_question_goes_when_the_lesson_moves_elsewhere(window, qtbot):
    classroom = enter(qtbot, window)
    classroom.set_predict_first(True)
    assert classroom.prompt_state == ASKING
    window.session.request_step(0)  # the slider, say
    assert classroom.prompt_state == HIDDEN


def test_predict_first_at_the_end_just_stays(window, qtbot):
    classroom = enter(qtbot, window)
    classroom.set_predict_first(True)
    press(qtbot, window, K.Key_End)
    press(qtbot, window, K.Key_PageDown)
    assert classroom.prompt_state == HIDDEN and window.session.step == window.session.last_step


def test_leaving_hides_every_cover(window, qtbot):
    classroom = enter(qtbot, window)
    classroom.set_predict_first(True)
    press(qtbot, window, K.Key_PageDown)
    press(qtbot, window, K.Key_Escape)
    assert not classroom.active and classroom.prompt_state == HIDDEN and classroom.keys_overlay.isHidden()


def test_the_covers_are_made_hidden_when_the_mode_is_first_entered_and_then_kept(window, qtbot):
    from widgets.classroom import BlankCover, KeysOverlay

    def covers():
        return window.findChildren(BlankCover) + window.findChildren(KeysOverlay)

    assert covers() == []  # the window's first paint does not wait for them
    classroom = enter(qtbot, window)
    made = covers()
    assert len(made) == 2 and all(c.isHidden() for c in made)
    assert window.session.step == 3 and window.tabs.currentWidget() is window.views["Tiles"]
    press(qtbot, window, K.Key_Escape)
    enter(qtbot, window)
    assert covers() == made and classroom.blank in made and classroom.keys_overlay in made


def test_keys_do_nothing_outside_the_mode(window, qtbot):
    press(qtbot, window, K.Key_W)
    press(qtbot, window, K.Key_2)
    assert window.classroom.blank.isHidden() and window.tabs.currentIndex() == 0


def test_the_mode_knows_views_by_their_type_and_never_probes_them():
    import app.classroom
    import app.classroom_looks

    for module in (app.classroom, app.classroom_looks):
        source = Path(module.__file__).read_text(encoding="utf-8")
        assert "hasattr(" not in source and "getattr(" not in source, module.__name__
        # what a view had is read through its public API, not its private fields
        assert not re.search(r"\b(canvas|view|host)\._", source), module.__name__
