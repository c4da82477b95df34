"""The colours around the tiles: background, text, highlights. Token fills live in ``palette``.

A theme is a small frozen record so the projector mode can hand the view a high-contrast one, and
tests and exports can pick light or dark without touching the desktop's palette.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette


@dataclass(frozen=True)
class TileTheme:
    name: str
    background: str
    stripe: str  # every other row, so a long row is easy to follow across the screen
    text: str
    muted: str
    outline: str  # the thin edge of every tile: it parts neighbours even when their colours match
    winner: str  # the next merge: a thick solid frame
    tie: str  # pairs tied with it: a dashed frame (solid vs dashed still reads in grey)
    selection: str
    sweep: str  # the two-tile window of the counting mode
    panel: str  # the tally box of the counting mode
    outline_width: float = 1.5

    @property
    def dark(self) -> bool:
        return QColor(self.background).lightnessF() < 0.5

    @classmethod
    def light(cls) -> "TileTheme":
        return cls("light", "#FFFFFF", "#F3F5F8", "#111111", "#555555", "#333333",
                   "#000000", "#CC3311", "#0077BB", "#EE7733", "#F7F7F2")

    @classmethod
    def dark_theme(cls) -> "TileTheme":
        return cls("dark", "#1E1F22", "#27292D", "#F2F2F2", "#B8B8B8", "#C8C8C8",
                   "#FFFFFF", "#FF8866", "#33BBEE", "#EE7733", "#2E3035")

    @classmethod
    def high_contrast(cls) -> "TileTheme":
        """For a projector in a bright room: black ground, white text, heavy outlines."""
        return cls("high contrast", "#000000", "#141414", "#FFFFFF", "#E0E0E0", "#FFFFFF",
                   "#FFFF00", "#FF66CC", "#00FFFF", "#FF9900", "#101010", outline_width=3.0)

    @classmethod
    def from_palette(cls, palette: QPalette) -> "TileTheme":
        """Light or dark after the widget's palette, with its own background and text colours."""
        window = palette.color(QPalette.ColorRole.Base)
        base = cls.dark_theme() if window.lightnessF() < 0.5 else cls.light()
        text = palette.color(QPalette.ColorRole.Text)
        return TileTheme(**{**base.__dict__, "name": base.name + " (system)", "background": window.name(), "text": text.name()})

    @classmethod
    def named(cls, name: str) -> "TileTheme":
        themes = {"light": cls.light, "dark": cls.dark_theme, "high contrast": cls.high_contrast}
        if name not in themes:
            raise ValueError(f"unknown tile theme '{name}': choose one of {', '.join(themes)}")
        return themes[name]()
