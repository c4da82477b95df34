"""A lesson: its corpus, its settings, the full training history, and the state at any step.

Training runs once, to the end; the lesson then replays that history at any speed. Going to a
step never retrains: the words a step touched are known from its places, so only those words take
their tokens from the history index again and only their pairs are recounted.
"""

from __future__ import annotations

import heapq
from collections import Counter
from functools import cached_property
from dataclasses import dataclass
from typing import Iterator

from engine.corpus import Corpus
from engine.display import Display, for_settings
from engine.errors import BpeLabError, InternalError
from engine.formats.lesson_file import LessonFile
from engine.heldout import TextCurve, corpus_characters, token_curve
from engine.history import History
from engine.settings import Settings
from engine.tokenizer import UNKNOWN, Tokenizer
from engine.trainer import MergeStep, Trainer, target_merges


# a word of this many tokens or more moves step to step where its merges were made
LONG_WORD = 256


@dataclass(frozen=True)
class StepChange:
    """One move of the current step: where it landed, where it came from, and the words it re-split.

    ``words`` lists, in corpus order, the indices of the words whose tokens differ between
    ``previous`` and ``step``: a view redraws those and nothing else.
    """

    step: int
    previous: int
    words: tuple[int, ...]


class Lesson:
    """Corpus text and settings, and once trained: steps, stop reason and the full tokenizer."""

    # each step's count and the corpus totals were counted in this lesson's corpus (a tokenizer
    # read from a file has none: ``engine.imported_lesson``)
    counts_known = True

    def __init__(self, text: str, word_counts: bool = False, settings: Settings | None = None, held_out: str = "",
                 corpus: Corpus | None = None):
        """``corpus``: one already built from this text and these settings (a worker builds a large
        one in parts, see ``Corpus.from_text_in_parts``)."""
        self.text = text
        self.word_counts = word_counts
        self.settings = settings or Settings()
        self.held_out = held_out
        if corpus is not None:
            self.corpus = corpus
        elif word_counts:
            self.corpus = Corpus.from_word_counts(text, self.settings)
        else:
            self.corpus = Corpus.from_text(text, self.settings)
        self.steps: list[MergeStep] = []
        self.stop_reason: str | None = None
        self.tokenizer: Tokenizer | None = None
        self._history: History | None = None
        self._tokenizers: dict[int, Tokenizer] = {}
        self._held_out_curve: tuple[str, TextCurve] | None = None
        self._characters: int | None = None

    @classmethod
    def from_file(cls, data: LessonFile) -> "Lesson":
        return cls(data.text, data.word_counts, data.settings, data.held_out)

    def to_file(self, step: int = 0, quiz: dict | None = None) -> LessonFile:
        return LessonFile(self.text, self.word_counts, self.settings, step, self.held_out, quiz or {})

    @property
    def trained(self) -> bool:
        return self.tokenizer is not None

    @property
    def history(self) -> History:
        """The index every "at step k" question is answered from (built when training ends)."""
        self._require_trained()
        return self._history

    @cached_property
    def display(self) -> Display:
        """How this lesson's tokens read to a person (``engine.display``), worked out once per token."""
        return for_settings(self.settings)

    @property
    def is_empty(self) -> bool:
        return self.corpus.is_empty

    @property
    def initial_tokens(self) -> int:
        return self.corpus.total_symbols()

    @property
    def base_vocab(self) -> list[str]:
        return self.corpus.base_vocab()

    @property
    def last_step(self) -> int:
        return len(self.steps)

    def cautions(self) -> list[str]:
        """What a teacher should know about this corpus and these settings, in plain sentences."""
        found = []
        settings = self.settings
        marker = settings.marker
        if settings.units == "chars" and marker is not None and len(marker) == 1 \
                and any(marker in w for w in self.corpus.words):
            found.append(f"The end-of-word marker {marker} also appears inside words, so the two are one symbol: "
                         "pick a marker the text does not use, such as </w>.")
        if settings.units == "chars" and any(step.token == UNKNOWN for step in self.steps):
            found.append(f"The merges build {UNKNOWN}, which is also how the unknown token is spelt: "
                         "tokenizer.json cannot hold both, so export this lesson as BPE Lab's own file.")
        return found

    @property
    def characters(self) -> int:
        """Characters of the training words, each counted as often as it occurs (counted once)."""
        if self._characters is None:
            self._characters = corpus_characters(self.corpus)
        return self._characters

    def held_out_curve(self, text: str) -> TextCurve:
        """Tokens of a text after every step; the last text's curve is kept, so a worker that
        counts the lesson's own held-out text spares the window from counting it again."""
        self._require_trained()
        if self._held_out_curve is None or self._held_out_curve[0] != text:
            self._held_out_curve = (text, token_curve(self.tokenizer, text, self.last_step))
        return self._held_out_curve[1]

    def counted_held_out_curve(self, text: str) -> TextCurve | None:
        """The curve of ``text`` if it is already counted, else None (nothing is computed)."""
        if self._held_out_curve is not None and self._held_out_curve[0] == text:
            return self._held_out_curve[1]
        return None

    def training(self) -> Iterator[MergeStep]:
        """Train to the end, one step per item: a worker reports progress and may stop between steps.

        The lesson counts as trained only when the generator runs out; a stopped one leaves it untrained.
        """
        if self.corpus.is_empty:
            raise BpeLabError("the corpus is empty: type or open some training text")
        trainer = Trainer(self.corpus)
        steps: list[MergeStep] = []
        for step in trainer.steps():
            steps.append(step)
            yield step
        self.steps = steps
        self.stop_reason = trainer.stop_reason
        self._history = History(self.corpus, steps)
        self.tokenizer = Tokenizer.from_trainer(trainer)
        self._tokenizers.clear()

    def train(self) -> "Lesson":
        for _ in self.training():
            pass
        return self

    def target_merges(self) -> int | None:
        """The merges the settings ask for, or None for "until no pair repeats"."""
        return target_merges(self.settings, len(self.base_vocab))

    def tokenizer_at(self, k: int) -> Tokenizer:
        """The tokenizer after the first k merges (kept for the few steps asked for most)."""
        self._require_trained()
        k = max(0, min(k, len(self.steps)))
        found = self._tokenizers.get(k)
        if found is None:
            if len(self._tokenizers) > 8:
                self._tokenizers.clear()
            found = self._tokenizers[k] = self.tokenizer.truncated(k)
        return found

    def _require_trained(self) -> None:
        if self.tokenizer is None:
            raise BpeLabError("the lesson is not trained yet")


