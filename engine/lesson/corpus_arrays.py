"""Every word of a large corpus at one step, in numpy arrays over all its base symbols: a merge
step moves only where it merged, with no Python object per token, per place or per word.

The words lie side by side in one array of base symbols, each after an empty slot, and one more
slot closes the last. As in ``engine.lesson.long_word``, at each symbol where a token starts ``ids``
holds that token's id, ``after`` where the next token starts and ``before`` where the previous
one starts; elsewhere ``ids`` is -1. A word's first token has the slot before it as its previous
token and its last the slot after it as its next, and a slot's id is -1: no pair crosses a word's
edge, with no test of where words end. The pair counts are two sorted arrays, the pairs' codes
(``left * size + right``) and their counts weighted by word frequency.

>>> corpus = Corpus.from_word_counts("low 5\\nlower 2\\nnewest 6\\nwidest 3", Settings(merges=5))
>>> history = History(corpus, list(Trainer(corpus).steps()))
>>> arrays = CorpusArrays(history, TokenIds(history), 0)
>>> _ = arrays.go_to(5)
>>> arrays.tokens(2), arrays.pair_count(("l", "o"))
(['n', 'e', 'w', 'est</w>'], 0)

Left out: which lessons are large enough to be kept this way, and the ranking of pairs by the tie
rule (``engine.lesson.lesson``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generator

import numpy as np

from engine.drain import drain

from engine.algorithm.corpus import Corpus  # noqa: F401  (used by the doctest)
from engine.lesson.history import History
from engine.lesson.long_word import TokenIds
from engine.algorithm.ranking import Facts, TieRule, spelling_ranks
from engine.algorithm.settings import Settings  # noqa: F401  (used by the doctest)
from engine.algorithm.trainer import Trainer  # noqa: F401  (used by the doctest)

# past this many steps, a move rebuilds every word from the history index in one pass instead of
# replaying each step's array writes (a jump across thousands of merges)
REBUILT_STEPS = 64
# how many symbols' worth of work one place's pairs cost, against counting every pair afresh
PLACE_COST = 8
# the pair counts at this many steps reached by a rebuild are kept: a jump back to one is a rebuild only
KEPT_COUNTS = 4
# up to this many possible pairs of the tokens present, pairs are counted in one array by pair
DENSE_PAIRS = 1 << 24
# the sources of at most this many pairs are kept from step to step
KEPT_SOURCES = 10_000


@dataclass(frozen=True)
class Rebuilt:
    """Every word's tokens and the pair counts at one step, built apart from the arrays shown."""

    step: int
    ids: np.ndarray
    after: np.ndarray
    before: np.ndarray
    tokens: int
    codes: np.ndarray
    counts: np.ndarray


