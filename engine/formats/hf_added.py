"""A tokenizer.json's added tokens, cut out of the text before anything else, as `tokenizers` does.

Each added token is matched whole, leftmost and longest first. Its flags change where it matches
and what it takes with it: ``single_word`` matches only where no letter or digit touches it,
``lstrip`` / ``rstrip`` take the whitespace on that side into the token, and ``normalized``
tokens are looked for only in what the others left, after them (the library then matches them in
normalized text, so this module is used only where that text is the input itself). A ``special``
token is matched only where special tokens are allowed; other added tokens are vocabulary and
always matched, as in the library.

    >>> mask = AddedToken("<mask>", 5, special=True, lstrip=True)
    >>> list(AddedTokens([mask]).segments("a <mask>", allow_special=True))
    [(0, 1, None), (1, 8, 5)]

Left out: ``single_word`` asks Python whether a neighbour is a letter or digit, where the library
asks Rust (the two Unicode versions can differ on the newest characters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Sequence

from engine.unicode_table import WHITESPACE_CHARS

_SPACES = frozenset(WHITESPACE_CHARS)  # Rust's char::is_whitespace, which the library strips


@dataclass(frozen=True, slots=True)
class AddedToken:
    content: str
    id: int
    special: bool
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool = False


def _pattern(tokens: Sequence[AddedToken]):
    if not tokens:
        return None
    # longest first: at one start the longest token wins, like the library's leftmost-longest search
    ordered = sorted({t.content for t in tokens}, key=len, reverse=True)
    return re.compile("|".join(re.escape(c) for c in ordered))


class AddedTokens:
    """The added tokens of a file and where they cut a text."""

    def __init__(self, tokens: Sequence[AddedToken]):
        self.tokens = tuple(tokens)
        self._by_content = {t.content: t for t in self.tokens}
        # (pass, allow_special) -> pattern: raw tokens first, then normalized ones in what is left
        self._patterns = {
            (normalized, allowed): _pattern([t for t in self.tokens if t.normalized is normalized
                                             and (allowed or not t.special)])
            for normalized in (False, True) for allowed in (False, True)
        }

    def __bool__(self) -> bool:
        return bool(self.tokens)

    def segments(self, text: str, allow_special: bool) -> Iterator[tuple[int, int, int | None]]:
        """(start, end, id of the added token there, or None for ordinary text) covering the text."""
        later = self._patterns[True, allow_special]
        for start, end, found in self._cut(text, 0, len(text), self._patterns[False, allow_special]):
            if found is None:
                yield from self._cut(text, start, end, later)
            else:
                yield start, end, found

    def _cut(self, text: str, start: int, end: int, pattern) -> Iterator[tuple[int, int, int | None]]:
        pos = start
        if pattern is not None:
            for m in pattern.finditer(text, start, end):
                s, e = m.span()
                if s < pos:
                    continue  # inside whitespace an rstrip before has taken
                token = self._by_content[m.group()]
                if token.single_word and ((s > start and text[s - 1].isalnum()) or (e < end and text[e].isalnum())):
                    continue
                if token.lstrip:
                    while s > pos and text[s - 1] in _SPACES:
                        s -= 1
                if token.rstrip:
                    while e < end and text[e] in _SPACES:
                        e += 1
                if s > pos:
                    yield pos, s, None
                yield s, e, token.id
                pos = e
        if pos < end:
            yield pos, end, None
