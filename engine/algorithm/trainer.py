"""The merge loop: one MergeStep per merge, computed incrementally.

The corpus is laid out once as flat arrays of symbols (every distinct word, its symbols side by
side, linked left and right); numpy lays a large corpus out and makes its merges with many places
in place (``engine.algorithm.trainer_bulk``), a middling one keeps its links and places in arrays
without numpy, a small corpus keeps plain lists, which the Python loop reads faster. Each pair keeps the list of places where it was ever made, in reading order; a merge visits
only those, so the whole run costs about one visit per symbol of the distinct words, however many
merges are asked for. Counts only ever fall for an existing pair (a pair gains places only on the
step that mints one of its tokens), so a heap with out-of-date entries re-checked on the way out
finds the same winner as recounting everything; a pair below the minimum frequency can never win
and never enters it. Most pairs count far less than the top and never win either: the heap holds
the pairs counted from a power of two below the top, the others wait unranked in bands of counts
and come onto it a band at a time as the top falls (``Trainer._lower_floor``). Pairs and queue entries are ints laid out as ``PairKeys`` says; each tie rule
of ``engine.algorithm.ranking`` is one order of the entries (``Trainer._queue_order``).

Ties cost nothing until asked for: the first few pairs at the top count stay off the heap in
tie-rule order (all of them, when fewer than TIES_KEPT tie; past that, how many pairs hold each
count from a floor a little below the top is counted once and followed merge by merge); the full
list of a step's ties is the history index's to give (``History.ties``). A step keeps its places
as an array and its first ties as the queue's own entries, shared from step to step: the records of
a long run, not its arithmetic, were what filled the memory.

The textbook loop that recounts every pair each round lives in ``engine.algorithm.textbook``; the tests
hold the two to the same merges.
"""

from __future__ import annotations

import heapq
import struct
from array import array
from bisect import bisect_left, bisect_right, insort
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass, field, fields, make_dataclass
from itertools import accumulate, chain, compress, islice, repeat
from operator import itemgetter, lshift, or_
from typing import Any, cast

from engine.algorithm.collector import collector_paused
from engine.algorithm.corpus import Corpus
from engine.errors import BpeLabError, TrainingError
from engine.algorithm.ranking import TieRule, rule_named, spelling_of
from engine.algorithm.settings import Settings
from engine.algorithm.spelling_order import LABEL_BITS, SpellingLabels

# the narrowest a pair key's halves are (``PairKeys``)
NARROWEST = 15
# places are below 2**31 (the corpus is at most MAX_BYTES symbols and markers)
PLACE_BITS = 31
PLACE_MASK = (1 << PLACE_BITS) - 1
# a queue entry's rank is RANK - count: the highest count ranks first
RANK = 1 << 62

# (pair key, weighted count, places in reading order) for each pair, as numpy and the layout list them
Listed = Sequence[tuple[int, int, MutableSequence[int]]]
# the pairs a merge made on one side of its places: each one's weight gained, and its places in
# reading order (the two dicts hold the same pairs in the same order)
Made = tuple[dict[int, int], dict[int, MutableSequence[int]]]

# why training stopped
TARGET_REACHED = "target reached"
NO_PAIR_REPEATS = "no pair repeats"
NOTHING_LEFT = "nothing left to merge"


# how many of the pairs tied with a winner a step keeps; ``History.ties`` lists them all
TIES_KEPT = 50
# how many times TIES_KEPT the queue's top holds: refilled from the heap in batches
TOP_HELD = 2
# the counts followed for the tie count reach down a quarter of the top count (``_pairs_at``)
FLOOR_DEPTH = 4

# from how many symbols the links and places are arrays (4 bytes a place, where a list holds a
# pointer to an int object of its own, about 40: most of a large run's memory; a list is read a
# tenth faster, which a small run keeps)
COMPACT_SYMBOLS = 200_000
# from how many symbols numpy lays the corpus out and makes its merges, and from how many places a
# merge goes to numpy (below them, importing numpy, 16 MB, and its per-call cost outweigh what it saves)
BULK_SYMBOLS = 1_000_000
BULK_PLACES = 150


