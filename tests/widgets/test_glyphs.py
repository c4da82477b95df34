"""Every glyph the display module writes is drawn by a font the app installs: no view shows an empty box.

The fonts are the ones tools/setup.sh installs (fonts-dejavu-core, fonts-lohit-deva,
fonts-lohit-taml, fonts-wqy-microhei, fonts-noto-color-emoji). The check asks Qt's own font
machinery, the way the views will draw, not a table of code points.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont, QFontDatabase, QRawFont

from engine.readable.display import GLYPHS, WHITESPACE_GLYPHS

INSTALLED_FAMILIES = (
    "DejaVu Sans",
    "DejaVu Sans Mono",
    "Lohit Devanagari",
    "Lohit Tamil",
    "WenQuanYi Micro Hei",
    "Noto Color Emoji",
)


@pytest.fixture(scope="module")
def fonts(qapp):
    present = set(QFontDatabase.families())
    assert "DejaVu Sans" in present, "the app's fonts are missing: run tools/setup.sh"
    raw = [QRawFont.fromFont(QFont(family)) for family in INSTALLED_FAMILIES if family in present]
    # the fonts the views draw with: the application's and the fixed-width one of the tiles
    for font in (qapp.font(), QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)):
        raw.append(QRawFont.fromFont(font))
    assert all(f.isValid() for f in raw)
    return raw


def drawn(fonts, ch: str) -> bool:
    return any(f.supportsCharacter(ord(ch)) for f in fonts)


@pytest.mark.parametrize("glyph", sorted(GLYPHS))
def test_an_installed_font_draws_every_display_glyph(fonts, glyph):
    assert drawn(fonts, glyph), f"no installed font draws U+{ord(glyph):04X} {glyph}: it would show as an empty box"


def test_the_check_catches_a_glyph_no_font_has(fonts):
    # the control pictures ␊ (U+240A) and ␍ (U+240D), once used for newline and carriage return
    assert not drawn(fonts, "\u240a") and not drawn(fonts, "\u240d")


def test_every_whitespace_glyph_is_listed():
    assert set(WHITESPACE_GLYPHS.values()) <= GLYPHS
