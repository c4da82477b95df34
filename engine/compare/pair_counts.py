"""The pair counts of the textbook loop, kept up to date word by word rather than recounted each round.

A round of the textbook loop recounts every pair of every word and merges inside every word; a
compare re-trains a dozen such loops, and follows the other list on its own corpus, so here only
the words that hold the merged pair are merged and recounted. The counts are the loop's own:
``get_stats`` of the words, weighted as asked. Only the order of meeting the pairs is not kept:
where pairs tie, their first places are found by reading the words again, up to the last of them.

>>> counts = PairCounts([list("aaab"), list("ab")], (2, 1), "chars")
>>> counts.counts[("a", "a")], counts.counts[("a", "b")]
(4, 3)
>>> counts.merge(("a", "b"), merge)
>>> counts.words, counts.counts
([['a', 'a', 'ab'], ['ab']], {('a', 'a'): 2, ('a', 'ab'): 2})
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from engine.algorithm.ranking import ReadingOrder, TieRule, ties
from engine.algorithm.textbook import merge  # noqa: F401  (used by the doctest)

Pair = tuple[str, str]
Merge = Callable[[list[str], Pair], list[str]]


def pairs_in(symbols: Sequence[str]) -> dict[Pair, int]:
    """Each pair of neighbours in one word and how often it occurs there (``a a a`` holds ``a a`` twice)."""
    found: dict[Pair, int] = {}
    for pair in zip(symbols, symbols[1:]):
        found[pair] = found.get(pair, 0) + 1
    return found


class _FirstPlaces(ReadingOrder):
    """Where pairs are first met reading the words in order, each left to right (``ranking.Facts``).

    A ``ReadingOrder`` finds places from the order a fresh count met its pairs, which counts kept
    up to date do not keep; every other fact a tie rule reads comes from it unchanged."""

    def __init__(self, counts: Mapping[Pair, int], words: Sequence[Sequence[str]], token_id: Callable[[str], int],
                 units: str):
        super().__init__(counts, token_id, units)
        self._words = words

    def places(self, pairs: Collection[Pair], enough: int | None = None) -> Mapping[Pair, int]:
        wanted = set(pairs)
        found: dict[Pair, int] = {}
        place = 0
        for symbols in self._words:
            for pair in zip(symbols, symbols[1:]):
                if pair in wanted and pair not in found:
                    found[pair] = place
                    if len(found) == len(wanted) or (enough is not None and len(found) >= enough):
                        return found
                place += 1
            place += 1
        return found


class PairCounts:
    """Every pair's count over the words, each word's pairs weighted by its weight (``units``: the
    corpus's, which say how a rule that reads spelling orders tokens)."""

    def __init__(self, words: list[list[str]], weights: Sequence[int], units: str):
        self.words = words
        self.units = units
        self._weights = weights
        self._pairs: list[dict[Pair, int]] = [pairs_in(w) for w in words]
        self.counts: dict[Pair, int] = {}
        # pair -> the words holding it: a merge looks only there
        self._where: dict[Pair, set[int]] = {}
        for w, found in enumerate(self._pairs):
            self._add(w, found)

    def _add(self, w: int, found: Mapping[Pair, int], sign: int = 1) -> None:
        weight = self._weights[w] * sign
        counts, where = self.counts, self._where
        for pair, n in found.items():
            total = counts.get(pair, 0) + n * weight
            if not total:
                del counts[pair], where[pair]
                continue
            counts[pair] = total
            if sign > 0:
                where.setdefault(pair, set()).add(w)
            else:
                where[pair].discard(w)

    def best(self) -> int:
        """The highest count (0 when no pair is left)."""
        return max(self.counts.values(), default=0)

    def tied(self, rule: TieRule, token_id: Callable[[str], int]) -> list[Pair]:
        """The pairs of the highest count, in the rule's order: the winner first."""
        top = self.best()
        tied = {pair: c for pair, c in self.counts.items() if c == top}
        if len(tied) == 1:
            return list(tied)
        return ties(tied, rule, _FirstPlaces(tied, self.words, token_id, self.units), top)

    def merge(self, pair: Pair, merge_word: Merge) -> None:
        """Merge ``pair`` in every word that holds it, and recount those words."""
        for w in sorted(self._where.get(pair, ())):
            self._add(w, self._pairs[w], -1)
            self.words[w] = merge_word(self.words[w], pair)
            self._pairs[w] = pairs_in(self.words[w])
            self._add(w, self._pairs[w])
