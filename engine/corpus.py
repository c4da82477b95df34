"""Training text -> words with counts, in order of first appearance.

A word here is the sequence the merges work on: for chars units its text, for bytes units its
UTF-8 bytes spelt in the GPT-2 byte alphabet. The end-of-word marker is not part of the word's
text; ``symbols()`` adds it as a symbol of its own.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from engine.bytelevel import BASE_ORDER, bytes_to_symbols
from engine.errors import BpeLabError
from engine.pretokenize import lowercase, special_splitter, split_on_whitespace, split_specials, split_words
from engine.settings import Settings
from engine.unicode_table import WHITESPACE_CHARS

_COUNT = re.compile(r"^[×xX]?(\d+)$")
# the largest number the trainer counts in (a 64-bit integer)
MAX_WEIGHT = 2**63 - 1
_SPACES = frozenset(WHITESPACE_CHARS)
_LINE_END = re.compile(r"\r\n?|\n")


@dataclass(frozen=True)
class Corpus:
    """Words (as unit strings) and their frequencies, first appearance first."""

    words: tuple[str, ...]
    counts: tuple[int, ...]
    settings: Settings

    @classmethod
    def from_text(cls, text: str, settings: Settings) -> "Corpus":
        if settings.lowercase:
            text = lowercase(text)
        pattern = special_splitter(settings.special_tokens)
        counter: Counter[str] = Counter()
        for start, end, special in split_specials(text, pattern):
            if not special:
                counter.update(split_words(text[start:end], settings.split))
        return cls._from_counter(counter, settings)

    @classmethod
    def from_text_in_parts(cls, text: str, settings: Settings, between=None, part: int = 1 << 18) -> "Corpus":
        """The corpus ``from_text`` gives, counted a part of the text at a time.

        ``between()`` runs after each part: a worker thread checks there whether to stop, and the
        GUI thread gets the interpreter back (one split of 20 MB would hold it for a fifth of a
        second). Parts end at whitespace, so with the whitespace split and no special tokens the
        words and their first-appearance order are the same; other splits count in one go.
        """
        if settings.split != "whitespace" or settings.special_tokens or len(text) <= part:
            return cls.from_text(text, settings)
        counter: Counter[str] = Counter()
        start, n = 0, len(text)
        while start < n:
            end = min(start + part, n)
            while end < n and text[end] not in _SPACES:
                end += 1
            piece = text[start:end]
            counter.update(split_on_whitespace(lowercase(piece) if settings.lowercase else piece))
            start = end
            if between is not None:
                between()
        return cls._from_counter(counter, settings)

    @classmethod
    def from_word_counts(cls, text: str, settings: Settings) -> "Corpus":
        """Lines such as ``low 5``, ``low ×5`` or ``low x5``; a word on its own counts once."""
        counter: Counter[str] = Counter()
        # a pair count is at most the counts times the word lengths (in bytes, at most 4 per character, and a
        # marker): keep it within the trainer's 64-bit integers
        weight = 0
        # str.splitlines() would also end a line at U+001C-U+001E, which a word may hold
        for number, line in enumerate(_LINE_END.split(text), start=1):
            fields = split_on_whitespace(line)
            if not fields:
                continue
            count = 1
            if len(fields) > 1:
                m = _COUNT.match(fields[-1])
                if m is None:
                    raise BpeLabError(
                        f"line {number}: '{line.strip()}' is not a word and a count; write it like 'low 5'"
                    )
                digits = m.group(1)
                count = int(digits) if len(digits) <= 19 else MAX_WEIGHT + 1
                fields = fields[:-1]
            if len(fields) != 1:
                raise BpeLabError(f"line {number}: one word per line, then its count, like 'low 5'")
            weight += count * (4 * len(fields[0]) + 1)
            if weight > MAX_WEIGHT:
                raise BpeLabError(
                    f"line {number}: the counts are too large (each count times its word's length, added up, "
                    f"must stay under {MAX_WEIGHT:,}): use smaller counts"
                )
            word = lowercase(fields[0]) if settings.lowercase else fields[0]
            counter[word] += count
        return cls._from_counter(counter, settings)

    @classmethod
    def _from_counter(cls, counter: Counter, settings: Settings) -> "Corpus":
        words = [w for w, c in counter.items() if c > 0 and w]
        if settings.units == "bytes":
            units = [bytes_to_symbols(w.encode("utf-8")) for w in words]
        else:
            units = words
        return cls(tuple(units), tuple(counter[w] for w in words), settings)

    def __len__(self) -> int:
        return len(self.words)

    @property
    def is_empty(self) -> bool:
        return not self.words

    def symbols(self, index: int) -> list[str]:
        """The base symbols of one word: ["l", "o", "w", "</w>"]."""
        marker = self.settings.marker
        syms = list(self.words[index])
        if marker is not None:
            syms.append(marker)
        return syms

    def base_vocab(self) -> list[str]:
        """Base symbols: all 256 bytes, or the characters met, in code point order, then the marker."""
        return list(self._base_vocab)

    @cached_property
    def _base_vocab(self) -> tuple[str, ...]:
        if self.settings.units == "bytes":
            return tuple(BASE_ORDER)
        chars = sorted(set().union(*self.words)) if self.words else []
        marker = self.settings.marker
        if marker is not None and marker not in chars:
            chars.append(marker)
        return tuple(chars)

    def total_symbols(self) -> int:
        """How many base symbols the whole corpus holds, counting every word as often as it occurs."""
        return self._total_symbols

    @cached_property
    def _total_symbols(self) -> int:
        extra = 1 if self.settings.marker is not None else 0
        return sum((len(w) + extra) * c for w, c in zip(self.words, self.counts))