class LessonState:
    """Every word's tokens and every pair's count at one step, moved step to step incrementally.

    The tokens come from the lesson's history index; what this adds is the pair counts kept up to
    date word by word, and the pairs ranked by the tie rule, for the views that follow the lesson.
    """

    def __init__(self, lesson: Lesson, step: int = 0):
        self.lesson = lesson
        self.history = lesson.history
        self.corpus = lesson.corpus
        self.step = 0
        self._tokens: list[list[str]] = self.history.tokens_at(0)[:]
        self._pairs: dict[tuple[str, str], dict[int, int]] = {}
        self._counts: dict[tuple[str, str], int] = {}
        # token starts and tokens of the long words moved in place, kept while they move (``_long``)
        self._arrays: dict[int, tuple] = {}
        self._count_all()
        self.go_to(step)

    def _add(self, w: int, sign: int = 1) -> None:
        tokens = self._tokens[w]
        self._bump(w, Counter(zip(tokens, tokens[1:])), sign)

    def _bump(self, w: int, found: Counter, sign: int) -> None:
        """Count the pairs ``found`` in word w (pair -> occurrences) in (sign 1) or out (sign -1)."""
        freq = self.corpus.counts[w]
        pairs, counts = self._pairs, self._counts
        for pair, times in found.items():
            where = pairs.get(pair)
            if where is None:
                where = pairs[pair] = {}
            n = where.get(w, 0) + sign * times
            if n:
                where[w] = n
            else:
                del where[w]
                if not where:
                    del pairs[pair]
            c = counts.get(pair, 0) + sign * times * freq
            if c:
                counts[pair] = c
            else:
                del counts[pair]

    def go_to(self, k: int) -> StepChange:
        """Move to step k (clamped); the change names the words whose tokens changed."""
        history = self.history
        k = max(0, min(k, history.last_step))
        ordered = history.words_changed(self.step, k)
        in_place = {w for w in ordered if self._moves_in_place(w, k)}
        # past half the words, counting every pair afresh beats taking each word out and back in
        recount = not in_place and 2 * len(ordered) > len(self._tokens)
        for w in ordered:
            if w in in_place:
                self._move_in_place(w, k)
                continue
            self._arrays.pop(w, None)
            if not recount:
                self._add(w, -1)
            self._tokens[w] = history.word_tokens(w, k)
            if not recount:
                self._add(w, +1)
        if recount:
            self._count_all()
        previous, self.step = self.step, k
        return StepChange(k, previous, tuple(ordered))

    # -- long words: moved where their merges were made --------------------------------------------

    def _moves_in_place(self, w: int, k: int) -> bool:
        """Whether word w is long enough, and changes little enough on the way to step k, that
        patching its tokens where the merges were made beats splitting it again (a text with no
        spaces is one word of millions of symbols)."""
        length = len(self._tokens[w])
        places = abs(length - self.history.token_count(w, k))
        return length >= LONG_WORD and places * 2 < length

    def _move_in_place(self, w: int, k: int) -> None:
        import numpy as np

        cuts = np.array(self.history.word_cuts_between(w, self.step, k), dtype=np.int64)
        if k > self.step:
            self._join_at(w, cuts)
        else:
            self._split_at(w, cuts)

    def _long(self, w: int):
        """Word w's token starts (in base symbols) and tokens as numpy arrays, kept while it moves in
        place: a step in a text with no spaces joins tens of thousands of tokens at once, which numpy
        does in bulk where a Python loop would take a third of a second."""
        found = self._arrays.get(w)
        if found is None:
            import numpy as np  # only here: the window's start and small lessons go without it

            found = self._arrays[w] = (self.history.word_starts_array(w, self.step),
                                       np.array(self._tokens[w], dtype=object))
        return found

    def _recount_pairs(self, w: int, tokens, at, sign: int) -> None:
        """Count in or out the pairs that start at the token indices ``at`` (a numpy array, any order,
        repeats allowed) of the numpy array ``tokens``."""
        import numpy as np

        # each pair once, in order: a mask over the word is cheaper than np.unique's hashing
        # (``at`` runs from -2, before a word's first token, to its last token, which starts no pair)
        marked = np.zeros(len(tokens) + 2, dtype=bool)
        marked[at + 2] = True
        at = np.flatnonzero(marked[2:len(tokens) + 1])
        self._bump(w, Counter(zip(tokens[at].tolist(), tokens[at + 1].tolist())), sign)

    def _spell(self, w: int, starts, at) -> list[str]:
        """The tokens that start at ``starts[at]`` (numpy arrays), read from word w's text."""
        import numpy as np

        text = self.corpus.words[w]
        marker = self.lesson.settings.marker or ""
        size = len(text)
        # each token ends where the next starts; the last one at the word's end
        ends = starts[np.minimum(at + 1, len(starts) - 1)]
        ends[at + 1 == len(starts)] = size + len(marker)
        # every symbol is one character of the word's text but the marker, its last symbol
        return [text[a:b] if b <= size else text[a:] + marker for a, b in zip(starts[at].tolist(), ends.tolist())]

    def _join_at(self, w: int, cuts) -> None:
        """Forward in word w: each token starting at a cut joins the token before it."""
        import numpy as np

        starts, tokens = self._long(w)
        gone = np.searchsorted(starts, cuts)
        # out: the pairs each joining token is in, and the pair ending at the token it joins
        self._recount_pairs(w, tokens, np.concatenate((gone - 2, gone - 1, gone)), -1)
        keep = np.ones(len(starts), dtype=bool)
        keep[gone] = False
        starts, tokens = starts[keep], tokens[keep]
        # the kept token before each one gone, by its new index (gone is sorted, and the i-th one
        # gone has i gone before it): it grew; a run of tokens gone names the same one
        grown = gone - np.arange(len(gone)) - 1
        grown = grown[np.concatenate(([True], grown[1:] != grown[:-1]))]
        tokens[grown] = self._spell(w, starts, grown)
        self._store(w, starts, tokens)
        self._recount_pairs(w, tokens, np.concatenate((grown - 1, grown)), +1)

    def _split_at(self, w: int, cuts) -> None:
        """Back in word w: the tokens holding the cuts split there again."""
        import numpy as np

        starts, tokens = self._long(w)
        where = np.searchsorted(starts, cuts)
        split = where - 1  # sorted, as the cuts are
        split = split[np.concatenate(([True], split[1:] != split[:-1]))]
        self._recount_pairs(w, tokens, np.concatenate((split - 1, split)), -1)
        held = starts[split]
        starts = np.insert(starts, where, cuts)
        tokens = np.insert(tokens, where, None)
        # the tokens that split, by their new indices, and the pieces cut from them
        changed = np.concatenate((np.searchsorted(starts, held), np.searchsorted(starts, cuts)))
        tokens[changed] = self._spell(w, starts, changed)
        self._store(w, starts, tokens)
        self._recount_pairs(w, tokens, np.concatenate((changed - 1, changed)), +1)

    def _store(self, w: int, starts, tokens) -> None:
        self._arrays[w] = (starts, tokens)
        self._tokens[w] = tokens.tolist()

    def _count_all(self) -> None:
        self._pairs, self._counts = {}, {}
        for w in range(len(self._tokens)):
            self._add(w)

    # -- what views read ------------------------------------------------------------------------

    @property
    def total_tokens(self) -> int:
        return self.history.total_tokens(self.step)

    def tokens(self, w: int) -> list[str]:
        return self._tokens[w]

    def token_count(self, w: int) -> int:
        return len(self._tokens[w])

    def pair_counts(self) -> dict[tuple[str, str], int]:
        return self._counts

    def pair_count(self, pair: tuple[str, str]) -> int:
        return self._counts.get(pair, 0)

    def pair_sources(self, pair: tuple[str, str]) -> list[tuple[int, int]]:
        """(word index, occurrences in that word), in corpus order: count = sum(occ * word count)."""
        return sorted(self._pairs.get(pair, {}).items())

    def ranked_pairs(self, limit: int | None = None) -> list[tuple[tuple[str, str], int]]:
        """Pairs by count, ties in the order the lesson's tie rule breaks them."""
        counts = self._counts
        if self.lesson.settings.tie_break == "hf":
            ids = self.lesson.tokenizer.token_to_id
            items = self._at_least(limit)
            items.sort(key=lambda item: (-item[1], ids(item[0][0]), ids(item[0][1])))
        elif limit is None or limit <= 0 or len(counts) <= limit:
            first = self._first_places()
            items = list(counts.items())
            items.sort(key=lambda item: (-item[1], first[item[0]]))
        else:
            # a chart asks for the top few on every step: find each candidate's first place from
            # the first word that holds it instead of walking every word of the corpus
            # (and only for the candidates that share their count: a first place breaks ties and
            # nothing else, and a pair in thousands of words is costly to look through)
            pairs = self._pairs
            candidates = self._at_least(limit)
            shared = Counter(c for _, c in candidates)
            items = [(-c, min(pairs[p]) if shared[c] > 1 else -1, p, c) for p, c in candidates]
            items.sort(key=lambda item: item[:2])
            edge = items[limit - 1][:2]
            items = [item for item in items if item[:2] <= edge]
            offset = self._offsets([item for item in items if item[1] >= 0])
            items.sort(key=lambda item: (item[0], item[1], offset.get(item[2], 0)))
            items = [(p, c) for _, _, p, c in items]
        return items if limit is None else items[:limit]

    def _at_least(self, limit: int | None) -> list[tuple[tuple[str, str], int]]:
        """The pairs whose count reaches the limit-th highest count (all pairs without a limit)."""
        counts = self._counts
        if limit is None or limit <= 0 or len(counts) <= limit:
            return list(counts.items())
        floor = heapq.nlargest(limit, counts.values())[-1]
        return [(p, c) for p, c in counts.items() if c >= floor]

    def _offsets(self, items) -> dict[tuple[str, str], int]:
        """Where each pair first starts in the word the items name for it, one walk per word (a text
        with no spaces is one word in which thousands of pairs may tie)."""
        wanted: dict[int, set[tuple[str, str]]] = {}
        for _, w, pair, _ in items:
            wanted.setdefault(w, set()).add(pair)
        found: dict[tuple[str, str], int] = {}
        for w, pairs in wanted.items():
            tokens = self._tokens[w]
            left = len(pairs)
            for i, pair in enumerate(zip(tokens, tokens[1:])):
                if pair in pairs and pair not in found:
                    found[pair] = i
                    left -= 1
                    if not left:
                        break
            if left:
                raise InternalError(f"a pair is counted in word {w}, which does not hold it")
        return found

    def _first_places(self) -> dict[tuple[str, str], tuple[int, int]]:
        first: dict[tuple[str, str], tuple[int, int]] = {}
        for w, tokens in enumerate(self._tokens):
            for i, pair in enumerate(zip(tokens, tokens[1:])):
                if pair not in first:
                    first[pair] = (w, i)
        return first

    def next_step(self) -> MergeStep | None:
        """The merge that comes next from here, or None at the end: training stopped there."""
        return self.history.next_merge(self.step)

