"""The merge loop: one MergeStep per merge, computed incrementally.

The corpus is laid out once as a flat array of symbols (every distinct word, its symbols side by
side, linked left and right). Each pair keeps the list of positions where it was ever made, in
reading order; a merge visits only those positions, so the whole run costs about one visit per
symbol of the distinct words, however many merges are asked for. Counts only ever fall for an
existing pair (a pair gains places only on the step that mints one of its tokens), so a heap with
stale entries re-checked on the way out finds the same winner as recounting everything.

The textbook loop that recounts every pair each round lives in ``engine.textbook``; the tests
hold the two to the same merges.
"""

from __future__ import annotations

import gc
import heapq
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from engine.corpus import Corpus
from engine.errors import BpeLabError
from engine.settings import Settings

_SHIFT = 32
_LOW = (1 << _SHIFT) - 1

# why training stopped
TARGET_REACHED = "target reached"
NO_PAIR_REPEATS = "no pair repeats"
NOTHING_LEFT = "nothing left to merge"


@dataclass(frozen=True)
class MergeStep:
    """What one merge did.

    ``tied`` holds every pair at the winning count: the winner first, then the others in the order
    the tie rule ranks them. ``places`` are (word index, offset in base symbols where the pair's
    left token starts), one per merge made; an overlapping run (``a a a``) is merged once.
    """

    step: int
    pair: tuple[str, str]
    token: str
    count: int
    tied: tuple[tuple[str, str], ...]
    places: tuple[tuple[int, int], ...]
    tokens_before: int
    tokens_after: int
    vocab_size: int


