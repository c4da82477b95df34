"""The views' tab titles keep the sheet's type while they fit, and take just enough less where the
central area is narrow (200 % zoom on a small screen), never cut by a scrolling tab bar."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetricsF

from widgets.tab_titles import LEAST_POINTS, TAB_CHROME, fitting_points

TITLES = ["Tiles", "Charts", "Quiz", "Explorer"]


def _width(points: float) -> float:
    font = QFont()
    font.setPointSizeF(points)
    return sum(QFontMetricsF(font).horizontalAdvance(t) for t in TITLES) + TAB_CHROME * len(TITLES) + 4


def test_titles_that_fit_keep_their_type(qapp):
    assert fitting_points(TITLES, int(_width(27.5)) + 1, 27.5, QFont()) == 27.5


def test_a_narrow_bar_takes_the_largest_type_that_fits(qapp):
    width = int(_width(27.5) * 0.8)
    points = fitting_points(TITLES, width, 27.5, QFont())
    assert points < 27.5
    assert _width(points) <= width + 2  # type sizes round to whole pixels
    assert _width(points + 2) > width
    assert fitting_points(TITLES, 10, 27.5, QFont()) == LEAST_POINTS
