"""The window at the sizes and zooms teachers meet (laptops, projectors, zoomed type), in both
themes, on every central tab: no panel crushed, no title cut, the views keep their share.

Every combination is saved as a PNG, to $BPE_LAB_RENDER_DIR when set (to look at), else to a
temporary folder. One window serves each screen size (opened at that size, as a teacher's would be).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QTabBar

from app import layout as dock_layout
from app.appearance import BASE_POINTS

SIZES = [(1280, 720), (1366, 768), (1920, 1080)]
ZOOMS = [1.0, 1.5, 2.0]
THEMES = ["light", "dark"]


def open_window(make_window, width: int, height: int):
    w = make_window()
    w.resize(width, height)
    w.show()
    QApplication.processEvents()
    assert w.width() == width, "the window opened wider than the screen"
    w.size_docks()
    QApplication.processEvents()
    return w


@pytest.fixture
def window(make_window):
    return open_window(make_window, 1366, 768)


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory) -> Path:
    named = os.environ.get("BPE_LAB_RENDER_DIR")
    if named:
        Path(named).mkdir(parents=True, exist_ok=True)
        return Path(named)
    return tmp_path_factory.mktemp("renders")


def dock_tab_texts_fit(window) -> list[str]:
    """Titles of tabbed panels that their tab does not show whole."""
    cut = []
    for bar in window.findChildren(QTabBar):
        if bar.parent() is not window or not bar.isVisible():
            continue
        metrics = QFontMetrics(bar.font())
        for i in range(bar.count()):
            if bar.tabRect(i).width() < metrics.horizontalAdvance(bar.tabText(i)):
                cut.append(bar.tabText(i))
    return cut


@pytest.mark.parametrize("width, height", SIZES)
def test_render_matrix(make_window, out_dir, width, height):
    window = open_window(make_window, width, height)
    shares = {}
    for zoom in ZOOMS:
        window.set_zoom(zoom)
        points = BASE_POINTS * zoom
        for theme in THEMES:
            window.set_theme(theme)
            QApplication.processEvents()
            stale = [b for b in window.findChildren(QTabBar) if b.parent() is window and b.isVisible()
                     and b.geometry().intersects(window.centralWidget().geometry())]
            assert not stale, "a tab bar left over the views"
            docked = [d for d in window.docks if d.isVisible() and not d.isFloating()]
            for dock in docked:
                need_w, need_h = dock_layout.dock_minimum(dock, points)
                assert dock.width() >= need_w and dock.height() >= need_h, (dock.windowTitle(), zoom, theme)
            assert not dock_tab_texts_fit(window), (zoom, theme)
            assert not window.layout_crushed()
            share = window.centralWidget().width() / window.width()
            shares[(zoom, theme)] = share
            if zoom == 1.0:
                # a laptop or projector at actual size: the views keep at least 60% of the width
                assert window.width() == width and share >= dock_layout.CENTRAL_SHARE - 0.01, share
            else:
                assert window.width() <= width * 1.12, "larger type pushed the window off the screen"
            for i in range(window.tabs.count()):
                window.tabs.setCurrentIndex(i)
                QApplication.processEvents()
                name = f"{width}x{height}-zoom{round(zoom * 100)}-{theme}-{window.tabs.tabText(i).lower()}.png"
                assert window.grab().toImage().save(str(out_dir / name), "PNG", 80)  # zlib level 1: fast, and small enough
            window.tabs.setCurrentIndex(0)
    # larger type takes more of the side, never all of it
    assert all(share >= 0.5 for share in shares.values()), shares
    window.set_zoom(1.0)
    QApplication.processEvents()
    # back at actual size the views get their room back
    assert window.centralWidget().width() / window.width() >= dock_layout.CENTRAL_SHARE - 0.01


def test_dark_check_boxes_show_a_check_mark(window, qtbot):
    from PySide6.QtWidgets import QCheckBox

    window.set_zoom(1.0)
    window.set_theme("dark")
    box = window.findChild(QCheckBox)
    box.setChecked(True)
    QApplication.processEvents()
    image = box.grab().toImage()
    # the ticked box holds both the light fill and the dark stroke of the mark
    colours = {image.pixelColor(x, y).name() for x in range(min(40, image.width())) for y in range(image.height())}
    light = [c for c in colours if int(c[1:3], 16) > 0x80 and int(c[5:7], 16) > 0xC0]
    dark = [c for c in colours if max(int(c[i:i + 2], 16) for i in (1, 3, 5)) < 0x20]
    assert light and dark
