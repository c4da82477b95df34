"""Where the docks go and how small they may get, for the window's width and zoom.

A dock's minimum keeps its title whole and one row of its panel readable at the zoom in use, so
no zoom or resize can crush a panel to "P…". The default arrangement leaves the central views at
least ``CENTRAL_SHARE`` of the width: side by side (corpus left; pairs over vocabulary right,
tokenize under the views) when the minimums allow it, else the four panels tabbed in two groups on
the right (pairs with vocabulary, corpus with tokenize), which gives the views the full height too.
The arrangement is chosen again when the zoom or the window's width changes which one fits; a
tabbed group's tab bar is as wide as its titles, so they never scroll or shrink. A layout with a docked panel under its minimum is "crushed": the window never saves one and drops
one it restores.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PySide6.QtCore import QRect, QSize, Qt, QTimer
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
# a dock tab's padding and frame beside its title (the style sheet pads tabs 16 px a side)
TAB_PADDING = 40
# the separators and frames between the dock columns and the views
SEPARATORS = 24
# side by side, the corpus column's part of the panels' room
CORPUS_SHARE = 0.45
# how far outside the window a tab bar Qt no longer uses is put
OFF_SCREEN = 10_000
LEFT, RIGHT, BOTTOM = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                       Qt.DockWidgetArea.BottomDockWidgetArea)


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
    shown = inner.widget() if isinstance(inner, QScrollArea) else inner
    if natural and shown is not None:
        width = max(width, shown.minimumSizeHint().width())
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


def tab_row_width(docks: list[QDockWidget], points: float) -> int:
    """The width a tab bar needs to show every one of ``docks``' titles whole, in the dock tabs'
    type (``dock_tab_style``)."""
    metrics = QFontMetrics(zoomed_font(docks[0].font(), points))
    return sum(metrics.horizontalAdvance(d.windowTitle()) + TAB_PADDING for d in docks)


def natural_width(docks: list[QDockWidget], points: float) -> int:
    """The width a column of ``docks`` side by side needs to show each panel's controls unscrolled."""
    return max(dock_minimum(d, points, natural=True)[0] for d in docks)


def tabbed_width(groups: list[list[QDockWidget]], points: float) -> int:
    """The width a column of tab groups needs: each panel's minimum and each group's titles whole
    (a tabbed panel narrower than its controls scrolls them: tabbed is the arrangement for little room)."""
    return max(max(max(dock_minimum(d, points)[0] for d in group), tab_row_width(group, points)) for group in groups)


def side_room(width: int) -> int:
    """The width the panels share beside views that keep ``CENTRAL_SHARE`` of the window."""
    return int(width * (1 - CENTRAL_SHARE)) - SEPARATORS


def side_by_side_fits(width: int, corpus: QDockWidget, right: list[QDockWidget], points: float) -> bool:
    """Whether the corpus column and the pairs column both fit beside views keeping their share."""
    return natural_width([corpus], points) + natural_width(right, points) <= side_room(width)


def wanted_arrangement(window: QMainWindow, corpus: QDockWidget, pairs: QDockWidget, vocab: QDockWidget,
                       points: float) -> str:
    return "side by side" if side_by_side_fits(window.width(), corpus, [pairs, vocab], points) else "tabbed"


def arrange(window: QMainWindow, corpus: QDockWidget, pairs: QDockWidget, vocab: QDockWidget,
            tokenize: QDockWidget, points: float, current: str | None = None) -> str:
    """Group the docked panels in the default arrangement for the window's width and zoom and size
    them; returns its name ("side by side" or "tabbed"). Panels already in that arrangement
    (``current``) keep their places and are only sized. Floating panels are left where the user put them."""
    arrangement = wanted_arrangement(window, corpus, pairs, vocab, points)
    docked = [d for d in (corpus, pairs, vocab, tokenize) if not d.isFloating()]
    apply_minimums(docked, points)
    if arrangement != current:
        if arrangement == "side by side":
            place_side_by_side(window, docked, corpus, pairs, vocab, tokenize)
        else:
            place_tabbed(window, docked, corpus, pairs, vocab, tokenize)
        drop_stale_tab_bars(window)
    size_docks(window, arrangement, corpus, pairs, vocab, tokenize, points)
    return arrangement


def place_side_by_side(window: QMainWindow, docked: list[QDockWidget], corpus: QDockWidget, pairs: QDockWidget,
                       vocab: QDockWidget, tokenize: QDockWidget) -> None:
    """Corpus left; pairs over vocabulary right; tokenize under the views."""
    for dock, area in ((corpus, LEFT), (pairs, RIGHT), (vocab, RIGHT), (tokenize, BOTTOM)):
        if dock in docked:
            window.addDockWidget(area, dock)
    if pairs in docked and vocab in docked:
        window.splitDockWidget(pairs, vocab, Qt.Orientation.Vertical)


