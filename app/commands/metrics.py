"""``bpe-lab metrics --tokenizer FILE|cl100k --file TEXT [--alpha A] [--allow-special] [--json]``."""

from __future__ import annotations

import argparse
import json

from engine.files.reading import read_text
from engine.lesson_io.loading import load_any
from engine.readable.metrics import DEFAULT_ALPHA, Metrics, measure


def alpha_value(value: str) -> float:
    try:
        alpha = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a number") from None
    if not 0 < alpha < 1000:
        raise argparse.ArgumentTypeError(f"{value} is out of range: give an order above 0, such as 2.5 (1 is Shannon's)")
    return alpha


def add_parser(sub) -> None:
    p = sub.add_parser("metrics", help="measure a tokenizer on a text: characters per token, tokens per word, "
                                       "unknowns, Rényi efficiency")
    p.add_argument("--tokenizer", required=True, metavar="TOKENIZER_FILE|cl100k")
    p.add_argument("--file", required=True, metavar="TEXT_FILE", help="the text to measure on (UTF-8)")
    p.add_argument("--alpha", type=alpha_value, default=DEFAULT_ALPHA,
                   help=f"the order of the Rényi efficiency (default {DEFAULT_ALPHA})")
    p.add_argument("--allow-special", action="store_true",
                   help="text that spells a special token becomes that token (by default it is ordinary text)")
    p.add_argument("--json", action="store_true", help="print every count and measure as one JSON object")


def run(args) -> int:
    tokenizer = load_any(args.tokenizer)
    text = read_text(args.file)
    metrics = measure(tokenizer, text, args.alpha, args.allow_special)
    if args.json:
        print(json.dumps(metrics.as_dict()))
    else:
        print("\n".join(metric_lines(metrics)))
    return 0


def metric_lines(m: Metrics) -> list[str]:
    """One line per measure, as a person reads it."""
    rows = [
        ("tokens", f"{m.tokens:,}"),
        ("characters per token", f"{m.characters_per_token:.3f}  ({m.characters:,} characters)"),
        ("bytes per token", f"{m.bytes_per_token:.3f}  ({m.bytes:,} bytes)"),
        ("tokens per word", f"{m.tokens_per_word:.3f}  ({m.words:,} words)"),
        ("words kept in one token", f"{m.whole_share:.1%}  ({m.words_whole:,})"),
        ("words split into pieces", f"{m.split_share:.1%}  ({m.words_split:,})"),
        ("unknown tokens", f"{m.unknown:,}  ({m.unknown_share:.1%} of the tokens)"),
        ("vocabulary used", f"{m.vocab_used:,} of {m.vocab_size:,}  ({m.vocab_used_share:.1%})"),
        (f"Rényi efficiency (α = {m.alpha:g})", f"{m.renyi_efficiency:.4f}"),
        ("Shannon efficiency (α = 1)", f"{m.shannon_efficiency:.4f}"),
    ]
    width = max(len(name) for name, _ in rows)
    return [f"{name:<{width}}  {value}" for name, value in rows]
