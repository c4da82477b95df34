"""Unicode normalization and character classes as `tokenizers` has them, read from unicode_hf_data.

The library's NFC, NFD, NFKC and NFKD, its BertNormalizer and StripAccents, and the classes its
pre-tokenizers cut by (punctuation, ``char::is_numeric``, the Whitespace pre-tokenizer's ``\\w``)
follow the Unicode versions of the Rust crates it was built with, not Python's ``unicodedata``;
these follow the table generated from the library (tools/unicode_hf.py).

Normalization is the standard algorithm (decompose, order the marks, compose) over the table.
Most text never needs it: a character that is a starter, that normalizing keeps as it is and that
nothing composes with is a place where the text can be cut and normalized piece by piece, so only
the stretches around the other characters go through the algorithm.

    >>> normalize("NFKC", "ﬁ e\\u0301")
    'fi é'
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Iterable

import numpy as np
from numpy.typing import NDArray

import engine.algorithm.unicode_hf_data as data
from engine.algorithm.unicode_table import CharClass, code_point_map

BERT_REMOVED = CharClass(data.BERT_REMOVED)
BERT_SPACE = CharClass(data.BERT_SPACE)
BERT_CHINESE = CharClass(data.BERT_CHINESE)
NONSPACING_MARK = CharClass(data.NONSPACING_MARK)
COMBINING_MARK = CharClass(data.COMBINING_MARK)
# what Punctuation and BertPreTokenizer isolate: ASCII punctuation and Unicode's P categories
PUNCTUATION = CharClass(data.PUNCTUATION)
# Rust's char::is_numeric, which Digits cuts at
NUMERIC = CharClass(data.NUMERIC)
# the Whitespace pre-tokenizer's \w (the regex crate's word characters)
WORD = CharClass(data.WORD)
FORMS = ("NFC", "NFD", "NFKC", "NFKD")

_S_BASE, _L_BASE, _V_BASE, _T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
_V_COUNT, _T_COUNT, _S_COUNT = 21, 28, 11172


def _hangul(code: int) -> str:
    s = code - _S_BASE
    tail = s % _T_COUNT
    out = chr(_L_BASE + s // (_V_COUNT * _T_COUNT)) + chr(_V_BASE + (s % (_V_COUNT * _T_COUNT)) // _T_COUNT)
    return out + chr(_T_BASE + tail) if tail else out


@lru_cache(maxsize=1)
def script_numbers() -> NDArray[np.uint16]:
    """Each code point's script number as UnicodeScripts sees it; 0 where it passes the character over."""
    numbers = np.zeros(0x110000, np.uint16)
    for item in data.SCRIPTS.split():
        span, _, number = item.partition(":")
        first, _, last = span.partition("-")
        numbers[int(first, 16): int(last or first, 16) + 1] = int(number)
    return numbers


def _codes(text: str) -> NDArray[np.uint32]:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def _text(codes: NDArray[np.uint32]) -> str:
    return codes.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")


def code_point_mask(chars: Iterable[str]) -> NDArray[np.bool_]:
    """A flag for every code point: whether it is one of ``chars``."""
    mask = np.zeros(0x110000, bool)
    mask[[ord(ch) for ch in chars]] = True
    return mask


def _runs(flags: NDArray[np.bool_], least: int = 1) -> list[tuple[int, int]]:
    """(start, end) of each run of at least ``least`` set flags."""
    edges = np.flatnonzero(np.diff(np.concatenate(([False], flags, [False])).astype(np.int8)))
    return [(int(s), int(e)) for s, e in zip(edges[::2], edges[1::2]) if e - s >= least]


