"""Training text -> words with counts, in order of first appearance.

A word here is the sequence the merges work on: for chars units its text, for bytes units its
UTF-8 bytes spelt in the GPT-2 byte alphabet. The end-of-word marker is not part of the word's
text; ``symbols()`` adds it as a symbol of its own.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass
from collections.abc import Generator
from functools import cached_property

from engine.algorithm.bytelevel import BASE_ORDER, bytes_to_symbols
from engine.errors import BpeLabError
from engine.algorithm.word_counting import PART, Progress, count_file, count_text, count_words, counting_text
from engine.algorithm.pretokenize import lowercase, split_on_whitespace
from engine.algorithm.settings import Settings

_COUNT = re.compile(r"^[×xX]?(\d+)$")
# the largest number the trainer counts in (a 64-bit integer)
MAX_WEIGHT = 2**63 - 1
_LINE_END = re.compile(r"\r\n?|\n")


@dataclass(frozen=True)
class Corpus:
    """Words (as unit strings) and their frequencies, first appearance first."""

    words: tuple[str, ...]
    counts: tuple[int, ...]
    settings: Settings

    @classmethod
    def from_text(cls, text: str, settings: Settings) -> "Corpus":
        return cls.from_counts(count_words(text, settings), settings)

    @classmethod
    def from_text_in_parts(cls, text: str, settings: Settings, progress: Progress | None = None,
                           part: int = PART) -> "Corpus":
        """The corpus ``from_text`` gives, counted a part of the text at a time (``engine.algorithm.word_counting``).

        ``progress(characters counted, characters in all)`` runs after each part: a worker thread
        checks there whether to stop and reports how far it got, and the GUI thread gets the
        interpreter back (one split of 20 MB would hold it for a fifth of a second). A large text
        counts on every core.
        """
        return cls.from_counts(count_text(text, settings, progress, part=part), settings)

    @classmethod
    def counting(cls, text: str, settings: Settings) -> Generator[tuple[int, int], None, "Corpus"]:
        """``from_text_in_parts`` as a generator for a worker thread: (characters counted, characters
        in all) after each part, the corpus as its return value; closing it stops the count."""
        return cls.from_counts((yield from counting_text(text, settings)), settings)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], settings: Settings, progress: Progress | None = None,
                  workers: int | None = None) -> "Corpus":
        """The corpus of a text file, streamed: the file's text is never held whole (``count_file``)."""
        return cls.from_counts(count_file(path, settings, progress, workers), settings)

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
        return cls.from_counts(counter, settings)

    @classmethod
    def from_counts(cls, counter: Counter[str], settings: Settings) -> "Corpus":
        """The corpus of counted words (word -> count, first appearance first)."""
        words = [w for w, c in counter.items() if c > 0 and w]
        if settings.units == "bytes":
            units = [bytes_to_symbols(w.encode("utf-8")) for w in words]
        else:
            units = words
        return cls(tuple(units), tuple(map(counter.__getitem__, words)), settings)

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
