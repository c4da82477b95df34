"""The normalizers and pre-tokenizers of a tokenizer.json, each read from its node and run as `tokenizers` runs it.

A pre-tokenizer cuts each piece of text further; a piece is ``(start, end, text)``: where it lies
in the normalized text, and its text as the next step sees it (Metaspace and ByteLevel respell it).
Each cut follows the library's ``split``: the pattern gives matches and the stretches between,
and the behaviour says what becomes of the matches (removed, isolated, merged with the piece
before or after, contiguous ones kept as one); empty pieces are dropped. The characters each
step asks about (white space, punctuation, digits, ``\\w``) and every normalization are the
library's own (``engine.algorithm.unicode_hf``), on every code point.

Read: normalizers NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, BertNormalizer, Strip, ByteLevel,
Prepend, Replace of a plain string, and Sequences of them; pre-tokenizers Whitespace, WhitespaceSplit,
BertPreTokenizer, Punctuation, Digits, CharDelimiterSplit, Metaspace, ByteLevel, UnicodeScripts,
Split with a plain string or the GPT-2, cl100k or Llama 3 pattern, and Sequences of them. Anything else is refused by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Protocol, Sequence

import numpy as np
from numpy.typing import NDArray

from engine.algorithm.bytelevel import bytes_to_symbols
from engine.algorithm.pretokenize import GPT2_PATTERN, GPT4_PATTERN, SplitPattern, lowercase
from engine.algorithm.unicode_hf import (NUMERIC, PUNCTUATION, WORD, bert_normalize, code_point_mask,
                                         normalize, script_numbers, strip_accents)
from engine.algorithm.unicode_table import WHITE_SPACE
from engine.formats.schema import SchemaError

Piece = tuple[int, int, str]
# (start, end, whether it is a match) covering a piece's text, as the library's find_matches gives
Segments = list[tuple[int, int, bool]]
BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")
# the library's Split regex for these patterns is the one BPE Lab matches exactly (Oniguruma reads
# cl100k's "{1,3}+" as "{1,3}", which is what BPE Lab's export writes)
# Llama 3's pattern, written into many tokenizer.json files
LLAMA3_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
                  r"""|\s*[\r\n]+|\s+(?!\S)|\s+""")
# cl100k's pattern as published, where Oniguruma reads "{1,3}+" as "({1,3})+": any run of digits
_GPT4_AS_ONIGURUMA = GPT4_PATTERN.replace(r"\p{N}{1,3}+", r"\p{N}+")
_KNOWN_REGEX = {GPT2_PATTERN: GPT2_PATTERN, GPT4_PATTERN.replace(r"\p{N}{1,3}+", r"\p{N}{1,3}"): GPT4_PATTERN,
                GPT4_PATTERN: _GPT4_AS_ONIGURUMA, LLAMA3_PATTERN: LLAMA3_PATTERN}


class PreTokenizer(Protocol):
    def __call__(self, pieces: list[Piece], at_start: bool) -> list[Piece]: ...


@lru_cache(maxsize=None)
def _mask(name: str) -> NDArray[np.bool_]:
    klass = {"space": WHITE_SPACE, "punctuation": PUNCTUATION, "numeric": NUMERIC, "word": WORD}[name]
    return code_point_mask(klass.chars())


def _codes(text: str) -> NDArray[np.uint32]:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def char_matches(text: str, flags: NDArray[np.bool_]) -> Segments:
    """Each character whose flag is set is a match of its own (a run of them is several)."""
    if not text:
        return [(0, 0, False)]
    segments: Segments = []
    last = 0
    for p in np.flatnonzero(flags[_codes(text)]).tolist():
        if last < p:
            segments.append((last, p, False))
        segments.append((p, p + 1, True))
        last = p + 1
    if last < len(text):
        segments.append((last, len(text), False))
    return segments


def span_matches(text: str, spans: Iterator[tuple[int, int]]) -> Segments:
    if not text:
        return [(0, 0, False)]
    segments: Segments = []
    last = 0
    for s, e in spans:
        if s == e:
            continue
        if last != s:
            segments.append((last, s, False))
        segments.append((s, e, True))
        last = e
    if last != len(text):
        segments.append((last, len(text), False))
    return segments


def behave(segments: Segments, behavior: str) -> list[tuple[int, int]]:
    """What a split keeps of the segments, as the library's NormalizedString::split decides."""
    if behavior == "Isolated":
        return [(s, e) for s, e, _ in segments]
    if behavior == "Removed":
        return [(s, e) for s, e, match in segments if not match]
    out: list[tuple[int, int]] = []
    previous = False
    if behavior == "Contiguous":
        for s, e, match in segments:
            if match == previous and out:
                out[-1] = (out[-1][0], e)
            else:
                out.append((s, e))
            previous = match
    elif behavior == "MergedWithPrevious":
        for s, e, match in segments:
            if match and not previous and out:
                out[-1] = (out[-1][0], e)
            else:
                out.append((s, e))
            previous = match
    else:
        for s, e, match in reversed(segments):
            if match and not previous and out:
                out[-1] = (s, out[-1][1])
            else:
                out.append((s, e))
            previous = match
        out.reverse()
    return out


