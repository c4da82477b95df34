"""The one palette: each kind of token on its own step of grey, readable, and framed in every
theme; a lesson's token in the same fill, from the lesson's colouring, in every view."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from app.session import Session
from engine.readable.tile_colours import COLOURS, FILLED_KINDS, colouring_of
from engine.readable.display import KINDS, MARKER, PARTIAL, SPECIAL, TOKEN, UNKNOWN, WHITESPACE, WORD_END
from engine.lesson.lesson import Lesson
from widgets.classroom.predict import question_for
from widgets.token_palette import KIND_LOOKS, PROJECTOR_KIND_LOOKS, TOKEN_FILLS, TOKEN_TEXT, fill_of, look_of
from widgets.explorer.replay import MergeReplayView
from tests.widgets.colour_difference import contrast
from widgets.explorer.side import SidePane
from widgets.explorer.sources import LESSON, TokenizerSources
from widgets.explorer.theme import THEMES
from widgets.tiles import TileView
from widgets.tiles.theme import TileTheme
from widgets.tokenize_panel import TokenizePanel

STEP = 0.12  # the least difference in grey that still reads on a washed-out projector


def grey(colour: str) -> float:
    c = QColor(colour)
    return 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF()


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


def test_on_a_projector_every_kinds_text_reads_at_classroom_contrast_and_keeps_its_shape():
    for kind, look in PROJECTOR_KIND_LOOKS.items():
        assert contrast(look.text, look.fill) >= 7.0, kind
        assert (look.hatched, look.dashed) == (KIND_LOOKS[kind].hatched, KIND_LOOKS[kind].dashed)
    assert look_of(UNKNOWN, projector=True) == PROJECTOR_KIND_LOOKS[UNKNOWN]
    assert look_of(TOKEN, 7, projector=True) == look_of(TOKEN, 7)


@pytest.mark.parametrize("theme", [make() for make in dict.fromkeys(THEMES.values())], ids=lambda t: t.name)
def test_the_explorers_whitespace_and_uncovered_text_read_on_its_ground(theme):
    assert contrast(theme.muted, theme.background) >= (7.0 if theme.projector else 4.5)


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


def test_the_palette_has_a_fill_for_each_colour_and_a_look_for_each_other_kind():
    assert len(TOKEN_FILLS) == COLOURS
    assert set(KIND_LOOKS) == set(KINDS) - FILLED_KINDS


def test_a_lesson_token_takes_its_fill_from_the_lessons_colouring():
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3", word_counts=True).train()
    colouring = colouring_of(lesson)
    ids = lesson.tokenizer.token_to_id
    for token in ("e", "s", "t", "es", "est</w>", "low"):
        assert look_of(TOKEN, ids(token), token, colouring).fill == TOKEN_FILLS[colouring.colour(ids(token))]
    assert look_of(MARKER, ids("</w>"), "</w>", colouring) == KIND_LOOKS[MARKER]
    # e and s sit side by side in "newest"; with fills following ids round the palette they took one
    # fill then, as "e" and "w" did
    assert look_of(TOKEN, ids("e"), "e", colouring).fill != look_of(TOKEN, ids("s"), "s", colouring).fill


def test_a_lesson_token_has_one_fill_in_every_view(qtbot):
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3", word_counts=True).train()
    session = Session(lesson)
    session.request_step(7)  # "lowest new" reads low | est</w> | new | </w>
    tiles, panel = TileView(session), TokenizePanel(session)
    sources = TokenizerSources(session)
    side, replay = SidePane(sources, LESSON), MergeReplayView(sources)
    for widget in (tiles, panel, side, replay):
        qtbot.addWidget(widget)
    replay.chooser.setCurrentIndex(replay.chooser.findData(LESSON))
    replay.start("lowest", animate=False)
    panel.input.setText("lowest new")
    panel.refresh()
    side.activate()
    side.set_text("lowest new")
    colouring = colouring_of(lesson)
    question = question_for(session)
    assert question.colouring is colouring
    chips = {shown: QColor(fill) for shown, fill in panel.chips_shown()}
    pieces = {piece.tokens[0]: QColor(side.view.looks(piece, side.view.colouring)[0].fill)
              for piece in side.view.pieces if len(piece.ids) == 1}
    # every tile of every row of "This lesson's merges", from l o w e s t </w> to low est</w>
    replayed = {}
    for row in replay.rows.rows:
        for shown, look in zip(row.tokens, replay.rows.looks(row)):
            replayed.setdefault(shown, set()).add(QColor(look.fill).name())
    assert replay.rows.rows[-1].tokens == ("low", "est</w>")
    moved = 0
    for token in ("low", "est</w>", "new"):
        token_id = lesson.tokenizer.token_to_id(token)
        expected = QColor(TOKEN_FILLS[colouring.colour(token_id)])
        moved += expected != QColor(fill_of(token_id))
        assert tiles.canvas.painter.look(token).fill == expected
        assert chips[token] == expected
        assert pieces[token] == expected
    # every tile of the replay, the base symbols, the tokens on the way and low | est</w>, by the lesson too
    for shown, fills in replayed.items():
        if shown != "</w>":  # the marker has a look of its own
            assert fills == {QColor(TOKEN_FILLS[colouring.colour(lesson.tokenizer.token_to_id(shown))]).name()}
    assert moved  # some of these tokens' fills are not the ones their ids name round the palette
