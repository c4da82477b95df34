"""Pre-tokenization: how text is cut into words before any merge, and where special tokens sit.

Splits: ``whitespace`` (runs of non-space, cut where ``tokenizers``' ``WhitespaceSplit`` cuts),
``gpt2`` and ``gpt4`` (the published GPT-2 and cl100k patterns, which keep a space at the front
of the following word) and ``none`` (the whole text is one sequence). Offsets are in characters of
the original text. Letters, numbers and white space are those of ``engine.unicode_table`` (the
classes tiktoken and tokenizers use), whatever Unicode the installed ``regex`` knows; lowercasing
is ``tokenizers``' ``Lowercase``, one character at a time.
"""

from __future__ import annotations

import re
from typing import Iterator

import regex

from engine.unicode_table import LETTER, LOWERCASE, NUMBER, WHITE_SPACE, Agreement

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
# the classes a published pattern names, spelt out from the table
_SPELT = {r"\p{L}": LETTER.regex_body(), r"\p{N}": NUMBER.regex_body(), r"\s": WHITE_SPACE.regex_body()}
_NATIVE = {r"\p{L}": (regex.compile(r"\p{L}"), LETTER), r"\p{N}": (regex.compile(r"\p{N}"), NUMBER),
           r"\s": (regex.compile(r"\s"), WHITE_SPACE)}
# where the installed regex puts a character in the same classes as the table
_REGEX_AGREES = Agreement(
    lambda ch: all((native.match(ch) is not None) == (ch in table) for native, table in _NATIVE.values())
)
# str.split() also cuts at these (U+001C-U+001F), which char::is_whitespace does not count as space
_PYTHON_ONLY_SPACE = "".join(chr(c) for c in range(0x20) if chr(c).isspace() and chr(c) not in WHITE_SPACE)
_WHITESPACE_WORD = re.compile(f"[^{WHITE_SPACE.regex_body()}]+")


def spelt_out(pattern: str) -> str:
    r"""The pattern with ``\p{L}``, ``\p{N}``, ``\s`` and ``\S`` written as the table's ranges.

    Other escapes stay as they are. A class inside brackets joins them: ``[^\s\p{L}]`` becomes one
    negated set of ranges.
    """
    out: list[str] = []
    i, in_set = 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            name = next((n for n in _SPELT if pattern.startswith(n, i)), None)
            if name is not None:
                out.append(_SPELT[name] if in_set else f"[{_SPELT[name]}]")
                i += len(name)
            elif pattern.startswith(r"\S", i) and not in_set:
                out.append("[^" + _SPELT[r"\s"] + "]")
                i += 2
            else:
                out.append(pattern[i : i + 2])
                i += 2
            continue
        if ch == "[" and not in_set:
            in_set = True
        elif ch == "]" and in_set:
            in_set = False
        out.append(ch)
        i += 1
    return "".join(out)


class SplitPattern:
    """A split pattern matched with the table's letters, numbers and white space.

    The pattern as written runs on texts whose every character the installed ``regex`` classes as
    the table does (almost all); others take the pattern with the classes spelt out, which gives
    the same pieces on any ``regex``, at a tenth of the speed.
    """

    def __init__(self, pattern: str):
        self.pattern = pattern
        self._native = regex.compile(pattern)
        self._exact = None

    def _for(self, text: str):
        if _REGEX_AGREES.holds_for(text):
            return self._native
        if self._exact is None:
            self._exact = regex.compile(spelt_out(self.pattern))
        return self._exact

    def findall(self, text: str) -> list[str]:
        return self._for(text).findall(text)

    def finditer(self, text: str):
        return self._for(text).finditer(text)


_PATTERNS = {"gpt2": SplitPattern(GPT2_PATTERN), "gpt4": SplitPattern(GPT4_PATTERN)}


def split_words(text: str, split: str) -> list[str]:
    """The words of a text, in order: split_words("a  b", "gpt2") == ["a", " ", " b"]."""
    if split == "whitespace":
        return split_on_whitespace(text)
    if split == "none":
        return [text] if text else []
    return _PATTERNS[split].findall(text)


def split_on_whitespace(text: str) -> list[str]:
    """Runs of non-space: what tokenizers' WhitespaceSplit gives; str.split() where that is the same."""
    if any(c in text for c in _PYTHON_ONLY_SPACE):
        return _WHITESPACE_WORD.findall(text)
    return text.split()


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


# where Python's str.lower() lowercases a character as the table does
_LOWER_AGREES = Agreement(lambda ch: ch.lower() == LOWERCASE.get(ord(ch), ch))


def lowercase(text: str) -> str:
    """Each character lowercased on its own, as tokenizers' Lowercase does: "ΣΣ" -> "σσ", "İ" -> "i̇".

    No rule looks at the neighbours (str.lower() ends a word with final sigma), so a word's
    lowercase never depends on the rest of the text.
    """
    if _LOWER_AGREES.holds_for(text):
        # final sigma is str.lower()'s one rule that looks at the neighbours
        return text.replace("Σ", "σ").lower()
    return text.translate(LOWERCASE)


def lowercase_with_map(text: str) -> tuple[str, list[int] | None]:
    """lowercase(text), and for each of its characters the index of the original one when lengths differ."""
    low = lowercase(text)
    if len(low) == len(text):
        return low, None
    index: list[int] = []
    pieces = []
    for i, ch in enumerate(text):
        piece = lowercase(ch)
        pieces.append(piece)
        index.extend([i] * len(piece))
    return "".join(pieces), index
