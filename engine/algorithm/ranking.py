"""One ranking of pairs: which pairs come first at a step, and which tie with the winner.

Pairs rank by count, highest first; a tie rule orders pairs of equal count. Every tie rule is
written here, once, as a sort key over what it needs to know of a pair: where the pair is first
met reading the words in order of first appearance, each left to right, its two tokens' ids, or
its two tokens' spellings (a token's text compared as Python compares str, by code point; for
bytes units its bytes). A new rule is one more entry in ``TIE_RULES`` (a rule that needs another
fact of a pair adds it to the key's arguments and to the ``Facts`` that find it).

Reading order is the order in which the textbook loop's counts dict (``get_stats``) first meets
each pair: the words in order of first appearance, each left to right, so a pair's place is its
first occurrence. "last" is what ``if count >= best`` picks looping over that dict: of the tied
pairs, the one whose first occurrence comes last.

The classic corpus, counted as a merge round counts (the counts dict meets pairs in reading order):

>>> from engine.algorithm.corpus import Corpus
>>> from engine.algorithm.settings import Settings
>>> from engine.algorithm.textbook import get_stats
>>> corpus = Corpus.from_word_counts("low 5\\nlower 2\\nnewest 6\\nwidest 3", Settings())
>>> counts = get_stats([corpus.symbols(w) for w in range(len(corpus))], corpus.counts)
>>> ids = {token: i for i, token in enumerate(corpus.base_vocab())}
>>> facts = ReadingOrder(counts, ids.__getitem__, "chars")
>>> rank(counts, rule_named("first"), facts, limit=4)
[(('e', 's'), 9), (('s', 't'), 9), (('t', '</w>'), 9), (('w', 'e'), 8)]
>>> ties(counts, rule_named("hf"), facts)
[('e', 's'), ('s', 't'), ('t', '</w>')]
>>> ties(counts, rule_named("greatest"), facts), ties(counts, rule_named("last"), facts)[0]
([('t', '</w>'), ('s', 't'), ('e', 's')], ('t', '</w>'))

Left out: counting the pairs (the trainer, the history and the lesson state each count in their
own way, fast for what they hold) and the trainer's queue, which orders by the same facts in one
int per entry and is held to this module by a property test.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.algorithm.bytelevel import symbols_to_bytes
from engine.errors import BpeLabError, InternalError

Pair = tuple[str, str]
Ranked = list[tuple[Pair, int]]
# what a lexicographic rule compares of a token: its text (chars units) or its bytes (bytes units)
Spelling = str | bytes


def _as_written(token: str) -> str:
    return token


def spelling_of(units: str) -> Callable[[str], Spelling]:
    """How tokens of ``units`` are compared by their text: chars by code point, bytes by their bytes
    (the byte alphabet's code points do not keep the bytes' order: byte 0 is spelt U+0100)."""
    return symbols_to_bytes if units == "bytes" else _as_written


def spelling_ranks(tokens: Iterable[str], spelling: Callable[[str], Spelling]) -> dict[str, int]:
    """Each token's place among ``tokens`` sorted by spelling (distinct tokens spell differently)."""
    return {token: i for i, token in enumerate(sorted(set(tokens), key=spelling))}


@dataclass(frozen=True, slots=True)
class TieRule:
    """How pairs of equal count are ordered: by ``key``, smaller first.

    ``key(place, left, right)`` reads what a rule may know of a pair: where it is first met in
    reading order (comparable within one ranking only) and its left and right tokens, as their ids
    (``by_ids``) or as their places in the order of the tokens' spellings (``by_spelling``, also
    comparable within one ranking only); ints for one pair, numpy arrays for many, so it uses only
    tuples and unary minus. ``by_place``, ``by_ids`` and ``by_spelling`` say which it reads (the
    others may be given as 0, as finding a pair's first place can mean reading the corpus).
    """

    name: str
    key: Callable[[Any, Any, Any], tuple[Any, ...]]
    by_place: bool
    by_ids: bool
    by_spelling: bool = False

    @property
    def first_met_first(self) -> bool:
        """Whether, of pairs with one count, the first met win: a reader may stop at the first few met."""
        return self.key(1, 0, 0) == (1,)


TIE_RULES: dict[str, TieRule] = {rule.name: rule for rule in (
    # the pair met first reading the words (the classic lesson code, minbpe, tiktoken's trainer)
    TieRule("first", lambda place, left, right: (place,), by_place=True, by_ids=False),
    # the pair of smaller token ids, left one first (as Hugging Face tokenizers breaks ties)
    TieRule("hf", lambda place, left, right: (left, right), by_place=False, by_ids=True),
    # the lexicographically greatest pair: left tokens compared first, then right (a course rule:
    # max over (count, pair))
    TieRule("greatest", lambda place, left, right: (-left, -right), by_place=False, by_ids=False, by_spelling=True),
    # the lexicographically smallest pair
    TieRule("smallest", lambda place, left, right: (left, right), by_place=False, by_ids=False, by_spelling=True),
    # the pair met last in reading order (what `if count >= best` picks in a loop over the counts)
    TieRule("last", lambda place, left, right: (-place,), by_place=True, by_ids=False),
)}
TIE_BREAKS = tuple(TIE_RULES)


