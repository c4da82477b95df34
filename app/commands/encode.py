"""``bpe-lab encode --tokenizer FILE|cl100k (TEXT | --file FILE) [--allow-special] [--json] [--trace]``."""

from __future__ import annotations

import json

from app.commands.common import display, utf8_text
from engine.algorithm.encoder import Encoder
from engine.files.reading import read_text
from engine.lesson_io.loading import load_any


def add_parser(sub) -> None:
    p = sub.add_parser("encode", help="split a text into tokens")
    p.add_argument("--tokenizer", required=True, metavar="TOKENIZER_FILE|cl100k")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("text", nargs="?", metavar="TEXT", type=utf8_text)
    source.add_argument("--file", metavar="FILE")
    p.add_argument("--allow-special", action="store_true",
                   help="text that spells a special token becomes that token (by default it is ordinary text)")
    p.add_argument("--json", action="store_true", help='print {"tokens": [...], "ids": [...]}')
    p.add_argument("--trace", action="store_true", help="show each merge that applied to each word")


def run(args) -> int:
    tokenizer = load_any(args.tokenizer)
    text = read_text(args.file) if args.file else args.text
    encoding = tokenizer.encode(text, allow_special=args.allow_special)
    if args.json:
        print(json.dumps({"tokens": list(encoding.tokens), "ids": list(encoding.ids)}, ensure_ascii=False))
    else:
        shown = " | ".join(display(tokenizer, t) for t in encoding.tokens)
        print(f"{shown}   ({len(encoding)} tokens)")
    if args.trace:
        print_trace(tokenizer, text, args.allow_special)
    return 0


def print_trace(tokenizer: Encoder, text: str, allow_special: bool = False) -> None:
    """Each distinct word (and allowed special token) of the encoding, with the merges that built it."""
    def show(tokens) -> str:
        return " | ".join(display(tokenizer, t) for t in tokens)

    for piece, special in dict.fromkeys(tokenizer.pieces(text, allow_special)):
        if special:
            print(f"{piece}: {display(tokenizer, piece)}   (special token {tokenizer.special_ids[piece]}, matched whole)")
            continue
        base, trace = tokenizer.encode_steps(piece)
        print(f"{piece}: {show(base)}")
        for step in trace:
            a, b = (display(tokenizer, t) for t in step.pair)
            print(f"  after {a}+{b}: {show(step.tokens)}")