class PairKeys:
    """How a pair and a queue entry are each one int: the one place that says so.

    A pair's key is ``left id << shift | right id``, each id in ``shift`` bits: as wide as every id
    the training can mint and no wider (``for_training``), because a narrow key is a small int,
    which a dict hashes and a comparison reads fastest (15 bits each keep a key below 2**30, one
    digit of a Python int). A queue entry, compared in C, lowest first, is
    ``RANK - count << rank_at | order << place_at | key``: the highest count first, then the
    tie rule's order of ``order_bits`` bits, then the key. The order is the pair's first place in
    reading order ("first"), that place flipped (``PLACE_MASK - place``: "last"), the labels of its
    two tokens in spelling order, the left one at ``label_at`` ("smallest"; "greatest" flips the
    labels, ``engine.algorithm.spelling_order``), or 0 ("hf", where the key itself breaks ties).
    The loops that run per place spell these out with the fields bound to locals; the methods say
    what they compute.
    """

    __slots__ = ("keys_mask", "label_at", "low", "place_at", "rank_at", "shift")

    def __init__(self, shift: int, order_bits: int = PLACE_BITS):
        self.shift = shift
        self.low = (1 << shift) - 1
        self.place_at = 2 * shift
        self.label_at = self.place_at + order_bits // 2
        self.keys_mask = (1 << self.place_at) - 1
        self.rank_at = self.place_at + order_bits

    @classmethod
    def for_training(cls, base: int, symbols: int, limit: int | None, order_bits: int = PLACE_BITS) -> PairKeys:
        """Keys for a training of ``symbols`` symbols from ``base`` tokens, to ``limit`` merges or
        tokens if given: a merge mints at most one id and takes at least one symbol away."""
        most = base + (symbols if limit is None else min(symbols, limit))
        return cls(max(NARROWEST, most.bit_length()), order_bits)

    def key(self, left: int, right: int) -> int:
        return left << self.shift | right

    def split(self, key: int) -> tuple[int, int]:
        """The left and right ids of a pair key."""
        return key >> self.shift, key & self.low

    def entry(self, count: int, first: int, key: int) -> int:
        return (RANK - count) << self.rank_at | first << self.place_at | key

    def count_of(self, entry: int) -> int:
        return RANK - (entry >> self.rank_at)

    def first_of(self, entry: int) -> int:
        return entry >> self.place_at & PLACE_MASK

    def key_of(self, entry: int) -> int:
        return entry & self.keys_mask


@dataclass(frozen=True, slots=True)
class MergeStep:
    """What one merge did.

    ``step``, ``pair``, ``token`` (the pair joined), ``count`` (its weighted occurrences; None where
    a file cannot know it), ``tie_count``: how many pairs had the winning count, the winner included
    (1: no tie); ``tied`` names the first of them, at most ``TIES_KEPT``: the winner first, then the
    others in the order the tie rule ranks them (``History.ties`` lists every one).
    ``tokens_before`` and ``tokens_after`` count the corpus's tokens (None, like ``count``, where a file
    keeps no corpus), ``vocab_size`` the vocabulary
    after the step. ``places`` are (word index, offset in base symbols where the pair's left token
    starts), one per merge made; an overlapping run (``a a a``) is merged once. ``positions`` are
    the same places in the trainer's layout, in reading order; ``rivals`` the tied rivals' queue
    entries, named through the layout when asked for.

    Two steps are equal when they say the same: their places, and their ties by name, not by
    queue entry.
    """

    step: int
    pair: tuple[str, str]
    token: str
    count: int | None
    tie_count: int
    tokens_before: int | None
    tokens_after: int | None
    vocab_size: int
    positions: Sequence[int] = field(default=(), compare=False, repr=False)
    rivals: Sequence[int] = field(default=(), compare=False, repr=False)
    layout: Layout | None = field(default=None, compare=False, repr=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MergeStep):
            return NotImplemented
        return (self._said() == other._said() and list(self.positions) == list(other.positions)
                and self.tied == other.tied)

    def _said(self) -> tuple[object, ...]:
        return (self.step, self.pair, self.token, self.count, self.tie_count, self.tokens_before,
                self.tokens_after, self.vocab_size)

    @property
    def tied(self) -> tuple[tuple[str, str], ...]:
        if self.layout is None:
            return (self.pair,)
        return (self.pair, *map(self.layout.rival, self.rivals))

    @property
    def places(self) -> tuple[tuple[int, int], ...]:
        if self.layout is None:
            return ()
        return self.layout.places(self.positions)

    def offsets_in(self, word: int) -> list[int]:
        """Base-symbol offsets in ``word`` where this step merged its pair, left to right."""
        if self.layout is None:
            return []
        return self.layout.offsets_in(self.positions, word)

    def words(self) -> list[int]:
        """The words this step merged inside, each once, in corpus order."""
        if self.layout is None:
            return []
        return self.layout.words(self.positions)


class Layout:
    """Reads the trainer's layout for the steps: the word a place lies in, and the names of the
    pairs in queue entries.

    ``vocab`` is the trainer's own list, which only ever grows: a key made at any step still names
    the same tokens.
    """

    __slots__ = ("keys", "vocab", "word_start")

    def __init__(self, word_start: list[int], vocab: list[str], keys: PairKeys):
        self.word_start, self.vocab, self.keys = word_start, vocab, keys

    def rival(self, entry: int) -> tuple[str, str]:
        """The pair a queue entry stands for."""
        a, b = self.keys.split(self.keys.key_of(entry))
        return self.vocab[a], self.vocab[b]

    def places(self, positions: Sequence[int]) -> tuple[tuple[int, int], ...]:
        starts = self.word_start
        found = []
        for p in positions:
            w = bisect_right(starts, p) - 1
            found.append((w, p - starts[w]))
        return tuple(found)

    def words(self, positions: Sequence[int]) -> list[int]:
        starts = self.word_start
        return sorted({bisect_right(starts, p) - 1 for p in positions})

    def offsets_in(self, positions: Sequence[int], word: int) -> list[int]:
        starts = self.word_start
        start = starts[word]
        end = starts[word + 1] if word + 1 < len(starts) else start + (1 << 62)
        # positions run in reading order: the word's own lie side by side
        i, j = bisect_left(positions, start), bisect_left(positions, end)
        return [p - start for p in positions[i:j]]


