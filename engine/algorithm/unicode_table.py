"""The Unicode facts BPE Lab splits and lowercases by, read from engine/algorithm/unicode_classes.py.

Letters, numbers and white space are the classes tiktoken's and tokenizers' regex engines use,
lowercasing is tokenizers' ``Lowercase`` (one character at a time), so that BPE Lab, tiktoken and
the files it exports cut and lowercase every text alike. The running ``regex`` module and Python's
``str.lower`` usually agree with the table and are fast; ``Agreement`` remembers, character by
character, where they do, so callers take the fast path only for texts made of such characters.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Callable

import engine.algorithm.unicode_classes as data

# below this length a set of the characters is quicker to make than a bitmap of the code points
_SHORT = 4096


class CharClass:
    """One class of the table: ``ch in LETTER``, and the class as regex ranges."""

    def __init__(self, spec: str):
        self.ranges: list[tuple[int, int]] = []
        for item in spec.split():
            first, _, last = item.partition("-")
            self.ranges.append((int(first, 16), int(last or first, 16)))
        self._starts = [a for a, _ in self.ranges]

    def __contains__(self, ch: str) -> bool:
        code = ord(ch)
        i = bisect_right(self._starts, code) - 1
        return i >= 0 and code <= self.ranges[i][1]

    def regex_body(self) -> str:
        """The inside of a character class, ``\\U00000041-\\U0000005A...``, as ``re`` and ``regex`` read it."""
        return "".join(f"\\U{a:08X}" if a == b else f"\\U{a:08X}-\\U{b:08X}" for a, b in self.ranges)

    def chars(self) -> str:
        return "".join(chr(c) for a, b in self.ranges for c in range(a, b + 1))


LETTER = CharClass(data.LETTER)
NUMBER = CharClass(data.NUMBER)
WHITE_SPACE = CharClass(data.WHITE_SPACE)
# the characters Rust's char::is_whitespace is true for, where tokenizers' WhitespaceSplit cuts
WHITESPACE_CHARS = WHITE_SPACE.chars()


def code_point_map(spec: str) -> dict[int, str]:
    """A generated table's mapping of code points to text: ``C>T1,T2`` items, and runs
    ``START+COUNT/STRIDE:DELTA`` of code points each mapped to itself shifted by DELTA (hex)."""
    mapping: dict[int, str] = {}
    for item in spec.split():
        if ">" in item:
            code, _, low = item.partition(">")
            mapping[int(code, 16)] = "".join(chr(int(c, 16)) for c in low.split(","))
            continue
        head, _, delta = item.partition(":")
        start, _, run = head.partition("+")
        count, _, stride = run.partition("/")
        first, step, shift = int(start, 16), int(stride), int(delta, 16)
        for k in range(int(count)):
            mapping[first + k * step] = chr(first + k * step + shift)
    return mapping


# code point -> its lowercase, for str.translate; characters not listed stay as they are
LOWERCASE = code_point_map(data.LOWERCASE)


class Agreement:
    """Which characters a fast routine treats as the table does, learnt one character at a time."""

    def __init__(self, agrees: Callable[[str], bool]):
        self._agrees = agrees
        self._good: set[str] = set()
        self._bad: set[str] = set()

    def disputed_in(self, text: str) -> set[str]:
        """The characters of ``text`` that the fast routine gets wrong; ASCII it always gets right."""
        if text.isascii():
            return set()
        chars = set(text) if len(text) < _SHORT else _distinct(text)
        for ch in chars.difference(self._good, self._bad):
            (self._good if self._agrees(ch) else self._bad).add(ch)
        return chars.intersection(self._bad)


def _distinct(text: str) -> set[str]:
    """The distinct non-ASCII characters of a long text, without making one string per character."""
    import numpy as np  # only here: an ASCII text, and the command line's start, go without it

    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
    seen = np.zeros(0x110000, bool)
    seen[codes] = True
    seen[:128] = False
    return set(map(chr, np.flatnonzero(seen).tolist()))
