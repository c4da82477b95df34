"""The explorer's light, dark and projector themes: the ground, text and outlines around the pieces.

A piece's fill and the colour of its text come from the one palette (``widgets.token_palette``), by the
token's id and kind, the same as on the tiles. Colour is never the only cue: every piece has an
outline and a gap to its neighbours, an unknown character is hatched and a character cut across
tokens is dashed, so a grey print still reads.
"""

from __future__ import annotations

from dataclasses import dataclass

import widgets.classroom.look as look


@dataclass(frozen=True)
class ExplorerTheme:
    name: str
    background: str
    text: str  # labels and counts around the pieces
    muted: str  # gap pieces: text no token covers (still 4.5:1 on the ground: whitespace reads)
    outline: str  # parts every piece from its neighbours and from the ground (a black special piece too)
    fresh: str  # the frame of the token a replayed merge just made
    outline_width: float = 1.2
    bold: bool = False
    note: str = "#FFF4CC"  # the ground of the line a demonstration puts above the panes
    note_edge: str = "#AA8800"
    projector: bool = False  # the pieces take the palette's projector looks, whose text reads at 7:1
    # the languages chart's type against the page's: on a projector its counts and ticks, the
    # smallest text there, reach the classroom's 24 px at the least scale classroom mode gives the
    # explorer (1.9 x 24/36: 11 pt x 1.35 x 1.27 is 25 px) and grow with the scale from there
    chart_type: float = 1.0

    @classmethod
    def light(cls) -> "ExplorerTheme":
        return cls("light", "#FFFFFF", "#111111", "#666666", "#444444", "#332288")

    @classmethod
    def dark(cls) -> "ExplorerTheme":
        return cls("dark", "#1E1F22", "#F2F2F2", "#9A9A9A", "#C8C8C8", "#AA99FF", note="#3A3320")

    @classmethod
    def high_contrast(cls) -> "ExplorerTheme":
        """For a projector: the classroom's black ground and white text, heavy outlines, bold type."""
        return cls("high contrast", look.GROUND, look.TEXT, look.MUTED, look.TEXT, look.ACCENT, outline_width=3.0,
                   bold=True, note=look.GROUND, note_edge=look.TEXT, projector=True, chart_type=1.35)


THEMES = {
    "light": ExplorerTheme.light,
    "dark": ExplorerTheme.dark,
    "high contrast": ExplorerTheme.high_contrast,
    "contrast": ExplorerTheme.high_contrast,
}


def theme_named(name: str) -> ExplorerTheme:
    try:
        return THEMES[name]()
    except KeyError:
        raise ValueError(f"unknown theme '{name}': choose light, dark or high contrast") from None
