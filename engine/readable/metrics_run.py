"""The measures of ``engine.readable.metrics`` after every step of a run, for the corpus and a held-out text.

Nothing is encoded per step. The corpus's steps come from the history index (the total after each
step, the step at which each word becomes one token); a held-out text's from one encoding of each
distinct word with its trace, as ``engine.lesson.heldout.token_curve`` counts tokens. A merge of
``a b`` made m times takes m from the counts of ``a`` and of ``b`` and adds m to ``ab``: each step
changes three counts, and Σ c^α, Σ c log c and the number of types in use follow from those three,
so a step costs O(1) here (summed as arrays), after the O(changed words) the history or the trace
already paid.

``curve.at(k)`` is the ``Metrics`` that ``measure(tokenizer.truncated(k), text)`` gives (tests hold
the two equal). Words kept whole: with the whitespace split the pieces are the words, each traced
once; with another split, from the boundaries inside each word (``engine.readable.whole_words``);
None with the whitespace split where a special token was met (the split drops the whitespace that
would say where the special token stands among the words).

Given a ``check`` (a worker's stop, raising), ``lesson_metrics`` measures a very long held-out text in
a child process (``engine.child``) that the check ends at once: the text is split in one call, seconds
that no stop could otherwise reach.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Callable

from engine.algorithm.bytelevel import symbols_to_bytes
from engine.algorithm.corpus import Corpus
from engine.algorithm.tokenizer import Tokenizer
from engine.child import run_in_child
from engine.lesson.heldout import corpus_characters, text_words
from engine.lesson.history import History
from engine.lesson.lesson import Lesson
from engine.readable.metrics import DEFAULT_ALPHA, Metrics, word_spans
from engine.readable.whole_words import whole_word_steps

# the key of the unknown token in a distribution keyed by token text: no merge can make it
_UNKNOWN = ("unknown",)


@dataclass(frozen=True, slots=True)
class MetricsCurve:
    """Per step 0..n: tokens, words kept whole (None where not counted), vocabulary size and used,
    the two entropies; and what does not change with the step."""

    tokens: tuple[int, ...]
    words_whole: tuple[int, ...] | None
    vocab_sizes: tuple[int, ...]
    vocab_used: tuple[int, ...]
    renyi: tuple[float, ...]
    shannon: tuple[float, ...]
    characters: int
    bytes: int
    words: int
    unknown: int
    alpha: float

    @property
    def last_step(self) -> int:
        return len(self.tokens) - 1

    def at(self, k: int) -> Metrics:
        """The measures after ``k`` merges (``words_whole`` is 0 where the curve does not count it)."""
        k = max(0, min(k, self.last_step))
        whole = self.words_whole[k] if self.words_whole is not None else 0
        return Metrics(self.tokens[k], self.characters, self.bytes, self.words, whole, self.unknown,
                       self.vocab_sizes[k], self.vocab_used[k], self.alpha, self.renyi[k], self.shannon[k])


@dataclass
class _Run:
    """What a run's steps do to a text's token distribution, gathered before the sweep."""

    start: Counter[Hashable]
    pairs: Sequence[tuple[str, str]]
    removed: Sequence[int]  # removed[k - 1]: merges step k made in the text (weighted)
    whole_start: int | None
    whole_gain: Sequence[int] | None  # whole_gain[k - 1]: words that become one token on step k


def _sweep(run: _Run, vocab_sizes: Sequence[int], characters: int, size: int, words: int, unknown: int,
           alpha: float) -> MetricsCurve:
    """Every step's sums, from the changes to the token counts: each change of a count from ``old``
    to ``new`` moves Σ c^α by new^α − old^α (and Σ c log c, the types in use, alike). The changes of
    one token are put in step order and summed to give each its old and new count; the moves are
    then added up per step, all as arrays, so 100,000 steps cost one sort of 300,000 changes."""
    import numpy as np  # loads only when a curve is asked for

    key_ids: dict[Hashable, int] = {}
    key = key_ids.setdefault
    steps: list[int] = []
    keys: list[int] = []
    deltas: list[int] = []
    for token, count in run.start.items():
        if count:
            steps.append(0)
            keys.append(key(token, len(key_ids)))
            deltas.append(count)
    for k, ((a, b), m) in enumerate(zip(run.pairs, run.removed), start=1):
        if m:
            steps += (k, k, k)
            keys += (key(a, len(key_ids)), key(b, len(key_ids)), key(a + b, len(key_ids)))
            deltas += (-m, -m, m)
    n = len(run.pairs)
    step_of = np.array(steps, dtype=np.int64)
    key_of = np.array(keys, dtype=np.int64)
    delta = np.array(deltas, dtype=np.float64)
    order = np.argsort(key_of, kind="stable")  # stable: each token's changes stay in step order
    step_of, key_of, delta = step_of[order], key_of[order], delta[order]
    running = np.cumsum(delta)
    first = np.ones(len(key_of), dtype=bool)
    first[1:] = key_of[1:] != key_of[:-1]
    before = running - delta  # the running sum before each change, over every token so far
    group = np.cumsum(first) - 1
    new = running - before[first][group]
    old = new - delta

    def plogp(c: np.ndarray) -> np.ndarray:
        return np.where(c > 0, c * np.log(np.maximum(c, 1.0)), 0.0)

    def per_step(moves: np.ndarray) -> np.ndarray:
        return np.cumsum(np.bincount(step_of, weights=moves, minlength=n + 1))

    totals = np.rint(per_step(delta)).astype(np.int64)
    used = np.rint(per_step((new > 0).astype(np.float64) - (old > 0))).astype(np.int64)
    logs = per_step(plogp(new) - plogp(old))
    power = per_step(new ** alpha - old ** alpha) if alpha != 1 else np.zeros(n + 1)
    renyi, shannon = _entropies_of_arrays(totals, power, logs, alpha)
    whole_at = None
    if run.whole_start is not None and run.whole_gain is not None:
        whole_at = tuple(int(w) for w in np.cumsum([run.whole_start, *run.whole_gain]))
    return MetricsCurve(tuple(totals.tolist()), whole_at, tuple(vocab_sizes), tuple(used.tolist()),
                        renyi, shannon, characters, size, words, unknown, alpha)


def _entropies_of_arrays(totals: Any, power: Any, logs: Any, alpha: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """``engine.readable.metrics._entropies_of_sums`` for every step at once."""
    import numpy as np

    total = np.maximum(totals, 1).astype(np.float64)
    shannon = np.where(totals > 0, np.maximum(0.0, np.log(total) - logs / total), 0.0)
    if alpha == 1:
        renyi = shannon
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            value = (np.log(np.where(power > 0, power, 1.0)) - alpha * np.log(total)) / (1 - alpha)
        renyi = np.where((totals > 0) & (power > 0), np.maximum(0.0, value), 0.0)
    return tuple(renyi.tolist()), tuple(shannon.tolist())


def corpus_metrics_curve(history: History, alpha: float = DEFAULT_ALPHA) -> MetricsCurve:
    """The corpus's measures after every step of ``history``. A word is a corpus word, counted as often
    as it occurs: the whitespace split's words, or the pieces of another split (whose words kept whole
    are then not counted)."""
    corpus = history.corpus
    start = _symbol_counts(corpus)
    whole_gain = [0] * history.last_step
    whole_start = 0
    for w, count in enumerate(corpus.counts):
        step = history.whole_step(w)
        if step == 0:
            whole_start += count
        elif step is not None:
            whole_gain[step - 1] += count
    totals = history.totals()
    removed = [totals[k - 1] - totals[k] for k in range(1, len(totals))]
    pairs = [step.pair for step in history.steps]
    counted = corpus.settings.split == "whitespace"
    run = _Run(start, pairs, removed, whole_start if counted else None, whole_gain if counted else None)
    return _sweep(run, history.vocab_sizes(), corpus_characters(corpus), _corpus_bytes(corpus),
                  sum(corpus.counts), 0, alpha)


def _symbol_counts(corpus: Corpus) -> Counter[Hashable]:
    """How often each base symbol occurs in the corpus (a word's symbols are its characters, then the
    marker). Words of one count are counted together: a corpus holds few distinct counts."""
    by_count: dict[int, list[str]] = {}
    for word, count in zip(corpus.words, corpus.counts):
        by_count.setdefault(count, []).append(word)
    start: Counter[Hashable] = Counter()
    for count, words in by_count.items():
        for symbol, n in Counter("".join(words)).items():
            start[symbol] += n * count
    marker = corpus.settings.marker
    if marker is not None:
        start[marker] += sum(corpus.counts)
    return start


def _corpus_bytes(corpus: Corpus) -> int:
    if corpus.settings.units == "bytes":
        return sum(len(symbols_to_bytes(w)) * c for w, c in zip(corpus.words, corpus.counts))
    return sum(len(w.encode("utf-8", errors="surrogatepass")) * c for w, c in zip(corpus.words, corpus.counts))


def text_metrics_curve(tokenizer: Tokenizer, text: str, steps: int | None = None, alpha: float = DEFAULT_ALPHA,
                       allow_special: bool = False) -> MetricsCurve:
    """``text``'s measures after each of 0..steps merges of ``tokenizer``, one encoding per distinct word."""
    last = len(tokenizer.merges)
    steps = last if steps is None else max(0, min(steps, last))
    words, specials = text_words(tokenizer, text, allow_special)
    start: Counter[Hashable] = Counter(("special", s) for s in specials)
    removed = [0] * steps
    whole_gain = [0] * steps
    whole_start = 0
    unknown = 0
    characters = sum(len(s) for s in specials)
    size = sum(len(s.encode("utf-8", errors="surrogatepass")) for s in specials)
    unknown_id = tokenizer.unknown_id
    for word, count in words.items():
        base, trace = tokenizer.encode_steps(word)
        characters += len(word) * count
        size += len(word.encode("utf-8", errors="surrogatepass")) * count
        for symbol in base:
            if unknown_id is not None and tokenizer.token_to_id(symbol) == unknown_id:
                start[_UNKNOWN] += count
                unknown += count
            else:
                start[symbol] += count
        length = len(base)
        if length == 1:
            whole_start += count
        for entry in trace:
            if entry.rank >= steps:
                break
            removed[entry.rank] += (length - len(entry.tokens)) * count
            length = len(entry.tokens)
            if length == 1:
                whole_gain[entry.rank] += count
    pairs = tokenizer.merges[:steps]
    counted = tokenizer.settings.split == "whitespace" and not specials
    if not counted and tokenizer.settings.split != "whitespace":
        # the pieces are not the words: when each word becomes one token comes from its boundaries
        word_steps = whole_word_steps(tokenizer, text, allow_special)
        if word_steps is not None:
            counted, whole_start, whole_gain = True, 0, [0] * steps
            for step in word_steps:
                if step == 0:
                    whole_start += 1
                elif step <= steps:
                    whole_gain[step - 1] += 1
    run = _Run(start, pairs, removed, whole_start if counted else None, whole_gain if counted else None)
    extra = len(tokenizer.special_ids) + (unknown_id is not None)
    sizes = [tokenizer.tables.regular_after[k] + extra for k in range(steps + 1)]
    words_in_text = len(word_spans(text))
    return _sweep(run, sizes, characters, size, words_in_text, unknown, alpha)


