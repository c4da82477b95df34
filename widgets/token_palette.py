"""The one palette of tokens: a fill per token id and one look per kind of token, in every view.

The tiles, the explorer, the tokenize panel and the handout all colour a token here, from its id
and its kind (``engine.readable.display``), so a token and a kind look alike wherever they appear.

Ordinary tokens take seven fills made from the Okabe–Ito hues on three steps of lightness, chosen
so that every two differ by at least 12 (CIEDE2000) for normal vision and under simulated
protanopia and deuteranopia, all read with black text. Which fill a lesson's token takes is the
lesson's colouring (``engine.readable.tile_colours``), worked out so that tokens side by side in its corpus
differ; a token with no lesson (GPT-4's, in the explorer) takes its id's place round the seven.
Tiles that do share a fill still have their outlines and the gap between them. The kinds sit on
their own steps of lightness, apart from those fills and from each other, so a grey projector or a
grey print still tells them apart; each also has a shape (hatching, a dashed outline) and every
tile or piece an outline in its theme's colour, which is what parts a fill from a light, dark or
black ground.

    special  black      white text            (grey 0.00)
    marker   indigo     white text            (grey 0.20)
    unknown  red        white text, hatched   (grey 0.36)
    tokens   Okabe–Ito  black text            (grey 0.60 to 0.86)
    partial  white      black text, dashed    (grey 1.00)

A whitespace token or a word's last token is coloured as an ordinary token (the second carries a
bar in the marker's colour).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from engine.readable.tile_colours import COLOURS, TokenColours
from engine.readable.display import MARKER, PARTIAL, SPECIAL, UNKNOWN

# one per colour of ``engine.readable.tile_colours``; in this order, ids next to each other round the cycle
# (GPT-4's tokens in the explorer) are far apart in hue, lightness or both
TOKEN_FILLS: tuple[str, ...] = (
    "#B3DDF5",  # sky blue, pale
    "#CF80AB",  # reddish purple
    "#56B4E9",  # sky blue
    "#E49659",  # orange
    "#F0C7A6",  # vermillion, pale
    "#BFE7DC",  # bluish green, pale
    "#F2E85E",  # yellow
)
TOKEN_TEXT = "#000000"


@dataclass(frozen=True)
class KindLook:
    fill: str
    text: str
    dashed: bool = False
    hatched: bool = False


KIND_LOOKS: dict[str, KindLook] = {
    SPECIAL: KindLook("#000000", "#FFFFFF"),
    MARKER: KindLook("#332288", "#FFFFFF"),
    UNKNOWN: KindLook("#CC3311", "#FFFFFF", hatched=True),
    PARTIAL: KindLook("#FFFFFF", "#000000", dashed=True),
}
# On a projector text needs 7:1, which white on the unknown kind's red (5.2:1) misses: there it takes a
# deeper crimson, still hatched, so it parts from the indigo marker by hue and shape as well as grey.
PROJECTOR_KIND_LOOKS: dict[str, KindLook] = {**KIND_LOOKS, UNKNOWN: KindLook("#A81E48", "#FFFFFF", hatched=True)}


def fill_of(token_id: int, colouring: TokenColours | None = None) -> str:
    """The fill of a token id in a lesson's colouring, or with none by the id round the palette."""
    return TOKEN_FILLS[colouring.colour(token_id) if colouring is not None else token_id % COLOURS]


def fill_of_text(token: str) -> str:
    """The fill of a token with no id (text not in a vocabulary): from a checksum of its text."""
    return TOKEN_FILLS[zlib.crc32(token.encode("utf-8")) % COLOURS]


def look_of(kind: str, token_id: int | None = None, token: str = "", colouring: TokenColours | None = None,
            projector: bool = False) -> KindLook:
    """How a token of this kind is drawn; ordinary kinds by their id (in the lesson's colouring
    where there is one), else by their text; ``projector`` for the classroom's 7:1 text."""
    found = (PROJECTOR_KIND_LOOKS if projector else KIND_LOOKS).get(kind)
    if found is not None:
        return found
    fill = fill_of(token_id, colouring) if token_id is not None else fill_of_text(token)
    return KindLook(fill, TOKEN_TEXT)
