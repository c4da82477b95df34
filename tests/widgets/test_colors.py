"""The one palette: each kind of token on its own step of grey, readable, and framed in every theme."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from engine.display import KINDS, MARKER, PARTIAL, SPECIAL, TOKEN, UNKNOWN, WHITESPACE, WORD_END
from widgets.colors import KIND_LOOKS, TOKEN_FILLS, TOKEN_TEXT, fill_of, look_of
from widgets.explorer.theme import THEMES
from widgets.tiles.theme import TileTheme

STEP = 0.12  # the least difference in grey that still reads on a washed-out projector


def grey(colour: str) -> float:
    c = QColor(colour)
    return 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF()


def luminance(colour: str) -> float:
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    c = QColor(colour)
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF())


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_each_kind_sits_on_its_own_step_of_grey():
    ordinary = [grey(c) for c in TOKEN_FILLS]
    bands = [(grey(KIND_LOOKS[k].fill),) * 2 for k in (SPECIAL, MARKER, UNKNOWN)]
    bands.append((min(ordinary), max(ordinary)))
    bands.append((grey(KIND_LOOKS[PARTIAL].fill),) * 2)
    # darkest to lightest, each band clear of the next
    for (_, top), (bottom, _) in zip(bands, bands[1:]):
        assert bottom - top >= STEP


def test_text_reads_on_every_fill():
    for look in KIND_LOOKS.values():
        assert contrast(look.text, look.fill) >= 4.5
    for fill in TOKEN_FILLS:
        assert contrast(TOKEN_TEXT, fill) >= 4.5


def test_every_kind_has_a_look_and_ordinary_kinds_keep_their_ids_colour():
    for kind in KINDS:
        assert look_of(kind, 7).fill in (*TOKEN_FILLS, *(v.fill for v in KIND_LOOKS.values()))
    for kind in (TOKEN, WORD_END, WHITESPACE):
        assert look_of(kind, 7).fill == fill_of(7)
    assert look_of(UNKNOWN).hatched and look_of(PARTIAL).dashed


TILE_THEMES = [TileTheme.light(), TileTheme.dark_theme(), TileTheme.high_contrast()]
EXPLORER_THEMES = [make() for make in dict.fromkeys(THEMES.values())]


@pytest.mark.parametrize("theme", TILE_THEMES + EXPLORER_THEMES, ids=lambda t: f"{type(t).__name__} {t.name}")
def test_the_outline_parts_every_fill_from_the_ground(theme):
    # a fill as dark as the ground (black special on black) is still framed by the outline
    assert contrast(theme.outline, theme.background) >= 3.0
