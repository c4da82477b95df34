"""One word thousands of symbols long (a text with no spaces, or split "none"), moved step to step
where its merges were made, in numpy arrays: no Python object per token.

The word is a linked list of tokens over its base symbols. At each symbol where a token starts,
``ids`` holds that token's id, ``after`` the symbol where the next token starts (the word's length
at its last token) and ``before`` where the previous one starts (-1 at the first); elsewhere ``ids``
is -1. A merge at a place joins the token at a cut to the one before it: a handful of array writes
per place, whatever the word's length. A pair is named by one int64 code, ``left * size + right``;
what a move changes is given back as the codes of the pairs it took out and put in.

>>> corpus = Corpus.from_text("abababab", Settings(split="none", merges=2))
>>> history = History(corpus, list(Trainer(corpus).steps()))
>>> word = LongWord(TokenIds(history), history, 0, 0)
>>> _ = word.move(2)
>>> word.head(8), word.count
(['abab', 'abab'], 2)

Left out: which words are long and the pair counts of the whole corpus (``engine.lesson.lesson``).
"""

from __future__ import annotations

import numpy as np

from engine.algorithm.corpus import Corpus  # noqa: F401  (used by the doctest)
from engine.lesson.history import History
from engine.algorithm.settings import Settings  # noqa: F401  (used by the doctest)
from engine.algorithm.trainer import Trainer  # noqa: F401  (used by the doctest)

# past this many steps inside the word, a move rebuilds it from the history index in one pass of
# numpy instead of replaying each step's few array writes (a jump across thousands of merges)
REPLAYED_STEPS = 400
# how many symbols' worth of reading one place's pairs costs, against reading every pair of the word
PLACE_COST = 8


class TokenIds:
    """Token ids for the long words of one lesson, and per step what its merge joins and makes."""

    def __init__(self, history: History):
        names = list(history.base)
        self.base = len(names)
        ids = {name: i for i, name in enumerate(names)}
        made, left, right, width = [0], [0], [0], [0]
        for step in history.steps:
            a, b = step.pair
            if step.token not in ids:
                ids[step.token] = len(names)
                names.append(step.token)
            made.append(ids[step.token])
            left.append(ids[a])
            right.append(ids[b])
            # every symbol of a left token is one character: the marker, last in its word, never is one
            width.append(len(a))
        self.names = names
        self.ids = ids
        self.size = len(names)
        self.made = np.array(made, dtype=np.int32)
        self.left = np.array(left, dtype=np.int32)
        self.right = np.array(right, dtype=np.int32)
        self.width = np.array(width, dtype=np.int64)
        self._chars: np.ndarray | None = None

    def symbol_ids(self, text: str, marker: str | None) -> np.ndarray:
        """The ids of a word's base symbols: one per character of its text, then the marker."""
        if self._chars is None:
            # every base symbol but a long marker is one character: a table by code point
            singles = [(ord(name), self.ids[name]) for name in self.names[:self.base] if len(name) == 1]
            table = np.full(max((c for c, _ in singles), default=0) + 1, -1, dtype=np.int32)
            for c, i in singles:
                table[c] = i
            self._chars = table
        points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
        found = self._chars[points]
        if marker is not None:
            found = np.append(found, np.int32(self.ids[marker]))
        return found

    def pair(self, code: int) -> tuple[str, str]:
        left, right = divmod(code, self.size)
        return self.names[left], self.names[right]

    def code(self, pair: tuple[str, str]) -> int | None:
        """The code of a pair of tokens, or None when one of them is no token of the lesson."""
        left, right = self.ids.get(pair[0]), self.ids.get(pair[1])
        return None if left is None or right is None else left * self.size + right


