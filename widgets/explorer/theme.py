"""The explorer's looks: token fills, special pieces, and the light, dark and projector themes.

Fills are Paul Tol's "light" scheme, drawn with black text: its hues stay apart for the common
kinds of colour blindness and they sit on several grey levels. Colour is never the only cue:
every piece has an outline and a gap to its neighbours, a special token is dark with white text,
an unknown character is hatched and a character cut across tokens is striped, so a grey print
still reads.
"""

from __future__ import annotations

from dataclasses import dataclass

TOKEN_FILLS: tuple[str, ...] = (
    "#77AADD",
    "#EE8866",
    "#EEDD88",
    "#FFAABB",
    "#99DDFF",
    "#44BB99",
    "#BBCC33",
    "#DDDDDD",
)


def fill_of(token_id: int) -> str:
    """The fill of a token id: the same id always looks the same, neighbouring ids rarely match."""
    # Knuth's multiplicative hash spreads consecutive ids (a, b, c ...) over the whole scheme
    return TOKEN_FILLS[((token_id * 2654435761) & 0xFFFFFFFF) >> 29]


@dataclass(frozen=True)
class ExplorerTheme:
    name: str
    background: str
    text: str  # labels and counts around the pieces
    muted: str  # gap pieces: text no token covers
    token_text: str  # text on a token fill (the fills are light in every theme)
    outline: str
    special_fill: str
    special_text: str
    unknown_fill: str  # darker than every token fill, so it parts from the orange one in grey too
    unknown_text: str
    outline_width: float = 1.2
    bold: bool = False

    @classmethod
    def light(cls) -> "ExplorerTheme":
        return cls("light", "#FFFFFF", "#111111", "#8A8A8A", "#000000", "#444444",
                   "#332288", "#FFFFFF", "#CC3311", "#FFFFFF")

    @classmethod
    def dark(cls) -> "ExplorerTheme":
        return cls("dark", "#1E1F22", "#F2F2F2", "#9A9A9A", "#000000", "#0A0A0A",
                   "#AA99FF", "#000000", "#CC3311", "#FFFFFF")

    @classmethod
    def high_contrast(cls) -> "ExplorerTheme":
        """For a projector: black ground, white text, heavy outlines, bold type."""
        return cls("high contrast", "#000000", "#FFFFFF", "#D0D0D0", "#000000", "#FFFFFF",
                   "#FFFF00", "#000000", "#CC3311", "#FFFFFF", outline_width=3.0, bold=True)


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
