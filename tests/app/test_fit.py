"""The panels and views fit the small classroom screens without a sideways scroll or a crushed view:
the window opened at the size a projector or an old laptop has, at actual size and zoomed."""

from __future__ import annotations

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
