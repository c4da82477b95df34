"""One colour per token, the same in every panel, and the looks of the special tiles.

A token's colour comes from its id in the lesson's vocabulary, by the same rule the token
explorer uses (``widgets.explorer.theme.fill_of``), so a token looks alike in the tile view, the
explorer and any panel that asks here; a token with no id (text not in a vocabulary) is coloured
from a checksum of its text. The fills are Paul Tol's "light" scheme, made for labelled cells
read with black text: its hues stay apart for the common kinds of colour blindness and spread
over several grey levels. Colour is never the only cue: every tile has an outline and a gap to
its neighbours, so a grey print still shows where tiles part.

Three kinds of tile look different from ordinary tokens, in shape as well as colour:
the end-of-word marker (dark indigo, white text), a byte that is not whole UTF-8 text (white,
dashed outline, hex digits) and an unknown character (red with white text and hatching).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from PySide6.QtGui import QColor

from engine.bytelevel import readable, symbols_to_bytes, visible_whitespace
from widgets.explorer.theme import TOKEN_FILLS, fill_of

MARKER_FILL = "#332288"
BYTE_FILL = "#FFFFFF"
UNKNOWN_FILL = "#CC3311"

ORDINARY, MARKER, BYTE, UNKNOWN = "token", "marker", "byte", "unknown"


@dataclass(frozen=True)
class TileLook:
    """How one tile is painted: fill, text colour, outline style and whether it is hatched."""

    kind: str
    fill: QColor
    text: QColor
    dashed: bool = False
    hatched: bool = False
    # a token that ends a word carries a marker-coloured bar on its right edge
    ends_word: bool = False


def token_colour(token: str, token_id: int | None = None) -> QColor:
    """The fill of an ordinary token: by its id when it has one, else by its text."""
    if token_id is not None:
        return QColor(fill_of(token_id))
    return QColor(TOKEN_FILLS[zlib.crc32(token.encode("utf-8")) % len(TOKEN_FILLS)])


def tile_look(token: str, marker: str | None = None, units: str = "chars", unknown: str | None = None,
              token_id: int | None = None) -> TileLook:
    """The look of ``token`` given the lesson's marker, units, unknown token and the token's id."""
    black, white = QColor("#000000"), QColor("#FFFFFF")
    if unknown is not None and token == unknown:
        return TileLook(UNKNOWN, QColor(UNKNOWN_FILL), white, hatched=True)
    if marker is not None and token == marker:
        return TileLook(MARKER, QColor(MARKER_FILL), white)
    if units == "bytes" and not _whole_text(token):
        return TileLook(BYTE, QColor(BYTE_FILL), black, dashed=True)
    ends = marker is not None and token.endswith(marker)
    return TileLook(ORDINARY, token_colour(token, token_id), black, ends_word=ends)


def _whole_text(token: str) -> bool:
    try:
        symbols_to_bytes(token).decode("utf-8")
    except (KeyError, UnicodeDecodeError):
        return False
    return True


def tile_text(token: str, marker: str | None = None, units: str = "chars") -> str:
    """The label on a tile: bytes as readable text (or hex when not whole UTF-8), spaces visible."""
    if units == "bytes":
        try:
            return readable(token)
        except KeyError:
            return visible_whitespace(token)
    return visible_whitespace(token)
