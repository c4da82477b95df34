"""``bpe-lab decode --tokenizer FILE|cl100k ID...``: ids back to text."""

from __future__ import annotations

import sys

from engine.errors import BpeLabError
from engine.lesson_io.loading import load_any


def add_parser(sub) -> None:
    p = sub.add_parser("decode", help="turn token ids back into text")
    p.add_argument("--tokenizer", required=True, metavar="TOKENIZER_FILE|cl100k")
    p.add_argument("ids", nargs="+", metavar="ID")


def run(args) -> int:
    tokenizer = load_any(args.tokenizer)
    ids = []
    for raw in args.ids:
        try:
            ids.append(int(raw))
        except ValueError:
            raise BpeLabError(f"'{raw}' is not a token id: give whole numbers") from None
    sys.stdout.write(tokenizer.decode(ids) + "\n")
    return 0
