"""What several subcommands share: argument types, reading the corpus, showing a token."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from engine.errors import BpeLabError
from engine.files.reading import MAX_BYTES, decode_utf8, megabytes, read_text
from engine.formats.schema import MAX_COUNT

if TYPE_CHECKING:  # a command that shows no token starts without the tokenizer
    from engine.algorithm.encoder import Encoder


def non_negative(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n} is negative")
    if n > MAX_COUNT:
        # the files BPE Lab writes hold counts up to this; a larger one could not be read back
        raise argparse.ArgumentTypeError(f"{n:,} is too large: at most {MAX_COUNT:,}")
    return n


def positive(value: str) -> int:
    n = non_negative(value)
    if n == 0:
        raise argparse.ArgumentTypeError("it must be at least 1")
    return n


def utf8_text(value: str) -> str:
    """A text argument, which must be UTF-8: Python keeps other bytes as lone surrogates that no
    tokenizer can encode."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        byte = ord(value[exc.start]) - 0xDC00 if 0xDC80 <= ord(value[exc.start]) <= 0xDCFF else None
        shown = f" (byte 0x{byte:02X} at position {exc.start})" if byte is not None else ""
        raise argparse.ArgumentTypeError(
            f"the text is not UTF-8{shown}: set your terminal to UTF-8, or put the text in a UTF-8 file "
            "and give --file"
        ) from None
    return value


def read_corpus_text(name: str) -> str:
    """A corpus file's text, or standard input for ``-`` (under the same size limit as a file)."""
    if name == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise BpeLabError(f"standard input holds more than {megabytes(MAX_BYTES)}, the most BPE Lab reads: "
                              "use a part of it")
        return decode_utf8(data, "standard input")
    return read_text(name)


def display(tokenizer: Encoder, token: str) -> str:
    """A token as a person reads it (engine.readable.display)."""
    from engine.readable.display import for_tokenizer  # a command that shows no token starts without it

    return for_tokenizer(tokenizer).token(token)


