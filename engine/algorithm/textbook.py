"""The textbook merge loop: recount every pair each round, merge the best everywhere.

Slow on purpose and short enough to read in class; the tests and the benchmark hold the fast
trainer in ``engine.algorithm.trainer`` to exactly these merges.

>>> corpus = Corpus.from_word_counts("low 5\\nlower 2\\nnewest 6\\nwidest 3", Settings(merges=3))
>>> [pair for pair, count, tied in textbook_merges(corpus)]
[('e', 's'), ('es', 't'), ('est', '</w>')]
"""

from __future__ import annotations

from typing import Iterator

from engine.algorithm.corpus import Corpus
from engine.algorithm.ranking import ReadingOrder, rule_named, ties
from engine.algorithm.settings import Settings  # noqa: F401  (used by the doctest)
from engine.algorithm.trainer import check_vocab_target, extra_ids


def get_stats(words: list[list[str]], counts: tuple[int, ...]) -> dict[tuple[str, str], int]:
    """Pair -> weighted count, in the order the pairs are met reading the words."""
    stats: dict[tuple[str, str], int] = {}
    for symbols, count in zip(words, counts):
        for pair in zip(symbols, symbols[1:]):
            stats[pair] = stats.get(pair, 0) + count
    return stats


def merge(symbols: list[str], pair: tuple[str, str]) -> list[str]:
    """Replace every non-overlapping occurrence of pair, left to right: merge(list("aaa"), ("a", "a")) == ["aa", "a"]."""
    out = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == pair[0] and symbols[i + 1] == pair[1]:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def textbook_merges(corpus: Corpus) -> Iterator[tuple[tuple[str, str], int, list[tuple[str, str]]]]:
    """Yield (pair, count, tied pairs in tie-rule order) per merge, exactly as the settings ask."""
    settings = corpus.settings
    words = [corpus.symbols(i) for i in range(len(corpus))]
    vocab = corpus.base_vocab()
    ids = {t: i for i, t in enumerate(vocab)}
    check_vocab_target(settings, len(vocab))
    rule = rule_named(settings.tie_break)
    done = 0
    while True:
        # the merges asked for, or the vocabulary size: rebuilding a token already there does not grow it
        if settings.merges is not None and done >= settings.merges:
            return
        if settings.vocab_size is not None and len(vocab) + extra_ids(settings) >= settings.vocab_size:
            return
        stats = get_stats(words, corpus.counts)
        if not stats:
            return
        best_count = max(stats.values())
        if best_count < settings.min_frequency:
            return
        tied = ties(stats, rule, ReadingOrder(stats, ids.__getitem__, settings.units), best_count)
        best = tied[0]
        token = best[0] + best[1]
        if token not in ids:
            ids[token] = len(vocab)
            vocab.append(token)
        words = [merge(symbols, best) for symbols in words]
        done += 1
        yield best, best_count, tied
