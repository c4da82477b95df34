"""A lesson: its corpus, its settings, the full training history, and the state at any step.

Training runs once, to the end; the lesson then replays that history at any speed. Going to a
step never retrains: the words a step touched are known from its places, so only those words take
their tokens from the history index again and only their pairs are recounted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Collection, Generator, Iterable, Iterator, Mapping

from engine.algorithm.corpus import Corpus
from engine.algorithm.encoder import Encoder
from engine.errors import BpeLabError, InternalError
from engine.lesson.heldout import TextCurve, corpus_characters, token_curve
from engine.lesson.history import History
from engine.lesson.source import FileSource, LessonSource, TextSource, WordCountSource
from engine.lesson.run import Run
from engine.algorithm.ranking import Pair, Spelling, rank, rule_named, spelling_of, with_pair
from engine.algorithm.ranking import ties as ranking_ties
from engine.algorithm.settings import UNKNOWN, Settings
from engine.algorithm.tokenizer import Tokenizer
from engine.algorithm.trainer import MergeStep, Trainer, target_merges

if TYPE_CHECKING:
    import numpy as np

    from engine.lesson.corpus_arrays import CorpusArrays, Rebuilt
    from engine.lesson.long_word import LongWord, TokenIds

# pair -> change of its count over one move, applied at once by ``LessonState._settle``
Moved = dict[Pair, int]


# a word of this many base symbols or more is kept in numpy arrays and moved where its merges were made
LONG_WORD = 1024
# a corpus whose short words hold this many base symbols in all is kept whole in numpy arrays
# (``engine.lesson.corpus_arrays``): a merge there re-splits tens of thousands of words
LARGE_CORPUS = 200_000
# building every word of a corpus this many base symbols long takes a tenth of a second or more
SLOW_REBUILD = 1_000_000


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
    """Where a lesson comes from, its settings, its corpus (None for a tokenizer read from a file),
    and once trained or read: its run (steps, stop reason, the tokenizer at each step) and history."""

    def __init__(self, source: str | LessonSource, word_counts: bool = False, settings: Settings | None = None,
                 held_out: str = "", corpus: Corpus | None = None, run: Run | None = None):
        """``source``: the training text (word counts if ``word_counts``), or a ``FileSource`` with
        the ``run`` its merges make; such a lesson has no corpus. ``corpus``: one already built from
        this text and these settings (a worker builds a large one in parts, see
        ``Corpus.from_text_in_parts``)."""
        if isinstance(source, str):
            source = WordCountSource(source) if word_counts else TextSource(source)
        self.source: LessonSource = source
        self.settings = settings or Settings()
        self.held_out = held_out
        self.corpus: Corpus | None
        self.run: Run | None = None
        self._history: History | None = None
        if isinstance(source, FileSource):
            if run is None:
                raise InternalError("a lesson read from a tokenizer file needs the run its merges make")
            self.corpus = None
            # the history answers "word w at step k" for no words, and every size and tie from the steps
            self._finish(run, History(Corpus.from_text("", self.settings), run.steps, base=run.base))
        elif run is not None:
            raise InternalError("a lesson of a text makes its own run by training")
        elif corpus is not None:
            self.corpus = corpus
        elif isinstance(source, WordCountSource):
            self.corpus = Corpus.from_word_counts(source.text, self.settings)
        else:
            self.corpus = Corpus.from_text(source.text, self.settings)
        self._held_out_curve: tuple[str, TextCurve] | None = None
        self._characters: int | None = None

    @property
    def text(self) -> str:
        """The training text as typed ("" for a tokenizer file, which keeps none)."""
        return "" if isinstance(self.source, FileSource) else self.source.text

    @property
    def word_counts(self) -> bool:
        return isinstance(self.source, WordCountSource)

    @property
    def trained(self) -> bool:
        return self.run is not None

    @property
    def steps(self) -> list[MergeStep]:
        return self.run.steps if self.run is not None else []

    @property
    def stop_reason(self) -> str | None:
        return self.run.stop_reason if self.run is not None else None

    @property
    def tokenizer(self) -> Encoder | None:
        """The tokenizer after every step (None until trained)."""
        return self.run.tokenizer if self.run is not None else None

    @property
    def history(self) -> History:
        """The index every "at step k" question is answered from (built when training ends)."""
        if self._history is None:
            raise BpeLabError("the lesson is not trained yet")
        return self._history

    @property
    def is_empty(self) -> bool:
        """A corpus with no words; a lesson with no corpus is not empty: it has a file's merges."""
        return self.corpus is not None and self.corpus.is_empty

    @property
    def initial_tokens(self) -> int:
        """Symbols of the corpus before any merge (a lesson with no corpus has none)."""
        return self.corpus.total_symbols() if self.corpus is not None else 0

    @property
    def base_vocab(self) -> list[str]:
        if self.run is not None:
            return list(self.run.base)
        assert self.corpus is not None  # only a lesson read from a file has no corpus, and it has a run
        return self.corpus.base_vocab()

    @property
    def last_step(self) -> int:
        return len(self.steps)

    def origin(self) -> str:
        """One line on where the lesson comes from, for the status line and the corpus panel."""
        return self.source.origin(self.last_step)

    def cautions(self) -> list[str]:
        """What a teacher should know about this corpus and these settings, in plain sentences."""
        found = []
        settings = self.settings
        marker = settings.marker
        if settings.units == "chars" and marker is not None and len(marker) == 1 and self.corpus is not None \
                and any(marker in w for w in self.corpus.words):
            found.append(f"The end-of-word marker {marker} also appears inside words, so the two are one symbol: "
                         "pick a marker the text does not use, such as </w>.")
        if settings.units == "chars" and any(step.token == UNKNOWN for step in self.steps):
            found.append(f"The merges build {UNKNOWN}, which is also how the unknown token is spelt: "
                         "tokenizer.json cannot hold both, so export this lesson as BPE Lab's own file.")
        return found

    @property
    def characters(self) -> int:
        """Characters of the training words, each counted as often as it occurs (counted once; a
        lesson with no corpus has no training words)."""
        if self._characters is None:
            self._characters = corpus_characters(self.corpus) if self.corpus is not None else 0
        return self._characters

    def held_out_curve(self, text: str) -> TextCurve:
        """Tokens of a text after every step; the last text's curve is kept, so a worker that
        counts the lesson's own held-out text spares the window from counting it again."""
        if self._held_out_curve is None or self._held_out_curve[0] != text:
            tokenizer = self._run().tokenizer
            self._held_out_curve = (text, token_curve(tokenizer, text, self.last_step))  # type: ignore[arg-type]
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
        corpus = self.corpus
        if corpus is None:
            raise BpeLabError("an imported tokenizer is not trained here: its merges come from the file")
        if corpus.is_empty:
            raise BpeLabError("the corpus is empty: type or open some training text")
        trainer = Trainer(corpus)
        steps: list[MergeStep] = []
        for step in trainer.steps():
            steps.append(step)
            yield step
        tokenizer = Tokenizer.from_trainer(trainer)
        _ = tokenizer.tables  # built here, on the training's thread, rather than by the first view
        run = Run(steps, trainer.stop_reason, tokenizer, corpus.base_vocab(), tokenizer.truncated)
        self._finish(run, History(corpus, steps))

    def _finish(self, run: Run, history: History) -> None:
        self.run = run
        self._history = history

    def train(self) -> "Lesson":
        for _ in self.training():
            pass
        return self

    def target_merges(self) -> int | None:
        """The merges the settings ask for, or None for "until no pair repeats"."""
        return target_merges(self.settings, len(self.base_vocab))

    def tokenizer_at(self, k: int) -> Encoder:
        """The tokenizer after the first k merges (kept for the few steps asked for most)."""
        return self._run().tokenizer_at(k)

    def _run(self) -> Run:
        if self.run is None:
            raise BpeLabError("the lesson is not trained yet")
        return self.run


