"""Tab titles whole at every zoom: the views' (Tiles, Charts, Quiz, Explorer) and the explorer's own.

The window's sheet gives them large type; at 200 % on a small screen the central area is narrower
than the four titles, and Qt scrolls the tab bar, cutting a title in two ("Explor"). Here the bar's
own sheet lowers its type, as far as the titles then fit, whenever the area or the zoom changes. A
bar-level sheet restyles only the bar, not the window.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QTabBar, QTabWidget

# the sheets' tab padding (resources/styles: 6px 16px) and frame, per tab
TAB_CHROME = 2 * 16 + 6
LEAST_POINTS = 8.0


def fitting_points(titles: list[str], width: int, points: float, font: QFont) -> float:
    """The largest type up to ``points`` at which ``titles`` fit side by side in ``width`` pixels."""
    if width <= 0 or not titles:
        return points
    sized = QFont(font)
    sized.setPointSizeF(points)
    text = sum(QFontMetricsF(sized).horizontalAdvance(t) for t in titles)
    room = width - TAB_CHROME * len(titles) - 4
    if text <= room:
        return points
    return max(LEAST_POINTS, points * room / text)


class TitlesFit(QObject):
    """Keeps the tab titles of ``tabs`` at ``points`` or as much less as makes them fit."""

    def __init__(self, tabs: QTabWidget, points: float):
        super().__init__(tabs)
        self.tabs = tabs
        self.points = points
        self._shown: float | None = None
        tabs.installEventFilter(self)

    def set_points(self, points: float) -> None:
        self.points = points
        self.fit()

    def fit(self) -> None:
        bar = self.tabs.tabBar()
        titles = [bar.tabText(i).replace("&", "") for i in range(bar.count())]
        points = round(fitting_points(titles, self.tabs.width(), self.points, bar.font()), 1)
        self._show(bar, points)
        # a sheet may draw the titles bolder or pad them more than the estimate says: measured as the
        # bar lays them out, the type goes down again until they fit
        room = self.tabs.width() - 4
        for _ in range(4):
            needed = sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
            if needed <= room or points <= LEAST_POINTS or room <= 0:
                break
            points = max(LEAST_POINTS, round(points * room / needed - 0.1, 1))
            self._show(bar, points)

    def _show(self, bar: QTabBar, points: float) -> None:
        if points != self._shown:
            self._shown = points
            # empty at full size: the window's sheet then sizes the titles with everything else
            bar.setStyleSheet("" if points >= self.points else f"QTabBar::tab {{ font-size: {points:.1f}pt; }}")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.tabs and event.type() == QEvent.Type.Resize:
            self.fit()
        return False
