"""The textbook loop against the trainer, both timed on the same corpus.

The textbook loop (``engine.algorithm.textbook``) counts every pair of every word again before each
merge: k merges over words of n symbols in all cost about k·n. The trainer (``engine.algorithm.trainer``)
counts once, then touches only the places a merge changes. ``race`` runs both, each on its own clock
(the time spent handing progress back is not counted), and says whether they made the same merges.

Left out: repeating runs for a steadier figure (bench/ does that); one run shows a class the gap.

>>> corpus = Corpus.from_word_counts("low 5\\nlower 2\\nnewest 6\\nwidest 3", Settings())
>>> result = drive(race(corpus))
>>> result.merges, result.same
(15, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import TypeVar

from engine.algorithm.collector import collector_paused
from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import Settings  # noqa: F401  (used by the doctest)
from engine.algorithm.textbook import textbook_merges
from engine.algorithm.trainer import Trainer
from engine.errors import BpeLabError

TRAINER = "trainer"
TEXTBOOK = "textbook"

Pair = tuple[str, str]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RaceProgress:
    """Merges one contestant has made so far, in ``seconds`` of its own time; ``total`` is the
    trainer's count and ``trainer_seconds`` its whole time (None while the trainer runs)."""

    runner: str  # TRAINER or TEXTBOOK
    done: int
    total: int | None
    seconds: float
    trainer_seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Race:
    """What the two runs measured on one corpus."""

    merges: int  # the trainer's; the textbook loop's are compared with them
    symbols: int  # the corpus's symbols before any merge, every word counted as often as it occurs
    words: int  # distinct words, each rescanned by every textbook round
    word_symbols: int  # the symbols of the distinct words: what one textbook round reads at most (n)
    trainer_seconds: float
    textbook_seconds: float
    # the first merge (1-based) where the two differ, or None when every merge is the same
    parted_at: int | None

    @property
    def same(self) -> bool:
        return self.parted_at is None

    @property
    def ratio(self) -> float:
        """How many times the trainer's time the textbook loop took."""
        return self.textbook_seconds / self.trainer_seconds if self.trainer_seconds > 0 else float("inf")


def _timed(items: Iterator[T], clock: Callable[[], float], spent: list[float]) -> Iterator[T]:
    """The items of ``items``, the time each took to make added to ``spent[0]``."""
    while True:
        start = clock()
        try:
            item = next(items)
        except StopIteration:
            spent[0] += clock() - start
            return
        spent[0] += clock() - start
        yield item


def race(corpus: Corpus, clock: Callable[[], float] = time.perf_counter) -> Generator[RaceProgress, None, Race]:
    """Train ``corpus`` with the trainer, then with the textbook loop, yielding progress after each
    merge (a caller stops the race by closing the generator); returns what was measured."""
    if corpus.is_empty:
        raise BpeLabError("the corpus is empty: type or open some training text")
    with collector_paused():
        fast: list[Pair] = []
        trainer_time = [0.0]
        # building the trainer counts the pairs once: that is part of its cost
        start = clock()
        trainer = Trainer(corpus)
        trainer_time[0] += clock() - start
        for step in _timed(trainer.steps(), clock, trainer_time):
            fast.append(step.pair)
            yield RaceProgress(TRAINER, len(fast), None, trainer_time[0])
        slow: list[Pair] = []
        textbook_time = [0.0]
        for pair, _count, _tied in _timed(textbook_merges(corpus), clock, textbook_time):
            slow.append(pair)
            yield RaceProgress(TEXTBOOK, len(slow), len(fast), textbook_time[0], trainer_time[0])
    parted = next((k + 1 for k, (a, b) in enumerate(zip(fast, slow)) if a != b), None)
    if parted is None and len(fast) != len(slow):
        parted = min(len(fast), len(slow)) + 1
    word_symbols = sum(len(corpus.symbols(i)) for i in range(len(corpus)))
    return Race(len(fast), corpus.total_symbols(), len(corpus), word_symbols, trainer_time[0], textbook_time[0],
                parted)


def drive(run: Generator[RaceProgress, None, Race]) -> Race:
    """A race run to its end with no one watching its progress."""
    while True:
        try:
            next(run)
        except StopIteration as end:
            result: Race = end.value
            return result