# A frozen dataclass sets each field through ``object.__setattr__``: about 3 µs a step, a tenth of
# a small run's time. The trainer fills a plain record with the same slots instead, at the speed of
# any object, and makes it the MergeStep it is (the layouts match, so Python allows the change).
_StepDraft = make_dataclass("_StepDraft", [(f.name, f.type) for f in fields(MergeStep)], slots=True)


def extra_ids(settings: Settings) -> int:
    """Ids taken by tokens that are not merges: the special tokens, and the unknown token for chars."""
    return len(settings.special_tokens) + (1 if settings.units == "chars" else 0)


def target_merges(settings: Settings, base_size: int) -> int | None:
    """How many merges the settings ask for, or None for "until no pair repeats".

    For a vocabulary size, the merges it takes when each makes a new token; a merge that rebuilds
    a token already there adds none, so training may then run longer (``Trainer.vocab_limit``).
    """
    if settings.merges is not None:
        return settings.merges
    if settings.vocab_size is not None:
        return max(0, settings.vocab_size - base_size - extra_ids(settings))
    return None


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


# what training holds per base symbol of the distinct words (links, places, counts, the steps'
# places), measured on real text; and per step (its record, names and kept ties)
BYTES_PER_SYMBOL = 110
BYTES_PER_STEP = 800


def memory_needed(corpus: Corpus) -> int:
    """About how many bytes training ``corpus`` holds at its peak (the corpus itself not counted)."""
    marker = 1 if corpus.settings.marker is not None else 0
    symbols = sum(map(len, corpus.words)) + marker * len(corpus)
    target = target_merges(corpus.settings, len(corpus.base_vocab()))
    # each merge takes at least one symbol away; with no target, a run rarely makes more merges
    # than a tenth of its symbols
    steps = symbols // 10 if target is None else min(target, symbols)
    return symbols * BYTES_PER_SYMBOL + BYTES_PER_STEP * steps


