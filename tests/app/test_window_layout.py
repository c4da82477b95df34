"""The docks under zoom and on small screens: never crushed, room given back, a crushed layout never kept."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from app import layout as dock_layout
from app.appearance import BASE_POINTS

# whole windows laid out at many sizes: .ci/run runs them, the quick part leaves them out
pytestmark = pytest.mark.slow


def opened(make_window, width, height, **kwargs):
    w = make_window(**kwargs)
    w.resize(width, height)
    w.show()
    QApplication.processEvents()
    return w


def docks_usable(window) -> bool:
    for dock in window.docks:
        need_w, need_h = dock_layout.dock_minimum(dock, BASE_POINTS * window.zoom)
        if dock.isVisible() and (dock.width() < need_w or dock.height() < need_h):
            return False
    return True


def test_zooming_in_three_times_and_back_keeps_every_dock_usable_and_gives_the_room_back(make_window):
    window = opened(make_window, 1600, 1000)
    share = window.centralWidget().width() / window.width()
    tiles = window.views["Tiles"].scale
    for _ in range(3):
        window.zoom_in_action.trigger()
        QApplication.processEvents()
        assert docks_usable(window)
    assert window.views["Tiles"].scale > tiles * 1.4  # the tiles follow the zoom
    assert window.pairs_dock.width() >= window.fontMetrics().horizontalAdvance("Pairs") * 2
    window.zoom_reset_action.trigger()
    QApplication.processEvents()
    assert docks_usable(window)
    assert window.views["Tiles"].scale == pytest.approx(tiles)
    assert window.centralWidget().width() / window.width() >= min(share, dock_layout.CENTRAL_SHARE) - 0.01


def test_a_small_screen_tabs_the_panels_and_keeps_the_views_60_percent(make_window):
    window = opened(make_window, 1280, 720)
    window.resize(1280, 720)
    window.arrange_docks()
    QApplication.processEvents()
    assert window.dock_arrangement == "tabbed"
    assert window.pairs_dock in window.tabifiedDockWidgets(window.vocab_dock)
    assert window.centralWidget().width() / window.width() >= dock_layout.CENTRAL_SHARE - 0.01
    wide = opened(make_window, 1920, 1080)
    wide.arrange_docks()
    assert wide.dock_arrangement == "side by side"


def test_a_crushed_layout_is_never_saved_and_the_next_start_lays_out_afresh(make_window, tmp_path, monkeypatch):
    settings_path = str(tmp_path / "layout.ini")
    window = opened(make_window, 1600, 1000, app_settings=QSettings(settings_path, QSettings.Format.IniFormat))
    window.save_settings()
    assert QSettings(settings_path, QSettings.Format.IniFormat).value("window/state") is not None
    # a panel squeezed under what it needs (as an old version, another screen or a drag could leave it)
    monkeypatch.setattr(dock_layout, "dock_minimum", lambda dock, points, natural=False: (5000, 10))
    assert window.layout_crushed()
    window.save_settings()
    assert QSettings(settings_path, QSettings.Format.IniFormat).value("window/state") is None
    monkeypatch.undo()
    again = opened(make_window, 1600, 1000, app_settings=QSettings(settings_path, QSettings.Format.IniFormat))
    assert not again.layout_crushed() and docks_usable(again)


def test_the_status_line_keeps_its_height_while_stepping_and_shows_every_sentence_whole(make_window):
    window = opened(make_window, 1280, 720)
    settle()  # the line takes the height of the longest sentence once its width is known
    status = window.timeline.status
    tab_bar_y = window.tabs.mapTo(window, window.tabs.rect().topLeft()).y()
    heights, lines = set(), set()
    for step in range(window.session.last_step + 1):
        window.session.request_step(step)
        QApplication.processEvents()
        heights.add(status.height())
        assert window.tabs.mapTo(window, window.tabs.rect().topLeft()).y() == tab_bar_y
        assert status.toolTip() == status.accessibleDescription() == status.full_text()
        # the tie rule is the sentence a class needs: wrapped, never cut
        assert not status.is_elided() and "…" not in status.text(), step
        lines.add(status.text().count("\n") + 1)
    assert len(heights) == 1
    assert max(lines) > 2  # some step says more than two lines: the line is tall enough for it at every step


def test_the_status_line_shows_both_its_lines_whole_at_every_zoom(make_window, qtbot):
    window = opened(make_window, 1366, 768)
    window.session.request_step(3)
    status = window.timeline.status
    tallest = 0
    for zoom in (1.0, 1.5, 2.0, 1.5, 1.0):
        window.set_zoom(zoom)
        # the label's holders give it the height its two lines of the larger type need (each passes
        # the new height up on a later turn of the event loop), not the height of the zoom before
        qtbot.waitUntil(lambda: status.visibleRegion().boundingRect().height() == status.height(), timeout=3000)
        tallest = max(tallest, status.height())
    assert tallest > status.height()  # and the type did grow


def settle() -> None:
    """Let the docks' regrouping and sizing (a few queued layout passes) finish."""
    for _ in range(4):
        QApplication.processEvents()