def place_tabbed(window: QMainWindow, docked: list[QDockWidget], corpus: QDockWidget, pairs: QDockWidget,
                 vocab: QDockWidget, tokenize: QDockWidget) -> None:
    """Two tab groups on the right: pairs with vocabulary over corpus with tokenize."""
    for dock in docked:
        window.addDockWidget(RIGHT, dock)
    if pairs in docked and corpus in docked:
        window.splitDockWidget(pairs, corpus, Qt.Orientation.Vertical)
    for first, second in ((pairs, vocab), (corpus, tokenize)):
        if first in docked and second in docked:
            window.tabifyDockWidget(first, second)
    for dock in (pairs, corpus):
        if dock in docked:
            dock.raise_()  # the tab a lesson needs first
    keep_tab_titles_whole(window)


def drop_stale_tab_bars(window: QMainWindow) -> None:
    """Regrouping leaves the old groups' tab bars on screen: Qt forgets them without hiding them.
    Once the new groups are laid out, move every tab bar off the window and lay it out again: Qt
    puts back the ones it still uses, the others stay out of sight (hiding them instead would
    hide for good a bar Qt uses again later)."""
    def park_all() -> None:
        for bar in on_screen_tab_bars(window):
            bar.move(-bar.width() - OFF_SCREEN, -bar.height() - OFF_SCREEN)
        layout = window.layout()
        if layout is not None:
            layout.invalidate()

    QTimer.singleShot(0, window, park_all)  # the window as context: no call after it is gone


def on_screen_tab_bars(window: QMainWindow) -> list[QTabBar]:
    """The tab bars of tabbed panels that show in the window."""
    return [bar for bar in window.findChildren(QTabBar)
            if bar.parent() is window and bar.isVisible() and bar.geometry().intersects(window.rect())]


def size_docks(window: QMainWindow, arrangement: str, corpus: QDockWidget, pairs: QDockWidget, vocab: QDockWidget,
               tokenize: QDockWidget, points: float) -> None:
    """The panels' default sizes in their arrangement at this zoom: the views keep their share, the
    panels share the rest, none under its minimum (after a zoom out, the views get the room back)."""
    docks = [corpus, pairs, vocab, tokenize]
    apply_minimums(docks, points)
    side = side_room(window.width())
    if arrangement == "side by side":
        # the corpus column as wide as its controls (its table's titles) when the pairs column keeps its own
        wanted = max(dock_minimum(corpus, points, natural=True)[0], int(side * CORPUS_SHARE))
        left = max(dock_minimum(corpus, points)[0], min(wanted, side - natural_width([pairs, vocab], points)))
        window.resizeDocks([corpus, pairs], [left, side - left], Qt.Orientation.Horizontal)
        window.resizeDocks([pairs, vocab], [1, 1], Qt.Orientation.Vertical)
        window.resizeDocks([tokenize], [int(window.height() * 0.26)], Qt.Orientation.Vertical)
    else:
        column = tabbed_width([[pairs, vocab], [corpus, tokenize]], points)
        window.resizeDocks([pairs], [max(column, side)], Qt.Orientation.Horizontal)
        window.resizeDocks([pairs, corpus], [3, 2], Qt.Orientation.Vertical)


def keep_tab_titles_whole(window: QMainWindow) -> None:
    """Tabbed panels' titles neither shrink to "P…" nor scroll out of sight: a tab bar that shows
    them whole is as wide as they are, and its dock column is at least that wide."""
    for bar in window.findChildren(QTabBar):
        if bar.parent() is window:
            keep_titles_whole(bar)


def keep_titles_whole(bar: QTabBar) -> None:
    bar.setElideMode(Qt.TextElideMode.ElideNone)
    bar.setUsesScrollButtons(False)


def dock_tab_style(points: float) -> str:
    """Style sheet rules giving the tabs of tabbed panels their titles' type, not the larger type
    of the views' tabs: a group's titles then fit the column beside views keeping their share."""
    return f"\nQMainWindow > QTabBar::tab {{ font-size: {points:.1f}pt; }}\n"


def screen_room(window: QWidget) -> QRect:
    """The part of the window's screen a window may take (the screen less its panels)."""
    screen = window.screen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1600, 1000)


def fitted(rect: QRect, room: QRect) -> QRect:
    """``rect`` made no larger than ``room`` and moved inside it."""
    width, height = min(rect.width(), room.width()), min(rect.height(), room.height())
    x = min(max(rect.x(), room.x()), room.x() + room.width() - width)
    y = min(max(rect.y(), room.y()), room.y() + room.height() - height)
    return QRect(x, y, width, height)


def fit_to_screen(window: QMainWindow, docks: list[QDockWidget]) -> None:
    """The window and its floating panels inside the screen's room (a layout saved on a larger
    screen would leave them reaching past its edges)."""
    room = screen_room(window)
    frame, inner = window.frameGeometry(), window.geometry()
    if not room.contains(frame):
        # the frame (title bar and borders) inside the room, the window inside its frame
        target = fitted(frame, room)
        window.setGeometry(target.x() + inner.x() - frame.x(), target.y() + inner.y() - frame.y(),
                           target.width() - (frame.width() - inner.width()),
                           target.height() - (frame.height() - inner.height()))
    for dock in docks:
        if dock.isFloating() and not room.contains(dock.geometry()):
            dock.setGeometry(fitted(dock.geometry(), room))


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