class LongWord:
    """Word w's tokens at one step, as numpy arrays over its base symbols (see the module's text)."""

    def __init__(self, table: TokenIds, history: History, w: int, k: int):
        self.table = table
        self.history = history
        self.w = w
        self.steps, self.cuts = history.word_merges_array(w)
        self.length = history.token_count(w, 0)
        self.ids = np.empty(0, dtype=np.int32)
        self.after = np.empty(0, dtype=np.int32)
        self.before = np.empty(0, dtype=np.int32)
        self.count = 0
        self.step = k  # the step the arrays hold
        self._list: list[str] | None = None
        self._rebuild(k)

    # -- moving -----------------------------------------------------------------------------------

    def move(self, b: int) -> tuple[np.ndarray, np.ndarray]:
        """Go to step b; the codes of the pairs taken out and put in (a pair once per place, the
        same pair may be in both)."""
        a = self.step
        lo, hi = sorted((a, b))
        i, j = np.searchsorted(self.steps, [lo, hi], side="right")
        # a step's pairs are found around its places; past a few places a symbol, reading every
        # pair before and after costs less than finding them place by place
        counted = (j - i) * PLACE_COST < self.length
        out = None if counted else self.pair_codes()
        numbers = _distinct(self.steps[i:j])
        if len(numbers) > REPLAYED_STEPS:
            out = self.pair_codes() if out is None else out
            self._rebuild(b)
            return out, self.pair_codes()
        outs, ins = [], []
        bounds = np.searchsorted(self.steps, numbers, side="left").tolist()
        ends = np.searchsorted(self.steps, numbers, side="right").tolist()
        order = range(len(numbers)) if b > a else range(len(numbers) - 1, -1, -1)
        for n in order:
            s = int(numbers[n])
            cuts = self.cuts[bounds[n]:ends[n]]
            left = cuts - self.table.width[s]
            if counted:
                outs.append(self._around(s, left, cuts, b > a))
            self._join(s, left, cuts) if b > a else self._split(s, left, cuts)
            if counted:
                ins.append(self._around(s, left, cuts, b < a))
        self.step = b
        self._list = None
        if not counted:
            assert out is not None  # read whole before the move
            return out, self.pair_codes()
        empty = np.empty(0, dtype=np.int64)
        return (np.concatenate(outs) if outs else empty), (np.concatenate(ins) if ins else empty)

    def _around(self, s: int, left: np.ndarray, cuts: np.ndarray, split: bool) -> np.ndarray:
        """The codes of the pairs around step s's places: the pair before each place and the pair
        after it, and the pair inside it while it is split. The tokens at the places are the step's
        own (its pair split, its token joined), so only their neighbours are read. Places side by
        side share a pair: the one after a place is the one before the next, taken once."""
        table, ids, n = self.table, self.ids, self.length
        size = table.size
        previous = self.before[left]
        if split:
            a, b = int(table.left[s]), int(table.right[s])
            previous = _apart(previous, cuts)
            ends = self.after[cuts]
            ends = ends[ends < n]
            return np.concatenate((ids[previous].astype(np.int64) * size + a,
                                   np.full(len(left), a * size + b, dtype=np.int64),
                                   ids[ends] + np.int64(b * size)))
        made = int(table.made[s])
        previous = _apart(previous, left)
        ends = self.after[left]
        ends = ends[ends < n]
        return np.concatenate((ids[previous].astype(np.int64) * size + made, ids[ends] + np.int64(made * size)))

    def _join(self, s: int, left: np.ndarray, cuts: np.ndarray) -> None:
        """Step s forward: the token at each cut joins the one before it."""
        ends = self.after[cuts].astype(np.int64)
        inner = ends < self.length
        self.ids[left] = self.table.made[s]
        self.ids[cuts] = -1
        self.after[left] = ends
        self.before[ends[inner]] = left[inner]
        self.count -= len(cuts)

    def _split(self, s: int, left: np.ndarray, cuts: np.ndarray) -> None:
        """Step s back: each token that step made splits at its cut again."""
        ends = self.after[left].astype(np.int64)
        inner = ends < self.length
        self.ids[left] = self.table.left[s]
        self.ids[cuts] = self.table.right[s]
        self.after[left] = cuts
        self.after[cuts] = ends
        self.before[cuts] = left
        self.before[ends[inner]] = cuts[inner]
        self.count += len(cuts)

    def _rebuild(self, k: int) -> None:
        """The word at step k from the history index: each token's id is that of the last merge
        made inside it (the one that made it), or its base symbol's when none was."""
        removed = self.history.word_removed_array(self.w)
        standing = removed > k
        starts = np.flatnonzero(standing)
        last = np.maximum.reduceat(np.where(standing, 0, removed), starts)
        base = self.table.symbol_ids(self.history.corpus.words[self.w], self.history.settings.marker)
        n = self.length
        self.ids = np.full(n, -1, dtype=np.int32)
        self.ids[starts] = np.where(last > 0, self.table.made[last], base[starts])
        self.after = np.full(n, n, dtype=np.int32)
        self.after[starts[:-1]] = starts[1:]
        self.before = np.full(n, -1, dtype=np.int32)
        self.before[starts[1:]] = starts[:-1]
        self.count = len(starts)
        self.step = k
        self._list = None

    # -- pairs ------------------------------------------------------------------------------------

    def _codes(self, at: np.ndarray) -> np.ndarray:
        """The codes of the pairs whose left tokens start at the symbols ``at``."""
        codes: np.ndarray = self.ids[at].astype(np.int64) * self.table.size + self.ids[self.after[at]]
        return codes

    def _starts(self, lo: int = 0, hi: int | None = None) -> np.ndarray:
        """The symbols where tokens start, from lo up to hi."""
        return np.flatnonzero(self.ids[lo:hi] >= 0) + lo

    def pair_codes(self) -> np.ndarray:
        """Every pair's code, left to right (one per pair of neighbouring tokens)."""
        ids = self.ids[self._starts()].astype(np.int64)
        codes: np.ndarray = ids[:-1] * self.table.size + ids[1:]
        return codes

    def first_places(self, wanted: set[int]) -> dict[int, int]:
        """Where each pair code of ``wanted`` first starts, in base symbols, read from the word's
        start in growing slices: the pairs a chart ranks are met early."""
        found: dict[int, int] = {}
        left = np.array(sorted(wanted), dtype=np.int64)
        lo, span = 0, 1 << 14
        while len(left) and lo < self.length:
            hi = min(self.length, lo + span)
            at = self._starts(lo, hi)
            at = at[self.after[at] < self.length]
            codes = self._codes(at)
            # left is sorted: a code is wanted when the wanted code at its sorted place is itself
            hit = left[np.minimum(np.searchsorted(left, codes), len(left) - 1)] == codes
            codes, at = codes[hit], at[hit]
            # a stable sort keeps each code's places left to right: its first is where its run starts
            order = np.argsort(codes, kind="stable")
            codes, at = codes[order], at[order]
            first = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1]))) if len(codes) else codes
            codes = codes[first]
            found.update(zip(codes.tolist(), at[first].tolist()))
            left = np.setdiff1d(left, codes, assume_unique=True)
            lo, span = hi, span * 2
        return found

    def all_first_places(self) -> dict[int, int]:
        """Where every pair first starts, in base symbols."""
        at = self._starts()[:-1]
        codes, first = np.unique(self._codes(at), return_index=True)
        return dict(zip(codes.tolist(), at[first].tolist()))

    # -- tokens -----------------------------------------------------------------------------------

    def head(self, symbols: int) -> list[str]:
        """The tokens that start within the first ``symbols`` base symbols."""
        names = self.table.names
        return [names[i] for i in self.ids[self._starts(0, symbols)].tolist()]

    def tokens(self) -> list[str]:
        """Every token (made once per step asked for: millions of strings for a long word)."""
        if self._list is None:
            names = self.table.names
            self._list = [names[i] for i in self.ids[self._starts()].tolist()]
        return self._list