class LessonState:
    """Every word's tokens and every pair's count at one step, moved step to step incrementally.

    The tokens come from the lesson's history index; what this adds is the pair counts kept up to
    date word by word, and the pairs ranked by the tie rule, for the views that follow the lesson.
    A word of ``LONG_WORD`` symbols or more is kept as numpy arrays (``engine.lesson.long_word``) and moved
    where its merges were made; views read its head (``tokens_head``), not its millions of tokens.
    A corpus of ``LARGE_CORPUS`` symbols or more is kept whole in numpy arrays
    (``engine.lesson.corpus_arrays``), and a jump across one of millions can be built in a worker
    (``slow_move``, ``rebuilding``, ``adopt``) while the views read the step shown.
    """

    def __init__(self, lesson: Lesson, step: int = 0):
        self.lesson = lesson
        self.history = history = lesson.history
        # the history's corpus: a lesson read from a file has none, and its history has no words
        self.corpus = history.corpus
        self.step = k = max(0, min(step, history.last_step))
        words = range(len(self.corpus))
        self._long: dict[int, LongWord] = {}
        self._table: TokenIds | None = None
        self._arrays: CorpusArrays | None = None
        lengths = history.symbol_lengths()
        if sum(n for n in lengths if n < LONG_WORD) >= LARGE_CORPUS:
            from engine.lesson.corpus_arrays import CorpusArrays  # numpy: only a large corpus needs it
            from engine.lesson.long_word import TokenIds

            self._table = TokenIds(history)
            self._arrays = CorpusArrays(history, self._table, k)
            return
        long = [w for w in words if lengths[w] >= LONG_WORD]
        if long:
            from engine.lesson.long_word import LongWord, TokenIds  # numpy: only lessons with a long word need it

            self._table = TokenIds(history)
            self._long = {w: LongWord(self._table, history, w, k) for w in long}
        # a long word's entry stays None: its tokens live in ``_long``
        self._tokens: list[list[str] | None] = [None if w in self._long else history.word_tokens(w, k) for w in words]
        self._pairs: dict[tuple[str, str], dict[int, int]] = {}
        self._counts: dict[tuple[str, str], int] = {}
        # count -> the pairs that have it: the top few are found without looking at every pair
        self._by_count: dict[int, set[tuple[str, str]]] = {}
        self._count_all()

    def _short_tokens(self, w: int) -> list[str]:
        """Short word w's tokens (a long word's live in ``_long``, its entry here is None)."""
        tokens = self._tokens[w]
        if tokens is None:
            raise InternalError(f"word {w} is long: its tokens are kept in its arrays")
        return tokens

    def _add(self, w: int, moved: Moved) -> None:
        tokens = self._short_tokens(w)
        found: dict[tuple[str, str], int] = {}
        for pair in zip(tokens, tokens[1:]):
            found[pair] = found.get(pair, 0) + 1
        self._bump(w, found, moved)

    def _replace(self, w: int, new: list[str], moved: Moved) -> None:
        """Give short word w the tokens ``new``, counting out and in only the pairs around the part
        that differs: a merge changes a word where it was made, and the ends on both sides stay."""
        old = self._short_tokens(w)
        self._tokens[w] = new
        shorter = min(len(old), len(new))
        i = 0
        while i < shorter and old[i] == new[i]:
            i += 1
        j = 0
        while j < shorter - i and old[-1 - j] == new[-1 - j]:
            j += 1
        # the pairs that hold a changed token: from the one before the change to the one after it
        start = max(i - 1, 0)
        out, put = old[start:len(old) - j + 1], new[start:len(new) - j + 1]
        net: dict[tuple[str, str], int] = {}
        for pair in zip(out, out[1:]):
            net[pair] = net.get(pair, 0) - 1
        for pair in zip(put, put[1:]):
            net[pair] = net.get(pair, 0) + 1
        self._bump(w, {pair: n for pair, n in net.items() if n}, moved)

    def _bump(self, w: int, found: Mapping[Pair, int], moved: Moved) -> None:
        """Count the pairs ``found`` in word w (pair -> occurrences; negative: counted out) into the
        places, and their weighted change into ``moved`` (pair -> change of count), for ``_settle``."""
        freq = self.corpus.counts[w]
        pairs = self._pairs
        for pair, times in found.items():
            where = pairs.get(pair)
            if where is None:
                where = pairs[pair] = {}
            n = where.get(w, 0) + times
            if n:
                where[w] = n
            else:
                del where[w]
                if not where:
                    del pairs[pair]
            moved[pair] = moved.get(pair, 0) + times * freq

    def _settle(self, moved: Moved) -> None:
        """Apply the changes of count of a whole move at once: a pair met in hundreds of the words
        a merge re-split changes its count, and its place among the counts, once."""
        counts, by_count = self._counts, self._by_count
        for pair, change in moved.items():
            if not change:
                continue
            was = counts.get(pair, 0)
            if was:
                left = by_count[was]
                left.discard(pair)
                if not left:
                    del by_count[was]
            c = was + change
            if c:
                counts[pair] = c
                same = by_count.get(c)
                if same is None:
                    by_count[c] = {pair}
                else:
                    same.add(pair)
            else:
                del counts[pair]

    def go_to(self, k: int) -> StepChange:
        """Move to step k (clamped); the change names the words whose tokens changed."""
        history = self.history
        k = max(0, min(k, history.last_step))
        if self._arrays is not None:
            changed = self._arrays.go_to(k)
            previous, self.step = self.step, k
            return StepChange(k, previous, tuple(changed.tolist()))
        ordered = history.words_changed(self.step, k)
        short = [w for w in ordered if w not in self._long]
        # past half the words, counting every short word's pairs afresh beats taking each out and back in
        recount = 2 * len(short) > len(self._tokens)
        moved: Moved = {}
        for w in ordered:
            found = self._long.get(w)
            if found is not None:
                self._bump_codes(w, *found.move(k), moved)
            elif recount:
                self._tokens[w] = history.word_tokens(w, k)
            else:
                self._replace(w, history.word_tokens(w, k), moved)
        if recount:
            self._count_all()
        else:
            self._settle(moved)
        previous, self.step = self.step, k
        return StepChange(k, previous, tuple(ordered))

    def slow_move(self, k: int) -> bool:
        """Whether going to step k builds every word of a corpus of millions of symbols again (a
        jump): a few tenths of a second, worth a worker."""
        arrays = self._arrays
        return (arrays is not None and arrays.n >= SLOW_REBUILD
                and arrays.rebuilds(max(0, min(k, self.history.last_step))))

    def rebuilding(self, k: int) -> Generator[tuple[int, int], None, Rebuilt | int]:
        """Step k built apart from the step shown, for a worker: yields (parts done, parts) and
        returns what ``adopt`` takes. Only a large corpus's state has parts to build."""
        k = max(0, min(k, self.history.last_step))
        if self._arrays is None:
            return k
        return (yield from self._arrays.rebuilding(k))

    def adopt(self, built: "Rebuilt | int") -> StepChange:
        """Stand at the step ``rebuilding`` built; the change names the words whose tokens changed."""
        if isinstance(built, int):  # a state without arrays builds nothing apart: ``rebuilding`` gave the step
            return self.go_to(built)
        arrays = self._arrays
        if arrays is None:
            raise InternalError("a step built in arrays was handed to a state that keeps none")
        changed = arrays.changed_words(self.step, built.step)
        arrays.adopt(built)
        previous, self.step = self.step, built.step
        return StepChange(self.step, previous, tuple(changed.tolist()))

    def _bump_codes(self, w: int, out: np.ndarray, put: np.ndarray, moved: Moved) -> None:
        """Count long word w's pairs out and in, given as numpy arrays of pair codes: only their
        net change, one entry per distinct pair, reaches the dictionaries."""
        from engine.lesson.long_word import net_counts  # numpy: only lessons with a long word need it

        table = self._long[w].table
        pair = table.pair
        codes, net = net_counts(out, put, table.size)
        self._bump(w, {pair(c): n for c, n in zip(codes, net)}, moved)

    def _count_all(self) -> None:
        self._pairs, self._counts, self._by_count = {}, {}, {}
        moved: Moved = {}
        for w in range(len(self._tokens)):
            found = self._long.get(w)
            if found is None:
                self._add(w, moved)
            else:
                import numpy as np

                self._bump_codes(w, np.empty(0, dtype=np.int64), found.pair_codes(), moved)
        self._settle(moved)

    # -- what views read ------------------------------------------------------------------------

    @property
    def total_tokens(self) -> int:
        return self.history.total_tokens(self.step)

    def tokens(self, w: int) -> list[str]:
        """Word w's tokens, all of them: for a word millions of symbols long, read ``tokens_head``."""
        if self._arrays is not None:
            return self._arrays.tokens(w)
        found = self._long.get(w)
        return found.tokens() if found is not None else self._short_tokens(w)

    def tokens_head(self, w: int, symbols: int) -> list[str]:
        """Word w's tokens that start within its first ``symbols`` base symbols: what a view shows
        of a long word, in time of ``symbols``."""
        if self._arrays is not None:
            return self._arrays.tokens_head(w, symbols)
        found = self._long.get(w)
        if found is not None:
            return found.head(symbols)
        tokens = self._short_tokens(w)
        if self.history.token_count(w, 0) <= symbols:
            return tokens
        head, at = [], 0
        for token in tokens:
            if at >= symbols:
                break
            head.append(token)
            at += len(token)
        return head

    def token_count(self, w: int) -> int:
        if self._arrays is not None:
            return self.history.token_count(w, self.step)
        found = self._long.get(w)
        return found.count if found is not None else len(self._short_tokens(w))

    def pair_counts(self) -> dict[tuple[str, str], int]:
        """Every pair's count (all of a large corpus's: ``distinct_pairs`` and ``pairs_with_count``
        answer the common questions without listing them)."""
        if self._arrays is not None:
            return self._arrays.pair_counts()
        return self._counts

    @property
    def distinct_pairs(self) -> int:
        """How many different pairs of neighbours there are."""
        return len(self._arrays.codes) if self._arrays is not None else len(self._counts)

    def pairs_with_count(self, count: int) -> set[tuple[str, str]]:
        if self._arrays is not None:
            return set(self._arrays.pairs_with_count(count))
        return {pair for pair, c in self._counts.items() if c == count}

    def pair_count(self, pair: tuple[str, str]) -> int:
        if self._arrays is not None:
            return self._arrays.pair_count(pair)
        return self._counts.get(pair, 0)

    def pair_sources(self, pair: tuple[str, str]) -> list[tuple[int, int]]:
        """(word index, occurrences in that word), in corpus order: count = sum(occ * word count)."""
        if self._arrays is not None:
            return self._arrays.pair_sources(pair)
        return sorted(self._pairs.get(pair, {}).items())

    def ranked_pairs(self, limit: int | None = None,
                     must_include: tuple[str, str] | None = None) -> list[tuple[tuple[str, str], int]]:
        """Pairs by count, ties in the order the lesson's tie rule breaks them (``engine.algorithm.ranking``):
        the first ``limit``, with ``must_include`` in the last place if it ranks below them."""
        rule = rule_named(self.lesson.settings.tie_break)
        facts = _StateFacts(self)
        if self._arrays is not None:
            ranked = self._arrays.ranked(limit, rule, facts)
            return with_pair(ranked, must_include, {must_include: self.pair_count(must_include)}
                             if must_include is not None else {}, limit)
        # a chart asks for the top few on every step: only the pairs counted as much as the
        # limit-th are ranked, and only those sharing a count need their first places
        return rank(self._counts, rule, facts, limit, candidates=self._at_least(limit),
                    must_include=must_include)

    def tied_pairs(self, count: int) -> list[tuple[str, str]]:
        """The pairs with ``count``, in the order the lesson's tie rule breaks their tie."""
        tied = {pair: count for pair in self.pairs_with_count(count)}
        return ranking_ties(tied, rule_named(self.lesson.settings.tie_break), _StateFacts(self), count)

    def _at_least(self, limit: int | None) -> list[tuple[tuple[str, str], int]]:
        """The pairs whose count reaches the limit-th highest count (all pairs without a limit)."""
        counts = self._counts
        if limit is None or limit <= 0 or len(counts) <= limit:
            return list(counts.items())
        found: list[tuple[tuple[str, str], int]] = []
        for c in sorted(self._by_count, reverse=True):
            found.extend((p, c) for p in self._by_count[c])
            if len(found) >= limit:
                break
        return found

    def _offsets(self, items: Iterable[tuple[int, Pair]]) -> dict[Pair, int]:
        """Where each pair first starts in the word named with it, one walk per word (a text
        with no spaces is one word in which thousands of pairs may tie)."""
        wanted: dict[int, set[Pair]] = {}
        for w, pair in items:
            wanted.setdefault(w, set()).add(pair)
        found: dict[tuple[str, str], int] = {}
        for w, pairs in wanted.items():
            if w in self._long:
                found.update(self._long_offsets(w, pairs))
                continue
            tokens = self._short_tokens(w)
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

    def _long_offsets(self, w: int, pairs: set[tuple[str, str]]) -> dict[tuple[str, str], int]:
        """Where each pair first starts in long word w, in base symbols: in the same order as token
        indices, which is all a ranking compares within one word."""
        word = self._long[w]
        # a pair with no code is in no long word: left out, it is missing from what is found
        codes = {code: pair for pair in pairs if (code := word.table.code(pair)) is not None}
        found = word.first_places(set(codes))
        if len(found) < len(pairs):
            raise InternalError(f"a pair is counted in word {w}, which does not hold it")
        return {codes[code]: at for code, at in found.items()}

    def _first_places(self) -> dict[tuple[str, str], tuple[int, int]]:
        """Where each pair first starts: (word, place in it; a long word's in base symbols)."""
        first: dict[tuple[str, str], tuple[int, int]] = {}
        for w, tokens in enumerate(self._tokens):
            if tokens is None:
                pair_of = self._long[w].table.pair
                for code, at in self._long[w].all_first_places().items():
                    first.setdefault(pair_of(code), (w, at))
                continue
            for i, pair in enumerate(zip(tokens, tokens[1:])):
                if pair not in first:
                    first[pair] = (w, i)
        return first

    def reading_places(self, pairs: Collection[Pair], enough: int | None = None) -> dict[Pair, int]:
        """Where each pair is first met, as one number that orders places in reading order: word << 32
        | where in it (a long word's in base symbols), found only for the pairs asked about. Given
        ``enough``, only the ``enough`` pairs met first must be there."""
        arrays = self._arrays
        if arrays is not None:
            import numpy as np

            code = arrays.table.code
            codes = {code(pair): pair for pair in pairs}
            found = arrays.first_places(np.array(list(codes), dtype=np.int64), enough)
            return {codes[c]: at for c, at in found.items()}
        if enough is None and len(pairs) * 2 > len(self._counts):
            first = self._first_places()
            return {pair: w << 32 | at for pair, (w, at) in first.items()}
        # the first word that holds each, then where in it for those that may rank: a pair in
        # thousands of words is costly to look through, and a text with no spaces is one word
        words = sorted((min(self._pairs[pair]), pair) for pair in pairs)
        if enough is not None and enough < len(words):
            edge = words[enough - 1][0]
            words = [item for item in words if item[0] <= edge]
        offsets = self._offsets(words)
        return {pair: w << 32 | offsets[pair] for w, pair in words}

    def next_step(self) -> MergeStep | None:
        """The merge that comes next from here, or None at the end: training stopped there."""
        return self.history.next_merge(self.step)


class _StateFacts:
    """A lesson state's pairs as a ranking reads them (``engine.algorithm.ranking.Facts``)."""

    def __init__(self, state: LessonState):
        self.state = state
        tokenizer = state.lesson.tokenizer
        if tokenizer is None:
            raise BpeLabError("the lesson is not trained yet")
        self._token_to_id = tokenizer.token_to_id
        self._spelling = spelling_of(state.lesson.settings.units)

    def spelling(self, token: str) -> Spelling:
        return self._spelling(token)

    def places(self, pairs: Collection[Pair], enough: int | None = None) -> dict[Pair, int]:
        return self.state.reading_places(pairs, enough)

    def token_id(self, token: str) -> int:
        found = self._token_to_id(token)
        if found is None:
            raise InternalError(f"the token {token!r} of a pair counted here has no id in the lesson's tokenizer")
        return found