class CorpusArrays:
    """The corpus's tokens and pair counts at one step (see the module's text)."""

    def __init__(self, history: History, table: TokenIds, k: int):
        self.history = history
        self.table = table
        corpus = history.corpus
        lengths = np.array(history.symbol_lengths(), dtype=np.int64)
        self.lengths = lengths
        # word w's first symbol: one slot before each word
        self.starts = np.cumsum(lengths + 1) - lengths
        n = int(self.starts[-1] + lengths[-1] + 1) if len(lengths) else 1
        self.n = n
        self.word_of = np.append(np.repeat(np.arange(len(lengths), dtype=np.int32), lengths + 1),
                                 np.int32(max(len(lengths) - 1, 0)))
        self.freq = np.asarray(corpus.counts, dtype=np.int64)
        self.base = self._base_ids(corpus)
        steps, words, cuts = history.place_arrays()
        self.place_steps = steps
        self.place_words = words
        self.place_at = self.starts[words] + cuts
        # per symbol, the step that removed the token start there (past the last step: none did);
        # 0 in the slots, which never start a token
        removed = np.full(n, history.last_step + 1, dtype=np.int32)
        removed[self.place_at] = steps
        removed[self.starts - 1] = 0
        removed[n - 1] = 0
        self._removed = removed
        self._kept: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._all: tuple[np.ndarray, np.ndarray] | None = None
        self._ids: np.ndarray | None = None
        self._spelt: np.ndarray | None = None
        # the step stood at, set by ``adopt``: each symbol's token id and its neighbours, the pair counts
        self.step: int
        self.ids: np.ndarray
        self.after: np.ndarray
        self.before: np.ndarray
        self.tokens_in_all: int
        self.codes: np.ndarray
        self.counts: np.ndarray
        self._lefts: dict[int, np.ndarray] = {}
        self._sources: dict[int, list[tuple[int, int]]] = {}
        self._rebuild(k)

    def _base_ids(self, corpus: Corpus) -> np.ndarray:
        """Each symbol's base token id (-1 in the slots): every symbol is one character of its word
        but the marker, which ends it."""
        words = corpus.words
        chars = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
        ids = self.table.symbol_ids("".join(words), None)
        base = np.full(self.n, -1, dtype=np.int32)
        # each character's place: its word's first symbol plus its place in the word
        firsts = np.cumsum(chars) - chars
        base[np.arange(len(ids)) + np.repeat(self.starts - firsts, chars)] = ids
        marker = self.history.settings.marker
        if marker is not None:
            base[self.starts + chars] = self.table.ids[marker]
        return base

    # -- moving -----------------------------------------------------------------------------------

    def go_to(self, k: int) -> np.ndarray:
        """Go to step k; the words whose tokens changed, in corpus order."""
        a = self.step
        lo, hi = sorted((a, k))
        i, j = np.searchsorted(self.place_steps, [lo, hi], side="right")
        changed = self.changed_words(a, k)
        if a == k:
            return changed
        if self._rebuilds(self.place_steps[i:j]):
            self._rebuild(k)
            return changed
        numbers = _distinct(self.place_steps[i:j])
        outs, ins = [], []
        bounds = np.searchsorted(self.place_steps, numbers, side="left").tolist()
        ends = np.searchsorted(self.place_steps, numbers, side="right").tolist()
        order = range(len(numbers)) if k > a else range(len(numbers) - 1, -1, -1)
        for n in order:
            s = int(numbers[n])
            cuts = self.place_at[bounds[n]:ends[n]]
            left = cuts - self.table.width[s]
            weights = self.freq[self.place_words[bounds[n]:ends[n]]]
            outs.append(self._around(s, left, cuts, weights, k > a))
            self._join(s, left, cuts) if k > a else self._split(s, left, cuts)
            ins.append(self._around(s, left, cuts, weights, k < a))
        self.step = k
        self._all = None
        self._lefts = {}
        moved = self._settle(outs, ins)
        # a pair's sources change only where the move took it out or put it in
        if len(self._sources) > KEPT_SOURCES:
            self._sources = {}
        self._sources = {c: found for c, found in self._sources.items()
                         if moved[min(int(np.searchsorted(moved, c)), len(moved) - 1)] != c}
        return changed

    def _around(self, s: int, left: np.ndarray, cuts: np.ndarray, weights: np.ndarray,
                split: bool) -> tuple[np.ndarray, np.ndarray]:
        """The codes of the pairs around step s's places, each with its word's frequency: the pair
        before each place and the one after it, and the pair inside it while it is split. Places
        side by side share a pair, taken once, as the pair after the left one."""
        table, ids, size = self.table, self.ids, self.table.size
        previous = self.before[left]
        keep = ids[previous] >= 0
        if split:
            a, b = int(table.left[s]), int(table.right[s])
            keep[1:] &= previous[1:] != cuts[:-1]
            ends = self.after[cuts]
            inside = ids[ends] >= 0
            codes = np.concatenate((ids[previous[keep]].astype(np.int64) * size + a,
                                    np.full(len(left), a * size + b, dtype=np.int64),
                                    ids[ends[inside]] + np.int64(b * size)))
            return codes, np.concatenate((weights[keep], weights, weights[inside]))
        made = int(table.made[s])
        keep[1:] &= previous[1:] != left[:-1]
        ends = self.after[left]
        inside = ids[ends] >= 0
        codes = np.concatenate((ids[previous[keep]].astype(np.int64) * size + made,
                                ids[ends[inside]] + np.int64(made * size)))
        return codes, np.concatenate((weights[keep], weights[inside]))

    def _join(self, s: int, left: np.ndarray, cuts: np.ndarray) -> None:
        """Step s forward: the token at each cut joins the one before it."""
        ends = self.after[cuts]
        self.ids[left] = self.table.made[s]
        self.ids[cuts] = -1
        self.after[left] = ends
        self.before[ends] = left
        self.tokens_in_all -= len(cuts)

    def _split(self, s: int, left: np.ndarray, cuts: np.ndarray) -> None:
        """Step s back: each token that step made splits at its cut again."""
        ends = self.after[left]
        self.ids[left] = self.table.left[s]
        self.ids[cuts] = self.table.right[s]
        self.after[left] = cuts
        self.after[cuts] = ends
        self.before[cuts] = left
        self.before[ends] = cuts
        self.tokens_in_all += len(cuts)

    def _settle(self, outs: list[tuple[np.ndarray, np.ndarray]],
                ins: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        """Add a move's changes of count into the sorted count arrays, dropping the pairs gone;
        returns the codes of every pair taken out or put in somewhere, sorted."""
        codes = np.concatenate([c for c, _ in outs] + [c for c, _ in ins])
        weights = np.concatenate([-w for _, w in outs] + [w for _, w in ins])
        touched, net = _summed(codes, weights, self.table.size)
        moved = net != 0
        changed, net = touched[moved], net[moved]
        at = np.searchsorted(self.codes, changed)
        known = at < len(self.codes)
        known[known] = self.codes[at[known]] == changed[known]
        counts = self.counts.copy()
        counts[at[known]] += net[known]
        fresh = ~known
        codes = np.insert(self.codes, at[fresh], changed[fresh])
        counts = np.insert(counts, at[fresh], net[fresh])
        kept = counts != 0
        self.codes, self.counts = codes[kept], counts[kept]
        return touched

    def _rebuild(self, k: int) -> None:
        self.adopt(self.rebuilt(k))

    def rebuilt(self, k: int) -> Rebuilt:
        return drain(self.rebuilding(k))

    def rebuilding(self, k: int) -> Generator[tuple[int, int], None, Rebuilt]:
        """Every word at step k from the history index, without changing these arrays: a worker
        builds it while the views read the step shown, yielding (parts done, parts) between parts
        and returning the ``Rebuilt``. Each token's id is that of the last merge made inside it
        (the one that made it), or its base symbol's when none was."""
        removed = self._removed
        standing = removed > k
        starts = np.flatnonzero(standing)
        last = np.maximum.reduceat(np.where(standing, 0, removed), starts) if len(starts) else starts
        n = self.n
        ids = np.full(n, -1, dtype=np.int32)
        ids[starts] = np.where(last > 0, self.table.made[last], self.base[starts])
        yield 1, 3
        # a token's neighbours: the next token start, or the slot that ends its word
        marks = np.flatnonzero(standing | (removed == 0))
        after = np.full(n, n - 1, dtype=np.int32)
        after[marks[:-1]] = marks[1:]
        before = np.full(n, -1, dtype=np.int32)
        before[marks[1:]] = marks[:-1]
        kept = self._kept.get(k)
        yield 2, 3
        if kept is None:
            at = starts[ids[after[starts]] >= 0]
            kept = _counted(at, ids, after, self.freq[self.word_of[at]], self.table.size)
        return Rebuilt(k, ids, after, before, len(starts), *kept)

    def adopt(self, found: Rebuilt) -> None:
        """Stand at the step ``found`` was rebuilt for."""
        self.ids, self.after, self.before = found.ids, found.after, found.before
        self.tokens_in_all = found.tokens
        self.step = found.step
        self._all = None
        self._lefts = {}
        self._sources = {}
        if found.step not in self._kept and len(self._kept) >= KEPT_COUNTS:
            self._kept.pop(next(iter(self._kept)))
        self._kept[found.step] = self.codes, self.counts = found.codes, found.counts

    def rebuilds(self, k: int) -> bool:
        """Whether going to step k rebuilds every word (a jump) rather than moving place by place."""
        lo, hi = sorted((self.step, k))
        i, j = np.searchsorted(self.place_steps, [lo, hi], side="right")
        return self._rebuilds(self.place_steps[i:j])

    def _rebuilds(self, places: np.ndarray) -> bool:
        return len(places) * PLACE_COST > self.tokens_in_all or len(_distinct(places)) > REBUILT_STEPS

    def changed_words(self, a: int, b: int) -> np.ndarray:
        """The words whose tokens differ between steps a and b, in corpus order."""
        lo, hi = sorted((a, b))
        i, j = np.searchsorted(self.place_steps, [lo, hi], side="right")
        if hi == lo + 1:
            return _distinct(self.place_words[i:j])  # one step's places run word by word
        touched = np.zeros(len(self.lengths), dtype=bool)
        touched[self.place_words[i:j]] = True
        return np.flatnonzero(touched)

    # -- pairs ------------------------------------------------------------------------------------

    def pair_places(self) -> tuple[np.ndarray, np.ndarray]:
        """Where every pair starts (its left token's first symbol), in reading order, and its code;
        worked out once per step asked for."""
        if self._all is None:
            self._all = self._places(0, self.n)
        return self._all

    def _places(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        ids = self.ids
        at = np.flatnonzero(ids[lo:hi] >= 0) + lo
        right = ids[self.after[at]]
        pair = right >= 0
        at = at[pair]
        return at, ids[at].astype(np.int64) * self.table.size + right[pair]

    def pair_count(self, pair: tuple[str, str]) -> int:
        code = self.table.code(pair)
        if code is None:
            return 0
        at = int(np.searchsorted(self.codes, code))
        return int(self.counts[at]) if at < len(self.codes) and self.codes[at] == code else 0

    def pair_counts(self) -> dict[tuple[str, str], int]:
        """Every pair's count, in the order a merge round meets the pairs (reading the words in order)."""
        at, codes = self.pair_places()
        found, first = _first_of_each(codes)
        order = np.argsort(first, kind="stable")
        found = found[order]
        counts = self.counts[np.searchsorted(self.codes, found)]
        pair = self.table.pair
        return {pair(c): n for c, n in zip(found.tolist(), counts.tolist())}

    def pairs_with_count(self, count: int) -> list[tuple[str, str]]:
        pair = self.table.pair
        return [pair(c) for c in self.codes[self.counts == count].tolist()]

    def pair_sources(self, pair: tuple[str, str]) -> list[tuple[int, int]]:
        """(word index, occurrences in that word), in corpus order."""
        code = self.table.code(pair)
        if code is None:
            return []
        found = self._sources.get(code)
        if found is None:
            left, right = divmod(code, self.table.size)
            at = self._lefts.get(left)
            if at is None:
                # the places of a left token, kept for the step: the top pairs share their left tokens
                at = self._lefts[left] = np.flatnonzero(self.ids == left)
            at = at[self.ids[self.after[at]] == right]
            # read in order, the words come sorted
            words = self.word_of[at]
            starts = _run_starts(words)
            times = np.diff(np.append(starts, len(words)))
            found = self._sources[code] = list(zip(words[starts].tolist(), times.tolist()))
        return found

    def ranked(self, limit: int | None, rule: TieRule, facts: Facts) -> list[tuple[tuple[str, str], int]]:
        """The pairs by count, the first ``limit`` of them (all without a limit), ties in the order
        of ``rule`` (``facts``: the lesson state's, for a token's id in the tokenizer and its spelling)."""
        codes, counts = self.codes, self.counts
        if limit is not None and 0 < limit < len(counts):
            # every pair above the limit-th count is in; of those at it, only the first few
            edge = np.partition(counts, len(counts) - limit)[len(counts) - limit]
        else:
            limit, edge = len(counts), (counts.min() if len(counts) else 0)
        above = counts > edge
        at_edge = codes[counts == edge]
        need = limit - int(above.sum())
        codes, counts = codes[above], counts[above]
        placed = np.zeros(len(codes), dtype=np.int64)
        if rule.by_place:
            # a first place breaks ties and nothing else: found only for the pairs sharing a count
            ordered = np.sort(counts)
            repeated = _distinct(ordered[1:][ordered[1:] == ordered[:-1]])
            if len(repeated):
                shared = repeated[np.minimum(np.searchsorted(repeated, counts), len(repeated) - 1)] == counts
                first = self.first_places(codes[shared])
                placed = np.array([first.get(c, 0) for c in codes.tolist()], dtype=np.int64)
            met = self.first_places(at_edge, need if rule.first_met_first else None)
            at_edge = np.array(list(met), dtype=np.int64)
            edge_placed = np.array(list(met.values()), dtype=np.int64)
        else:
            edge_placed = np.zeros(len(at_edge), dtype=np.int64)
        order = np.lexsort((*reversed(rule.key(*self._pair_facts(codes, placed, rule, facts))), -counts))
        edge_keys = rule.key(*self._pair_facts(at_edge, edge_placed, rule, facts))
        at_edge = at_edge[np.lexsort(tuple(reversed(edge_keys)))][:need]
        pair = self.table.pair
        chosen = codes[order].tolist() + at_edge.tolist()
        shown = counts[order].tolist() + [int(edge)] * len(at_edge)
        return [(pair(c), n) for c, n in zip(chosen, shown)]

    def _pair_facts(self, codes: np.ndarray, placed: np.ndarray, rule: TieRule,
                    facts: Facts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What ``rule`` reads of the pairs of ``codes`` (place, left, right: the tokens' ids or
        their places in spelling order), one array each (those it does not read are zeros)."""
        size = self.table.size
        if rule.by_spelling:
            order = self._spelling_order(facts)
            return placed, order[codes // size], order[codes % size]
        if not rule.by_ids:
            zeros = np.zeros(len(codes), dtype=np.int64)
            return placed, zeros, zeros
        ids = self._tokenizer_ids(facts.token_id)
        return placed, ids[codes // size], ids[codes % size]

    def _spelling_order(self, facts: Facts) -> np.ndarray:
        """Each token's place in the order of the tokens' spellings, by its id here (found once)."""
        if self._spelt is None:
            names = self.table.names
            order = spelling_ranks(names, facts.spelling)
            self._spelt = np.array([order[name] for name in names], dtype=np.int64)
        return self._spelt

    def _tokenizer_ids(self, token_ids: Callable[[str], int]) -> np.ndarray:
        """Each token's id in the tokenizer (``token_ids``), by its id here (found once)."""
        if self._ids is None:
            self._ids = np.array([token_ids(name) for name in self.table.names], dtype=np.int64)
        return self._ids

    def first_places(self, wanted: np.ndarray, enough: int | None = None) -> dict[int, int]:
        """Where each pair code of ``wanted`` first starts, read from the corpus's start in growing
        slices: the pairs a panel ranks are met early. ``enough``: stop once that many are found
        (the first met)."""
        found: dict[int, int] = {}
        left = _distinct(np.sort(wanted))
        lo, span = 0, 1 << 14
        while len(left) and lo < self.n and (enough is None or len(found) < enough):
            hi = min(self.n, lo + span)
            at, codes = self._places(lo, hi)
            # left is sorted: a code is wanted when the wanted code at its sorted place is itself
            hit = left[np.minimum(np.searchsorted(left, codes), len(left) - 1)] == codes
            codes, first = _first_of_each(codes[hit])
            found.update(zip(codes.tolist(), at[hit][first].tolist()))
            left = np.setdiff1d(left, codes, assume_unique=True)
            lo, span = hi, span * 2
        return found

    # -- tokens -----------------------------------------------------------------------------------

    def tokens_head(self, w: int, symbols: int | None = None) -> list[str]:
        """Word w's tokens that start within its first ``symbols`` base symbols (all without a limit)."""
        start = int(self.starts[w])
        end = start + int(self.lengths[w]) if symbols is None else start + min(symbols, int(self.lengths[w]))
        names = self.table.names
        ids = self.ids[start:end]
        return [names[i] for i in ids[ids >= 0].tolist()]

    def tokens(self, w: int) -> list[str]:
        return self.tokens_head(w)


def _summed(codes: np.ndarray, weights: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct codes, sorted, and the weights of each summed (``size``: how many token ids)."""
    if not len(codes):
        return codes.astype(np.int64), weights.astype(np.int64)
    low = int(weights.min())
    shifted = weights - low
    bits = int(shifted.max()).bit_length()
    if bits + (size * size).bit_length() > 62:
        order = np.argsort(codes, kind="stable")
        keys, values = codes[order], weights[order]
    else:
        # each weight rides in the low bits of its code: one sort of plain integers, no permutation
        packed = (codes << bits) | shifted
        packed.sort()
        keys, values = packed >> bits, packed & ((1 << bits) - 1)
        values = values + low
    starts = _run_starts(keys)
    return keys[starts], np.add.reduceat(values, starts)


def _counted(at: np.ndarray, ids: np.ndarray, after: np.ndarray, weights: np.ndarray,
             size: int) -> tuple[np.ndarray, np.ndarray]:
    """The sorted codes and weighted counts of the pairs whose left tokens start at ``at``. Few
    distinct tokens (the base symbols near the start) are counted in one array per possible pair."""
    lefts, rights = ids[at], ids[after[at]]
    present = np.zeros(size, dtype=bool)
    present[lefts] = True
    present[rights] = True
    held = np.flatnonzero(present)
    m = len(held)
    if m * m > DENSE_PAIRS:
        return _summed(lefts.astype(np.int64) * size + rights, weights, size)
    rank = np.cumsum(present) - 1
    sums = np.bincount(rank[lefts] * m + rank[rights], weights=weights, minlength=m * m)
    hit = np.flatnonzero(sums)
    # ranks keep the order of ids: the codes come out sorted
    return held[hit // m].astype(np.int64) * size + held[hit % m], sums[hit].round().astype(np.int64)


def _run_starts(ordered: np.ndarray) -> np.ndarray:
    """Where each run of equal values starts in a sorted array."""
    return np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1]))) if len(ordered) else np.empty(0, np.int64)


def _first_of_each(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values, sorted, and where each first occurs (numpy's unique hashes, slowly here)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = _run_starts(ordered)
    return ordered[starts], order[starts]


def _distinct(ordered: np.ndarray) -> np.ndarray:
    """The distinct values of a sorted array."""
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if len(ordered) else ordered
