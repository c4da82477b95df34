"""Themes and zoom: a palette and a style sheet per theme, sized from one base point size.

Zoom scales the base size, and every panel's text follows it, because the style sheet sets the
font size for the whole window; painted views read the size from their own font.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QPalette

STYLES = Path(__file__).resolve().parents[1] / "resources" / "styles"
THEMES = ("light", "dark")
BASE_POINTS = 12.0
ZOOM_MIN, ZOOM_MAX, ZOOM_STEP = 0.6, 3.0, 1.15


def style_sheet(theme: str, zoom: float) -> str:
    if theme not in THEMES:
        theme = "light"
    text = (STYLES / f"{theme}.qss").read_text(encoding="utf-8")
    base = BASE_POINTS * zoom
    sizes = {"@SIZE@": base, "@SMALL@": base * 0.9, "@BIG@": base * 1.25, "@HUGE@": base * 1.5}
    for key, value in sizes.items():
        text = text.replace(key, f"{value:.1f}pt")
    # images beside the sheet (the dark theme's check mark), by a path Qt reads on every platform
    return text.replace("@STYLES@", STYLES.as_posix())


def palette(theme: str) -> QPalette:
    p = QPalette()
    if theme == "dark":
        colors = {
            QPalette.ColorRole.Window: "#1f2228", QPalette.ColorRole.WindowText: "#f0f0f0",
            QPalette.ColorRole.Base: "#16181d", QPalette.ColorRole.AlternateBase: "#23262e",
            QPalette.ColorRole.Text: "#f0f0f0", QPalette.ColorRole.Button: "#2b2f38",
            QPalette.ColorRole.ButtonText: "#f0f0f0", QPalette.ColorRole.Highlight: "#3d6fb6",
            QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#2b2f38",
            QPalette.ColorRole.ToolTipText: "#f0f0f0", QPalette.ColorRole.PlaceholderText: "#a6a6a6",
            QPalette.ColorRole.Link: "#8fb3e8",
        }
    else:
        colors = {
            QPalette.ColorRole.Window: "#f4f4f2", QPalette.ColorRole.WindowText: "#111111",
            QPalette.ColorRole.Base: "#ffffff", QPalette.ColorRole.AlternateBase: "#f1f4f8",
            QPalette.ColorRole.Text: "#111111", QPalette.ColorRole.Button: "#e9e9e6",
            QPalette.ColorRole.ButtonText: "#111111", QPalette.ColorRole.Highlight: "#2f5f9e",
            QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#ffffe8",
            QPalette.ColorRole.ToolTipText: "#111111", QPalette.ColorRole.PlaceholderText: "#595959",
            QPalette.ColorRole.Link: "#1f4f8f",
        }
    for role, value in colors.items():
        p.setColor(role, QColor(value))
    return p


def clamp_zoom(zoom: float) -> float:
    return max(ZOOM_MIN, min(ZOOM_MAX, zoom))
