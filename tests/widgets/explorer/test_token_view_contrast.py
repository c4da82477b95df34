"""What a token pane paints reads against the piece it is painted on, as the grab shows it: an emoji,
whose colours no pen sets, included; and whitespace no token covers."""

from __future__ import annotations

import pytest

from engine.readable.display import UNKNOWN
from engine.readable.explorer import GAP, Piece
from tests.app.painted_text import painted_contrast
from widgets.explorer.theme import ExplorerTheme
from widgets.explorer.token_view import TokenView, colour_glyphs_only

THEMES = [ExplorerTheme.light(), ExplorerTheme.dark(), ExplorerTheme.high_contrast()]


def _painted(qtbot, theme: ExplorerTheme, piece: Piece) -> float:
    view = TokenView()
    qtbot.addWidget(view)
    view.set_theme(theme)
    view.set_scale(3.0)
    view.set_pieces([piece])
    view.resize(400, view.heightForWidth(400))
    view.show()
    qtbot.waitExposed(view)
    rect = view.piece_rects()[0][0].toAlignedRect()
    return painted_contrast(view.grab().toImage(), rect)


@pytest.mark.parametrize("theme", THEMES, ids=lambda t: t.name)
def test_an_unknown_emoji_reads_on_its_piece(qtbot, theme):
    ratio = _painted(qtbot, theme, Piece(0, 1, "🙂", UNKNOWN, (14,), ("<unk>",), (UNKNOWN,)))
    assert ratio >= (7.0 if theme.projector else 4.5)


@pytest.mark.parametrize("theme", THEMES, ids=lambda t: t.name)
def test_uncovered_whitespace_reads_on_the_ground(qtbot, theme):
    assert _painted(qtbot, theme, Piece(0, 1, " ", GAP)) >= (7.0 if theme.projector else 4.5)


def test_only_a_label_of_emoji_alone_is_colour_glyphs():
    assert colour_glyphs_only("🙂") and colour_glyphs_only("👍🏽") and colour_glyphs_only("❤️")
    assert not colour_glyphs_only("␣🙂") and not colour_glyphs_only("a") and not colour_glyphs_only("")