def memory_available() -> int | None:
    """Bytes the system can still give a process (Linux's MemAvailable), None where it does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        return None
    return None


def check_memory(corpus: Corpus) -> None:
    """Refuse, before anything is laid out, a training that would run out of memory part way."""
    need, free = memory_needed(corpus), memory_available()
    if free is None or need <= free:
        return
    gb = 1024 ** 3
    raise BpeLabError(
        f"training {len(corpus):,} different words would take about {need / gb:.1f} GB of memory, and "
        f"{free / gb:.1f} GB is free: train on a part of the text, ask for fewer merges, or close other programs"
    )


class Trainer:
    """Trains a corpus merge by merge: ``for step in Trainer(corpus).steps(): ...``.

    After the steps run out, ``stop_reason`` says why and ``merges`` holds the learned pairs.
    The loops that run once per place or per pair made bind what they read to locals first: a walk
    over 100,000 places that read the layout through attributes took a fifth longer.
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
        self._queue_order(rule_named(self.settings.tie_break))
        self.least = self.settings.min_frequency
        # where training stops: after this many merges, or (``vocab_limit``, when a vocabulary size
        # is asked for) at this many regular tokens, so that the special and unknown tokens count in
        # the vocabulary size (the one definition)
        self.merge_limit = self.settings.merges if self.settings.merges is not None else 1 << 62
        self.vocab_limit = (None if self.settings.merges is not None or self.settings.vocab_size is None
                            else self.settings.vocab_size - self.extra_ids)
        check_vocab_target(self.settings, len(self.base))
        check_memory(corpus)
        with collector_paused():
            self._count_pairs()

    # -- the words laid out, their pairs counted --------------------------------------------------

    def _count_pairs(self) -> None:
        """Lay every distinct word out side by side and count its pairs: numpy doing the bulk for a
        large corpus, builtins for a small one (which then starts without importing numpy).

        The layout: ``sym`` (each place's token id, -1 once merged into its left neighbour),
        ``nxt`` and ``prv`` (the links to the neighbouring tokens in the word, -1 at its ends),
        ``freq`` (the word's frequency at each place); ``counts`` and ``places_of`` hold each
        pair's weighted count and its places in reading order (some of them out of date).
        """
        corpus = self.corpus
        marker = self.settings.marker
        # each character's id, the same int object every time it is named
        code = {t: i for t, i in self.ids.items() if len(t) == 1}
        lengths = list(map(len, corpus.words))
        if marker is None:
            text = "".join(corpus.words)
        else:
            # a character no word holds ends each word and reads as the marker: one pass maps all
            end = next(c for c in map(chr, range(0xE000, 0x110000)) if c not in code)
            code[end] = self.ids[marker]
            text = end.join(corpus.words) + end
            lengths = [n + 1 for n in lengths]
        settings = self.settings
        self.keys = PairKeys.for_training(len(self.vocab), len(text),
                                          settings.merges if settings.merges is not None else settings.vocab_size,
                                          2 * LABEL_BITS if self.labels is not None else PLACE_BITS)
        # numpy only for a corpus large enough to repay importing it
        self.bulk = len(text) >= BULK_SYMBOLS
        self.compact = len(text) >= COMPACT_SYMBOLS
        # the pairs a merge makes keep their places in arrays too, but not beside numpy: there, reading
        # them back costs a large run a twentieth more instructions for a fourteenth less memory
        self.compact_made = self.compact and not self.bulk
        made: Listed
        self.sym: MutableSequence[int]
        self.nxt: MutableSequence[int]
        self.prv: MutableSequence[int]
        self.freq: MutableSequence[int]
        if self.bulk:
            from engine.algorithm.trainer_bulk import lay_out

            self.sym, self.nxt, self.prv, self.freq, made = lay_out(
                text, code, lengths, corpus.counts, self.keys.shift)
        else:
            self.sym, self.nxt, self.prv, self.freq, made = self._pairs_in_words(text, code, lengths)
        del text
        # one symbol past the last, never a symbol: what a link of -1 reads
        self.sym.append(-1)
        self.counts: dict[int, int] = {key: count for key, count, _ in made}
        self.places_of: dict[int, MutableSequence[int]] = {key: places for key, _, places in made}
        self.layout = Layout(list(accumulate(lengths, initial=0))[:-1], self.vocab, self.keys)
        self.total = corpus.total_symbols()
        self._queue_all()

    def _pairs_in_words(self, text: str, code: dict[str, int],
                        lengths: list[int]) -> tuple[list[int], MutableSequence[int], MutableSequence[int], list[int], Listed]:
        """``trainer_bulk.lay_out`` with builtins."""
        sym = list(map(code.__getitem__, text))
        n = len(sym)
        starts = accumulate(lengths, initial=0)
        freq = list(chain.from_iterable(map(repeat, self.corpus.counts, lengths)))
        compact = self.compact
        at: Sequence[int]
        if compact:
            # the links and places are arrays of 4 bytes a place: the ints a range hands out are
            # dropped once stored, none kept for every place
            at = range(n + 1)
            nxt: MutableSequence[int] = array("i", range(1, n + 1))
            prv: MutableSequence[int] = array("i", range(-1, n - 1))
        else:
            # one int object per place, shared by every pair's list of places that names it: a fresh
            # int per mention would be most of the trainer's memory
            at = list(range(n + 1))
            nxt = at[1:]
            prv = [-1, *at[:n - 1]] if n else []
        # the places that start a pair: all but each word's last (a byte each, read at C speed)
        inside = bytearray(b"\x01") * n
        for s in starts:
            if s < n:
                prv[s] = -1
            if s:
                nxt[s - 1] = -1
                inside[s - 1] = 0
        # every pair inside a word: its places in reading order, then its count
        places_of: defaultdict[int, MutableSequence[int]] = defaultdict(_places if compact else list)
        keys = map(or_, map(lshift, sym, repeat(self.keys.shift)), islice(sym, 1, None))
        for p, key in compress(zip(at, keys), inside):
            places_of[key].append(p)
        # one C call reads a pair's weights (``itemgetter``), not one call per place; the symbols and
        # weights stay lists either way: of a few ints, shared by every place
        made = [(key, sum(itemgetter(*places)(freq)) if len(places) > 1 else freq[places[0]], places)
                for key, places in places_of.items()]
        return sym, nxt, prv, freq, made

    # -- the queue and the tie rule -------------------------------------------------------------

    def _queue_order(self, rule: TieRule) -> None:
        """How queue entries order pairs of one count, read from the rule's key (``PairKeys``).

        ``by_first_place``: by the pair's first place, flipped by ``place_flip`` for the pair met
        last. A pair's first place moves on only when one of its places is merged away, which
        lowers its count: an out-of-date entry still ranks before the current one, whichever way
        places order, so the heap's stale entries are found on the way out for both rules.
        ``labels``: by the two tokens' spellings, their labels fixed while no token is labelled afresh.
        """
        probe = rule.key(1, 2, 3)
        reads = (rule.by_place, rule.by_ids, rule.by_spelling)
        self.by_first_place = reads == (True, False, False) and probe in ((1,), (-1,))
        self.place_flip = PLACE_MASK if self.by_first_place and probe == (-1,) else 0
        self.labels: SpellingLabels | None = None
        if reads == (False, False, True) and probe in ((2, 3), (-2, -3)):
            self.labels = SpellingLabels(self.vocab, spelling_of(self.settings.units), descending=probe[0] < 0)
        elif not self.by_first_place and (reads, probe) != ((False, True, False), (2, 3)):
            raise TrainingError(f"the trainer's queue cannot order pairs as the tie rule {rule.name} asks")

    def _queue_all(self) -> None:
        """Rank every pair afresh: the heap, the pairs at the top count, no count followed yet."""
        # a pair below the minimum frequency can never win (counts only fall): it stays off the heap
        least = self.least
        # the heap holds the pairs counted from a power of two at or below the top count (or the
        # minimum frequency) up (``heap_floor``, lowered as the top falls: ``_lower_floor``); those below wait outside, by count
        top_count = max(self.counts.values(), default=0)
        self.heap_floor = heap_floor = max(least, 1 << max(0, top_count.bit_length() - 1))
        # the keys of pairs counted from 2**(j - 1) to 2**j when they began to wait at [j] (counts
        # only fall: now perhaps less)
        self.waiting: list[list[int]] = [[] for _ in range(64)]
        self.heap = []
        for key, count in self.counts.items():
            if count >= heap_floor:
                self.heap.append(self._entry(key))
            elif count >= least:
                self.waiting[count.bit_length()].append(key)
        heapq.heapify(self.heap)
        # the first pairs at the highest count in tie-rule order, taken off the heap (at most TOP_HELD
        # times TIES_KEPT): every current entry at that count left on the heap ranks after them
        self.top: list[int] = []
        # the top pairs' keys, each with its entry in ``top``
        self.top_keys: dict[int, int] = {}
        # top pairs the last merge took places from: their entries are out of date
        self.touched: list[int] = []
        # how many pairs hold each count from ``floor`` up (none yet: no floor), kept up to date merge
        # by merge: the tie count of a step whose top pairs fill TIES_KEPT (below that, the top pairs
        # are all of them)
        self.floor = RANK
        self.at_count: dict[int, int] = {}

    def _first_place(self, key: int) -> int:
        """The pair's first current place; drops the out-of-date ones before it."""
        places = self.places_of[key]
        a, b = key >> self.keys.shift, key & self.keys.low
        sym, nxt = self.sym, self.nxt
        i = 0
        for p in places:
            # a link of -1 reads the layout's last symbol, which is never one
            if sym[p] == a and sym[nxt[p]] == b:
                break
            i += 1
        if i:
            del places[:i]
        return places[0] if places else -1

    def _entry(self, key: int) -> int:
        """The pair's queue entry (``PairKeys.entry``, spelt out: every pair is queued this way
        when the pairs are ranked afresh)."""
        count = self.counts[key]
        keys = self.keys
        if self.labels is not None:
            # equal counts go by the tokens' spellings, left first
            of = self.labels.of
            return (RANK - count) << keys.rank_at | of[key >> keys.shift] << keys.label_at | of[key & keys.low] << keys.place_at | key
        if not self.by_first_place:
            # equal counts go to the pair of smaller ids
            return (RANK - count) << keys.rank_at | key
        # equal counts go to the pair met first (or last) in reading order
        first = self._first_place(key)
        if first < 0:
            # a count with no place to show for it: never loop on it, say so
            a, b = keys.split(key)
            raise TrainingError(f"pair {a}+{b} counts {count} but is nowhere in the corpus")
        return (RANK - count) << keys.rank_at | (first ^ self.place_flip) << keys.place_at | key

    def _requeue(self, key: int) -> None:
        count = self.counts.get(key, 0)
        if count >= self.heap_floor:
            heapq.heappush(self.heap, self._entry(key))
        elif count >= self.least:
            self.waiting[count.bit_length()].append(key)

    def _lower_floor(self) -> bool:
        """With the heap and the top empty, the highest band of waiting pairs onto the heap (the
        floor now its lowest count); False if none waits. Each pair waits, then moves on, a few
        times in a run: a merge never ranks the many pairs of low counts on the heap."""
        waiting, counts, least = self.waiting, self.counts, self.least
        band = next((j for j in range(len(waiting) - 1, 0, -1) if waiting[j]), 0)
        if not band:
            return False
        self.heap_floor = heap_floor = max(least, 1 << (band - 1))
        keys, waiting[band] = waiting[band], []
        for key in keys:
            count = counts.get(key, 0)
            if count >= heap_floor:
                self.heap.append(self._entry(key))
            elif count >= least:
                waiting[count.bit_length()].append(key)
        heapq.heapify(self.heap)
        return True

    def _queue(self, entry: int) -> None:
        """Queue a pair's entry: among the top pairs if it ranks before the last of them."""
        top = self.top
        if top and entry < top[-1]:
            insort(top, entry)
            self.top_keys[self.keys.key_of(entry)] = entry
            if len(top) > TOP_HELD * TIES_KEPT:
                last = top.pop()
                # on the heap it is checked again when it comes up, current or not
                del self.top_keys[self.keys.key_of(last)]
                heapq.heappush(self.heap, last)
        else:
            heapq.heappush(self.heap, entry)

    def _refill_top(self) -> None:
        """Bring the top pairs up to date: the pairs the last merge took places from queued again,
        then current entries at the top count taken off the heap, in tie-rule order, until the top
        holds ``TOP_HELD`` times TIES_KEPT of them or the heap has none left at that count.

        The top pairs stay off the heap from step to step: most are still tied at the next step.
        Holding more than a step shows lets the top be refilled in batches, not at every step.
        """
        top, top_keys = self.top, self.top_keys
        if self.touched:
            for key in self.touched:
                # a pair the last merge pushed off the top is on the heap already
                entry = top_keys.pop(key, None)
                if entry is not None:
                    del top[bisect_left(top, entry)]
                    self._requeue(key)
            self.touched.clear()
        keys, heap, counts, least = self.keys, self.heap, self.counts, self.least
        rank_at, place_at, keys_mask, shift, low = keys.rank_at, keys.place_at, keys.keys_mask, keys.shift, keys.low
        sym, nxt, by_place, flip = self.sym, self.nxt, self.by_first_place, self.place_flip
        top_rank = top[0] >> rank_at if top else -1
        held = TOP_HELD * TIES_KEPT
        while len(top) < held:
            if not heap:
                # every waiting pair counts less than the floor, so less than any top pair
                if top or not self._lower_floor():
                    break
                continue
            entry = heap[0]
            rank = entry >> rank_at
            # nothing current on the heap counts more than the top pairs; out-of-date entries may say so
            if rank > top_rank >= 0:
                break
            key = entry & keys_mask
            count = counts.get(key, 0)
            # current: the pair still counts as much, and (rules of places) is still at its first place
            if RANK - rank == count and (not by_place or (
                    sym[p := (entry >> place_at & PLACE_MASK) ^ flip] == key >> shift and sym[nxt[p]] == key & low)):
                heapq.heappop(heap)
                if not top:
                    top_rank = rank
                top.append(entry)
                top_keys[key] = entry
            elif count >= self.heap_floor:
                # the pair's entry made afresh takes the old one's place: one sift, not two
                heapq.heapreplace(heap, self._entry(key))
            else:
                heapq.heappop(heap)
                if count >= least:
                    self.waiting[count.bit_length()].append(key)

    # -- the loop -------------------------------------------------------------------------------

    def target_merges(self) -> int | None:
        return target_merges(self.settings, len(self.base))

    def steps(self) -> Iterator[MergeStep]:
        """Merge after merge, until the target or a stop (``stop_reason`` says which). One run:
        iterate once.

        A run makes thousands of merges of a few places each, where every call and every name
        looked up counts (a tenth of such a run): the step reads the top of the queue itself, and
        the names it reads at every step are bound once, here."""
        vocab, ids, merges, places_of = self.vocab, self.ids, self.merges, self.places_of
        shift, low, rank_at, keys_mask = self.keys.shift, self.keys.low, self.keys.rank_at, self.keys.keys_mask
        merge_limit, vocab_limit, bulk, extra, layout = (self.merge_limit, self.vocab_limit, self.bulk,
                                                         self.extra_ids, self.layout)
        labels = self.labels
        while True:
            if len(merges) >= merge_limit if vocab_limit is None else len(vocab) >= vocab_limit:
                self.stop_reason = TARGET_REACHED
                return
            # the pair to merge: the top of the queue, as the last step left it, unless a merge
            # touched one, too few are left to show a step's ties, or the heap may hold more at
            # their count (a rebuilt token queues every pair afresh: the lists are read again)
            top, heap = self.top, self.heap
            if self.touched or len(top) < TIES_KEPT and (not top or heap and heap[0] >> rank_at <= top[0] >> rank_at):
                self._refill_top()
                if not top:
                    # the pairs left, if any, are all below the minimum frequency
                    self.stop_reason = NO_PAIR_REPEATS if self.counts else NOTHING_LEFT
                    return
            count = RANK - (top[0] >> rank_at)
            # the top holds every pair at its count, unless it is full
            tie_count = len(top) if len(top) < TIES_KEPT else self._pairs_at(count)
            key = top.pop(0) & keys_mask
            del self.top_keys[key]
            # the tied rivals' entries themselves (C speed): the same ones stay at the top for many
            # steps, so the steps share them
            rivals = tuple(top[:TIES_KEPT - 1])
            a, b = key >> shift, key & low
            token = vocab[a] + vocab[b]
            # a token's string made again by another pair keeps its id, as in tokenizers
            new = ids.get(token, -1)
            rebuilt = new >= 0
            relabelled = False
            if not rebuilt:
                new = len(vocab)
                vocab.append(token)
                ids[token] = new
                if labels is not None:
                    relabelled = labels.add(token)
            merges.append((a, b))
            found = places_of.pop(key)
            if bulk and not rebuilt and a != b and len(found) >= BULK_PLACES:
                positions, made_left, made_right, merged = self._merge_in_bulk(found, a, b, new)
            else:
                positions, made_left, made_right, merged = self._merge_at_places(found, a, b, new)
            self._recount_and_queue(key, count, a, b, new, made_left, made_right, rebuilt)
            if relabelled:
                # every entry holds labels no longer given: every pair ranked afresh
                self._queue_all()
            before = self.total
            self.total = after = before - merged
            step: Any = _StepDraft(len(merges), (vocab[a], vocab[b]), token, count, tie_count, before, after,
                                   len(vocab) + extra, positions, rivals, layout)
            # the draft is the MergeStep it stands for (``_StepDraft``): no call, not even a cast
            step.__class__ = MergeStep
            yield step

    def _pairs_at(self, count: int) -> int:
        """How many pairs hold ``count``, the top count, when the top is too full to say."""
        if count < self.floor:
            # counts only fall (the winner's too) until a rebuilt token ranks every pair afresh: the
            # counts from a floor below the top are counted out once, then followed, so the top
            # falls through many counts before they are all read again
            self.floor = floor = count - count // FLOOR_DEPTH
            self.at_count = Counter(filter(floor.__le__, self.counts.values()))
        return self.at_count.get(count, 0)

    def _merge_in_bulk(self, found: MutableSequence[int], a: int, b: int, new: int) -> tuple[Sequence[int], Made, Made, int]:
        """``_merge_at_places`` for a new token of two different tokens with many places in a large
        corpus: numpy's vectorised walk makes the same merges at once."""
        from engine.algorithm.trainer_bulk import merge_in_bulk

        # a corpus laid out by numpy keeps its layout in arrays
        layout = cast("tuple[array[int], array[int], array[int], array[int]]", (self.sym, self.nxt, self.prv, self.freq))
        return merge_in_bulk(*layout, found, a, b, new, self.keys.shift)

    def _merge_at_places(self, found: Iterable[int], a: int, b: int, new: int) -> tuple[Sequence[int], Made, Made, int]:
        """Merge ``a b`` into ``new`` at the places of ``found`` that still hold it, left to right
        (the only way for an overlapping run, a a a, where each merge spoils the next place),
        rewriting the layout. The pairs made on the left (``x new``, at the left neighbour's place)
        and on the right (``new y``, at the token's own) are kept apart: they lose from different
        neighbours, and a rebuilt token's ``new new`` can be both. Returns the places merged, the
        pairs made on the left and on the right, and the weight merged."""
        sym, nxt, prv = self.sym, self.nxt, self.prv
        shift = self.keys.shift
        left_places: dict[int, MutableSequence[int]] = {}
        right_places: dict[int, MutableSequence[int]] = {}
        left_gains: dict[int, int] = {}
        right_gains: dict[int, int] = {}
        find_left, find_right = left_places.get, right_places.get
        freq = self.freq
        positions: list[int] = []
        keep = positions.append
        new_high = new << shift
        merged = 0
        for p in found:
            if sym[p] != a:
                continue
            q = nxt[p]
            # a link of -1 reads the layout's last symbol, which is never one
            if sym[q] != b:
                continue
            keep(p)
            w = freq[p]
            merged += w
            left = prv[p]
            right = nxt[q]
            if left >= 0:
                pair = sym[left] << shift | new
                places = find_left(pair)
                if places is None:
                    left_places[pair] = [left]
                    left_gains[pair] = w
                else:
                    places.append(left)
                    left_gains[pair] += w
            if right >= 0:
                pair = new_high | sym[right]
                places = find_right(pair)
                if places is None:
                    right_places[pair] = [p]
                    right_gains[pair] = w
                else:
                    places.append(p)
                    right_gains[pair] += w
                prv[right] = p
            sym[p] = new
            sym[q] = -1
            nxt[p] = right
        return array("i", positions), (left_gains, left_places), (right_gains, right_places), merged

    def _recount_and_queue(self, key: int, count: int, a: int, b: int, new: int, made_left: Made,
                           made_right: Made, rebuilt: bool) -> None:
        """The neighbours' pairs lose what the new pairs gain, then the new pairs are queued.

        Each place of ``x new`` was one of ``x a``, each of ``new y`` one of ``b y``, in the same
        word, so of the same weight. The right pairs come first: a left pair ``new new`` undoes a
        right pair ``new a`` made a moment before. A pair made and then undone by a later place
        (``a b a b``: the first place's ``new a`` is the second's ``a b``) may have moved its first
        place on. The counts followed (from ``floor`` up) lose the pairs that fall from them and gain
        the ones that fall to them; the pairs made are added to them as they are queued. A rebuilt
        token ranks every pair afresh instead (``_rank_afresh``). One method for both passes: a run of
        thousands of tiny merges pays for every call.
        """
        counts, places_of, top_keys, touched = self.counts, self.places_of, self.top_keys, self.touched
        shift, floor, at_count, compact = self.keys.shift, self.floor, self.at_count, self.compact_made
        if count >= floor:
            at_count[count] -= 1
        del counts[key]
        new_pairs: list[int] = []
        # made only in the step that needs it (``a b a b``): most steps undo nothing
        undone: set[int] | None = None
        for (gains, made_places), to_old in ((made_right, (b - new) << shift), (made_left, a - new)):
            for pair, gain in gains.items():
                places = made_places[pair]
                if rebuilt and pair in counts:
                    # only a rebuilt token's pairs can be there already
                    counts[pair] += gain
                    places_of[pair].extend(places)
                else:
                    counts[pair] = gain
                    places_of[pair] = _int32s(places) if compact and type(places) is list else places
                new_pairs.append(pair)
                old = pair + to_old
                if old == key:
                    # an overlapping run (a a a) also counted the winner as its own neighbour
                    continue
                n = counts[old] - gain
                if old >> shift == new:
                    # a pair this step made (or a rebuilt token had): settled with the pairs made
                    counts[old] = n
                    if undone is None:
                        undone = set()
                    undone.add(old)
                    continue
                if old in top_keys:
                    touched.append(old)
                if n + gain >= floor:
                    at_count[n + gain] -= 1
                    if n >= floor:
                        at_count[n] = at_count.get(n, 0) + 1
                if n > 0:
                    counts[old] = n
                else:
                    del counts[old]
                    del places_of[old]
        if rebuilt:
            self._rank_afresh(new, chain(new_pairs, undone or ()))
            return
        # the new pairs queued; a pair made and then undone to nothing goes
        least, by_place, heap, top = self.least, self.by_first_place, self.heap, self.top
        heap_floor, waiting = self.heap_floor, self.waiting
        rank_at, place_at, label_at, low, flip = (self.keys.rank_at, self.keys.place_at, self.keys.label_at,
                                                  self.keys.low, self.place_flip)
        of = self.labels.of if self.labels is not None else None
        push = heapq.heappush
        for pair in new_pairs:
            c = counts[pair]
            if c <= 0:
                del counts[pair]
                del places_of[pair]
                continue
            if c >= floor:
                at_count[c] = at_count.get(c, 0) + 1
            if c < least:
                continue
            if c < heap_floor:
                # below the heap's floor: waits by count, unranked
                waiting[c.bit_length()].append(pair)
                continue
            if undone is not None and pair in undone:
                entry = self._entry(pair)
            elif by_place:
                # a pair just made is still at the first place it was made: no need to look
                entry = (RANK - c) << rank_at | (places_of[pair][0] ^ flip) << place_at | pair
            elif of is not None:
                entry = (RANK - c) << rank_at | of[pair >> shift] << label_at | of[pair & low] << place_at | pair
            else:
                entry = (RANK - c) << rank_at | pair
            if top and entry < top[-1]:
                self._queue(entry)
            else:
                push(heap, entry)

    def _rank_afresh(self, new: int, settled: Iterable[int]) -> None:
        """After a merge that rebuilt an existing token: pairs with it may have gained places, out of
        reading order, the one case where counts rise; the places are put back in order and every
        pair ranked afresh."""
        counts, places_of = self.counts, self.places_of
        for pair in settled:
            if pair in counts and counts[pair] <= 0:
                del counts[pair]
                del places_of[pair]
        shift, low = self.keys.shift, self.keys.low
        for k in places_of:
            if k >> shift == new or k & low == new:
                places_of[k] = sorted(set(places_of[k]))
        self._queue_all()

    def initial_tokens(self) -> int:
        return self.corpus.total_symbols()


def _places() -> array[int]:
    return array("i")


def _int32s(values: list[int]) -> array[int]:
    """``array("i", values)``: array converts each int through a format read afresh, struct through
    one compiled once, in under half the instructions, from a few dozen ints (compiling costs a
    short list more)."""
    if len(values) < 32:
        return array("i", values)
    packed = array("i")
    packed.frombytes(struct.pack(f"{len(values)}i", *values))
    return packed



def train(corpus: Corpus) -> tuple[Trainer, list[MergeStep]]:
    """Run a whole training: the trainer (merges, vocabulary, stop reason) and every step."""
    if corpus.is_empty:
        raise BpeLabError("the corpus is empty: give some training text")
    with collector_paused():
        trainer = Trainer(corpus)
        steps = list(trainer.steps())
    return trainer, steps
