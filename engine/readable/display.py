"""How a token reads to a person: the one answer the views, the CLI, the CSV and the handout use.

Inside the engine a byte-level token is kept in the GPT-2 byte alphabet (``Ġ`` for a space, see
``engine.algorithm.bytelevel``), a chars-level token as its text, the end-of-word marker as its own string.
People read every one of them through ``Display``:

    >>> from engine.algorithm.bytelevel import bytes_to_symbols
    >>> shown = Display(units="bytes")
    >>> tokens = [bytes_to_symbols(b" caf\\xc3"), bytes_to_symbols(b"\\xa9\\n")]  # " café\\n", é cut in two
    >>> tokens
    ['ĠcafÃ', '©Ċ']
    >>> [shown.token(t) for t in tokens], [shown.kind(t) for t in tokens]
    (['␣caf<C3>', '<A9>↵'], ['partial', 'partial'])

- Whole characters read as text; only the bytes of a character cut across tokens show as hex.
- Whitespace is visible: space ␣, tab ⇥, newline ↵, carriage return ⇤, no-break space ⍽. Every
  other character that draws nothing (C0 and C1 controls, DEL, zero-width and bidi controls,
  other spaces) shows as its code point, ``<U+200B>``. Each glyph is in ``GLYPHS``, and a test
  checks the fonts the app installs draw all of them (no ␊: no installed font has U+240A).
- The end-of-word marker, special tokens and the unknown token read as themselves.

``kind`` names what a token is, so each view can give each kind its one colour. Colours, fonts
and layout are left to the views (widgets/token_palette.py holds the palette).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable

from engine.algorithm.bytelevel import symbols_to_bytes
from engine.algorithm.settings import UNKNOWN as UNKNOWN_TOKEN, Settings

if TYPE_CHECKING:  # for the annotation only: showing a lesson's tokens loads none of the tokenizer's modules
    from engine.algorithm.encoder import Encoder

WHITESPACE_GLYPHS = {" ": "␣", "\t": "⇥", "\n": "↵", "\r": "⇤", "\u00a0": "⍽"}
HEX_DIGITS = "0123456789ABCDEF"
# every character this module writes that is not the token's own text
GLYPHS: frozenset[str] = frozenset("".join(WHITESPACE_GLYPHS.values()) + "<>U+" + HEX_DIGITS)

# the kinds of token; a view picks one colour for each
TOKEN = "token"
MARKER = "marker"  # the end-of-word marker on its own
WORD_END = "word end"  # a token that ends with the marker
SPECIAL = "special"
UNKNOWN = "unknown"
WHITESPACE = "whitespace"  # only whitespace or other characters that draw nothing
PARTIAL = "partial"  # holds bytes of a character cut across tokens
KINDS = (TOKEN, MARKER, WORD_END, SPECIAL, UNKNOWN, WHITESPACE, PARTIAL)

# the categories of characters that draw nothing: controls, format (zero-width, bidi), separators
_INVISIBLE = {"Cc", "Cf", "Zs", "Zl", "Zp"}


def _char(c: str) -> str:
    glyph = WHITESPACE_GLYPHS.get(c)
    if glyph is not None:
        return glyph
    if unicodedata.category(c) in _INVISIBLE:
        return f"<U+{ord(c):04X}>"
    return c


def _draws_nothing(c: str) -> bool:
    return c in WHITESPACE_GLYPHS or unicodedata.category(c) in _INVISIBLE


def show_text(text: str) -> str:
    """Text with its whitespace and invisible characters made visible: "a b\\t\\u200b" -> "a␣b⇥<U+200B>"."""
    # str.isprintable() is False exactly for the "Other" and "Separator" categories but the ASCII
    # space: most tokens need no glyph at all, and this answers that in one C call
    if text.isprintable() and " " not in text:
        return text
    return "".join(_char(c) for c in text)


def show_bytes(data: bytes) -> str:
    """UTF-8 bytes as text; a byte of a character cut off at either end as hex: b"\\xa9 x" -> "<A9>␣x"."""
    # surrogateescape keeps each undecodable byte apart, as one code point U+DC80..U+DCFF
    text = data.decode("utf-8", errors="surrogateescape")
    return "".join(f"<{ord(c) - 0xDC00:02X}>" if 0xDC80 <= ord(c) <= 0xDCFF else _char(c) for c in text)


def _is_cut(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


@dataclass(frozen=True)
class Display:
    """What reading a token depends on: the lesson's units and marker, its special and unknown tokens."""

    units: str = "chars"
    marker: str | None = None
    specials: frozenset[str] = frozenset()
    unknown: str | None = None
    # what each token read as, once worked out: views ask for the same few thousand on every paint
    _shown: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def token(self, token: str) -> str:
        """A token as a person reads it."""
        shown = self._shown.get(token)
        if shown is None:
            shown = self._shown[token] = self._read(token)
        return shown

    def _read(self, token: str) -> str:
        if token == self.unknown or token in self.specials:
            return token
        data = self._bytes(token)
        if data is None:
            return show_text(token)
        return show_bytes(data)

    def pair(self, pair: tuple[str, str]) -> str:
        return f"{self.token(pair[0])} + {self.token(pair[1])}"

    def tokens(self, tokens: Iterable[str], between: str = " | ") -> str:
        return between.join(self.token(t) for t in tokens)

    def kind(self, token: str) -> str:
        """What a token is, for its colour: one of ``KINDS``."""
        if token == self.unknown:
            return UNKNOWN
        if token in self.specials:
            return SPECIAL
        if self.marker is not None and token == self.marker:
            return MARKER
        data = self._bytes(token)
        if data is not None and _is_cut(data):
            return PARTIAL
        text = token if data is None else data.decode("utf-8")
        if text and all(_draws_nothing(c) for c in text):
            return WHITESPACE
        if self.marker is not None and token.endswith(self.marker):
            return WORD_END
        return TOKEN

    def _bytes(self, token: str) -> bytes | None:
        """A byte-level token's bytes, or None for chars units (and text outside the byte alphabet)."""
        if self.units != "bytes":
            return None
        try:
            return symbols_to_bytes(token)
        except KeyError:  # not spelt in the byte alphabet: a name such as <unk> from an imported file
            return None


@lru_cache(maxsize=64)
def for_settings(settings: Settings) -> Display:
    """The display of a lesson's settings: its marker and special tokens, and <unk> for chars units."""
    unknown = UNKNOWN_TOKEN if settings.units == "chars" else None
    return Display(settings.units, settings.marker, frozenset(settings.special_tokens), unknown)


def for_tokenizer(tokenizer: Encoder) -> Display:
    """The display of a tokenizer, with the spelling of its own unknown token."""
    unknown_id = tokenizer.unknown_id
    unknown = tokenizer.id_to_token(unknown_id) if unknown_id is not None else None
    settings = tokenizer.settings
    return Display(settings.units, settings.marker, frozenset(tokenizer.special_ids), unknown)


def show(settings: Settings, token: str) -> str:
    """``token`` as the lesson with these settings shows it."""
    return for_settings(settings).token(token)
