"""cl100k's split through re over ASCII stretches, and GPT-2's over ASCII text, are the published patterns'
splits of the whole text."""

import regex
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from engine.algorithm.ascii_split import GPT2_ASCII, GPT4_ASCII, ascii_stretches
from engine.algorithm.pretokenize import GPT2_PATTERN, GPT4_PATTERN, SplitPattern

PUBLISHED = regex.compile(GPT4_PATTERN)
PUBLISHED_GPT2 = regex.compile(GPT2_PATTERN)
ASCII_TRICKY = "\n\r \t\x0b\x0c\x1c'sStTlLdDmMvVeErR x9_.-("


@hyp_settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=ASCII_TRICKY, max_size=60) | st.text(alphabet=st.characters(max_codepoint=127)))
def test_the_ascii_twin_splits_ascii_text_as_the_published_pattern(text):
    assert GPT4_ASCII.findall(text) == PUBLISHED.findall(text)


@hyp_settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=ASCII_TRICKY, max_size=60) | st.text(alphabet=st.characters(max_codepoint=127)))
def test_the_gpt2_ascii_twin_splits_ascii_text_as_the_published_pattern(text):
    assert GPT2_ASCII.findall(text) == PUBLISHED_GPT2.findall(text)


# what the twin's shortcuts take: runs of spaces before words, line feeds before indented lines,
# punctuation before letters and line breaks
CODE_LIKE = "    \n\n\r\txy'.(_9"


@hyp_settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=CODE_LIKE, max_size=60))
def test_the_ascii_twins_shortcuts_give_the_published_pieces_of_code_like_text(text):
    assert GPT4_ASCII.findall(text) == PUBLISHED.findall(text)


def test_the_ascii_twin_splits_an_indented_line_as_the_published_pattern():
    text = "def f(x):\n        return x._y  \n\n  'tis\n"
    assert GPT4_ASCII.findall(text) == PUBLISHED.findall(text) == [
        "def", " f", "(x", "):\n", "       ", " return", " x", "._", "y", "  \n\n", " ", " '", "tis", "\n"]


def test_the_gpt2_split_takes_its_ascii_twin_only_for_ascii_text():
    split = SplitPattern(GPT2_PATTERN)
    text = "I'll pay 12\u00a0345 \u20ac  \n\x1c  for caf\u00e9's 3 cups\n"
    assert split.findall(text) == PUBLISHED_GPT2.findall(text)
    assert [text[s:e] for s, e in split.spans(text)] == PUBLISHED_GPT2.findall(text)
    ascii_text = text.encode("ascii", "ignore").decode()
    assert split.findall(ascii_text) == PUBLISHED_GPT2.findall(ascii_text)


@hyp_settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.text(alphabet="\r \t\xa0\u3000xé9'.", max_size=5), max_size=10),
       ending=st.sampled_from(["", "\n", " \n", "é"]))
def test_stretches_cover_the_text_and_split_alone_as_in_the_whole(lines, ending):
    text = "\n".join(lines) + ending
    stretches = list(ascii_stretches(text))
    assert "".join(text[s:e] for s, e, _ in stretches) == text
    pieces = []
    for start, end, ascii_only in stretches:
        part = text[start:end]
        assert part.isascii() == ascii_only
        pieces += PUBLISHED.findall(part)
    assert pieces == PUBLISHED.findall(text)


def test_a_line_feed_before_an_indented_line_is_a_cut_and_before_a_blank_line_is_not():
    text = "é\n    x\n\n  \ny é\n"
    assert [(text[s:e], a) for s, e, a in ascii_stretches(text)] == [
        ("é\n", False), ("    x\n\n  \n", True), ("y é\n", False)]