def _apart(previous: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """The tokens before a step's places (``previous``, -1 before a word's first token), but those
    already named in ``taken`` for the place on the left: the token just before when they touch."""
    keep = previous >= 0
    keep[1:] &= previous[1:] != taken[:-1]
    return previous[keep]


# below this many possible pairs (tokens squared), pairs are counted in one array indexed by code
DENSE_PAIRS = 1 << 22


def net_counts(out: np.ndarray, put: np.ndarray, size: int) -> tuple[list[int], list[int]]:
    """The pair codes whose places changed, and by how many (put in minus taken out), from arrays
    of codes with repeats; ``size``: how many token ids there are."""
    if size * size <= DENSE_PAIRS:
        # a lesson of a few hundred merges: a count per possible pair beats sorting millions of codes
        net = np.bincount(put, minlength=size * size) - np.bincount(out, minlength=size * size)
        codes = np.flatnonzero(net)
        return codes.tolist(), net[codes].tolist()
    codes, where = np.unique(np.concatenate((out, put)), return_inverse=True)
    net = np.bincount(where[len(out):], minlength=len(codes)) - np.bincount(where[:len(out)], minlength=len(codes))
    changed = np.flatnonzero(net)
    return codes[changed].tolist(), net[changed].tolist()


def _distinct(ordered: np.ndarray) -> np.ndarray:
    """The distinct values of a sorted array (numpy's unique would import numpy.ma on a first step)."""
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))] if len(ordered) else ordered