def _cut(pieces: list[Piece], find: Callable[[str], Segments], behavior: str) -> list[Piece]:
    out: list[Piece] = []
    for start, end, text in pieces:
        # a respelt piece (a prefix put before it) no longer lines up with the text: its parts span all of it
        aligned = len(text) == end - start
        for s, e in behave(find(text), behavior):
            if e > s:
                out.append((start + s, start + e, text[s:e]) if aligned else (start, end, text[s:e]))
    return out


@dataclass(frozen=True)
class CharSplit:
    """A split at each character of a class (or one character), with a behaviour."""

    klass: str
    behavior: str
    char: str = ""

    def __call__(self, pieces: list[Piece], at_start: bool) -> list[Piece]:
        if self.char:
            return _cut(pieces, lambda t: span_matches(t, (m.span() for m in re.finditer(re.escape(self.char), t))),
                        self.behavior)
        flags = _mask(self.klass)
        return _cut(pieces, lambda t: char_matches(t, flags), self.behavior)


@dataclass(frozen=True)
class ClassRuns:
    """The Whitespace pre-tokenizer, ``\\w+|[^\\w\\s]+`` with the rest removed: the runs of word
    characters and the runs of characters that are neither word nor space."""

    def __call__(self, pieces: list[Piece], at_start: bool) -> list[Piece]:
        word, space = _mask("word"), _mask("space")

        def find(text: str) -> Segments:
            if not text:
                return [(0, 0, False)]
            codes = _codes(text)
            kind = np.where(word[codes], 1, np.where(space[codes], 0, 2)).astype(np.int8)
            edges = [0, *(np.flatnonzero(np.diff(kind)) + 1).tolist(), len(text)]
            # the pattern inverted: the runs of space are what the split removes
            return [(s, e, not kind[s]) for s, e in zip(edges, edges[1:])]

        return _cut(pieces, find, "Removed")


@dataclass(frozen=True)
class ScriptRuns:
    """UnicodeScripts: a cut wherever a character's script differs from the last script before it
    (characters it passes over, the space and unassigned ones, neither cut nor count); what comes
    before the first cut is dropped, as the library drops it."""

    def __call__(self, pieces: list[Piece], at_start: bool) -> list[Piece]:
        numbers = script_numbers()
        out: list[Piece] = []
        for start, end, text in pieces:
            script = numbers[_codes(text)].astype(np.int32)
            known = script != 0
            # for each character, the index of the last counted character before it (or -1)
            last = np.maximum.accumulate(np.where(known, np.arange(len(text)), -1))
            before = np.concatenate(([-1], last[:-1]))
            previous = np.where(before >= 0, script[np.maximum(before, 0)], -1)
            bounds = [*np.flatnonzero(known & (script != previous)).tolist(), len(text)]
            aligned = len(text) == end - start
            for s, e in zip(bounds, bounds[1:]):
                out.append((start + s, start + e, text[s:e]) if aligned else (start, end, text[s:e]))
        return out


@dataclass(frozen=True)
class PatternSplit:
    """Split with a plain string or a known regex, its matches kept by the behaviour, or inverted."""

    behavior: str
    invert: bool
    string: str | None = None
    regex: str | None = None

    def __call__(self, pieces: list[Piece], at_start: bool) -> list[Piece]:
        def find(text: str) -> Segments:
            if self.string is not None:
                if not self.string:
                    segments = [(0, len(text), False)]
                else:
                    segments = span_matches(text, (m.span() for m in re.finditer(re.escape(self.string), text)))
            else:
                assert self.regex is not None
                segments = span_matches(text, _split_pattern(self.regex).spans(text))
            return [(s, e, m != self.invert) for s, e, m in segments] if self.invert else segments

        return _cut(pieces, find, self.behavior)


