"""Where the docks go and how small they may get, for the window's width and zoom.

A dock's minimum keeps its title whole and one row of its panel readable at the zoom in use, so
no zoom or resize can crush a panel to "P…". The default arrangement leaves the central views at
least ``CENTRAL_SHARE`` of the width: side by side (corpus left; pairs over vocabulary right,
tokenize under the views) when the minimums allow it, else the four panels tabbed in two groups on
the right (pairs with vocabulary, corpus with tokenize), which gives the views the full height too.
A layout with a docked panel under its minimum is "crushed": the window never saves one and drops
one it restores.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QDockWidget, QMainWindow, QScrollArea, QTabBar, QWidget


CENTRAL_SHARE = 0.6
CENTRAL_MINIMUM = QSize(400, 200)
# the room a panel needs for one full row of its table or form, in average characters
ROW_CHARS = 22
# a title bar holds the float and close buttons beside the title
TITLE_BUTTONS_EMS = 3.2
# title bar, heading, a table header and one row
ROWS_HIGH = 5


def zoomed_font(base: QFont, points: float, bold: bool = False) -> QFont:
    font = QFont(base)
    font.setPointSizeF(points)
    font.setBold(bold)
    return font


def dock_minimum(dock: QDockWidget, points: float, natural: bool = False) -> tuple[int, int]:
    """The smallest (width, height) that keeps ``dock``'s title whole and one row readable; with
    ``natural``, wide enough for the panel's own controls too (narrower, the panel scrolls)."""
    title = QFontMetrics(zoomed_font(dock.font(), points, bold=True))
    body = QFontMetrics(zoomed_font(dock.font(), points))
    title_width = title.horizontalAdvance(dock.windowTitle()) + round(TITLE_BUTTONS_EMS * title.height()) + 16
    row_width = ROW_CHARS * body.averageCharWidth()
    width = max(title_width, row_width)
    inner = dock.widget()
    if natural and inner is not None:
        width = max(width, (inner.widget() if isinstance(inner, QScrollArea) else inner).minimumSizeHint().width())
    height = round(ROWS_HIGH * body.lineSpacing()) + 16
    return width, height


def apply_minimums(docks: list[QDockWidget], points: float) -> None:
    for dock in docks:
        width, height = dock_minimum(dock, points)
        dock.setMinimumSize(width, height)


def crushed(docks: list[QDockWidget], points: float) -> bool:
    """Whether a shown, docked panel is narrower or shorter than it needs at this zoom."""
    for dock in docks:
        if dock.isHidden() or dock.isFloating():
            continue
        width, height = dock_minimum(dock, points)
        if dock.width() < width or dock.height() < height:
            return True
    return False


def side_by_side_fits(width: int, corpus: QDockWidget, right: list[QDockWidget], points: float) -> bool:
    """Whether the corpus column and the pairs column both fit beside views keeping their share."""
    room = width * (1 - CENTRAL_SHARE) - 24  # the separators and frames between the columns
    need = dock_minimum(corpus, points, natural=True)[0] + max(dock_minimum(d, points, natural=True)[0] for d in right)
    return need <= room


def arrange(window: QMainWindow, corpus: QDockWidget, pairs: QDockWidget, vocab: QDockWidget,
            tokenize: QDockWidget, points: float) -> str:
    """Group the docked panels in the default arrangement for the window's width and size them;
    returns its name ("side by side" or "tabbed"). Floating panels are left where the user put them.
    Once per window: Qt leaves a regrouped tab group's old tab bar on screen."""
    width = window.width()
    docked = [d for d in (corpus, pairs, vocab, tokenize) if not d.isFloating()]
    apply_minimums(docked, points)
    left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                           Qt.DockWidgetArea.BottomDockWidgetArea)
    if side_by_side_fits(width, corpus, [pairs, vocab], points):
        arrangement = "side by side"
        for dock, area in ((corpus, left), (pairs, right), (vocab, right), (tokenize, bottom)):
            if dock in docked:
                window.addDockWidget(area, dock)
        if pairs in docked and vocab in docked:
            window.splitDockWidget(pairs, vocab, Qt.Orientation.Vertical)
    else:
        arrangement = "tabbed"
        for dock in docked:
            window.addDockWidget(right, dock)
        if pairs in docked and corpus in docked:
            window.splitDockWidget(pairs, corpus, Qt.Orientation.Vertical)
        for first, second in ((pairs, vocab), (corpus, tokenize)):
            if first in docked and second in docked:
                window.tabifyDockWidget(first, second)
        for dock in (pairs, corpus):
            if dock in docked:
                dock.raise_()  # the tab a lesson needs first
        keep_tab_titles_whole(window)
    size_docks(window, arrangement, corpus, pairs, vocab, tokenize, points)
    return arrangement


def size_docks(window: QMainWindow, arrangement: str, corpus: QDockWidget, pairs: QDockWidget, vocab: QDockWidget,
               tokenize: QDockWidget, points: float) -> None:
    """The panels' default sizes in their arrangement at this zoom: the views keep their share, the
    panels share the rest, none under its minimum (after a zoom out, the views get the room back)."""
    docks = [corpus, pairs, vocab, tokenize]
    apply_minimums(docks, points)
    width = window.width()
    side = int(width * (1 - CENTRAL_SHARE)) - 24
    if arrangement == "side by side":
        window.resizeDocks([corpus, pairs], [int(side * 0.45), side - int(side * 0.45)], Qt.Orientation.Horizontal)
        window.resizeDocks([pairs, vocab], [1, 1], Qt.Orientation.Vertical)
        window.resizeDocks([tokenize], [int(window.height() * 0.26)], Qt.Orientation.Vertical)
    else:
        column = max(dock_minimum(d, points)[0] for d in docks)
        window.resizeDocks([pairs], [max(column, side)], Qt.Orientation.Horizontal)
        window.resizeDocks([pairs, corpus], [3, 2], Qt.Orientation.Vertical)


def keep_tab_titles_whole(window: QMainWindow) -> None:
    """Tabbed panels' titles scroll rather than shrink to "P…"."""
    for bar in window.findChildren(QTabBar):
        if bar.parent() is window:
            bar.setElideMode(Qt.TextElideMode.ElideNone)
            bar.setUsesScrollButtons(True)


@runtime_checkable
class FollowsZoom(Protocol):
    """A central view whose tiles or type grow with the window's zoom (the charts, the tiles, the
    explorer; the quiz keeps its own scale: its type is large already, for the back of a room, and
    zoomed too it would not fit). Named by what it does, so this module imports no view: the charts
    and the explorer are built after the window's first paint."""

    def follow_zoom(self, ratio: float) -> None: ...


def follow_zoom(view: QWidget, ratio: float) -> None:
    """Scale a central view's tiles or type with the window's zoom, by ``ratio``."""
    if isinstance(view, FollowsZoom):
        view.follow_zoom(ratio)
