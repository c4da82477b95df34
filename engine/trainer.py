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
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator, Sequence

import numpy as np

from engine.corpus import Corpus
from engine.errors import BpeLabError, TrainingError
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
    tokens_before: int
    tokens_after: int
    vocab_size: int
    # where the merges were made, as positions in the trainer's layout; ``places`` reads them
    positions: Sequence[int] = field(default=(), repr=False)
    layout: "WordIndex | None" = field(default=None, repr=False, compare=False)

    @cached_property
    def places(self) -> tuple[tuple[int, int], ...]:
        if self.layout is None:
            return ()
        return self.layout.places(self.positions)


class WordIndex:
    """Which word a layout position belongs to, and where in the word it lies."""

    __slots__ = ("word_of", "word_start")

    def __init__(self, word_of: list[int], word_start: list[int]):
        self.word_of, self.word_start = word_of, word_start

    def places(self, positions: Sequence[int]) -> tuple[tuple[int, int], ...]:
        word_of, word_start = self.word_of, self.word_start
        return tuple([(word_of[p], p - word_start[word_of[p]]) for p in positions])


@contextmanager
def collector_paused():
    """Hold Python's cycle collector off for a whole training run (``train``, the CLI).

    A step makes thousands of small lists and tuples, none in a cycle; left on, the collector
    would walk the trainer's whole working set again and again. The window keeps it off anyway
    and collects on its own thread (app.collector), so ``steps()`` leaves it alone.
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
    """How many merges the settings ask for, or None for "until no pair repeats".

    For a vocabulary size, the merges it takes when each makes a new token; a merge that rebuilds
    a token already there adds none, so training may then run longer (``target_reached``).
    """
    if settings.merges is not None:
        return settings.merges
    if settings.vocab_size is not None:
        return max(0, settings.vocab_size - base_size - extra_ids(settings))
    return None


def target_reached(settings: Settings, merges: int, vocab_size: int) -> bool:
    """Whether ``merges`` merges, or a vocabulary of ``vocab_size`` tokens (special and unknown
    tokens included: the one definition), is what the settings ask for."""
    if settings.merges is not None:
        return merges >= settings.merges
    if settings.vocab_size is not None:
        return vocab_size >= settings.vocab_size
    return False


def check_vocab_target(settings: Settings, base_size: int) -> None:
    """Refuse a vocabulary size smaller than the vocabulary training starts from."""
    start = base_size + extra_ids(settings)
    if settings.vocab_size is None or settings.vocab_size >= start:
        return
    parts = [f"{base_size:,} base symbols"]
    if settings.special_tokens:
        parts.append(f"{len(settings.special_tokens)} special")
    if settings.units == "chars":
        parts.append("<unk>")
    raise BpeLabError(
        f"a vocabulary of {settings.vocab_size:,} tokens is smaller than the base vocabulary, which already holds "
        f"{start:,} ({' + '.join(parts)}) before any merge: ask for {start:,} or more"
    )


class Trainer:
    """Trains a corpus merge by merge: ``for step in Trainer(corpus).steps(): ...``.

    After the steps run out, ``stop_reason`` says why and ``merges`` holds the learned pairs.
    """

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.settings = corpus.settings
        self.base = corpus.base_vocab()
        self.vocab: list[str] = list(self.base)
        self.ids: dict[str, int] = {t: i for i, t in enumerate(self.vocab)}
        self.merges: list[tuple[int, int]] = []
        self.stop_reason: str | None = None
        self.extra_ids = extra_ids(self.settings)
        check_vocab_target(self.settings, len(self.base))
        with collector_paused():
            self._layout()

    def _layout(self) -> None:
        """Lay every distinct word out side by side and count its pairs, with numpy doing the bulk."""
        corpus, ids = self.corpus, self.ids
        marker = self.settings.marker
        lengths = np.fromiter(map(len, corpus.words), dtype=np.int64, count=len(corpus))
        # each character's id: look its code point up among the base characters'
        base_chars = [t for t in self.vocab if len(t) == 1]
        points = np.array([ord(c) for c in base_chars], dtype=np.int64)
        order = np.argsort(points)
        char_ids = np.array([ids[c] for c in base_chars], dtype=np.int64)[order]
        text = "".join(corpus.words).encode("utf-32-le", "surrogatepass")
        codes = np.frombuffer(text, dtype=np.uint32).astype(np.int64)
        sym = char_ids[np.searchsorted(points[order], codes)] if len(codes) else codes
        if marker is not None:
            lengths += 1
            ends = np.cumsum(lengths - 1)
            sym = np.insert(sym, ends, ids[marker])
        n = len(sym)
        starts = np.zeros(len(lengths), dtype=np.int64)
        np.cumsum(lengths[:-1], out=starts[1:])
        last = starts + lengths - 1
        word_of = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        freq = np.repeat(np.array(corpus.counts, dtype=np.int64), lengths)
        nxt = np.arange(1, n + 1, dtype=np.int64)
        nxt[last] = -1
        prv = np.arange(-1, n - 1, dtype=np.int64)
        prv[starts] = -1
        # every pair: its count and its positions in reading order
        pos = np.flatnonzero(nxt >= 0)
        keys = sym[pos] << _SHIFT | sym[pos + 1]
        by_key = np.argsort(keys, kind="stable")
        keys, pos = keys[by_key], pos[by_key]
        firsts = np.flatnonzero(np.diff(keys)) + 1 if len(keys) else keys
        bounds = [0, *firsts.tolist(), len(keys)]
        totals = np.add.reduceat(freq[pos], bounds[:-1]) if len(keys) else keys
        pos_list = pos.tolist()
        key_list = keys[bounds[:-1]].tolist() if len(keys) else []
        self.counts = dict(zip(key_list, totals.tolist()))
        self.where = {k: pos_list[a:b] for k, a, b in zip(key_list, bounds, bounds[1:])}
        self.sym, self.nxt, self.prv = sym.tolist(), nxt.tolist(), prv.tolist()
        self.freq = freq.tolist()
        self.word_start = starts.tolist()
        self.index = WordIndex(word_of.tolist(), self.word_start)
        self.total = corpus.total_symbols()
        self.heap = [self._entry(key) for key in self.counts]
        heapq.heapify(self.heap)
        # entries of the pairs tied at the last step, kept off the heap until a merge changes them
        self.tied: list[tuple] = []

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
        first = self._first_place(key)
        if first < 0:
            # a count with no place to show for it: never loop on it, say so
            raise TrainingError(f"pair {key >> _SHIFT}+{key & _LOW} counts {count} but is nowhere in the corpus")
        return (-count, first, key)

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
        while (step := self._next_step()) is not None:
            yield step

    def _next_step(self) -> MergeStep | None:
        """Make the next merge, or say why there is none (``stop_reason``) and return None."""
        if target_reached(self.settings, len(self.merges), len(self.vocab) + self.extra_ids):
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
        the next step, and only the pairs the last merge changed need queueing again.
        """
        # a pair a merge changed lost places, and so count: an unchanged count means unchanged places
        counts = self.counts
        tied = []
        for entry in self.tied:
            if counts.get(entry[-1], 0) == -entry[0]:
                tied.append(entry)
            else:
                self._requeue(entry[-1])
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
        created: list[int] = []  # pairs first counted in this step
        positions: list[int] = []
        merged = 0
        b_high = b << _SHIFT
        new_high = new << _SHIFT
        for p in where.pop(key):
            if sym[p] != a:
                continue
            q = nxt[p]
            if q < 0 or sym[q] != b:
                continue
            f = freq[p]
            merged += f
            positions.append(p)
            left = prv[p]
            right = nxt[q]
            if left >= 0:
                high = sym[left] << _SHIFT
                counts[high | a] -= f
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
            tokens_before=before,
            tokens_after=self.total,
            vocab_size=len(vocab) + self.extra_ids,
            positions=tuple(positions),
            layout=self.index,
        )

    def initial_tokens(self) -> int:
        return self.corpus.total_symbols()


def train(corpus: Corpus) -> tuple[Trainer, list[MergeStep]]:
    """Run a whole training: the trainer (merges, vocabulary, stop reason) and every step."""
    if corpus.is_empty:
        raise BpeLabError("the corpus is empty: give some training text")
    with collector_paused():
        trainer = Trainer(corpus)
        steps = list(trainer.steps())
    return trainer, steps
