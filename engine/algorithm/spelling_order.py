"""Ints that keep a training's tokens in the order of their spellings while it mints new ones.

The trainer's queue compares one int per pair (``engine.algorithm.trainer.PairKeys``); the
lexicographic tie rules need a pair's two tokens in spelling order there. Each token gets a label,
an int of ``LABEL_BITS`` bits, and labels order as spellings do: a new token takes the middle of
the gap between its neighbours in spelling order, and when no gap is left every token is labelled
afresh, spread evenly (the caller then queues every pair afresh). A token's string never changes,
so its label holds until then. Labels of the descending order are flipped, so that the least label
still ranks first on a heap.

>>> labels = SpellingLabels(["a", "c"], str.__str__, descending=False)
>>> labels.add("b"), labels.of[0] < labels.of[2] < labels.of[1]
(False, True)

Left out: which spelling a token has (``engine.algorithm.ranking.spelling_of``: its text, or its
bytes for bytes units) and the order of pairs, which the trainer builds from two labels.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable

from engine.algorithm.ranking import Spelling

# room enough that a chain of tokens each spelt just after the last (es, est, est</w>) goes about
# 30 deep between two labels before every token is labelled afresh
LABEL_BITS = 48
_END = 1 << LABEL_BITS


class SpellingLabels:
    """Each token's label by its id (``of``), for tokens given in id order and added one by one."""

    def __init__(self, tokens: Iterable[str], spelling: Callable[[str], Spelling], descending: bool):
        self.spelling = spelling
        self.flip = _END - 1 if descending else 0
        self.of: list[int] = []
        # the spellings in order, and the id of the token spelt so at each place
        self.spelt: list[Spelling] = []
        self.ids: list[int] = []
        for token in tokens:
            self._place(token)
        self._spread()

    def _place(self, token: str) -> int:
        """Put the next id in its place in spelling order; returns that place."""
        spelt = self.spelling(token)
        i = bisect_left(self.spelt, spelt)
        self.spelt.insert(i, spelt)
        self.ids.insert(i, len(self.of))
        self.of.append(0)
        return i

    def add(self, token: str) -> bool:
        """Label the token minted next; True when every token was labelled afresh to make room."""
        i = self._place(token)
        ids, flip = self.ids, self.flip
        low = self.of[ids[i - 1]] ^ flip if i else 0
        high = self.of[ids[i + 1]] ^ flip if i + 1 < len(ids) else _END
        if high - low >= 2:
            self.of[ids[i]] = (low + high) // 2 ^ flip
            return False
        self._spread()
        return True

    def _spread(self) -> None:
        gap = _END // (len(self.ids) + 1)
        for place, token_id in enumerate(self.ids, start=1):
            self.of[token_id] = place * gap ^ self.flip
