"""The merge loop: one MergeStep per merge, computed incrementally.

The corpus is laid out once as flat arrays (``array('i')``) of symbols (every distinct word, its
symbols side by side, linked left and right), so that numpy can read and rewrite them in place
(``engine.trainer_bulk``) for a large corpus: its layout, and its merges with many places (a
small corpus keeps them as lists, which the Python loop reads faster). Each
pair keeps the list of positions where it was ever made, in reading order; a merge visits only
those positions, so the whole run costs about one visit per symbol of the distinct words, however
many merges are asked for. Counts only ever fall for an existing pair (a pair gains places only
on the step that mints one of its tokens), so a heap with stale entries re-checked on the way out
finds the same winner as recounting everything; a pair below the minimum frequency can never win
and never enters it.

Ties cost nothing until asked for: the first few pairs at the top count stay off the heap in
tie-rule order (all of them, when fewer than TIES_KEPT tie; past that, how many pairs hold the
top count is counted once and followed merge by merge); the full list
of a step's ties is the history index's to give (``History.ties``). A step keeps its places as an
array and its first ties as the queue's own entries, shared from step to step: the records of a
long run, not its arithmetic, were what filled the memory.

The textbook loop that recounts every pair each round lives in ``engine.textbook``; the tests
hold the two to the same merges.
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass
from itertools import accumulate, chain, compress, islice, repeat
from operator import countOf, ge, itemgetter, lshift, or_
from typing import Iterator, Sequence

from engine.collector import collector_paused
from engine.corpus import Corpus
from engine.errors import BpeLabError, TrainingError
from engine.settings import Settings

# the narrowest a pair key's halves are: 15 bits each keep a key below 2**30, one digit of a Python
# int, which hashes and compares fastest; a larger vocabulary widens them (``Trainer._key_width``)
NARROWEST = 15
# positions are below 2**31 (the corpus is at most MAX_BYTES symbols and markers)
_PLACE_BITS = 31
_PLACES = (1 << _PLACE_BITS) - 1
# a queue entry is one int, compared in C: the count (highest first), then the first place (for
# the "first" tie rule; 0 for "hf", where the pair key itself breaks ties), then the pair key
_RANK = 1 << 62

# (pair key, weighted count, places in reading order) for each pair a merge made
Made = list[tuple[int, int, Sequence[int]]]

# why training stopped
TARGET_REACHED = "target reached"
NO_PAIR_REPEATS = "no pair repeats"
NOTHING_LEFT = "nothing left to merge"


# how many of the pairs tied with a winner a step keeps; ``History.ties`` lists them all
TIES_KEPT = 50
# how many times TIES_KEPT the queue's top holds: refilled from the heap in batches
TOP_HELD = 2

# from how many symbols numpy lays the corpus out and makes its merges, and from how many places a
# merge goes to numpy (below them, importing numpy and its per-call cost outweigh what it saves)
BULK_SYMBOLS = 200_000
BULK_PLACES = 500


_STEP_FIELDS = ("step", "pair", "token", "count", "tie_count", "tokens_before", "tokens_after", "vocab_size",
                "positions", "rivals", "layout")


def _field(i: int, name: str) -> property:
    return property(lambda step: step.row[i], doc=f"The step's {name} (``row[{i}]``).")


@dataclass(frozen=True, slots=True, eq=False)
class MergeStep:
    """What one merge did.

    ``step``, ``pair``, ``token`` (the pair joined), ``count`` (its weighted occurrences),
    ``tie_count``: how many pairs had the winning count, the winner included (1: no tie);
    ``tied`` names the first of them, at most ``TIES_KEPT``: the winner first, then the others in
    the order the tie rule ranks them (``History.ties`` lists every one). ``tokens_before`` and
    ``tokens_after`` count the corpus's tokens, ``vocab_size`` the vocabulary after the step.
    ``places`` are (word index, offset in base symbols where the pair's left token starts), one per
    merge made; an overlapping run (``a a a``) is merged once. ``positions`` are the same places in
    the trainer's layout, in reading order; ``rivals`` the tied rivals' queue entries, named
    through the layout when asked for.

    The fields are one tuple, ``row``, in the order of ``_STEP_FIELDS``: a run makes thousands of
    steps a second, and a frozen record sets each field on its own (``MergeStep.of`` takes them by
    name). Two steps are equal when they say the same (their ties by name, not by queue entry).
    """

    row: tuple

    @classmethod
    def of(cls, step: int, pair: tuple[str, str], token: str, count: int, tie_count: int, tokens_before: int,
           tokens_after: int, vocab_size: int, positions: Sequence[int] = (), rivals: Sequence[int] = (),
           layout: "Layout | None" = None) -> "MergeStep":
        return cls((step, pair, token, count, tie_count, tokens_before, tokens_after, vocab_size, positions, rivals,
                    layout))

    step = _field(0, "number")
    pair = _field(1, "pair")
    token = _field(2, "token")
    count = _field(3, "count")
    tie_count = _field(4, "tie count")
    tokens_before = _field(5, "tokens before")
    tokens_after = _field(6, "tokens after")
    vocab_size = _field(7, "vocabulary size")
    positions = _field(8, "positions")
    rivals = _field(9, "rivals' queue entries")
    layout = _field(10, "layout")

    def __eq__(self, other) -> bool:
        if not isinstance(other, MergeStep):
            return NotImplemented
        return self.row[:8] == other.row[:8] and list(self.positions) == list(other.positions) and self.tied == other.tied

    def __hash__(self) -> int:
        return hash(self.row[:8])

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(_STEP_FIELDS, self.row[:8]))
        return f"MergeStep({shown})"

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
    """Reads the trainer's layout for the steps: the word a position lies in, and the names of the
    pairs in queue entries (``shift``: the bits of a pair key's right half).

    ``vocab`` is the trainer's own list, which only ever grows: a key made at any step still names
    the same tokens.
    """

    __slots__ = ("word_start", "vocab", "shift")

    def __init__(self, word_start: list[int], vocab: list[str], shift: int):
        self.word_start, self.vocab, self.shift = word_start, vocab, shift

    def rival(self, entry: int) -> tuple[str, str]:
        """The pair a queue entry (its key in the low bits) stands for."""
        shift = self.shift
        return self.vocab[entry >> shift & ((1 << shift) - 1)], self.vocab[entry & ((1 << shift) - 1)]

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
        # read on every queue entry: kept as a flag, not looked up in the settings each time
        self.by_first_place = self.settings.tie_break != "hf"
        self.least = self.settings.min_frequency
        # where training stops, read on every step: after this many merges, or (``vocab_limit``, when
        # a vocabulary size is asked for) at this many regular tokens, so that the special and unknown
        # tokens count in the vocabulary size (the one definition)
        self.merge_limit = self.settings.merges if self.settings.merges is not None else 1 << 62
        self.vocab_limit = (None if self.settings.merges is not None or self.settings.vocab_size is None
                            else self.settings.vocab_size - self.extra_ids)
        check_vocab_target(self.settings, len(self.base))
        check_memory(corpus)
        with collector_paused():
            self._layout()

    def _layout(self) -> None:
        """Lay every distinct word out side by side and count its pairs: numpy doing the bulk for a
        large corpus, builtins for a small one (which then starts without importing numpy)."""
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
        self._key_width(len(text))
        # numpy only for a corpus large enough to repay importing it
        self.bulk = len(text) >= BULK_SYMBOLS
        if self.bulk:
            from engine.trainer_bulk import lay_out

            self.sym, self.nxt, self.prv, self.freq, made = lay_out(text, code, lengths, corpus.counts, self.shift)
        else:
            self.sym, self.nxt, self.prv, self.freq, made = self._lay_out(text, code, lengths)
        del text
        # one symbol past the last, never a symbol: what a link of -1 reads
        self.sym.append(-1)
        self.counts = {key: count for key, count, _ in made}
        self.where = {key: places for key, _, places in made}
        self.layout = Layout(list(accumulate(lengths, initial=0))[:-1], self.vocab, self.shift)
        self.total = corpus.total_symbols()
        self._queue_all()

    def _key_width(self, symbols: int) -> None:
        """How a pair is keyed: its two ids side by side, each in ``shift`` bits, wide enough for every
        id this training can mint (at most one a merge, and a merge takes at least one of the
        ``symbols`` away), and no wider: a narrow key is a small int, which a dict hashes and a
        comparison reads fastest. A queue entry puts the first place above the key, the count above both."""
        settings = self.settings
        limit = settings.merges if settings.merges is not None else settings.vocab_size
        most = len(self.vocab) + (symbols if limit is None else min(symbols, limit))
        self.shift = max(NARROWEST, most.bit_length())
        self.low = (1 << self.shift) - 1
        self.key_bits = 2 * self.shift
        self.keys_mask = (1 << self.key_bits) - 1
        self.rank_at = self.key_bits + _PLACE_BITS

    def _lay_out(self, text: str, code: dict[str, int], lengths: list[int]):
        """``trainer_bulk.lay_out`` with builtins."""
        sym = list(map(code.__getitem__, text))
        n = len(sym)
        starts = accumulate(lengths, initial=0)
        freq = list(chain.from_iterable(map(repeat, self.corpus.counts, lengths)))
        # one int object per position, shared by every pair's list of places that names it: a
        # fresh int per mention would be most of the trainer's memory
        at = list(range(n + 1))
        nxt = at[1:]
        prv = [-1, *at[:n - 1]] if n else []
        for s in starts:
            if s < n:
                prv[s] = -1
            if s:
                nxt[s - 1] = -1
        # every pair inside a word: its positions in reading order, then its count
        where: dict[int, list[int]] = {}
        keys = map(or_, map(lshift, sym, repeat(self.shift)), islice(sym, 1, None))
        for p, key in compress(zip(at, keys), map(ge, nxt, repeat(0))):
            found = where.get(key)
            if found is None:
                where[key] = [p]
            else:
                found.append(p)
        # one C call reads a pair's weights (``itemgetter``), not one call per place
        made = [(key, sum(itemgetter(*places)(freq)) if len(places) > 1 else freq[places[0]], places)
                for key, places in where.items()]
        # kept as lists: reading a list hands back the int it holds, reading an array makes a new
        # one, and a small corpus's lists cost little memory
        return sym, nxt, prv, freq, made

    def _queue_all(self) -> None:
        """Rank every pair afresh: the heap, the pairs at the top count, no count followed yet."""
        # a pair below the minimum frequency can never win (counts only fall): it stays off the heap
        least = self.settings.min_frequency
        self.heap = [self._entry(key) for key, count in self.counts.items() if count >= least]
        heapq.heapify(self.heap)
        # the first pairs at the highest count in tie-rule order, taken off the heap (at most TOP_HELD
        # times TIES_KEPT): every current entry at that count left on the heap ranks after them
        self.top: list[int] = []
        # the top pairs' keys, each with its entry in ``top``
        self.top_keys: dict[int, int] = {}
        # top pairs the last merge took places from: their entries are out of date
        self.stale: list[int] = []
        # how many pairs hold the count ``tracked`` (-1: none yet), kept up to date merge by merge: the
        # tie count of a step whose top pairs fill TIES_KEPT (below that, the top pairs are all of them)
        self.tracked = -1
        self.at_tracked = 0

    # -- the tie rule ---------------------------------------------------------------------------

    def _first_place(self, key: int) -> int:
        """Position of the pair's first remaining occurrence; drops the stale ones before it."""
        positions = self.where[key]
        a, b = key >> self.shift, key & self.low
        sym, nxt = self.sym, self.nxt
        i = 0
        for p in positions:
            # a link of -1 reads the layout's last symbol, which is never one
            if sym[p] == a and sym[nxt[p]] == b:
                break
            i += 1
        if i:
            del positions[:i]
        return positions[0] if positions else -1

    def _entry(self, key: int) -> int:
        count = self.counts[key]
        if not self.by_first_place:
            # equal counts go to the pair of smaller ids
            return (_RANK - count) << self.rank_at | key
        # equal counts go to the pair met first in reading order
        first = self._first_place(key)
        if first < 0:
            # a count with no place to show for it: never loop on it, say so
            raise TrainingError(f"pair {key >> self.shift}+{key & self.low} counts {count} but is nowhere in the corpus")
        return (_RANK - count) << self.rank_at | first << self.key_bits | key

    def _requeue(self, key: int) -> None:
        if self.counts.get(key, 0) >= self.settings.min_frequency:
            heapq.heappush(self.heap, self._entry(key))

    def _queue(self, entry: int) -> None:
        """Queue a pair's entry: among the top pairs if it ranks before the last of them."""
        top = self.top
        if top and entry < top[-1]:
            insort(top, entry)
            self.top_keys[entry & self.keys_mask] = entry
            if len(top) > TOP_HELD * TIES_KEPT:
                last = top.pop()
                # on the heap it is checked again when it comes up, stale or not
                del self.top_keys[last & self.keys_mask]
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
        top, keys = self.top, self.top_keys
        if self.stale:
            for key in self.stale:
                # a pair the last merge pushed off the top is on the heap already
                entry = keys.pop(key, None)
                if entry is not None:
                    del top[bisect_left(top, entry)]
                    self._requeue(key)
            self.stale.clear()
        heap, rank_at = self.heap, self.rank_at
        counts, least, keys_mask = self.counts, self.least, self.keys_mask
        key_bits, shift, low = self.key_bits, self.shift, self.low
        sym, nxt, by_place = self.sym, self.nxt, self.by_first_place
        top_rank = top[0] >> rank_at if top else -1
        held = TOP_HELD * TIES_KEPT
        while heap and len(top) < held:
            entry = heap[0]
            rank = entry >> rank_at
            # nothing current on the heap counts more than the top pairs; stale entries may say so
            if rank > top_rank >= 0:
                break
            key = entry & keys_mask
            count = counts.get(key, 0)
            # current: the pair still counts as much, and (first rule) is still at its first place
            if _RANK - rank == count and (not by_place or (
                    sym[p := entry >> key_bits & _PLACES] == key >> shift and sym[nxt[p]] == key & low)):
                heapq.heappop(heap)
                if not top:
                    top_rank = rank
                top.append(entry)
                keys[key] = entry
            elif count >= least:
                # the pair's entry made afresh takes the stale one's place: one sift, not two
                heapq.heapreplace(heap, self._entry(key))
            else:
                heapq.heappop(heap)

    # -- the loop -------------------------------------------------------------------------------

    def target_merges(self) -> int | None:
        return target_merges(self.settings, len(self.base))

    def steps(self) -> Iterator[MergeStep]:
        """Merge after merge, until the target or a stop (``stop_reason`` says which).

        A merge that makes a new token is made here, whole: this loop is most of a small run's
        time, and taking each step through calls and attribute reads made it an eighth slower. A
        merge that rebuilds a token made before, or has so many places that numpy moves them, goes
        to ``_merge``. Everything a step reads is bound once; what ``_merge`` may replace (the queue,
        after a rebuilt token ranks every pair afresh) is bound again after it. One run: iterate
        once.
        """
        vocab, ids, merges = self.vocab, self.ids, self.merges
        counts, where = self.counts, self.where
        sym, nxt, prv = self.sym, self.nxt, self.prv
        weigh = self.freq.__getitem__
        shift, low, key_bits, keys_mask, rank_at = self.shift, self.low, self.key_bits, self.keys_mask, self.rank_at
        least, by_place, layout, extra = self.least, self.by_first_place, self.layout, self.extra_ids
        merge_limit, vocab_limit, bulk = self.merge_limit, self.vocab_limit, self.bulk
        heap, top, top_keys, stale = self.heap, self.top, self.top_keys, self.stale
        push = heapq.heappush
        while True:
            if len(merges) >= merge_limit if vocab_limit is None else len(vocab) >= vocab_limit:
                self.stop_reason = TARGET_REACHED
                return
            # the top pairs: as the last step left them, unless a merge touched one, too few are left
            # to show a step's ties, or the heap may hold more at their count
            if stale or len(top) < TIES_KEPT and (not top or heap and heap[0] >> rank_at <= top[0] >> rank_at):
                self._refill_top()
                if not top:
                    # the pairs left, if any, are all below the minimum frequency
                    self.stop_reason = NO_PAIR_REPEATS if counts else NOTHING_LEFT
                    return
            count = _RANK - (top[0] >> rank_at)
            tracked = self.tracked
            if len(top) < TIES_KEPT:
                # the top holds every pair at its count
                tie_count = len(top)
            else:
                if tracked != count:
                    # counts only fall (the winner's too) until a rebuilt token ranks every pair
                    # afresh: each count is counted out once, then followed
                    self.tracked = tracked = count
                    self.at_tracked = countOf(counts.values(), count)
                tie_count = self.at_tracked
            key = top.pop(0) & keys_mask
            del top_keys[key]
            # the entries themselves (C speed): the same ones stay at the top for many steps, so
            # the steps share them
            rivals = tuple(top[:TIES_KEPT - 1])
            a, b = key >> shift, key & low
            token = vocab[a] + vocab[b]
            if token in ids or bulk and a != b and len(where[key]) >= BULK_PLACES:
                yield self._merge(key, count, tie_count, rivals)
                heap, top, top_keys, stale = self.heap, self.top, self.top_keys, self.stale
                continue
            new = len(vocab)
            vocab.append(token)
            ids[token] = new
            merges.append((a, b))

            # move the places, left to right (the only way for an overlapping run, a a a, where
            # each merge spoils the next place), rewriting the layout; the pairs made with the new
            # token, each with its places in reading order and its weighted count (its left and
            # right pairs differ: ``new new`` needs a token made before, so one table takes both)
            made: dict[int, list[int]] = {}
            gained: dict[int, int] = {}
            find = made.get
            positions: list[int] = []
            keep = positions.append
            new_high = new << shift
            merged = 0
            for p in where.pop(key):
                if sym[p] != a:
                    continue
                q = nxt[p]
                # a link of -1 reads the layout's last symbol, which is never one
                if sym[q] != b:
                    continue
                keep(p)
                w = weigh(p)
                merged += w
                left = prv[p]
                right = nxt[q]
                if left >= 0:
                    pair = sym[left] << shift | new
                    places = find(pair)
                    if places is None:
                        made[pair] = [left]
                        gained[pair] = w
                    else:
                        places.append(left)
                        gained[pair] += w
                if right >= 0:
                    pair = new_high | sym[right]
                    places = find(pair)
                    if places is None:
                        made[pair] = [p]
                        gained[pair] = w
                    else:
                        places.append(p)
                        gained[pair] += w
                    prv[right] = p
                sym[p] = new
                sym[q] = -1
                nxt[p] = right
            del counts[key]

            # the old pairs beside the places: each place of ``x new`` was one of ``x a``, each of
            # ``new y`` one of ``b y``, in the same word, so of the same weight; the pairs at the
            # tracked count: no count rises to it (none is above it), fresh pairs reach it
            at_tracked = self.at_tracked - (count == tracked)
            undone: dict[int, int] | None = None
            to_left, to_right = a - new, (b - new) << shift
            for pair, c in gained.items():
                old = pair + (to_left if pair & low == new else to_right)
                if old == key:
                    # an overlapping run (a a a) also counted the winner as its own neighbour
                    continue
                if old >> shift == new:
                    # a pair this step made and a later place undid (a b a b)
                    if undone is None:
                        undone = {}
                    undone[old] = undone.get(old, 0) + c
                    continue
                if old in top_keys:
                    stale.append(old)
                n = counts[old]
                if n == tracked:
                    at_tracked -= 1
                n -= c
                if n:
                    counts[old] = n
                else:
                    del counts[old]
                    del where[old]
            if undone:
                for pair, c in undone.items():
                    gained[pair] -= c

            # the new pairs, counted and queued
            for pair, c in gained.items():
                if c <= 0:
                    continue
                places = made[pair]
                counts[pair] = c
                where[pair] = places
                if c == tracked:
                    at_tracked += 1
                if c < least:
                    continue
                if undone and pair in undone:
                    entry = self._entry(pair)
                elif by_place:
                    # a pair just made is still at the first place it was made: no need to look
                    entry = (_RANK - c) << rank_at | places[0] << key_bits | pair
                else:
                    entry = (_RANK - c) << rank_at | pair
                if top and entry < top[-1]:
                    self._queue(entry)
                else:
                    push(heap, entry)
            self.at_tracked = at_tracked
            before = self.total
            self.total = total = before - merged
            # the fields in order, not by name; positions are below 2**31 (the corpus is at most
            # MAX_BYTES symbols and markers)
            yield MergeStep((len(merges), (vocab[a], vocab[b]), token, count, tie_count, before, total,
                             len(vocab) + extra, array("i", positions), rivals, layout))

    def _merge(self, key: int, count: int, tie_count: int, rivals: Sequence[int]) -> MergeStep:
        """A merge ``steps`` hands over: one that rebuilds a token made before (its string made by
        another pair keeps its id, as in tokenizers), or one with so many places that numpy moves them."""
        a, b = key >> self.shift, key & self.low
        vocab = self.vocab
        token = vocab[a] + vocab[b]
        new = self.ids.get(token, -1)
        reused = new >= 0
        if not reused:
            new = len(vocab)
            vocab.append(token)
            self.ids[token] = new
        self.merges.append((a, b))

        found = self.where.pop(key)
        if reused:
            positions, made_left, made_right, merged = self._merge_places(found, a, b, new)
            lost, made = self._count_made(a, b, new, made_left, made_right)
            lost.pop(key, None)
            del self.counts[key]
            self._settle_rebuilt(new, lost, made)
        else:
            from engine.trainer_bulk import merge_in_bulk

            positions, made_left, made_right, merged = merge_in_bulk(
                self.sym, self.nxt, self.prv, self.freq, found, a, b, new, self.shift)
            lost, made = self._count_made(a, b, new, made_left, made_right)
            lost.pop(key, None)
            del self.counts[key]
            self._settle(count, new, lost, made)
        before = self.total
        self.total -= merged
        return MergeStep((len(self.merges), (vocab[a], vocab[b]), token, count, tie_count, before, self.total,
                          len(vocab) + self.extra_ids, positions, rivals, self.layout))

    def _merge_places(self, found: Sequence[int], a: int, b: int, new: int) -> tuple[array, Made, Made, int]:
        """``trainer_bulk.merge_in_bulk`` one place at a time: the walk ``steps`` makes for a new
        token, for a rebuilt one, whose pairs on the left (``x new``, at the left neighbour) and on
        the right (``new y``, at the token's own place) are kept apart: ``new new`` can be both."""
        sym, nxt, prv = self.sym, self.nxt, self.prv
        shift = self.shift
        made_left: dict[int, list[int]] = {}
        made_right: dict[int, list[int]] = {}
        find_left, find_right = made_left.get, made_right.get
        positions: list[int] = []
        keep = positions.append
        new_high = new << shift
        for p in found:
            if sym[p] != a:
                continue
            q = nxt[p]
            if sym[q] != b:
                continue
            keep(p)
            left = prv[p]
            right = nxt[q]
            if left >= 0:
                pair = sym[left] << shift | new
                places = find_left(pair)
                if places is None:
                    made_left[pair] = [left]
                else:
                    places.append(left)
            if right >= 0:
                pair = new_high | sym[right]
                places = find_right(pair)
                if places is None:
                    made_right[pair] = [p]
                else:
                    places.append(p)
                prv[right] = p
            sym[p] = new
            sym[q] = -1
            nxt[p] = right
        weigh = self.freq.__getitem__
        return (array("i", positions),
                [(pair, sum(map(weigh, places)), places) for pair, places in made_left.items()],
                [(pair, sum(map(weigh, places)), places) for pair, places in made_right.items()],
                sum(map(weigh, positions)))

    def _count_made(self, a: int, b: int, new: int, made_left: Made,
                    made_right: Made) -> tuple[dict[int, int], list[int]]:
        """Take in the pairs a merge made (as many as it made: cancelled ones settle later), and
        return what the neighbours' old pairs lost, and the pairs made: each place of ``x new`` was
        a place of ``x a``, each place of ``new y`` one of ``b y``, in the same word, so of the same
        weight."""
        counts, where = self.counts, self.where
        lost: dict[int, int] = {}
        keys: list[int] = []
        for made, shift in ((made_left, a - new), (made_right, (b - new) << self.shift)):
            for key, count, places in made:
                keys.append(key)
                old = key + shift
                lost[old] = lost.get(old, 0) + count
                if key in counts:
                    # only when the merge rebuilt an existing token
                    counts[key] += count
                    where[key].extend(places)
                else:
                    counts[key] = count
                    where[key] = places
        return lost, keys

    def _settle(self, count: int, new: int, lost: dict[int, int], made: list[int]) -> None:
        """Bring the counts of the pairs a merge touched, and how many pairs hold the tracked count, up to date."""
        counts, where, top_keys, tracked = self.counts, self.where, self.top_keys, self.tracked
        least = self.settings.min_frequency
        at_tracked = self.at_tracked - (count == tracked)
        for key, loss in lost.items():
            if key >> self.shift == new:
                # a pair of this step (a b a b): counted as it ends up, below
                counts[key] -= loss
                continue
            if key in top_keys:
                self.stale.append(key)
            old = counts[key]
            if old == tracked:
                at_tracked -= 1
            left = old - loss
            if left:
                counts[key] = left
            else:
                del counts[key]
                del where[key]
        for fresh in made:
            # a fresh pair may have been cancelled by a later place in the same word (a b a b)
            c = counts[fresh]
            if c <= 0:
                del counts[fresh]
                del where[fresh]
            else:
                if c == tracked:
                    at_tracked += 1
                if c >= least:
                    self._queue(self._entry(fresh))
        self.at_tracked = at_tracked

    def _settle_rebuilt(self, new: int, lost: dict[int, int], made: list[int]) -> None:
        """After a merge that rebuilt an existing token: pairs with it may have gained places, out of
        reading order, the one case where counts rise; the places are put back in order and every
        pair ranked afresh."""
        counts, where = self.counts, self.where
        for key, loss in lost.items():
            counts[key] -= loss
        for key in [*lost, *made]:
            if key in counts and counts[key] <= 0:
                del counts[key]
                del where[key]
        for k in where:
            if k >> self.shift == new or k & self.low == new:
                where[k] = sorted(set(where[k]))
        self._queue_all()

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
