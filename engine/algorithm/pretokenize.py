"""Pre-tokenization: how text is cut into words before any merge, and where special tokens sit.

Splits: ``whitespace`` (runs of non-space, cut where ``tokenizers``' ``WhitespaceSplit`` cuts),
``gpt2`` and ``gpt4`` (the published GPT-2 and cl100k patterns, which keep a space at the front
of the following word) and ``none`` (the whole text is one sequence). Offsets are in characters of
the original text. Letters, numbers and white space are those of ``engine.algorithm.unicode_table`` (the
classes tiktoken and tokenizers use), whatever Unicode the installed ``regex`` knows; lowercasing
is ``tokenizers``' ``Lowercase``, one character at a time.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Iterator

from engine.errors import BpeLabError
from engine.algorithm.unicode_table import LETTER, LOWERCASE, NUMBER, WHITE_SPACE, Agreement, CharClass

if TYPE_CHECKING:
    import regex

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
# cl100k's pattern with the possessive parts that never change a match written plainly, which
# regex runs about a sixth faster (each ends its alternative, or what follows it cannot take what
# it would give back); \s++$ keeps its possessive, which does change the match. The pattern
# itself stays as published
_QUICKER = {
    GPT4_PATTERN: r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
                  r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
}


@lru_cache(maxsize=None)
def _native() -> tuple[tuple[regex.Pattern[str], CharClass], ...]:
    # regex is imported when a pattern first needs it: a whitespace split, and a command's start, go without
    import regex

    return ((regex.compile(r"\p{L}"), LETTER), (regex.compile(r"\p{N}"), NUMBER), (regex.compile(r"\s"), WHITE_SPACE))


# where the installed regex puts a character in the same classes as the table
_REGEX_AGREES = Agreement(lambda ch: all((native.match(ch) is not None) == (ch in table) for native, table in _native()))
# characters that stand in for a disputed one of each class: in every Unicode version a letter
# (feminine ordinal), a number (superscript two), a space (no-break space) and none of these
# (section sign), with no case, so that no case-insensitive part of a pattern matches them
_STAND_INS = {LETTER: "\u00aa", NUMBER: "\u00b2", WHITE_SPACE: "\u00a0", None: "\u00a7"}
# str.split() also cuts at these (U+001C-U+001F), which char::is_whitespace does not count as space
_PYTHON_ONLY_SPACE = "".join(chr(c) for c in range(0x20) if chr(c).isspace() and chr(c) not in WHITE_SPACE)
_WHITESPACE_WORD = re.compile(f"[^{WHITE_SPACE.regex_body()}]+")


def _table_class(ch: str) -> CharClass | None:
    return next((table for table in (LETTER, NUMBER, WHITE_SPACE) if ch in table), None)


class SplitPattern:
    """A split pattern matched with the table's letters, numbers and white space.

    The installed ``regex`` runs the pattern as written. Where it classes a character of the
    text otherwise than the table (a letter newer than tiktoken's Unicode), the pattern runs on a
    copy in which each such character is swapped for a character of the table's class that every
    ``regex`` classes alike, and the pieces are cut from the original at the same places.
    cl100k's pattern takes ASCII stretches through Python's ``re`` instead (``ascii_split``), GPT-2's
    an ASCII text (the word counter hands it a text in short parts, most of them ASCII).
    """

    def __init__(self, pattern: str):
        # imported with the first pattern: a whitespace split, and a command's start, go without them
        import regex

        # only the GPT splits need their tables
        from engine.algorithm.ascii_split import GPT2_ASCII, GPT4_ASCII, ascii_stretches

        self.pattern = pattern
        self._regex = regex.compile(_QUICKER.get(pattern, pattern))
        # the same split of ASCII text through Python's re, where the pattern has one
        self._ascii = {GPT4_PATTERN: GPT4_ASCII, GPT2_PATTERN: GPT2_ASCII}.get(pattern)
        # where a mixed text may be cut for it: cl100k's cuts only
        self._stretches = ascii_stretches if pattern == GPT4_PATTERN else None
        if any(ch in pattern for ch in _STAND_INS.values()):
            raise BpeLabError(f"the split pattern names one of {''.join(_STAND_INS.values())}, which BPE Lab "
                              "keeps for characters that regex engines class differently")

    def _probe(self, text: str) -> str | None:
        """The text with its disputed characters swapped, or None when it has none."""
        disputed = _REGEX_AGREES.disputed_in(text)
        if not disputed:
            return None
        return text.translate({ord(ch): _STAND_INS[_table_class(ch)] for ch in disputed})

    def findall(self, text: str) -> list[str]:
        if self._ascii is None:
            return self._findall_unicode(text)
        if text.isascii():
            return self._ascii.findall(text)
        if self._stretches is None:
            return self._findall_unicode(text)
        words: list[str] = []
        for start, end, ascii_only in self._stretches(text):
            part = text[start:end]
            words += self._ascii.findall(part) if ascii_only else self._findall_unicode(part)
        return words

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of each piece of ``findall``."""
        if self._ascii is None:
            return self._spans_unicode(text)
        if text.isascii():
            return (m.span() for m in self._ascii.finditer(text))
        if self._stretches is None:
            return self._spans_unicode(text)
        return self._spans_by_stretch(text)

    def _spans_by_stretch(self, text: str) -> Iterator[tuple[int, int]]:
        ascii_pattern, stretches = self._ascii, self._stretches
        # spans() cuts into stretches only for a pattern with an ASCII form and its cuts
        assert ascii_pattern is not None and stretches is not None
        for start, end, ascii_only in stretches(text):
            part = text[start:end]
            found = (m.span() for m in ascii_pattern.finditer(part)) if ascii_only else self._spans_unicode(part)
            for s, e in found:
                yield start + s, start + e

    def _findall_unicode(self, text: str) -> list[str]:
        probe = self._probe(text)
        if probe is None:
            return self._regex.findall(text)
        return [text[s:e] for s, e in self._spans_in(probe)]

    def _spans_unicode(self, text: str) -> Iterator[tuple[int, int]]:
        probe = self._probe(text)
        return self._spans_in(text if probe is None else probe)

    def _spans_in(self, text: str) -> Iterator[tuple[int, int]]:
        return (m.span() for m in self._regex.finditer(text))


@lru_cache(maxsize=None)
def _split_pattern(split: str) -> SplitPattern:
    """The compiled pattern of the gpt2 or gpt4 split, made when first used."""
    return SplitPattern({"gpt2": GPT2_PATTERN, "gpt4": GPT4_PATTERN}[split])


def split_words(text: str, split: str) -> list[str]:
    """The words of a text, in order: split_words("a  b", "gpt2") == ["a", " ", " b"]."""
    if split == "whitespace":
        return split_on_whitespace(text)
    if split == "none":
        return [text] if text else []
    return _split_pattern(split).findall(text)


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
        yield from _split_pattern(split).spans(text)


def special_splitter(special_tokens: tuple[str, ...]) -> re.Pattern[str] | None:
    """A compiled pattern matching any special token whole (longest first), or None."""
    if not special_tokens:
        return None
    ordered = sorted(special_tokens, key=len, reverse=True)
    return re.compile("|".join(re.escape(t) for t in ordered))


def split_specials(text: str, pattern: re.Pattern[str] | None) -> Iterator[tuple[int, int, bool]]:
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
    if not _LOWER_AGREES.disputed_in(text):
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
