"""Where the tie rules part: one corpus trained under every rule, and for each two rules the first
step where their merges differ, with the tie there.

Two runs with the same merges so far hold the same words, counts and vocabulary, so they stop
together and can only part at a tie: both make a merge there, of two pairs with the top count.

>>> corpus = Corpus.from_word_counts("low 5\\nlower 2\\nnewest 6\\nwidest 3", Settings())
>>> parting = where_rules_part(corpus)[("first", "hf")]
>>> parting.step, parting.count, parting.chosen, parting.tied
(2, 9, (('es', 't'), ('t', '</w>')), (('es', 't'), ('t', '</w>')))

Left out: why one list of merges parts from another (``engine.compare`` reads any merge list) and
the window's view of this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from engine.algorithm.corpus import Corpus
from engine.algorithm.ranking import TIE_BREAKS, Pair
from engine.algorithm.settings import Settings  # noqa: F401  (used by the doctest)
from engine.algorithm.trainer import MergeStep, train
from engine.lesson.history import History


@dataclass(frozen=True, slots=True)
class Parting:
    """Where two rules' runs first differ: ``step`` (1 for the first merge; None where they never
    do), the top ``count`` there, every pair ``tied`` at it in reading order (the order a merge
    round's counts meet them), and the pair each rule ``chosen`` (in the order of ``rules``)."""

    rules: tuple[str, str]
    step: int | None
    count: int | None = None
    tied: tuple[Pair, ...] = ()
    chosen: tuple[Pair, Pair] | None = None


def runs_under_every_rule(corpus: Corpus, rules: Sequence[str] = TIE_BREAKS) -> dict[str, list[MergeStep]]:
    """The steps of the corpus trained under each rule, its other settings kept."""
    return {rule: train(Corpus(corpus.words, corpus.counts, replace(corpus.settings, tie_break=rule)))[1]
            for rule in rules}


def where_rules_part(corpus: Corpus, rules: Sequence[str] = TIE_BREAKS) -> dict[tuple[str, str], Parting]:
    """For each two of ``rules`` (in the order given), where their runs on the corpus part."""
    runs = runs_under_every_rule(corpus, rules)
    histories: dict[str, History] = {}
    found = {}
    for one, other in combinations(rules, 2):
        k = next((i for i, (a, b) in enumerate(zip(runs[one], runs[other])) if a.pair != b.pair), None)
        if k is None:
            found[(one, other)] = Parting((one, other), None)
            continue
        first, second = runs[one][k], runs[other][k]
        history = histories.get(one)
        if history is None:
            history = histories[one] = History(Corpus(corpus.words, corpus.counts, replace(
                corpus.settings, tie_break=one)), runs[one])
        # the counts before the step, met in reading order
        tied = tuple(pair for pair, count in history.pair_counts(k).items() if count == first.count)
        found[(one, other)] = Parting((one, other), k + 1, first.count, tied, (first.pair, second.pair))
    return found
