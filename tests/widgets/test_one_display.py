"""Every view reads a tricky token the same way, and colours each kind of token with one colour.

The tiles, the explorer, the tokenize panel, the vocabulary model and the CLI are asked what they
show for a newline, a tab, a space, the marker, a byte of a cut character, a special token and
<unk>; the answers must agree with each other and with the display module's worked examples.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor

from app.commands.common import display as cli_display
from app.session import Session
from engine.readable.display import MARKER, SPECIAL, UNKNOWN
from engine.readable.explorer import split_text
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.token_palette import KIND_LOOKS
from widgets.explorer.token_view import TokenView
from widgets.models.vocab import TOKEN, VocabModel
from widgets.tiles import TileView
from widgets.tokenize_panel import TokenizePanel

BYTE_TEXT = "a\tb\nc d 🙂"
# each byte-level token and how people read it, at step 0 (every token one byte)
BYTE_TOKENS = {"\t": "⇥", "\n": "↵", " ": "␣", "\xf0": "<F0>", "\x9f": "<9F>"}
CHAR_TEXT = "lowest жx<|endoftext|>"
CHAR_TOKENS = {"</w>": "</w>", "<unk>": "<unk>", "<|endoftext|>": "<|endoftext|>"}


def byte_symbol(raw: str) -> str:
    from engine.algorithm.bytelevel import bytes_to_symbols

    return bytes_to_symbols(raw.encode("latin-1"))


@pytest.fixture
def byte_session(qtbot):
    lesson = Lesson("a\tb\nc d 🙂\n🙂 x a\tb", settings=Settings(split="gpt2", units="bytes")).train()
    return Session(lesson)


@pytest.fixture
def char_session(qtbot):
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True,
                    settings=Settings(special_tokens=("<|endoftext|>",))).train()
    return Session(lesson)


def views(session, qtbot, text: str):
    tiles = TileView(session)
    panel = TokenizePanel(session)
    for widget in (tiles, panel):
        qtbot.addWidget(widget)
    # special-token text becomes the special token only where allowed, in every view alike
    panel.allow_special = True
    panel.input.setText(text)
    panel.refresh()
    tokenizer = session.lesson.tokenizer_at(session.step)
    pieces = split_text(tokenizer, text, allow_special=True).pieces
    return tiles, panel, pieces, tokenizer


def explorer_reads(pieces) -> dict[str, str]:
    return {raw: shown for p in pieces for raw, shown in zip(p.ids, p.tokens)}


def test_byte_level_whitespace_and_cut_bytes_read_alike_everywhere(byte_session, qtbot):
    tiles, panel, pieces, tokenizer = views(byte_session, qtbot, BYTE_TEXT)
    vocab = VocabModel(byte_session)
    chips = [shown for shown, _ in panel.chips_shown()]
    explorer = explorer_reads(pieces)
    for raw, expected in BYTE_TOKENS.items():
        token = byte_symbol(raw)
        token_id = tokenizer.token_to_id(token)
        assert tiles.canvas.display_text(token) == expected
        assert vocab.data(vocab.index(vocab.row_of(token), TOKEN)) == expected
        assert cli_display(tokenizer, token) == expected
        assert explorer[token_id] == expected
        assert expected in chips
    # the emoji cut into four bytes reads the same in the panel and in the explorer's piece
    emoji = next(p for p in pieces if p.text == "🙂")
    assert list(emoji.tokens) == ["<F0>", "<9F>", "<99>", "<82>"] == chips[-4:]


def test_marker_special_and_unknown_read_alike_everywhere(char_session, qtbot):
    tiles, panel, pieces, tokenizer = views(char_session, qtbot, CHAR_TEXT)
    vocab = VocabModel(char_session)
    chips = [shown for shown, _ in panel.chips_shown()]
    explorer = explorer_reads(pieces)
    for token, expected in CHAR_TOKENS.items():
        assert tiles.canvas.display_text(token) == expected
        assert cli_display(tokenizer, token) == expected
        assert explorer[tokenizer.token_to_id(token)] == expected
        assert expected in chips
    assert vocab.data(vocab.index(vocab.row_of("</w>"), TOKEN)) == "</w>"


def test_the_tokenize_panel_spells_typed_special_text_out_unless_allowed(char_session, qtbot):
    panel = TokenizePanel(char_session)
    qtbot.addWidget(panel)
    panel.input.setText("low<|endoftext|>")
    panel.refresh()
    assert "<|endoftext|>" not in [shown for shown, _ in panel.chips_shown()]
    # one word, its characters unknown where training never saw them
    assert panel.replay.toPlainText().startswith("low<|endoftext|>: l | o | w | <unk> | <unk> | e")
    panel.allow_special = True
    panel.refresh()
    assert "<|endoftext|>" in [shown for shown, _ in panel.chips_shown()]
    # the replay walks the words the encoding has, the special token apart
    assert panel.replay.toPlainText().splitlines()[0].startswith("low: ")


def test_marker_special_and_unknown_have_one_colour_in_every_view(char_session, qtbot):
    tiles, panel, pieces, tokenizer = views(char_session, qtbot, CHAR_TEXT)
    chip_fill = {shown: fill for shown, fill in panel.chips_shown()}
    explorer_fill = {p.tokens[0]: TokenView.looks(p)[0].fill for p in pieces if len(p.ids) == 1}
    for kind, token in ((MARKER, "</w>"), (SPECIAL, "<|endoftext|>"), (UNKNOWN, "<unk>")):
        one = KIND_LOOKS[kind].fill
        look = tiles.canvas.painter.look(token)
        assert look.kind == kind
        assert look.fill == QColor(one)
        assert QColor(explorer_fill[token]) == QColor(one)
        assert QColor(chip_fill[token]) == QColor(one)
    # the three kinds differ from each other and from every ordinary chip
    kinds = {KIND_LOOKS[k].fill for k in (MARKER, SPECIAL, UNKNOWN)}
    assert len(kinds) == 3
    assert not kinds & {chip_fill[t] for t in ("low", "est</w>") if t in chip_fill}


def test_the_explorer_paints_the_marker_in_the_marker_colour(char_session, qtbot):
    tokenizer = char_session.lesson.tokenizer
    view = TokenView()
    qtbot.addWidget(view)
    view.resize(600, 200)
    view.set_pieces(split_text(tokenizer, "lowest newer").pieces)
    view.show()
    image = view.grab().toImage()
    rect = next(r for r, p in view.piece_rects() if p.tokens == ("</w>",))
    inside = image.pixelColor(QPoint(round(rect.left() + 4), round(rect.top() + 4)))
    want = QColor(KIND_LOOKS[MARKER].fill)
    assert max(abs(inside.red() - want.red()), abs(inside.green() - want.green()), abs(inside.blue() - want.blue())) <= 12
