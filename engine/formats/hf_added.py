"""A tokenizer.json's added tokens, cut out of the text before anything else, as `tokenizers` does.

Each added token is matched whole, leftmost and longest first. Its flags change where it matches
and what it takes with it: ``single_word`` matches only where no word character (``\\w``) touches it,
``lstrip`` / ``rstrip`` take the whitespace on that side into the token, and ``normalized``
tokens are looked for only in what the others left, once that is normalized. A ``special``
token is matched only where special tokens are allowed; other added tokens are vocabulary and
always matched, as in the library.

    >>> mask = AddedToken("<mask>", 5, special=True, lstrip=True)
    >>> list(AddedTokens([mask]).segments("a <mask>", allow_special=True))
    [(0, 1, None), (1, 8, 5)]

Whether a neighbour is a word character is the library's own ``\\w`` (its regex crate's, from
``engine.algorithm.unicode_hf``), whatever Unicode Python knows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from engine.algorithm.unicode_table import WHITESPACE_CHARS

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


def _pattern(spellings: Sequence[str]) -> re.Pattern[str] | None:
    if not spellings:
        return None
    # longest first: at one start the longest token wins, like the library's leftmost-longest search
    ordered = sorted(set(spellings), key=len, reverse=True)
    return re.compile("|".join(re.escape(c) for c in ordered))


class AddedTokens:
    """The added tokens of a file and where they cut a text.

    ``normalize``: the file's normalizer, which the library also applies to a normalized token's
    own text before looking for it ("ﬃ" is then found as "ffi").
    """

    def __init__(self, tokens: Sequence[AddedToken], normalize: Callable[[str], str] | None = None):
        self.tokens = tuple(tokens)
        self.normalize = normalize
        # the text each token is looked for as -> the token (the first where two read the same)
        self._by_spelling: dict[str, AddedToken] = {}
        for t in self.tokens:
            spelling = normalize(t.content) if t.normalized and normalize is not None else t.content
            if spelling:
                self._by_spelling.setdefault(spelling, t)
        # (pass, allow_special) -> pattern: raw tokens first, then normalized ones in what is left
        self._single_word = any(t.single_word for t in self.tokens)
        self._patterns = {
            (normalized, allowed): _pattern([s for s, t in self._by_spelling.items() if t.normalized is normalized
                                             and (allowed or not t.special)])
            for normalized in (False, True) for allowed in (False, True)
        }

    def __bool__(self) -> bool:
        return bool(self.tokens)

    def segments(self, text: str, allow_special: bool) -> Iterator[tuple[int, int, int | None]]:
        """(start, end, id of the added token there, or None for ordinary text) covering the text,
        where normalizing leaves the text as it is."""
        for start, end, found in self.raw_segments(text, allow_special):
            if found is None:
                yield from self._cut(text, start, end, self._patterns[True, allow_special])
            else:
                yield start, end, found

    def raw_segments(self, text: str, allow_special: bool) -> Iterator[tuple[int, int, int | None]]:
        """The first pass: the tokens that are not normalized, in the text as typed."""
        return self._cut(text, 0, len(text), self._patterns[False, allow_special])

    def normalized_segments(self, piece: str, allow_special: bool) -> Iterator[tuple[int, int, int | None]]:
        """The second pass: the normalized tokens, in a piece the first pass left, once normalized."""
        return self._cut(piece, 0, len(piece), self._patterns[True, allow_special])

    def _cut(self, text: str, start: int, end: int, pattern: re.Pattern[str] | None) -> Iterator[tuple[int, int, int | None]]:
        pos = start
        if self._single_word:
            # the library's \w, whose table (and numpy) load only for a file with such a token
            from engine.algorithm.unicode_hf import WORD
        if pattern is not None:
            for m in pattern.finditer(text, start, end):
                s, e = m.span()
                if s < pos:
                    continue  # inside whitespace an rstrip before has taken
                token = self._by_spelling[m.group()]
                if token.single_word and ((s > start and text[s - 1] in WORD) or (e < end and text[e] in WORD)):
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
