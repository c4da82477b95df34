"""Pre-tokenization: how text is cut into words before any merge, and where special tokens sit.

Splits: ``whitespace`` (runs of non-space), ``gpt2`` and ``gpt4`` (the published GPT-2 and
cl100k patterns, which keep a space at the front of the following word) and ``none`` (the
whole text is one sequence). Offsets are in characters of the original text.
"""

from __future__ import annotations

import re
from typing import Iterator

import regex

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
# the stdlib's \S agrees with str.split(), which the trainer uses for speed
_WHITESPACE_WORD = re.compile(r"\S+")
_PATTERNS = {"gpt2": regex.compile(GPT2_PATTERN), "gpt4": regex.compile(GPT4_PATTERN)}


def split_words(text: str, split: str) -> list[str]:
    """The words of a text, in order: split_words("a  b", "gpt2") == ["a", " ", " b"]."""
    if split == "whitespace":
        return text.split()
    if split == "none":
        return [text] if text else []
    return _PATTERNS[split].findall(text)


def iter_word_spans(text: str, split: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each word of split_words, in characters of ``text``."""
    if split == "whitespace":
        for m in _WHITESPACE_WORD.finditer(text):
            yield m.span()
    elif split == "none":
        if text:
            yield 0, len(text)
    else:
        for m in _PATTERNS[split].finditer(text):
            yield m.span()


def special_splitter(special_tokens: tuple[str, ...]):
    """A compiled pattern matching any special token whole (longest first), or None."""
    if not special_tokens:
        return None
    ordered = sorted(special_tokens, key=len, reverse=True)
    return re.compile("|".join(re.escape(t) for t in ordered))


def split_specials(text: str, pattern) -> Iterator[tuple[int, int, bool]]:
    """(start, end, is_special) segments covering the text; specials are matched before splitting."""
    if pattern is None:
        if text:
            yield 0, len(text), False
        return
    pos = 0
    for m in pattern.finditer(text):
        if m.start() > pos:
            yield pos, m.start(), False
        yield m.start(), m.end(), True
        pos = m.end()
    if pos < len(text):
        yield pos, len(text), False


def lowercase_with_map(text: str) -> tuple[str, list[int] | None]:
    """text.lower(), and for each of its characters the index of the original one when lengths differ."""
    low = text.lower()
    if len(low) == len(text):
        return low, None
    index: list[int] = []
    pieces = []
    for i, ch in enumerate(text):
        piece = ch.lower()
        pieces.append(piece)
        index.extend([i] * len(piece))
    return "".join(pieces), index