class _Tables:
    """The table's normalization data, made into lookups when a text first needs them."""

    def __init__(self) -> None:
        canonical = code_point_map(data.CANONICAL)
        canonical.update((c, _hangul(c)) for c in range(_S_BASE, _S_BASE + _S_COUNT))
        self.decompose = {False: canonical, True: {**canonical, **code_point_map(data.COMPATIBILITY)}}
        self.combining: dict[str, int] = {}
        for item in data.COMBINING.split():
            span, _, rank = item.partition(":")
            first, _, last = span.partition("-")
            for c in range(int(first, 16), int(last or first, 16) + 1):
                self.combining[chr(c)] = int(rank)
        self.compose: dict[str, str] = {}
        for item in data.COMPOSE.split():
            pair, _, composite = item.partition(">")
            a, _, b = pair.partition(",")
            self.compose[chr(int(a, 16)) + chr(int(b, 16))] = chr(int(composite, 16))
        seconds = {p[1] for p in self.compose} | {chr(c) for c in range(_V_BASE, _V_BASE + _V_COUNT)}
        self.seconds = frozenset(seconds | {chr(c) for c in range(_T_BASE + 1, _T_BASE + _T_COUNT)})
        self.is_mark = code_point_mask(self.combining)
        self.is_second = code_point_mask(self.seconds)
        self.unsafe = {form: code_point_mask(self._unsafe_chars(form)) for form in FORMS}

    def _unsafe_chars(self, form: str) -> set[str]:
        """The characters before which the text is not a clean place to cut for this form."""
        compat, compose = form in ("NFKC", "NFKD"), form in ("NFC", "NFKC")
        unsafe = set(self.combining)
        changes = self.decompose[compat]
        if compose:
            unsafe |= self.seconds
            # a character that decomposes is safe only where composing gives it back
            unsafe |= {chr(c) for c in changes if not _S_BASE <= c < _S_BASE + _S_COUNT
                       and self.slow(chr(c), compat, True) != chr(c)}
        else:
            unsafe |= {chr(c) for c in changes}
        return unsafe

    def slow(self, text: str, compat: bool, compose: bool) -> str:
        """The normalization algorithm itself: decompose, order each run of marks by class, compose."""
        text = text.translate(self.decompose[compat])
        codes = _codes(text)
        runs = _runs(self.is_mark[codes], least=2)
        if runs:
            chars, rank = list(text), self.combining.__getitem__
            for s, e in runs:
                chars[s:e] = sorted(chars[s:e], key=rank)
            text = "".join(chars)
        if not compose or not self.is_second[codes].any():
            return text
        return "".join(self._composed(text))

    def _composed(self, text: str) -> list[str]:
        out: list[str] = []
        starter = -1
        combining, seconds = self.combining, self.seconds
        for ch in text:
            if starter >= 0 and ch in seconds:
                last = len(out) - 1
                # a mark between the starter and this character blocks it unless its class is lower
                if last == starter or 0 < combining.get(out[last], 0) < combining.get(ch, 0):
                    joined = self._pair(out[starter], ch)
                    if joined is not None:
                        out[starter] = joined
                        continue
            out.append(ch)
            if ch not in combining:
                starter = len(out) - 1
        return out

    def _pair(self, a: str, b: str) -> str | None:
        found = self.compose.get(a + b)
        if found is not None:
            return found
        first, second = ord(a), ord(b)
        if _L_BASE <= first < _L_BASE + 19 and _V_BASE <= second < _V_BASE + _V_COUNT:
            return chr(_S_BASE + ((first - _L_BASE) * _V_COUNT + second - _V_BASE) * _T_COUNT)
        s = first - _S_BASE
        if 0 <= s < _S_COUNT and s % _T_COUNT == 0 and _T_BASE < second < _T_BASE + _T_COUNT:
            return chr(first + second - _T_BASE)
        return None

    def normalize(self, form: str, text: str) -> str:
        unsafe = np.flatnonzero(self.unsafe[form][_codes(text)])
        if not len(unsafe):
            return text
        compat, compose = form in ("NFKC", "NFKD"), form in ("NFC", "NFKC")
        # stretches: unsafe characters closer than _GAP together, each with the safe starter before
        # it, which it may compose with; between stretches the text stays as it is
        breaks = np.flatnonzero(np.diff(unsafe) > _GAP)
        starts = np.maximum(unsafe[np.concatenate(([0], breaks + 1))] - 1, 0).tolist()
        ends = (unsafe[np.concatenate((breaks, [len(unsafe) - 1]))] + 1).tolist()
        parts: list[str] = []
        pos = 0
        for s, e in zip(starts, ends):
            parts += [text[pos:s], self.slow(text[s:e], compat, compose)]
            pos = e
        parts.append(text[pos:])
        return "".join(parts)


# unsafe characters closer than this are normalized as one stretch
_GAP = 64


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    return _Tables()


def normalize(form: str, text: str) -> str:
    """``unicodedata.normalize(form, text)`` as `tokenizers` normalizes (its Unicode version)."""
    if form not in FORMS:
        raise ValueError(f"no normalization form {form!r}")
    if text.isascii():
        return text
    return _tables().normalize(form, text)


_REMOVED = code_point_mask(BERT_REMOVED.chars())
_SPACES = {ord(ch): " " for ch in BERT_SPACE.chars()}
_CHINESE = re.compile(f"([{BERT_CHINESE.regex_body()}])")
_NONSPACING = code_point_mask(NONSPACING_MARK.chars())
_COMBINING = code_point_mask(COMBINING_MARK.chars())


def _without(text: str, drop: NDArray[np.bool_]) -> str:
    codes = _codes(text)
    dropped = drop[codes]
    return _text(codes[~dropped]) if dropped.any() else text


def bert_normalize(text: str, clean_text: bool, handle_chinese_chars: bool, strip_accents: bool,
                   lowercase: Callable[[str], str] | None) -> str:
    """BertNormalizer, in its order: drop controls and make spaces, space out CJK, strip accents
    (NFD, then drop non-spacing marks), lowercase."""
    if clean_text:
        text = _without(text, _REMOVED).translate(_SPACES)
    if handle_chinese_chars:
        text = _CHINESE.sub(r" \1 ", text)
    if strip_accents:
        text = _without(normalize("NFD", text), _NONSPACING)
    return lowercase(text) if lowercase is not None else text


def strip_accents(text: str) -> str:
    """StripAccents: every combining mark dropped (no decomposition first)."""
    return _without(text, _COMBINING)
