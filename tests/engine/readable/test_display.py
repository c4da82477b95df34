"""How a token reads to a person: worked examples for each kind of token and character."""

from __future__ import annotations

import pytest

from engine.algorithm.bytelevel import bytes_to_symbols
from engine.readable.display import (
    GLYPHS,
    MARKER,
    PARTIAL,
    SPECIAL,
    TOKEN,
    UNKNOWN,
    WHITESPACE,
    WORD_END,
    Display,
    for_settings,
    for_tokenizer,
    show,
    show_bytes,
    show_text,
)
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings

BYTES = Display(units="bytes", specials=frozenset({"<|endoftext|>"}))
CHARS = Display(marker="</w>", unknown="<unk>", specials=frozenset({"<|endoftext|>"}))


def b(data: bytes) -> str:
    """Bytes as the engine keeps a byte-level token."""
    return bytes_to_symbols(data)


def test_a_character_cut_across_tokens_shows_its_bytes_as_hex():
    cafe = " café".encode()  # the é is C3 A9
    assert BYTES.token(b(cafe[:-1])) == "␣caf<C3>"
    assert BYTES.token(b(cafe[-1:])) == "<A9>"
    assert BYTES.token(b(cafe)) == "␣café"
    # an emoji cut in three: lead byte with one continuation, then two continuations
    emoji = "🙂".encode()  # F0 9F 99 82
    assert [BYTES.token(b(emoji[:2])), BYTES.token(b(emoji[2:3])), BYTES.token(b(emoji[3:]))] == ["<F0><9F>", "<99>", "<82>"]
    assert [BYTES.kind(b(emoji[:2])), BYTES.kind(b(cafe[:-1])), BYTES.kind(b(cafe))] == [PARTIAL, PARTIAL, TOKEN]


@pytest.mark.parametrize(
    "text, shown",
    [
        (" ", "␣"),
        ("\t", "⇥"),
        ("\n", "↵"),
        ("\r\n", "⇤↵"),
        ("\u00a0", "⍽"),  # no-break space
        ("\x00", "<U+0000>"),  # C0 control
        ("\x1b", "<U+001B>"),  # escape
        ("\x7f", "<U+007F>"),  # DEL
        ("\x85", "<U+0085>"),  # C1 control (next line)
        ("\u200b", "<U+200B>"),  # zero-width space
        ("\u200d", "<U+200D>"),  # zero-width joiner
        ("\u202e", "<U+202E>"),  # right-to-left override
        ("\u2066", "<U+2066>"),  # left-to-right isolate
        ("\ufeff", "<U+FEFF>"),  # byte order mark
        ("\u2003", "<U+2003>"),  # em space
        ("\u2028", "<U+2028>"),  # line separator
    ],
)
def test_each_invisible_character_gets_a_visible_form(text, shown):
    assert show_text(text) == shown
    assert BYTES.token(b(text.encode())) == shown
    assert CHARS.token(text) == shown
    assert BYTES.kind(b(text.encode())) == WHITESPACE and CHARS.kind(text) == WHITESPACE


def test_visible_text_stays_as_it_is():
    assert show_text("naïve 語 🙂 é") == "naïve␣語␣🙂␣é"
    assert show_text("x = a\tb\n") == "x␣=␣a⇥b↵"


def test_the_marker_reads_as_itself_and_marks_word_ends():
    assert CHARS.token("</w>") == "</w>" and CHARS.kind("</w>") == MARKER
    assert CHARS.token("est</w>") == "est</w>" and CHARS.kind("est</w>") == WORD_END
    underscore = Display(marker="_")
    assert (underscore.kind("_"), underscore.kind("low_"), underscore.kind("low")) == (MARKER, WORD_END, TOKEN)
    assert Display().kind("est</w>") == TOKEN  # no marker in force: just letters


def test_special_and_unknown_tokens_read_as_themselves():
    assert BYTES.token("<|endoftext|>") == "<|endoftext|>" and BYTES.kind("<|endoftext|>") == SPECIAL
    assert CHARS.token("<|endoftext|>") == "<|endoftext|>" and CHARS.kind("<|endoftext|>") == SPECIAL
    assert CHARS.token("<unk>") == "<unk>" and CHARS.kind("<unk>") == UNKNOWN
    # a special token holding a space is still shown as it is spelt, never as ␣
    assert Display(specials=frozenset({"<sep here>"})).token("<sep here>") == "<sep here>"


def test_pairs_and_token_lists_read_the_same_way():
    assert BYTES.pair((b(b" "), b(b"a"))) == "␣ + a"
    assert CHARS.tokens(["low", "est</w>"]) == "low | est</w>"
    assert show_bytes(b"\xa9 x") == "<A9>␣x"


def test_a_lesson_and_its_tokenizer_read_tokens_alike():
    settings = Settings(special_tokens=("<|endoftext|>",))
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True, settings=settings).train()
    from_settings, from_tokenizer = for_settings(lesson.settings), for_tokenizer(lesson.tokenizer)
    assert from_settings == from_tokenizer == Display("chars", "</w>", frozenset({"<|endoftext|>"}), "<unk>")
    assert show(lesson.settings, "est</w>") == "est</w>"
    byte_lesson = Settings(split="gpt2", units="bytes")
    assert for_settings(byte_lesson).unknown is None and show(byte_lesson, b(b" the")) == "␣the"


def test_every_written_character_is_a_listed_glyph_or_the_tokens_own():
    samples = ["a b", "\t\n\r\x00\x7f\x85\u200b\u00a0", "語🙂"]
    for text in samples:
        for c in show_text(text):
            assert c in GLYPHS or c in text
    cut = "🙂".encode()[:3]
    assert set(BYTES.token(b(cut))) <= GLYPHS
    assert "␊" not in GLYPHS  # no installed font draws U+240A