@contextmanager
def _collector_paused():
    """Hold Python's cycle collector off while one step runs.

    A step makes thousands of small lists and tuples, none in a cycle; left on, the collector
    would walk the trainer's whole working set again and again. It runs as usual between steps.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def extra_ids(settings: Settings) -> int:
    """Ids taken by tokens that are not merges: the special tokens, and the unknown token for chars."""
    return len(settings.special_tokens) + (1 if settings.units == "chars" else 0)


def target_merges(settings: Settings, base_size: int) -> int | None:
    """How many merges the settings ask for, or None for "until no pair repeats"."""
    if settings.merges is not None:
        return settings.merges
    if settings.vocab_size is not None:
        return max(0, settings.vocab_size - base_size - extra_ids(settings))
    return None


class Trainer:
    """Trains a corpus merge by merge: ``for step in Trainer(corpus).steps(): ...``.

    After the steps run out, ``stop_reason`` says why and ``merges`` holds the learned pairs.
    """

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.settings = corpus.settings
        self.base = corpus.base_vocabulary()
        self.vocab: list[str] = list(self.base)
        self.ids: dict[str, int] = {t: i for i, t in enumerate(self.vocab)}
        self.merges: list[tuple[int, int]] = []
        self.stop_reason: str | None = None
        self.extra_ids = extra_ids(self.settings)
        with _collector_paused():
            self._layout()

    def _layout(self) -> None:
        sym: list[int] = []
        word_of: list[int] = []
        freq: list[int] = []
        ids = self.ids
        self.word_start: list[int] = []
        for w in range(len(self.corpus)):
            symbols = self.corpus.symbols(w)
            self.word_start.append(len(sym))
            sym.extend([ids[s] for s in symbols])
            word_of.extend([w] * len(symbols))
            freq.extend([self.corpus.counts[w]] * len(symbols))
        n = len(sym)
        nxt = list(range(1, n + 1))
        prv = list(range(-1, n - 1))
        for start in self.word_start:
            if start > 0:
                nxt[start - 1] = -1
                prv[start] = -1
        if n:
            nxt[n - 1] = -1
        self.sym, self.nxt, self.prv, self.word_of, self.freq = sym, nxt, prv, word_of, freq
        self.total = sum(freq)
        counts: dict[int, int] = {}
        where: dict[int, list[int]] = {}
        for p in range(n):
            q = nxt[p]
            if q < 0:
                continue
            key = sym[p] << _SHIFT | sym[q]
            if key in counts:
                counts[key] += freq[p]
                where[key].append(p)
            else:
                counts[key] = freq[p]
                where[key] = [p]
        self.counts, self.where = counts, where
        self.heap = [self._entry(key) for key in counts]
        heapq.heapify(self.heap)
        # entries of the pairs tied at the last step, kept off the heap; the pairs the last merge changed
        self.tied: list[tuple] = []
        self.touched: set[int] = set()

    # -- the tie rule ---------------------------------------------------------------------------

    def _first_place(self, key: int) -> int:
        """Position of the pair's first remaining occurrence; drops the stale ones before it."""
        positions = self.where[key]
        a, b = key >> _SHIFT, key & _LOW
        sym, nxt = self.sym, self.nxt
        i = 0
        for p in positions:
            if sym[p] == a and nxt[p] >= 0 and sym[nxt[p]] == b:
                break
            i += 1
        if i:
            del positions[:i]
        return positions[0] if positions else -1

    def _entry(self, key: int) -> tuple:
        count = self.counts[key]
        if self.settings.tie_break == "hf":
            # equal counts go to the pair of smaller ids
            return (-count, key)
        # equal counts go to the pair met first in reading order
        return (-count, self._first_place(key), key)

    def _is_current(self, entry: tuple) -> bool:
        key = entry[-1]
        if -entry[0] != self.counts.get(key, 0):
            return False
        if self.settings.tie_break == "hf":
            return True
        p = entry[1]
        a, b = key >> _SHIFT, key & _LOW
        q = self.nxt[p]
        return self.sym[p] == a and q >= 0 and self.sym[q] == b

    def _pop_best(self) -> tuple | None:
        heap = self.heap
        while heap:
            entry = heapq.heappop(heap)
            if self._is_current(entry):
                return entry
            self._requeue(entry[-1])
        return None

    def _requeue(self, key: int) -> None:
        if self.counts.get(key, 0) > 0:
            heapq.heappush(self.heap, self._entry(key))
        else:
            self.counts.pop(key, None)
            self.where.pop(key, None)

    # -- the loop -------------------------------------------------------------------------------

    def target_merges(self) -> int | None:
        return target_merges(self.settings, len(self.base))

    def steps(self) -> Iterator[MergeStep]:
        while True:
            with _collector_paused():
                step = self._next_step()
            if step is None:
                return
            yield step

    def _next_step(self) -> MergeStep | None:
        """Make the next merge, or say why there is none (``stop_reason``) and return None."""
        limit = self.target_merges()
        if limit is not None and len(self.merges) >= limit:
            self.stop_reason = TARGET_REACHED
            return None
        group = self._best_group()
        if not group:
            self.stop_reason = NOTHING_LEFT
            return None
        count = -group[0][0]
        if count < self.settings.min_frequency:
            self.tied = group
            self.stop_reason = NO_PAIR_REPEATS
            return None
        best, self.tied = group[0], group[1:]
        return self._merge(best[-1], count, [e[-1] for e in self.tied])

    def _best_group(self) -> list[tuple]:
        """Current heap entries of every pair at the highest count, in tie-rule order.

        The pairs tied at one step are kept aside rather than pushed back: most are still tied at
        the next step, and only the pairs the last merge touched need checking again.
        """
        tied = []
        for entry in self.tied:
            if entry[-1] in self.touched:
                self._requeue(entry[-1])
            else:
                tied.append(entry)
        self.touched = set()
        top = self._pop_best()
        if top is None:
            return tied
        count = -top[0]
        if tied and -tied[0][0] > count:
            heapq.heappush(self.heap, top)
            return tied
        if tied and -tied[0][0] < count:
            for entry in tied:
                heapq.heappush(self.heap, entry)
            tied = []
        return sorted([top, *self._pop_ties(count), *tied])

    def _pop_ties(self, count: int) -> list[tuple]:
        """Pop the other current entries at ``count`` off the heap, in order."""
        heap = self.heap
        found = []
        while heap and -heap[0][0] >= count:
            entry = heapq.heappop(heap)
            if self._is_current(entry):
                found.append(entry)
            else:
                self._requeue(entry[-1])
        return found

    def _merge(self, key: int, count: int, tied: list[int]) -> MergeStep:
        a, b = key >> _SHIFT, key & _LOW
        vocab = self.vocab
        token = vocab[a] + vocab[b]
        # mint a new token; a string made before by another pair keeps its id, as in tokenizers
        new = self.ids.get(token, -1)
        reused = new >= 0
        if not reused:
            new = len(vocab)
            vocab.append(token)
            self.ids[token] = new
        self.merges.append((a, b))

        sym, nxt, prv, freq, counts, where = self.sym, self.nxt, self.prv, self.freq, self.counts, self.where
        word_of, word_start = self.word_of, self.word_start
        created: list[int] = []  # pairs first counted in this step
        places: list[tuple[int, int]] = []
        merged = 0
        a_low = a
        b_high = b << _SHIFT
        new_high = new << _SHIFT
        touched_add = self.touched.add
        for p in where.pop(key):
            if sym[p] != a:
                continue
            q = nxt[p]
            if q < 0 or sym[q] != b:
                continue
            f = freq[p]
            merged += f
            w = word_of[p]
            places.append((w, p - word_start[w]))
            left = prv[p]
            right = nxt[q]
            if left >= 0:
                high = sym[left] << _SHIFT
                counts[high | a_low] -= f
                touched_add(high | a_low)
                fresh = high | new
                c = counts.get(fresh)
                if c is None:
                    counts[fresh] = f
                    where[fresh] = [left]
                    created.append(fresh)
                else:
                    counts[fresh] = c + f
                    where[fresh].append(left)
            if right >= 0:
                low = sym[right]
                counts[b_high | low] -= f
                touched_add(b_high | low)
                fresh = new_high | low
                c = counts.get(fresh)
                if c is None:
                    counts[fresh] = f
                    where[fresh] = [p]
                    created.append(fresh)
                else:
                    counts[fresh] = c + f
                    where[fresh].append(p)
                prv[right] = p
            sym[p] = new
            sym[q] = -1
            nxt[p] = right
        del counts[key]
        heap = self.heap
        for fresh in created:
            # a fresh pair may have been cancelled by a later place in the same word (a b a b)
            if counts[fresh] <= 0:
                del counts[fresh]
                del where[fresh]
            elif not reused:
                heapq.heappush(heap, self._entry(fresh))
        if reused:
            # pairs with an old token may have gained places, out of reading order: the one case
            # where counts rise, so the places are put back in order and the heap is rebuilt
            for k in where:
                if k >> _SHIFT == new or k & _LOW == new:
                    where[k] = sorted(set(where[k]))
            self.heap = [self._entry(k) for k in counts if counts[k] > 0]
            heapq.heapify(self.heap)
            self.tied = []
        before = self.total
        self.total -= merged
        pair = (vocab[a], vocab[b])
        return MergeStep(
            step=len(self.merges),
            pair=pair,
            token=token,
            count=count,
            tied=(pair, *((vocab[t >> _SHIFT], vocab[t & _LOW]) for t in tied)),
            places=tuple(places),
            tokens_before=before,
            tokens_after=self.total,
            vocab_size=len(vocab) + self.extra_ids,
        )

    def initial_tokens(self) -> int:
        return self.corpus.total_symbols()


def train(corpus: Corpus) -> tuple[Trainer, list[MergeStep]]:
    """Run a whole training: the trainer (merges, vocabulary, stop reason) and every step."""
    if corpus.is_empty:
        raise BpeLabError("the corpus is empty: give some training text")
    trainer = Trainer(corpus)
    steps = list(trainer.steps())
    return trainer, steps
