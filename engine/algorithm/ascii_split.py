"""The cl100k and GPT-2 splits of ASCII text through Python's ``re``, and where a mixed text may be cut
for cl100k's.

``re`` runs the cl100k pattern over ASCII text about twice as fast as ``regex`` does (GPT-2's about
four times), but it has no
``\\p{L}`` or ``\\p{N}``; over ASCII the table's letters, numbers and white space are small classes
that ``re`` matches directly. A text with other characters is cut into stretches at places where
the pattern always ends a piece, so that each stretch splits on its own into exactly the pieces the
whole text has; the ASCII stretches take ``re`` and the others ``regex``.

Where a cut is safe (cl100k's pattern only): right after a line feed whose following run of white
space holds no line break and ends in a character that is not white space. The piece holding that
line feed ends there, whatever it began as (``\\s*[\\r\\n]`` backs off to the last line break of the
run, ``[\\r\\n]*`` stops at the run, and ``\\s++$`` fails because the run does not reach the end); the
pattern has no look-behind, so what follows splits alone as it did in the whole; and the pieces
before cannot see past the line feed without holding it.
"""

from __future__ import annotations

import re
from typing import Iterator

from engine.algorithm.unicode_table import LETTER, NUMBER, WHITE_SPACE, CharClass


def _ascii_body(table: CharClass) -> str:
    """The ASCII characters of a table class, as the inside of an ``re`` character class."""
    return re.escape("".join(chr(c) for c in range(128) if chr(c) in table))


_L, _N, _S = _ascii_body(LETTER), _ascii_body(NUMBER), _ascii_body(WHITE_SPACE)
# cl100k's pattern over ASCII, behind four shortcuts for the commonest pieces (a quarter quicker split
# of real text: re tries the published alternatives one after another, and a run of spaces makes
# several of them scan it). Each shortcut matches only where the published pattern's first
# alternative to match gives the same piece, so the pieces are the published ones:
# - a space, then letters (2nd alternative), or then other characters and line breaks (4th: the
#   2nd needs a letter after the space), or then more spaces up to one before a character that is
#   not white space (7th: the 5th needs the run to end the text, the 6th a line break in it);
# - letters (2nd, with no character before them);
# - a character that is none of these nor an apostrophe, then letters (2nd) or other such characters
#   and line breaks (4th);
# - a line feed before spaces and a character that is not white space (6th, backing off to the line
#   feed; the 5th needs the run to end the text).
GPT4_ASCII = re.compile(
    rf""" (?:[{_L}]+|[^{_S}{_L}{_N}]+[\r\n]*| *(?= [^{_S}]))|[{_L}][{_L}]*"""
    rf"""|[^'{_S}{_L}{_N}](?:[{_L}]+|[^{_S}{_L}{_N}]*[\r\n]*)|\n(?= *[^{_S}])"""
    rf"""|'(?i:[sdmt]|ll|ve|re)|[^\r\n{_L}{_N}]?+[{_L}]++|[{_N}]{{1,3}}+| ?[^{_S}{_L}{_N}]++[\r\n]*+"""
    rf"""|[{_S}]++$|[{_S}]*[\r\n]|[{_S}]+(?![^{_S}])|[{_S}]"""
)
# GPT-2's pattern as published, over ASCII
GPT2_ASCII = re.compile(
    rf"""'s|'t|'re|'ve|'m|'ll|'d| ?[{_L}]+| ?[{_N}]+| ?[^{_S}{_L}{_N}]+|[{_S}]+(?![^{_S}])|[{_S}]+"""
)

_ALL_SPACE = WHITE_SPACE.regex_body()
# white space other than a line break: what may sit between a safe cut and the next piece
_INNER_SPACE = re.escape("".join(ch for ch in WHITE_SPACE.chars() if ch not in "\r\n"))
_SAFE_CUT = re.compile(rf"\n(?=[{_INNER_SPACE}]*[^{_ALL_SPACE}])")
_SAFE_AFTER = re.compile(rf"[{_INNER_SPACE}]*[^{_ALL_SPACE}]")
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def _is_safe_cut(text: str, i: int) -> bool:
    return text[i - 1] == "\n" and _SAFE_AFTER.match(text, i) is not None


def ascii_stretches(text: str) -> Iterator[tuple[int, int, bool]]:
    """(start, end, all ASCII) stretches covering the text, cut only where a piece always ends.

    A stretch with other characters reaches from the safe cut before its first such character to
    the first safe cut after its last.
    """
    pos = 0
    n = len(text)
    while pos < n:
        found = _NOT_ASCII.search(text, pos)
        if found is None:
            yield pos, n, True
            return
        start = _cut_before(text, pos, found.start())
        if start > pos:
            yield pos, start, True
        end = _cut_after(text, found.start())
        yield start, end, False
        pos = end


def _cut_before(text: str, low: int, i: int) -> int:
    """The last safe cut at or before ``i`` and after ``low``, else ``low``."""
    cut = text.rfind("\n", low, i) + 1
    while cut > low and not _is_safe_cut(text, cut):
        cut = text.rfind("\n", low, cut - 1) + 1
    return max(cut, low)


def _cut_after(text: str, i: int) -> int:
    """The first safe cut after the characters from ``i`` on that are not ASCII run out."""
    while True:
        cut = _SAFE_CUT.search(text, i)
        if cut is None:
            return len(text)
        end = cut.end()
        # keep going while the next line has more of them: fewer, longer stretches
        more = _NOT_ASCII.search(text, end, text.find("\n", end) + 1 or len(text))
        if more is None:
            return end
        i = more.start()