@dataclass(frozen=True, slots=True)
class LessonCurves:
    """A lesson's measures after every step: its corpus's (None for a tokenizer file, which keeps no
    corpus) and its held-out text's (None when there is none, or its tokenizer is not a merge list)."""

    corpus: MetricsCurve | None
    held_out: MetricsCurve | None


# a held-out text at least this long is measured in a child process when a check is given: 9 MB take
# about 4 s, and a child costs about a second to start and receive the text
IN_CHILD_FROM = 3_000_000


def lesson_metrics(lesson: Lesson, held_out: str | None = None, alpha: float = DEFAULT_ALPHA,
                   check: Callable[[], None] | None = None) -> LessonCurves:
    """The curves of a trained lesson: the corpus from its history, ``held_out`` (by default the
    lesson's own held-out text) from one trace of each of its distinct words."""
    text = lesson.held_out if held_out is None else held_out
    corpus = corpus_metrics_curve(lesson.history, alpha) if lesson.corpus is not None else None
    tokenizer = lesson.tokenizer
    curve = None
    if text and isinstance(tokenizer, Tokenizer):
        if check is not None and len(text) >= IN_CHILD_FROM:
            check()
            curve = run_in_child(text_metrics_curve, tokenizer, text, lesson.last_step, alpha, check=check,
                                 what="the measures of the held-out text")
        else:
            curve = text_metrics_curve(tokenizer, text, lesson.last_step, alpha)
    return LessonCurves(corpus, curve)
