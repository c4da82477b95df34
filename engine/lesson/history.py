"""The history index: the corpus at any step of a finished training, from the steps' own record.

Each ``MergeStep`` says where its merges were made (``places``: word, offset of the left token).
Built once, the index keeps per word the steps that merged inside it and, for each, the token
start that merge removed; a word's tokens at step k are its base symbols cut at the starts still
standing. Nothing is replayed through the tokenizer, and every view asks here, so the tiles, the
quiz, the charts, the handout and the CLI cannot disagree about "the corpus at step k".

>>> corpus = Corpus.from_word_counts("low 5\\nlower 2\\nnewest 6\\nwidest 3", Settings(merges=5))
>>> history = History(corpus, list(Trainer(corpus).steps()))
>>> history.word_tokens(2, 3), history.total_tokens(0), history.vocab_size(5)
(['n', 'e', 'w', 'est</w>'], 95, 17)

Left out: every pair ranked by the tie rule and moving step by step (``LessonState`` does that for
the views that follow the lesson), and encoding text outside the corpus (the tokenizer's job).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate, chain, repeat
from typing import TYPE_CHECKING, Sequence

from engine.algorithm.corpus import Corpus
from engine.algorithm.ranking import ReadingOrder, rule_named, ties
from engine.algorithm.settings import UNKNOWN, Settings  # noqa: F401  (Settings: used by the doctest)
from engine.algorithm.trainer import MergeStep, Trainer  # noqa: F401  (Trainer: used by the doctest)

if TYPE_CHECKING:  # numpy loads only when a long word or a large corpus asks for arrays
    import numpy as np

Pair = tuple[str, str]
# how many steps' worth of every word's tokens (or pair counts) stay cached
_CACHED_STEPS = 4
# a history of this many places or more is indexed with numpy, all places at once
BULK_PLACES = 100_000


@dataclass(frozen=True)
class VocabSize:
    """What the vocabulary holds at one step. ``learned`` counts new strings only: a merge that
    rebuilds a token already there (``ab + c`` after ``a + bc``) adds none."""

    base: int
    learned: int
    merges: int
    special: tuple[str, ...]
    unknown: str | None

    @property
    def total(self) -> int:
        # the one definition (PRODUCT.md): base symbols + learned + special tokens + <unk> where there is one
        return self.base + self.learned + len(self.special) + (self.unknown is not None)


@dataclass(frozen=True)
class PairTable:
    """Every pair of neighbouring tokens at one step: its count weighted by word frequency (in the
    order a merge round meets the pairs) and where it comes from (word index -> occurrences)."""

    counts: dict[Pair, int]
    places: dict[Pair, dict[int, int]]

    def sources(self, pair: Pair) -> list[tuple[int, int]]:
        """(word index, occurrences in that word), in corpus order: count = sum(occ * word count)."""
        return sorted(self.places.get(pair, {}).items())


class History:
    """Answers "at step k" for a trained corpus: 0 is before any merge, ``last_step`` after all."""

    def __init__(self, corpus: Corpus, steps: Sequence[MergeStep], base: Sequence[str] | None = None):
        """``base``: the base vocabulary when it is not the corpus's own (a tokenizer read from a file)."""
        self.corpus = corpus
        self.settings = corpus.settings
        self.steps = list(steps)
        self.base = list(base) if base is not None else corpus.base_vocab()
        self._index_words()
        self._count_vocab()
        self._tokens: dict[int, list[list[str]]] = {}
        self._pairs: dict[int, PairTable] = {}
        self._removed: dict[int, array[int]] = {}
        self._merges: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def _index_words(self) -> None:
        """Per word: the steps that merged inside it, and the token start each of those removed;
        and the corpus total after each step (each merge removes one token per occurrence)."""
        corpus = self.corpus
        extra = 1 if self.settings.marker is not None else 0
        self._lengths = lengths = [len(word) + extra for word in corpus.words]
        starts = list(accumulate(lengths, initial=0))
        # the places in the trainer's layout, which lays the words out side by side as here
        checked: object = None
        aligned = False
        positions: list[Sequence[int]] = []
        for step in self.steps:
            layout = step.layout
            if layout is not None and layout is not checked:
                # one comparison per run: every step of a run shares its layout
                checked, aligned = layout, layout.word_start == starts[:-1]
            if layout is not None and aligned:
                positions.append(step.positions)
            else:
                positions.append([starts[word] + offset for word, offset in step.places])
        # the right token starts where the left one ends: every symbol but the marker is one
        # character, and the marker, always last in its word, is never in a left token
        widths = [len(step.pair[0]) for step in self.steps]
        self._places: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        # in int64 every running total fits while the corpus's own does
        if sum(map(len, positions)) >= BULK_PLACES and corpus.total_symbols() < 1 << 62:
            self._index_in_bulk(positions, widths, starts)
        else:
            self._index_each(positions, widths, starts)

    def _index_each(self, positions: list[Sequence[int]], widths: list[int], starts: list[int]) -> None:
        """``_index_words`` place by place."""
        corpus = self.corpus
        counts = corpus.counts
        # each base symbol's word: one look-up a place is far cheaper than a search for its word
        word_of = array("i", chain.from_iterable(map(repeat, range(len(self._lengths)), self._lengths)))
        # parallel lists of plain ints: no tuple per place for the cycle collector to walk
        steps_in: list[list[int]] = [[] for _ in range(len(corpus))]
        cuts: list[list[int]] = [[] for _ in range(len(corpus))]
        totals = [corpus.total_symbols()]
        # per step, the words it merged inside, each once (its places run in reading order)
        step_words: list[list[int]] = []
        for number, (at, width) in enumerate(zip(positions, widths), start=1):
            removed = 0
            words: list[int] = []
            last = -1
            for p in at:
                word = word_of[p]
                steps_in[word].append(number)
                cuts[word].append(p - starts[word] + width)
                removed += counts[word]
                if word != last:
                    words.append(word)
                    last = word
            totals.append(totals[-1] - removed)
            step_words.append(words)
        self._cuts = cuts
        self._steps_in = steps_in
        self._totals = totals
        self._step_words = step_words

    def _index_in_bulk(self, positions: list[Sequence[int]], widths: list[int], starts: list[int]) -> None:
        """``_index_words`` with numpy, every place at once: a large corpus's first merges have
        hundreds of thousands. The places ordered by step are kept for ``place_arrays``."""
        import numpy as np  # only here: the trainer has loaded it already for a corpus this large

        corpus = self.corpus
        sizes = np.fromiter(map(len, positions), dtype=np.int64, count=len(positions))
        at = np.fromiter(chain.from_iterable(positions), dtype=np.int64, count=int(sizes.sum()))
        step = np.repeat(np.arange(1, len(positions) + 1, dtype=np.int32), sizes)
        first = np.asarray(starts, dtype=np.int64)
        word = (np.searchsorted(first, at, side="right") - 1).astype(np.int32)
        cut = (at - first[word] + np.repeat(np.asarray(widths, dtype=np.int64), sizes)).astype(np.int32)
        # each place removes one token per occurrence of its word: the totals fall by the running sum
        gone = np.cumsum(np.asarray(corpus.counts, dtype=np.int64)[word])
        ends = np.cumsum(sizes)
        self._totals = [corpus.total_symbols(), *(corpus.total_symbols() - np.where(ends > 0, gone[ends - 1], 0)).tolist()]
        # a step's words, each once: its places run in reading order, a word's side by side
        new = np.ones(len(word), dtype=bool)
        new[1:] = (word[1:] != word[:-1]) | (step[1:] != step[:-1])
        ends = np.cumsum(np.bincount(step[new], minlength=len(positions) + 1))
        firsts = word[new].tolist()
        self._step_words = [firsts[a:b] for a, b in zip(ends[:-1].tolist(), ends[1:].tolist())]
        # per word, its places in step order (a stable sort keeps each word's left to right)
        order = np.argsort(word, kind="stable")
        bounds = np.searchsorted(word[order], np.arange(len(corpus) + 1)).tolist()
        steps_by_word, cuts_by_word = step[order].tolist(), cut[order].tolist()
        self._steps_in = [steps_by_word[a:b] for a, b in zip(bounds, bounds[1:])]
        self._cuts = [cuts_by_word[a:b] for a, b in zip(bounds, bounds[1:])]
        self._places = (step, word, cut)

    def _count_vocab(self) -> None:
        # ids as training gave them: a rebuilt token keeps its first id (the "hf" tie rule ranks by id)
        ids = {token: i for i, token in enumerate(self.base)}
        learned = [0]
        # token -> the number of the first step that made it, built here, off the GUI thread: the
        # views ask for a token or two of 100,000 merges (an imported tokenizer)
        made: dict[str, int] = {}
        for number, step in enumerate(self.steps, start=1):
            ids.setdefault(step.token, len(ids))
            made.setdefault(step.token, number)
            learned.append(len(ids) - len(self.base))
        self._learned = learned
        self._ids = ids
        self._made = made

    # -- one word ---------------------------------------------------------------------------------

    @property
    def last_step(self) -> int:
        return len(self.steps)

    def _clamp(self, k: int) -> int:
        return max(0, min(k, len(self.steps)))

    def word_tokens(self, w: int, k: int) -> list[str]:
        """Word w's tokens after the first k merges."""
        merged = bisect_right(self._steps_in[w], k)
        if not merged:
            return self.corpus.symbols(w)
        # every symbol is one character of the word's text but the marker, which ends the word
        text = self.corpus.words[w]
        gone = set(self._cuts[w][:merged])
        tokens, start = [], 0
        for i in range(1, len(text)):
            if i not in gone:
                tokens.append(text[start:i])
                start = i
        marker = self.settings.marker
        if marker is None:
            tokens.append(text[start:])
        elif len(text) in gone:
            tokens.append(text[start:] + marker)
        else:
            tokens += (text[start:], marker)
        return tokens

    def word_head(self, w: int, k: int, limit: int) -> list[str]:
        """Word w's tokens after k merges that start within its first ``limit`` base symbols: what
        a view shows of a word millions of symbols long (a text with no spaces), in time of ``limit``."""
        length = self._lengths[w]
        if length <= limit:
            return self.word_tokens(w, k)
        removed = self._removed_at(w)
        starts = [i for i in range(limit) if removed[i] > k]
        end = limit
        while end < length and removed[end] <= k:
            end += 1
        starts.append(end)
        text = self.corpus.words[w]
        marker = self.settings.marker or ""
        # only the marker, the last symbol, is longer than one character
        return [text[a:b] if b <= len(text) else text[a:] + marker for a, b in zip(starts, starts[1:])]

    def _removed_at(self, w: int) -> array[int]:
        """For each base symbol of word w, the step that removed the token start there (past the
        last step where none did); built once per long word asked for."""
        found = self._removed.get(w)
        if found is None:
            import numpy as np  # only here: the CLI's start and small lessons go without it

            # 32-bit steps: a word of 20 million symbols takes 80 MB here, not 160
            steps, cuts = self.word_merges_array(w)
            removed = np.full(self._lengths[w], len(self.steps) + 1, dtype=np.int32)
            removed[cuts] = steps
            found = self._removed[w] = array("i", removed.tobytes())
        return found

    def word_removed_array(self, w: int) -> np.ndarray:
        """``_removed_at`` as a numpy array of int32 (no copy): for a word millions of symbols long."""
        import numpy as np

        return np.frombuffer(self._removed_at(w), dtype=np.int32)

    def word_merges_array(self, w: int) -> tuple[np.ndarray, np.ndarray]:
        """The steps that merged inside word w and the token start each removed, as two numpy arrays
        of int64 ordered by step, then left to right: what a long word moves by, step by step."""
        import numpy as np

        found = self._merges.get(w)
        if found is None:
            steps, cuts = self._steps_in[w], self._cuts[w]
            found = self._merges[w] = (np.fromiter(steps, dtype=np.int64, count=len(steps)),
                                       np.fromiter(cuts, dtype=np.int64, count=len(cuts)))
        return found

    def symbol_lengths(self) -> list[int]:
        """Every word's length in base symbols, in corpus order."""
        return list(self._lengths)

    def place_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every place a merge was made as three numpy arrays of int32, ordered by step, then in
        reading order: the step, the word, and the token start that merge removed there."""
        if self._places is not None:
            return self._places
        import numpy as np

        sizes = np.fromiter(map(len, self._steps_in), dtype=np.int64, count=len(self._steps_in))
        total = int(sizes.sum())
        steps = np.fromiter(chain.from_iterable(self._steps_in), dtype=np.int32, count=total)
        cuts = np.fromiter(chain.from_iterable(self._cuts), dtype=np.int32, count=total)
        words = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
        # a stable sort keeps each step's places word by word, each word's left to right
        order = np.argsort(steps, kind="stable")
        return steps[order], words[order], cuts[order]

    def merge_offsets(self, w: int, k: int, limit: int) -> list[int]:
        """Base-symbol offsets in word w where step k merged its pair, left to right, those below
        ``limit``: what a view shows of a long word, found without listing the step's other places."""
        k = self._clamp(k)
        if not k:
            return []
        steps, cuts = self._steps_in[w], self._cuts[w]
        width = len(self.steps[k - 1].pair[0])
        # a step's cuts in a word lie side by side, left to right
        lo = bisect_left(steps, k)
        hi = bisect_left(cuts, limit + width, lo, bisect_right(steps, k, lo))
        return [cut - width for cut in cuts[lo:hi]]

    def token_count(self, w: int, k: int) -> int:
        """How many tokens word w is after k merges: each merge inside it removes one."""
        return self._lengths[w] - bisect_right(self._steps_in[w], k)

    def merge_steps(self, w: int) -> list[int]:
        """The steps that merged inside word w, in order (a step twice if it merged there twice)."""
        return self._steps_in[w]

    def whole_step(self, w: int) -> int | None:
        """The step at which word w becomes one token (0 if it is one symbol), or None if it never does."""
        need = self.token_count(w, 0) - 1
        steps = self._steps_in[w]
        if need == 0:
            return 0
        return steps[need - 1] if len(steps) >= need else None

    def words_changed(self, a: int, b: int) -> list[int]:
        """The words whose tokens differ between steps a and b, in corpus order."""
        lo, hi = sorted((self._clamp(a), self._clamp(b)))
        return sorted({w for words in self._step_words[lo:hi] for w in words})

    def made_by(self, token: str) -> MergeStep | None:
        """The first merge that made ``token``, or None if no merge did (a base symbol)."""
        number = self._made.get(token)
        return self.steps[number - 1] if number is not None else None

    # -- the whole corpus -------------------------------------------------------------------------

    def tokens_at(self, k: int) -> list[list[str]]:
        """Every word's tokens after k merges (the last few steps asked for are kept)."""
        k = self._clamp(k)
        found = self._tokens.get(k)
        if found is None:
            if len(self._tokens) >= _CACHED_STEPS:
                self._tokens.clear()  # one call: safe while a quiz worker asks too
            found = self._tokens[k] = [self.word_tokens(w, k) for w in range(len(self.corpus))]
        return found

    def total_tokens(self, k: int) -> int:
        """The corpus length in tokens after k merges, every word counted as often as it occurs."""
        return self._totals[self._clamp(k)]

    def totals(self) -> list[int]:
        """``total_tokens`` at steps 0 to last."""
        return list(self._totals)

    def pairs_at(self, k: int) -> PairTable:
        """Every pair of neighbours after k merges, counted as a merge round counts them."""
        k = self._clamp(k)
        found = self._pairs.get(k)
        if found is None:
            counts: dict[Pair, int] = {}
            places: dict[Pair, dict[int, int]] = {}
            for w, (tokens, freq) in enumerate(zip(self.tokens_at(k), self.corpus.counts)):
                for pair in zip(tokens, tokens[1:]):
                    counts[pair] = counts.get(pair, 0) + freq
                    where = places.setdefault(pair, {})
                    where[w] = where.get(w, 0) + 1
            if len(self._pairs) >= _CACHED_STEPS:
                self._pairs.clear()
            found = self._pairs[k] = PairTable(counts, places)
        return found

    def pair_counts(self, k: int) -> dict[Pair, int]:
        return self.pairs_at(k).counts

    def pair_sources(self, pair: Pair, k: int) -> list[tuple[int, int]]:
        return self.pairs_at(k).sources(pair)

    def next_merge(self, k: int) -> MergeStep | None:
        """The merge made from step k, or None at or past the last step: training stopped there."""
        return self.steps[k] if 0 <= k < len(self.steps) else None

    def ties(self, k: int) -> list[Pair]:
        """Every pair tied with the merge made from step k, the winner first, in tie-rule order
        (none at or past the last step). A step names only the first few; the rest are counted here."""
        step = self.next_merge(k)
        if step is None:
            return []
        if step.tie_count == len(step.tied):
            return list(step.tied)
        # pairs_at meets the pairs in reading order
        counts = self.pair_counts(k)
        facts = ReadingOrder(counts, self._ids.__getitem__, self.settings.units)
        return ties(counts, rule_named(self.settings.tie_break), facts, step.count)

    # -- the vocabulary ---------------------------------------------------------------------------

    def vocab(self, k: int) -> VocabSize:
        k = self._clamp(k)
        settings = self.settings
        unknown = UNKNOWN if settings.units == "chars" else None
        return VocabSize(len(self.base), self._learned[k], k, tuple(settings.special_tokens), unknown)

    def vocab_size(self, k: int) -> int:
        return self.vocab(k).total

    def vocab_sizes(self) -> list[int]:
        """``vocab_size`` at steps 0 to last (one addition per step: a chart asks for 100,000 at once)."""
        size = self.vocab(0)
        fixed = size.total - size.learned
        return [fixed + learned for learned in self._learned]

    def distinct_symbols(self) -> int:
        """Base symbols in the distinct words: what counting every pair at one step costs."""
        return sum(self._lengths)
