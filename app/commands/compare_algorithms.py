"""``bpe-lab compare-algorithms CORPUS --vocab-size V [--held-out FILE] [--alpha A] [--json]``."""

from __future__ import annotations

import json

from app.commands.common import positive, read_corpus_text
from app.commands.metrics import alpha_value
from engine.files.reading import read_text
# the measures shown side by side, as the window shows them
from engine.readable.algorithms import METRIC_ROWS as ROWS
from engine.readable.metrics import DEFAULT_ALPHA


def add_parser(sub) -> None:
    p = sub.add_parser("compare-algorithms",
                       help="train BPE, WordPiece and Unigram on one corpus to one vocabulary size and measure them")
    p.add_argument("corpus", metavar="CORPUS", help="the training text (UTF-8), or - for standard input")
    p.add_argument("--vocab-size", type=positive, required=True, metavar="V",
                   help="the vocabulary size all three are trained to (base symbols, learned and special tokens)")
    p.add_argument("--held-out", metavar="FILE", help="the text to measure on (default: the corpus)")
    p.add_argument("--alpha", type=alpha_value, default=DEFAULT_ALPHA,
                   help=f"the order of the Rényi efficiency (default {DEFAULT_ALPHA})")
    p.add_argument("--json", action="store_true", help="print the measures and the pieces only each has as JSON")


def run(args) -> int:
    from engine.readable.algorithms import HOW_EACH_LEARNS, compare_algorithms

    corpus = read_corpus_text(args.corpus)
    held_out = read_text(args.held_out) if args.held_out else None
    found = compare_algorithms(corpus, args.vocab_size, held_out, args.alpha)
    if args.json:
        print(json.dumps({
            "vocab_size": args.vocab_size,
            "held_out": args.held_out or args.corpus,
            "algorithms": [{"name": t.name, "metrics": t.metrics.as_dict(), "only_here": list(t.only_here),
                            "how_it_learns": HOW_EACH_LEARNS[t.name]} for t in found],
        }, ensure_ascii=False))
        return 0
    names = [t.name for t in found]
    renyi = f"Rényi efficiency (α = {args.alpha:g})"
    label = max(len(renyi), *(len(row[0]) for row in ROWS)) + 2
    width = max(12, *(len(n) for n in names))
    rows = [f"{'':<{label}}" + "".join(f"{n:>{width}}" for n in names)]
    for name, attr, fmt in ROWS:
        if attr == "renyi_efficiency":
            name = renyi
        rows.append(f"{name:<{label}}" + "".join(f"{fmt.format(getattr(t.metrics, attr)):>{width}}" for t in found))
    print("\n".join(rows))
    print(f"\nmeasured on {args.held_out or 'the corpus'}; vocabulary asked for: {args.vocab_size:,}")
    for t in found:
        shown = ", ".join(t.only_here) if t.only_here else "(none)"
        print(f"only {t.name} has: {shown}")
    print()
    for t in found:
        print(HOW_EACH_LEARNS[t.name])
    return 0