@lru_cache(maxsize=None)
def _split_pattern(pattern: str) -> SplitPattern:
    return SplitPattern(pattern)


@dataclass(frozen=True)
class Metaspace:
    """Each space spelt as the replacement, one put before a piece (always, or only before the text's
    first), and cut before each replacement where ``split``."""

    replacement: str
    prepend: str
    split: bool

    def __call__(self, pieces: list[Piece], at_start: bool) -> list[Piece]:
        out: list[Piece] = []
        for start, end, text in pieces:
            text = text.replace(" ", self.replacement)
            first = at_start and start == 0
            if not text.startswith(self.replacement) and (self.prepend == "always" or
                                                          (self.prepend == "first" and first)):
                text = self.replacement + text
            out.append((start, end, text))
        if not self.split:
            return [p for p in out if p[2]]
        return _cut(out, lambda t: span_matches(t, ((i, i + 1) for i, ch in enumerate(t) if ch == self.replacement)),
                    "MergedWithNext")


@dataclass(frozen=True)
class ByteLevel:
    """A space before each piece that lacks one (add_prefix_space), the GPT-2 pattern's pieces
    (use_regex), then each piece's UTF-8 bytes spelt in the GPT-2 byte alphabet."""

    add_prefix_space: bool
    use_regex: bool

    def __call__(self, pieces: list[Piece], at_start: bool) -> list[Piece]:
        spaced = [(s, e, " " + t if self.add_prefix_space and not t.startswith(" ") else t) for s, e, t in pieces]
        if self.use_regex:
            spaced = _cut(spaced, lambda t: span_matches(t, _split_pattern(GPT2_PATTERN).spans(t)), "Isolated")
        return [(s, e, bytes_to_symbols(t.encode("utf-8"))) for s, e, t in spaced if t]


def run_pre_tokenizers(steps: Sequence[PreTokenizer], text: str, at_start: bool) -> list[Piece]:
    pieces: list[Piece] = [(0, len(text), text)] if text else []
    for step in steps:
        pieces = step(pieces, at_start)
    return pieces


# -- reading the nodes ----------------------------------------------------------------------------

_LIST = ("it reads Whitespace, WhitespaceSplit, BertPreTokenizer, Punctuation, Digits, CharDelimiterSplit, "
         "Metaspace, ByteLevel, UnicodeScripts, Split with a plain string or the GPT-2, cl100k or Llama 3 pattern, and Sequences of them")


def pre_tokenizer_steps(node: Any, source: str) -> list[PreTokenizer]:
    """The steps of a pre_tokenizer node (already checked to be null or objects with a type)."""
    if node is None:
        return []

    def refuse(what: str) -> SchemaError:
        return SchemaError(f"{source}: pre_tokenizer {what} is not one BPE Lab reproduces ({_LIST})")

    kind = node["type"]

    def behavior(default: str) -> str:
        value = node.get("behavior", default)
        if value not in BEHAVIORS:
            raise refuse(f"{kind} with behavior {str(value)[:30]}")
        return str(value)

    if kind == "Sequence":
        return [step for inner in node.get("pretokenizers") or [] for step in pre_tokenizer_steps(inner, source)]
    if kind == "Whitespace":
        return [ClassRuns()]
    if kind == "WhitespaceSplit":
        return [CharSplit("space", "Removed")]
    if kind == "BertPreTokenizer":
        return [CharSplit("space", "Removed"), CharSplit("punctuation", "Isolated")]
    if kind == "Punctuation":
        return [CharSplit("punctuation", behavior("Isolated"))]
    if kind == "Digits":
        return [CharSplit("numeric", "Isolated" if node.get("individual_digits") is True else "Contiguous")]
    if kind == "CharDelimiterSplit":
        delimiter = node.get("delimiter")
        if not isinstance(delimiter, str) or len(delimiter) != 1:
            raise refuse("CharDelimiterSplit without a one-character delimiter")
        return [CharSplit("", "Removed", char=delimiter)]
    if kind == "Split":
        pattern, invert = node.get("pattern"), node.get("invert", False)
        if not isinstance(pattern, dict) or len(pattern) != 1 or not isinstance(invert, bool):
            raise refuse("Split without one String or Regex pattern")
        if isinstance(pattern.get("String"), str):
            return [PatternSplit(behavior("Removed"), invert, string=pattern["String"])]
        if pattern.get("Regex") in _KNOWN_REGEX:
            return [PatternSplit(behavior("Removed"), invert, regex=_KNOWN_REGEX[pattern["Regex"]])]
        raise refuse("Split with a regex other than the GPT-2, cl100k or Llama 3 pattern")
    if kind == "Metaspace":
        return [metaspace_step(node, source)]
    if kind == "UnicodeScripts":
        return [ScriptRuns()]
    if kind == "ByteLevel":
        prefix, use_regex = node.get("add_prefix_space", True), node.get("use_regex", True)
        if not isinstance(prefix, bool) or not isinstance(use_regex, bool):
            raise refuse("ByteLevel whose add_prefix_space or use_regex is not true or false")
        return [ByteLevel(prefix, use_regex)]
    raise refuse(str(kind)[:40])


