"""The window at the sizes and zooms teachers meet (laptops, projectors, zoomed type), in both
themes, on every central tab: the window fits the screen, no panel crushed, no title cut or
scrolled, the views keep their share.

Every combination is saved as a PNG, to $BPE_LAB_RENDER_DIR when set (to look at), else to a
temporary folder. One window serves each screen size (opened at that size, as a teacher's would be).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QToolButton

from app import layout as dock_layout
from app.appearance import BASE_POINTS

# every view rendered at every classroom size: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

SIZES = [(1280, 720), (1366, 768), (1920, 1080)]
ZOOMS = [1.0, 1.5, 2.0]
THEMES = ["light", "dark"]
# what a real screen keeps from a window's size (its frame, a panel) and the wider metrics of a real
# display's fonts: a window whose minimum is within the screen by this much opens whole
SCREEN_MARGIN = (40, 80)


def settle() -> None:
    """Let the docks' regrouping and sizing (a few queued layout passes) finish."""
    for _ in range(4):
        QApplication.processEvents()


def open_window(make_window, width: int, height: int):
    w = make_window()
    w.resize(width, height)
    w.show()
    settle()
    assert w.width() == width, "the window opened wider than the screen"
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


def tab_titles_cut(window) -> list[str]:
    """Titles of tabbed panels that their tab bar does not show whole: elided, or scrolled out of
    sight behind the bar's arrows."""
    cut = []
    for bar in dock_layout.on_screen_tab_bars(window):
        scrolls = any(b.isVisible() for b in bar.findChildren(QToolButton))
        for i in range(bar.count()):
            rect = bar.tabRect(i)
            if scrolls or not bar.rect().contains(rect) or rect.width() < bar.tabSizeHint(i).width():
                cut.append(bar.tabText(i))
    return cut


def stale_tab_bars(window) -> list[list[str]]:
    """Tab bars on screen that belong to no group of tabbed panels (Qt leaves them after a regroup)."""
    stale = []
    by_title = {d.windowTitle(): d for d in window.docks}
    for bar in dock_layout.on_screen_tab_bars(window):
        titles = [bar.tabText(i) for i in range(bar.count())]
        first = by_title[titles[0]]
        group = {first.windowTitle()} | {d.windowTitle() for d in window.tabifiedDockWidgets(first)}
        if set(titles) != group or len(titles) < 2:
            stale.append(titles)
    return stale


def column_titles_cut(table) -> list[str]:
    """Column titles of ``table`` narrower than the bold title with its padding."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFontMetrics

    from widgets.tables import CELL_PADDING

    # in the header's type, which may be smaller than the cells' where the table is narrow
    metrics, header, model = QFontMetrics(table.title_font()), table.horizontalHeader(), table.model()
    titles = [(c, str(model.headerData(c, Qt.Orientation.Horizontal))) for c in range(header.count())
              if not header.isSectionHidden(c)]
    return [t for c, t in titles if header.sectionSize(c) < metrics.horizontalAdvance(t) + 2 * CELL_PADDING]


def check_layout(window, width: int, height: int, zoom: float) -> float:
    """Assert the facts every size and zoom must keep; returns the views' share of the width."""
    points = BASE_POINTS * zoom
    hint = window.minimumSizeHint()
    assert hint.width() <= width - SCREEN_MARGIN[0] and hint.height() <= height - SCREEN_MARGIN[1], \
        f"the window asks for {hint.width()}x{hint.height()}: more than the screen"
    assert window.width() == width, "larger type pushed the window off the screen"
    assert not stale_tab_bars(window), "a tab bar left from an earlier arrangement"
    for dock in window.docks:
        if dock.isVisible() and not dock.isFloating():
            need_w, need_h = dock_layout.dock_minimum(dock, points)
            assert dock.width() >= need_w and dock.height() >= need_h, (dock.windowTitle(), zoom)
    assert not tab_titles_cut(window), zoom
    assert not column_titles_cut(window.corpus_panel.table), zoom  # "Tokens now" in the corpus column
    line = window.corpus_panel.hint  # the wrapped line under the corpus text, squeezed it overdraws the text
    assert not line.isVisible() or line.height() >= line.heightForWidth(line.width()), zoom
    assert not window.layout_crushed()
    status = window.timeline.status  # both lines of the status line whole, not cut by the tab bar
    assert status.visibleRegion().boundingRect().height() == status.height(), zoom
    share = window.centralWidget().width() / window.width()
    assert share >= dock_layout.CENTRAL_SHARE - 0.01, (zoom, share)
    return share


@pytest.mark.parametrize("width, height", SIZES)
def test_render_matrix(make_window, out_dir, width, height):
    window = open_window(make_window, width, height)
    arrangement = window.dock_arrangement
    for zoom in ZOOMS:
        window.set_zoom(zoom)
        for theme in THEMES:
            window.set_theme(theme)
            settle()
            check_layout(window, width, height, zoom)
            for i in range(window.tabs.count()):
                window.tabs.setCurrentIndex(i)
                QApplication.processEvents()
                name = f"{width}x{height}-zoom{round(zoom * 100)}-{theme}-{window.tabs.tabText(i).lower()}.png"
                assert window.grab().toImage().save(str(out_dir / name), "PNG", 80)  # zlib level 1: fast, and small enough
            window.tabs.setCurrentIndex(0)
    window.set_zoom(1.0)
    settle()
    # back at actual size the panels are arranged as they started and the views get their room back
    assert window.dock_arrangement == arrangement
    check_layout(window, width, height, 1.0)


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
