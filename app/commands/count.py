"""``bpe-lab count CORPUS... --out counts.tsv``: the words of texts and their counts, for ``train --word-counts``.

Counting is the part of training that spreads: each file streams a part at a time, on every core
when large, and the counts of several files add up. The file written holds one word per line,
``word<TAB>count``, in order of first appearance (the order the "first" tie rule reads the
corpus in), which ``train --word-counts`` reads back as the very corpus ``train`` would count.
"""

from __future__ import annotations

import sys
from collections import Counter

from app.cli import keep_until_exit
from app.commands.common import positive, read_corpus_text, utf8_text
from engine.errors import BpeLabError
from engine.algorithm.settings import Settings


def add_parser(sub) -> None:
    p = sub.add_parser("count", help="count the words of texts into a word<TAB>count file for train --word-counts")
    p.add_argument("corpus", nargs="+", metavar="CORPUS", help="UTF-8 text files, or - for standard input")
    p.add_argument("--out", required=True, metavar="COUNTS.tsv", help="where to write the counts (- for standard output)")
    p.add_argument("--split", choices=("whitespace",), default="whitespace",
                   help="whitespace (a counts file holds one word a line, with no white space in it)")
    p.add_argument("--lowercase", action="store_true")
    p.add_argument("--special", action="append", default=[], metavar="TOKEN", type=utf8_text,
                   help="a special token, left out of the words (repeatable)")
    p.add_argument("--workers", type=positive, metavar="N", help="processes that count a large file (default: every core)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")


def count_corpora(args) -> Counter:
    """Every file's words added up, first appearance across the files in the order given."""
    from engine.algorithm.word_counting import count_file, count_text  # train imports this module for its bar alone

    settings = Settings(split=args.split, lowercase=args.lowercase, special_tokens=tuple(args.special))
    total: Counter[str] = Counter()
    for name in args.corpus:
        bar = CountingBar(name) if args.progress else None
        if name == "-":
            found = count_text(read_corpus_text(name), settings, bar, args.workers)
        else:
            found = count_file(name, settings, bar, args.workers)
        total.update(found)
        if bar:
            bar.close(len(found))
    return total


def counts_text(counter: Counter) -> str:
    return "".join(f"{word}\t{n}\n" for word, n in counter.items())


def run(args) -> int:
    from engine.files.writing import write_atomic  # train imports this module for its bar alone

    counter = count_corpora(args)
    if not counter:
        raise BpeLabError(f"no words in {', '.join(args.corpus)}: give some text")
    text = counts_text(counter)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        write_atomic(args.out, text)
    keep_until_exit(counter, text)
    return 0


class CountingBar:
    """A one-line bar on stderr while a file is counted, redrawn only when the percentage moves."""

    def __init__(self, name: str):
        self.name = name
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        percent = done * 100 // total if total else 100
        if percent != self.shown:
            self.shown = percent
            filled = percent * 30 // 100
            sys.stderr.write(f"\rcounting {self.name} [{'#' * filled}{'.' * (30 - filled)}] {percent}%")
            sys.stderr.flush()

    def close(self, words: int) -> None:
        sys.stderr.write(f"\n{self.name}: {words:,} distinct words\n")
