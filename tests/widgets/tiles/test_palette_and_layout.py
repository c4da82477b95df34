"""Token colours and row geometry: the parts of the tile view that need no window."""

from __future__ import annotations

from PySide6.QtGui import QColor

from engine.algorithm.bytelevel import bytes_to_symbols
from engine.readable.display import MARKER, PARTIAL, TOKEN, UNKNOWN, WORD_END, Display
from engine.lesson.lesson import Lesson, LessonState
from engine.algorithm.settings import Settings
from widgets.token_palette import TOKEN_FILLS, fill_of
from widgets.tiles.layout import KEPT, LEFT, RIGHT, RowMerge, TileRows, lay_out, summary, token_offsets
from widgets.tiles.palette import tile_look

CHARS = Display(marker="</w>", unknown="<unk>")
BYTES = Display(units="bytes")


def grey(c: QColor) -> float:
    return 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF()


def test_a_token_keeps_one_colour():
    # by id, the rule the token explorer colours the lesson's tokens with
    assert tile_look(CHARS, "es", 21).fill == QColor(fill_of(21))
    assert tile_look(CHARS, "est</w>").fill == tile_look(CHARS, "est</w>").fill
    assert tile_look(CHARS, "es").fill.name().upper() in TOKEN_FILLS
    # neighbouring ids (the letters of the base vocabulary) spread over the scheme
    assert len({tile_look(CHARS, "x", i).fill.name() for i in range(10)}) >= 5


def test_special_tiles_have_their_own_look_and_read_in_grey():
    marker = tile_look(CHARS, "</w>")
    unknown = tile_look(CHARS, "<unk>")
    byte = tile_look(BYTES, bytes_to_symbols(b"\xe2"))
    whole = tile_look(BYTES, bytes_to_symbols("é".encode()))
    assert (marker.kind, unknown.kind, byte.kind, whole.kind) == (MARKER, UNKNOWN, PARTIAL, TOKEN)
    # ordinary tokens are light with black text; the marker is dark with white text
    lightest_dark = max(grey(marker.fill), grey(unknown.fill))
    assert all(grey(QColor(c)) > lightest_dark + 0.2 for c in TOKEN_FILLS)
    assert grey(marker.text) > 0.9 and grey(tile_look(CHARS, "ab").text) < 0.1
    # shape cues that survive a grey print: hatching for unknown, dashes for bytes
    assert unknown.hatched and byte.dashed and not tile_look(CHARS, "ab").dashed
    ends = tile_look(CHARS, "est</w>")
    assert ends.ends_word and ends.kind == WORD_END and not tile_look(CHARS, "est").ends_word


def test_offsets_follow_base_symbols_whatever_their_length():
    symbols = ["a", "<", "/", "w", ">", "</w>"]  # a word that spells the marker, then the marker
    assert token_offsets(["a<", "/w>", "</w>"], symbols) == [0, 2, 5]
    assert token_offsets(["a", "<", "/", "w", "></w>"], symbols) == [0, 1, 2, 3, 4]


def test_a_row_through_one_merge():
    symbols = ["n", "e", "w", "e", "s", "t", "</w>"]
    width = lambda token: 10.0 * len(token)  # noqa: E731
    before = lay_out(2, ["n", "e", "w", "e", "s", "t", "</w>"], symbols, width, 2)
    after = lay_out(2, ["n", "e", "w", "es", "t", "</w>"], symbols, width, 2)
    merge = RowMerge.match(before, after, {3})
    assert merge.role == (KEPT, KEPT, KEPT, LEFT, RIGHT, KEPT, KEPT)
    assert merge.target == (0, 1, 2, 3, 3, 4, 5)
    start, end = merge.frames(0.0), merge.frames(1.0)
    assert [(f.token, f.x) for f in start] == list(zip(before.tokens, before.xs))
    assert [(f.token, f.x, f.width) for f in end] == list(zip(after.tokens, after.xs, after.widths))
    # just before fusing, the two tiles press together inside the slot of the tile they become
    e, s = merge.frames(0.5999)[3:5]
    assert e.x + e.width >= s.x - 0.5
    slot = (after.xs[3], after.xs[3] + after.widths[3])
    assert abs(e.x - slot[0]) < 0.5 and abs(s.x + s.width - slot[1]) < 0.5
    # every tile keeps its size on the way: only positions move
    assert [f.width for f in merge.frames(0.3)] == list(before.widths)
    # the fused tile has its moment of emphasis, then settles
    assert merge.frames(0.7)[3].emphasis > 0.3
    assert merge.frames(1.0)[3].emphasis == 0


def test_long_rows_draw_only_their_visible_slice():
    symbols = list("ab" * 500)
    row = lay_out(0, symbols, symbols, lambda t: 10.0, 0)
    assert list(row.visible_range(2000, 2100)) == list(range(200, 211))
    assert row.tile_at(15) == 1 and row.tile_at(-3) == -1


class Sizes:
    """What the painter gives the layout, in round numbers: ten pixels a character."""

    top, row_h, tile_top, tile_h, gap = 10.0, 50.0, 5.0, 30.0, 4.0

    def measure(self, token: str) -> float:
        return 10.0 * len(token)


