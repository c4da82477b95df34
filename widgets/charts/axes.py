"""Axis ticks a class reads at a glance: 1,200 and 45k rather than 1.2e3 or 0.045 M."""

from __future__ import annotations

import pyqtgraph as pg


def short_number(value: float) -> str:
    """12 -> "12", 1200 -> "1,200", 45000 -> "45k", 2500000 -> "2.5M"; fractions keep one decimal."""
    a = abs(value)
    if a >= 1_000_000:
        text = f"{value / 1_000_000:.1f}".rstrip("0").rstrip(".") + "M"
    elif a >= 10_000:
        text = f"{value / 1000:.1f}".rstrip("0").rstrip(".") + "k"
    elif a >= 1 or value == 0:
        text = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"
    else:
        text = f"{value:.2f}"
    return text


class CountAxis(pg.AxisItem):
    """Whole counts: no SI prefix, thousands separated, no fractional ticks on a short range."""

    def __init__(self, orientation: str, fractions: bool = False, **kwargs):
        super().__init__(orientation, **kwargs)
        self.fractions = fractions
        self.enableAutoSIPrefix(False)

    def tickValues(self, minVal, maxVal, size):
        levels = super().tickValues(minVal, maxVal, size)
        if self.fractions:
            return levels
        # a four-word corpus has 0..12 merges: a tick at 2.5 merges means nothing
        kept = []
        for spacing, values in levels:
            if spacing >= 1:
                kept.append((spacing, values))
        return kept or [(1.0, [v for v in range(int(minVal), int(maxVal) + 1)])]

    def tickStrings(self, values, scale, spacing):
        return [short_number(v * scale) for v in values]


class GridLines(pg.PlotCurveItem):
    """Faint lines at the major ticks, drawn as one path inside the view.

    pyqtgraph's own grid is painted by the axes across the whole plot, so every repaint of the
    plot, even of the thin strip a moving step line dirties, replays the axes with their text:
    on a 10,000-step chart that alone took most of a frame.
    """

    def __init__(self):
        super().__init__(connect="pairs")
        self.setZValue(-100)

    def place(self, view: pg.ViewBox, x_axis: pg.AxisItem | None, y_axis: pg.AxisItem | None) -> None:
        (x0, x1), (y0, y1) = view.viewRange()
        xs: list[float] = []
        ys: list[float] = []
        for x in _major_ticks(x_axis, x0, x1, view.width()):
            xs += [x, x]
            ys += [y0, y1]
        for y in _major_ticks(y_axis, y0, y1, view.height()):
            xs += [x0, x1]
            ys += [y, y]
        self.setData(xs, ys)


def _major_ticks(axis: pg.AxisItem | None, lo: float, hi: float, pixels: float) -> list[float]:
    if axis is None or hi <= lo or pixels <= 0:
        return []
    levels = axis.tickValues(lo, hi, pixels)
    return [v for v in levels[0][1] if lo < v < hi] if levels else []
