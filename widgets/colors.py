"""Colours the painted views share, for light and dark themes.

Each meaning also has a shape (a thicker or dashed border), so it survives a grey projector and
colour-blind eyes.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette


@dataclass(frozen=True)
class TileColors:
    fill: QColor
    border: QColor
    text: QColor
    marker_fill: QColor
    marker_border: QColor
    next_fill: QColor
    next_border: QColor
    selected_fill: QColor
    unknown_fill: QColor
    unknown_border: QColor
    muted: QColor


LIGHT = TileColors(
    fill=QColor("#e6eef9"), border=QColor("#4a6fa5"), text=QColor("#111111"),
    marker_fill=QColor("#fde7c2"), marker_border=QColor("#b86e00"),
    next_fill=QColor("#f9d0d6"), next_border=QColor("#c0163a"),
    selected_fill=QColor("#ffe066"),
    unknown_fill=QColor("#ffffff"), unknown_border=QColor("#c0163a"),
    muted=QColor("#555555"),
)
DARK = TileColors(
    fill=QColor("#243650"), border=QColor("#8fb3e8"), text=QColor("#f2f2f2"),
    marker_fill=QColor("#4d3a17"), marker_border=QColor("#f2b655"),
    next_fill=QColor("#5c1f2b"), next_border=QColor("#ff7b93"),
    selected_fill=QColor("#7a6300"),
    unknown_fill=QColor("#1c1c1c"), unknown_border=QColor("#ff7b93"),
    muted=QColor("#b0b0b0"),
)


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def tile_colors(palette: QPalette) -> TileColors:
    return DARK if is_dark(palette) else LIGHT