def on_screen_tab_titles(window) -> list[list[str]]:
    return sorted([bar.tabText(i) for i in range(bar.count())] for bar in dock_layout.on_screen_tab_bars(window))


@pytest.mark.parametrize("width, height, start", [(1920, 1080, "side by side"), (1280, 720, "tabbed")])
def test_zoom_to_200_percent_and_back_rearranges_the_panels_and_returns(make_window, width, height, start):
    window = opened(make_window, width, height)
    settle()
    assert window.dock_arrangement == start
    tabs_at_start = on_screen_tab_titles(window)
    for zoom, arrangement in ((2.0, "tabbed"), (1.0, start)):
        window.set_zoom(zoom)
        settle()
        assert window.dock_arrangement == arrangement
        assert docks_usable(window)
        assert window.centralWidget().width() / window.width() >= dock_layout.CENTRAL_SHARE - 0.01
    # the two groups' tabs at 200%, none left behind on the way back
    assert on_screen_tab_titles(window) == tabs_at_start
    if start == "side by side":
        assert tabs_at_start == [] and not window.tabifiedDockWidgets(window.pairs_dock)


def test_at_200_percent_a_tabbed_group_shows_every_title_whole(make_window):
    window = opened(make_window, 1280, 720)
    window.set_zoom(2.0)
    settle()
    bars = dock_layout.on_screen_tab_bars(window)
    assert sorted(sorted(bar.tabText(i) for i in range(bar.count())) for bar in bars) == [
        ["Corpus", "Tokenize"], ["Pairs", "Vocabulary"]]
    for bar in bars:
        assert not bar.usesScrollButtons()
        assert sum(bar.tabSizeHint(i).width() for i in range(bar.count())) <= bar.width()
    assert window.minimumSizeHint().width() < 1280


def test_narrowing_the_window_past_the_side_by_side_width_tabs_the_panels(make_window, qtbot):
    window = opened(make_window, 1920, 1080)
    settle()
    assert window.dock_arrangement == "side by side"
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.dock_arrangement == "tabbed")
    window.resize(1920, 1080)
    qtbot.waitUntil(lambda: window.dock_arrangement == "side by side")
    settle()
    assert on_screen_tab_titles(window) == []


def test_after_the_classroom_the_tabbed_panels_have_one_working_tab_bar_a_group(make_window):
    window = opened(make_window, 1280, 720)
    settle()
    window.classroom.enter()
    settle()
    window.classroom.leave()
    settle()
    assert on_screen_tab_titles(window) == [["Corpus", "Tokenize"], ["Pairs", "Vocabulary"]]
    (bar,) = [b for b in dock_layout.on_screen_tab_bars(window) if b.tabText(0) == "Pairs"]
    bar.setCurrentIndex(1)  # as a click on "Vocabulary" does
    settle()
    assert window.vocab_dock.geometry().intersects(window.rect())
    assert not window.pairs_dock.geometry().intersects(window.rect())


def test_panels_the_user_tabs_together_show_their_titles_whole_too(make_window):
    window = opened(make_window, 1920, 1080)
    settle()
    assert dock_layout.on_screen_tab_bars(window) == []
    window.tabifyDockWidget(window.pairs_dock, window.vocab_dock)  # as dropping one panel on the other does
    settle()
    (bar,) = dock_layout.on_screen_tab_bars(window)
    assert not bar.usesScrollButtons() and bar.elideMode() == Qt.TextElideMode.ElideNone


def test_a_layout_saved_on_a_large_screen_fits_a_small_one(make_window, tmp_path, monkeypatch):
    from PySide6.QtCore import QRect

    settings_path = str(tmp_path / "large.ini")
    large = opened(make_window, 1920, 1080, app_settings=QSettings(settings_path, QSettings.Format.IniFormat))
    large.arrange_docks()
    QApplication.processEvents()
    large.tokenize_dock.setFloating(True)
    large.tokenize_dock.setGeometry(1500, 700, 400, 300)  # a panel the user put in the large screen's corner
    assert large.dock_arrangement == "side by side"
    large.save_settings()
    large.close()

    room = QRect(0, 0, 1280, 720)
    monkeypatch.setattr(dock_layout, "screen_room", lambda window: room)
    small = make_window(app_settings=QSettings(settings_path, QSettings.Format.IniFormat))
    small.show()
    for _ in range(4):
        QApplication.processEvents()
    assert room.contains(small.frameGeometry()), small.frameGeometry()
    assert room.contains(small.tokenize_dock.geometry()), small.tokenize_dock.geometry()
    assert small.dock_arrangement == "tabbed"  # the arrangement for this width, not the large screen's
    for dock in small.docks:
        if dock.isVisible() and not dock.isFloating() and not dock.visibleRegion().isEmpty():  # the tab in front
            box = QRect(dock.mapTo(small, dock.rect().topLeft()), dock.size())
            assert small.rect().contains(box), (dock.windowTitle(), box)
    assert not small.layout_crushed() and docks_usable(small)
    assert small.centralWidget().width() / small.width() >= dock_layout.CENTRAL_SHARE - 0.01
