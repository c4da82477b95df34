"""The GPT-2 byte alphabet: one printable character for each of the 256 byte values.

Byte-level tokens are kept as strings in this alphabet (space is ``Ġ``, newline ``Ċ``), the
spelling `tokenizers` and GPT-2's files use, so one code path serves chars and bytes.
"""


def _byte_alphabet() -> list[str]:
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars = {}
    extra = 0
    for b in range(256):
        if b in printable:
            chars[b] = chr(b)
        else:
            # bytes with no printable look of their own borrow code points past Latin-1
            chars[b] = chr(256 + extra)
            extra += 1
    return [chars[b] for b in range(256)]


BYTE_TO_CHAR: list[str] = _byte_alphabet()
CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
# GPT-2's own order for the 256 base tokens: sorted by their code point in the alphabet
BASE_ORDER: list[str] = sorted(BYTE_TO_CHAR)


def bytes_to_symbols(data: bytes) -> str:
    """b"hi there" -> "hiĠthere"."""
    return "".join([BYTE_TO_CHAR[b] for b in data])


def symbols_to_bytes(text: str) -> bytes:
    """The inverse of bytes_to_symbols; raises KeyError on a character outside the alphabet."""
    return bytes([CHAR_TO_BYTE[c] for c in text])