def metaspace_step(node: dict[str, Any], source: str) -> Metaspace:
    replacement = node.get("replacement")
    if not isinstance(replacement, str) or len(replacement) != 1:
        raise SchemaError(f"{source}: pre_tokenizer Metaspace needs a one-character replacement")
    # a missing prepend_scheme is "always"; the older add_prefix_space false must come with "never",
    # else the library refuses the file
    scheme = node.get("prepend_scheme", "always")
    if node.get("add_prefix_space") is False and scheme != "never":
        raise SchemaError(f"{source}: pre_tokenizer Metaspace has add_prefix_space false with prepend_scheme "
                          f"{str(scheme)[:20]}, which the library refuses to load")
    split = node.get("split", True)
    if scheme not in ("always", "first", "never") or not isinstance(split, bool):
        raise SchemaError(f"{source}: pre_tokenizer Metaspace has prepend_scheme {str(scheme)[:20]} or split "
                          f"{str(split)[:20]}, which the library does not read")
    return Metaspace(replacement, str(scheme), split)


def normalizer_steps(node: Any, source: str) -> list[Callable[[str], str]]:
    if node is None:
        return []
    kind = node["type"]
    if kind == "Sequence":
        return [step for inner in node.get("normalizers") or [] for step in normalizer_steps(inner, source)]
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        form = str(kind)
        return [lambda text: normalize(form, text)]
    if kind == "Lowercase":
        return [lowercase]
    if kind == "StripAccents":
        return [strip_accents]
    if kind == "BertNormalizer":
        flags = {key: node.get(key, default) for key, default in
                 (("clean_text", True), ("handle_chinese_chars", True), ("lowercase", True))}
        strip = node.get("strip_accents")
        if not all(isinstance(v, bool) for v in flags.values()) or strip not in (None, True, False):
            raise SchemaError(f"{source}: normalizer BertNormalizer has a flag that is not true or false")
        lower = flags["lowercase"]
        # strip_accents left unset follows lowercase, as in the library
        strip_flag = lower if strip is None else bool(strip)
        return [lambda text: bert_normalize(text, flags["clean_text"], flags["handle_chinese_chars"], strip_flag,
                                            lowercase if lower else None)]
    if kind == "Strip" and all(isinstance(node.get(k, True), bool) for k in ("strip_left", "strip_right")):
        spaces = WHITE_SPACE.chars()
        left, right = node.get("strip_left", True), node.get("strip_right", True)
        return [lambda text: text.lstrip(spaces) if left else text, lambda text: text.rstrip(spaces) if right else text]
    if kind == "ByteLevel":
        return [lambda text: bytes_to_symbols(text.encode("utf-8"))]
    if kind == "Prepend" and isinstance(node.get("prepend"), str):
        prefix = node["prepend"]
        return [lambda text: prefix + text if text else text]
    if kind == "Replace" and isinstance(node.get("pattern"), dict) and isinstance(node["pattern"].get("String"), str) \
            and isinstance(node.get("content"), str):
        old, new = node["pattern"]["String"], node["content"]
        return [lambda text: text.replace(old, new) if old else text]
    raise SchemaError(
        f"{source}: normalizer {str(kind)[:40]} is not one BPE Lab reproduces (it reads NFC, NFD, NFKC, NFKD, "
        "Lowercase, StripAccents, BertNormalizer, Strip, ByteLevel, Prepend, Replace of a plain string, and "
        "Sequences of them)"
    )
