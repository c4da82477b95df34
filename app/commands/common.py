"""What several subcommands share: argument types, reading the corpus, showing a token."""

from __future__ import annotations

import argparse
import sys

from engine.encoder import Encoder


def non_negative(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n} is negative")
    return n


def positive(value: str) -> int:
    n = non_negative(value)
    if n == 0:
        raise argparse.ArgumentTypeError("it must be at least 1")
    return n


def read_corpus_text(name: str) -> str:
    """A corpus file's text, or standard input for ``-``."""
    from engine.files import decode_utf8, read_text

    if name == "-":
        return decode_utf8(sys.stdin.buffer.read(), "standard input")
    return read_text(name)


def display(tokenizer: Encoder, token: str) -> str:
    """A token as a person reads it (engine.display)."""
    from engine.display import for_tokenizer

    return for_tokenizer(tokenizer).token(token)


