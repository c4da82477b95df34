"""Colours, type size and line widths of the charts, for a light or dark window and a projector.

The palette is Okabe and Ito's, which stays apart for the common kinds of colour blindness; each
curve also has its own line style and each bar kind its own label, so the charts read in grey.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPen

import widgets.classroom.look as look


@dataclass(frozen=True)
class ChartTheme:
    name: str
    background: str
    foreground: str
    muted: str
    panel: str
    font_size: int
    line_width: float
    grid: float
    pair_share: int = 40  # percent of the page's width for the pair chart
    training: str = "#0072B2"
    held_out: str = "#D55E00"
    vocab: str = "#009E73"
    per_token: str = "#CC79A7"
    step: str = "#000000"
    target: str = "#555555"
    bar: str = "#BFD0E3"
    bar_tied: str = "#E69F00"
    bar_winner: str = "#A33A00"

    @classmethod
    def light(cls) -> "ChartTheme":
        return cls("light", background="#FFFFFF", foreground="#1A1A1A", muted="#5A5A5A", panel="#F2F2F2",
                   font_size=11, line_width=2.5, grid=0.18)

    @classmethod
    def dark(cls) -> "ChartTheme":
        return cls("dark", background="#1E1F22", foreground="#EDEDED", muted="#B0B0B0", panel="#2B2D31",
                   font_size=11, line_width=2.5, grid=0.22, training="#56B4E9", held_out="#FF8A3D",
                   vocab="#3DD6A3", per_token="#E89BC7", step="#FFFFFF", target="#BBBBBB",
                   bar="#4B6480", bar_tied="#F0B429", bar_winner="#FF6A1A")

    @classmethod
    def projector(cls, dark: bool = False) -> "ChartTheme":
        """Large type, thick lines, full contrast: for the back of a classroom."""
        base = cls.dark() if dark else cls.light()
        if dark:
            # the classroom's own colours (``widgets.classroom.look``): the charts match the page around them
            return replace(base, name="projector dark", background=look.GROUND, foreground=look.TEXT,
                           muted=look.MUTED, panel=look.PANEL, font_size=20, line_width=5, grid=0.3,
                           step=look.TEXT, pair_share=50)
        return replace(base, name="projector", background="#FFFFFF", foreground="#000000", muted="#202020",
                       panel="#FFFFFF", font_size=20, line_width=5, grid=0.25, pair_share=50, training="#0046A0",
                       held_out="#C04000", vocab="#007050", target="#000000")

    # -- Qt objects -----------------------------------------------------------------------------

    def font(self, scale: float = 1.0, bold: bool = False) -> QFont:
        font = QFont()
        font.setPointSizeF(self.font_size * scale)
        font.setBold(bold)
        return font

    def pen(self, colour: str, width: float | None = None, style=Qt.PenStyle.SolidLine) -> QPen:
        pen = QPen(QColor(colour))
        pen.setWidthF(self.line_width if width is None else width)
        pen.setStyle(style)
        pen.setCosmetic(True)
        return pen
