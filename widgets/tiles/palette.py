"""The look of one tile: its text and colours come from the one display and the one palette.

A tile reads as ``engine.readable.display`` says the token reads, and is coloured by its kind and, through
the lesson's colouring, its id from ``widgets.token_palette``, the palette the explorer, the tokenize
panel and the handout use too. Colour
is never the only cue: every tile has an outline and a gap to its neighbours, an unknown tile is
hatched, a partial byte dashed, and a token that ends a word carries a bar in the marker's colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor

from engine.readable.tile_colours import TokenColours
from engine.readable.display import WORD_END, Display
from widgets.token_palette import look_of


@dataclass(frozen=True)
class TileLook:
    """How one tile is painted: its kind (``engine.readable.display.KINDS``), fill, text colour and cues."""

    kind: str
    fill: QColor
    text: QColor
    dashed: bool = False
    hatched: bool = False
    # a token that ends a word carries a marker-coloured bar on its right edge
    ends_word: bool = False


def tile_look(display: Display, token: str, token_id: int | None = None,
              colouring: TokenColours | None = None) -> TileLook:
    """The look of ``token`` in a lesson shown by ``display``, given the token's id and the
    lesson's colouring (for its fill)."""
    kind = display.kind(token)
    look = look_of(kind, token_id, token, colouring)
    return TileLook(kind, QColor(look.fill), QColor(look.text), look.dashed, look.hatched, ends_word=kind == WORD_END)
