"""The panels and views fit the small classroom screens without a sideways scroll or a crushed view:
the window opened at the size a projector or an old laptop has, at actual size and zoomed."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from app import layout as dock_layout


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def open_window(make_window, width: int, height: int, zoom: float = 1.0):
    window = make_window()
    window.resize(width, height)
    window.show()
    settle()
    if zoom != 1.0:
        window.set_zoom(zoom)
        settle()
    return window


def test_the_corpus_panel_needs_no_sideways_scroll_at_1024x768(make_window):
    window = open_window(make_window, 1024, 768)
    scroll = window.corpus_dock.widget()
    assert window.corpus_dock.isVisible()
    assert scroll.horizontalScrollBar().maximum() == 0, window.corpus_panel.minimumSizeHint().width()
    # the room came from the panel's own columns, not from the views
    assert window.centralWidget().width() / window.width() >= dock_layout.CENTRAL_SHARE - 0.01


@pytest.mark.parametrize("width, height", [(1280, 720), (1024, 768)])
def test_the_explorers_token_panes_get_most_of_its_page(make_window, width, height):
    window = open_window(make_window, width, height)
    explorer = window.views["Explorer"]
    window.tabs.setCurrentWidget(explorer)
    settle()
    page = explorer.tabs.currentWidget()
    for side in (explorer.left, explorer.right):
        pane = side.scroll_area.height()
        # the tallest part of the page: the text box, the options and each side's heading share the
        # rest (at 1024 px the timeline above takes more of the window's height)
        assert pane >= page.height() / 3 and pane > explorer.editor.height(), (side.key, pane, page.height())
    assert page.horizontalScrollBar().maximum() == 0  # the two sides fit the page's width


@pytest.mark.parametrize("width, height", [(1024, 768), (1280, 800)])
def test_at_double_zoom_the_window_fits_and_the_status_sentence_is_whole(make_window, width, height):
    window = open_window(make_window, width, height, zoom=2.0)
    assert window.width() == width, "the timeline's controls widened the window past the screen"
    status = window.timeline.status
    for step in range(window.session.last_step + 1):
        window.session.request_step(step)
        QApplication.processEvents()
        assert not status.is_elided(), (step, status.full_text())
        assert status.visibleRegion().boundingRect().height() == status.height(), step
    # two rows of controls, every control its whole size
    timeline = window.timeline
    for control in (timeline.play_button, timeline.step_field, timeline.speed):
        assert control.width() >= control.minimumSizeHint().width()


@pytest.mark.parametrize("width, height, zoom", [(1366, 768, 1.5), (1280, 800, 2.0)])
def test_the_tiles_report_no_row_under_the_band_that_counts_the_words_below(make_window, width, height, zoom):
    window = open_window(make_window, width, height, zoom)
    canvas = window.views["Tiles"].canvas
    assert canvas.hidden_below() > 0, "the band shows"
    band_top = canvas.viewport().height() - canvas.painter.footer_h
    if zoom < 2:
        assert canvas.visible_rows(), "a row above the band"  # at 200 % on 800 px no row clears it
    for r in canvas.visible_rows():
        for i in range(len(canvas.row_tiles(r))):
            assert canvas.tile_rect(r, i).bottom() <= band_top, (r, i)
    # the band counts every word whose row it covers
    rows = canvas.visible_rows()
    assert canvas.hidden_below() == len(canvas.rows.order) - rows.stop