def classic_rows(step: int = 0) -> TileRows:
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True).train()
    rows = TileRows(Sizes())
    rows.set_lesson(lesson, LessonState(lesson, step))
    return rows


def test_rows_in_view_and_the_words_out_of_it():
    rows = classic_rows()
    assert rows.content_height() == 10 + 4 * 50
    in_view = rows.rows_in(120, 0)
    assert in_view == range(0, 3) and rows.hidden_below(in_view) == 1
    assert rows.rows_in(100, 60) == range(1, 4)
    assert summary(in_view.start, rows.hidden_below(in_view)) == "… and 1 more word below"
    assert summary(2, 0) == "2 words above"
    assert rows.rows_built == 0  # nothing laid out until a row is asked for
    assert rows.set_order("frequency") and rows.order == [2, 0, 3, 1]
    assert not rows.set_order("frequency")


def test_a_point_finds_its_tile_and_a_gap_finds_none():
    rows = classic_rows()
    # "low" at step 0: l o w </w>, 10 pixels a character and 4 between tiles
    assert rows.layout(0).xs == (0.0, 14.0, 28.0, 42.0)
    assert rows.token_at(15, 10 + 5 + 1) == (0, "o")
    assert rows.token_at(12, 16) is None  # between l and o
    assert rows.token_at(15, 10 + 5 + 31) is None  # below the tiles, where tied pairs are bracketed
    assert rows.token_at(15, 10 + 50 + 6) == (1, "o")  # "lower" in the second row
    assert rows.tile_box(1, 1) == (14.0, 65.0, 10.0, 30.0)
    assert rows.rows_built == 2


def test_the_next_merge_is_found_in_each_row_with_its_ties():
    rows = classic_rows()
    nxt = rows.state.next_step()
    assert nxt.pair == ("e", "s")
    # "newest": n e w e s t </w>; e + s at tile 3, tied s + t and t + </w> beside it
    assert rows.highlights(2, nxt) == ([3], [4, 5])
    assert rows.highlights(0, nxt) == ([], [])
    assert rows.highlights(2, None) == ([], [])


def test_ties_past_those_a_step_names_are_all_marked():
    # 80 two-letter words twice each: 160 pairs (letters, then the marker) all at 2
    letters = [chr(c) for c in range(0x100, 0x100 + 160)]
    text = "".join(f"{a}{b} 2\n" for a, b in zip(letters[::2], letters[1::2]))
    lesson = Lesson(text, word_counts=True, settings=Settings(merges=3)).train()
    rows = TileRows(Sizes())
    rows.set_lesson(lesson, LessonState(lesson, 0))
    nxt = rows.state.next_step()
    assert nxt.tie_count > len(nxt.tied)  # more ties than the step names
    tied = set(lesson.history.ties(0)) - {nxt.pair}
    for w in range(len(lesson.corpus.words)):
        tokens = rows.layout(w).tokens
        expected = [i for i, pair in enumerate(zip(tokens, tokens[1:])) if pair in tied]
        assert rows.highlights(w, nxt)[1] == expected
    assert sum(len(rows.highlights(w, nxt)[1]) for w in range(len(lesson.corpus.words))) == nxt.tie_count - 1


def test_tied_pairs_are_numbered_in_the_captions_order():
    rows = classic_rows()
    nxt = rows.state.next_step()
    rows.highlights(2, nxt)
    assert rows.tie_number(("s", "t")) == 1 and rows.tie_number(("t", "</w>")) == 2
    numbers = [rows.tie_number(pair) for pair in nxt.tied[1:]]
    assert numbers == list(range(1, len(nxt.tied)))
    assert rows.tie_number(nxt.pair) == 0


def test_rows_without_a_lesson_have_no_tiles_and_no_merges():
    # the view between lessons (or before the first): every question the painter asks has an empty answer
    step = classic_rows().lesson.steps[0]
    rows = TileRows(Sizes())
    rows.set_lesson(None, None)
    assert rows.order == [] and rows.counts == ()
    assert rows.merge_of(step, 0) is None
    assert rows.frames_in(0, None, 0, 500) == ([], 0, 0.0)
    assert rows.highlights(0, step) == ([], [])


def test_every_tie_badge_carries_its_black_number_at_seven_to_one_and_keeps_its_hue():
    from tests.widgets.colour_difference import contrast
    from widgets.tiles.painter import TIE_COLOURS, badge_colour, tie_colour

    for number in range(1, len(TIE_COLOURS) + 1):
        fill = badge_colour(number).name()
        assert contrast(fill, "#000000") >= 7.0, (number, fill)
        # lightened, not replaced: still nearest its own colour among the six
        hue = QColor(fill).hslHue()
        own = QColor(tie_colour(number))
        if own.hslSaturation() > 0:
            nearest = min(TIE_COLOURS, key=lambda c: min(abs(QColor(c).hslHue() - hue), 360 - abs(QColor(c).hslHue() - hue)))
            assert nearest == tie_colour(number), (number, fill)