def rule_named(name: str) -> TieRule:
    found = TIE_RULES.get(name)
    if found is None:
        raise BpeLabError(f"unknown tie rule '{name}': choose one of {', '.join(TIE_BREAKS)}")
    return found


class Facts(Protocol):
    """Where pairs are first met, what ids their tokens have and how they are spelt, as one holder
    of pairs knows them."""

    def places(self, pairs: Collection[Pair], enough: int | None = None) -> Mapping[Pair, int]:
        """Each pair's first place in reading order. Given ``enough``, only the ``enough`` pairs met
        first must be there (the others may be left out)."""
        ...

    def token_id(self, token: str) -> int:
        ...

    def spelling(self, token: str) -> Spelling:
        """What a lexicographic rule compares of a token (``spelling_of`` the lesson's units)."""
        ...


class ReadingOrder:
    """The facts of a counts dict that meets its pairs in reading order, as a merge round counts them
    (``units``: the corpus's, which say how tokens are spelt)."""

    def __init__(self, counts: Mapping[Pair, int], token_id: Callable[[str], int], units: str):
        self._counts = counts
        self._places: dict[Pair, int] | None = None
        self.token_id = token_id
        self.spelling = spelling_of(units)

    def places(self, pairs: Collection[Pair], enough: int | None = None) -> Mapping[Pair, int]:
        if self._places is None:
            self._places = {pair: i for i, pair in enumerate(self._counts)}
        return self._places


def _keys(pairs: list[Pair], rule: TieRule, facts: Facts, places: Mapping[Pair, int]) -> list[tuple[Any, ...]]:
    """The rule's key of each pair (one call each: a ranking may order thousands of tied pairs)."""
    zeros = [0] * len(pairs)
    where = [places[p] for p in pairs] if rule.by_place else zeros
    if rule.by_spelling:
        order = spelling_ranks((t for pair in pairs for t in pair), facts.spelling)
        return list(map(rule.key, where, [order[a] for a, _ in pairs], [order[b] for _, b in pairs]))
    if not rule.by_ids:
        return list(map(rule.key, where, zeros, zeros))
    ids = facts.token_id
    return list(map(rule.key, where, [ids(a) for a, _ in pairs], [ids(b) for _, b in pairs]))


def _ordered(items: Ranked, rule: TieRule, facts: Facts, enough: int | None = None) -> Ranked:
    """Items of one count in the rule's order (the first ``enough`` of them, given ``enough``)."""
    if len(items) < 2:
        return items
    pairs = [p for p, _ in items]
    places: Mapping[Pair, int] = {}
    if rule.by_place:
        places = facts.places(pairs, enough if rule.first_met_first else None)
        if len(places) < len(pairs):
            if enough is None or len([p for p in pairs if p in places]) < enough:
                raise InternalError("a pair is counted where no first place is found for it")
            # the facts left out pairs met after the first few: they rank after them
            items = [item for item in items if item[0] in places]
            pairs = [p for p, _ in items]
    keys = _keys(pairs, rule, facts, places)
    order = sorted(range(len(items)), key=keys.__getitem__)
    return [items[i] for i in order[:enough]]


def rank(counts: Mapping[Pair, int], rule: TieRule, facts: Facts, limit: int | None = None, *,
         candidates: Iterable[tuple[Pair, int]] | None = None, must_include: Pair | None = None) -> Ranked:
    """Pairs with their counts, highest count first, equal counts in the rule's order: the first
    ``limit`` (all without a limit, or with one of 0 or less).

    ``candidates``: the pairs to rank, when the caller knows they hold every pair counted as much
    as the ``limit``-th (the whole of ``counts`` otherwise). ``must_include``: a pair that takes
    the last place when it would rank below the cut (a question's answer among its choices).
    """
    items = list(counts.items() if candidates is None else candidates)
    cut = limit is not None and 0 < limit < len(items)
    by_count: dict[int, Ranked] = {}
    for item in items:
        by_count.setdefault(item[1], []).append(item)
    ranked: Ranked = []
    for count in sorted(by_count, reverse=True):
        if cut and limit is not None:
            ranked += _ordered(by_count[count], rule, facts, limit - len(ranked))
            if len(ranked) >= limit:
                break
        else:
            ranked += _ordered(by_count[count], rule, facts)
    return with_pair(ranked, must_include, counts, limit)


def with_pair(ranked: Ranked, pair: Pair | None, counts: Mapping[Pair, int], limit: int | None) -> Ranked:
    """The ranking with ``pair`` in its last place if it is not among the ranked (no change without a pair)."""
    if pair is None or any(p == pair for p, _ in ranked):
        return ranked
    room = len(ranked) if limit is None or limit <= 0 else min(len(ranked), limit - 1)
    return ranked[:room] + [(pair, counts.get(pair, 0))]


def ties(counts: Mapping[Pair, int], rule: TieRule, facts: Facts, count: int | None = None) -> list[Pair]:
    """The pairs of the highest count (of ``count``, given it), the winner first, in the rule's order."""
    if count is None:
        count = max(counts.values(), default=0)
    tied = [(p, c) for p, c in counts.items() if c == count]
    return [p for p, _ in _ordered(tied, rule, facts)]

