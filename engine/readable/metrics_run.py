"""The measures of ``engine.readable.metrics`` after every step of a run, for the corpus and a held-out text.

Nothing is encoded per step. The corpus's steps come from the history index (the total after each
step, the step at which each word becomes one token); a held-out text's from one encoding of each
distinct word with its trace, as ``engine.lesson.heldout.token_curve`` counts tokens. A merge of
``a b`` made m times takes m from the counts of ``a`` and of ``b`` and adds m to ``ab``: each step
changes three counts, and Σ c^α, Σ c log c and the number of types in use follow in O(1), so a step
costs O(1) here, after the O(changed words) the history or the trace already paid.

``curve.at(k)`` is the ``Metrics`` that ``measure(tokenizer.truncated(k), text)`` gives (tests hold
the two equal). Words kept whole need the tokenizer's pieces to be the words: they are counted for
the whitespace split with no special token met, and None otherwise.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from engine.algorithm.bytelevel import symbols_to_bytes
from engine.algorithm.corpus import Corpus
from engine.algorithm.tokenizer import Tokenizer
from engine.lesson.heldout import corpus_characters, text_words
from engine.lesson.history import History
from engine.readable.metrics import DEFAULT_ALPHA, Metrics, _entropies_of_sums, word_spans

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
    counts = run.start
    total = sum(counts.values())
    power = sum(c ** alpha for c in counts.values() if c > 0) if alpha != 1 else 0.0
    plogp = sum(c * math.log(c) for c in counts.values() if c > 0)
    used = sum(1 for c in counts.values() if c > 0)
    renyi0, shannon0 = _entropies_of_sums(total, power, plogp, alpha)
    tokens, used_at, renyi, shannon = [total], [used], [renyi0], [shannon0]
    whole = run.whole_start
    whole_at = [whole] if whole is not None else None

    def change(key: Hashable, delta: int) -> None:
        nonlocal power, plogp, used
        old = counts.get(key, 0)
        new = old + delta
        counts[key] = new
        if old > 0:
            power -= old ** alpha if alpha != 1 else 0.0
            plogp -= old * math.log(old)
            used -= 1
        if new > 0:
            power += new ** alpha if alpha != 1 else 0.0
            plogp += new * math.log(new)
            used += 1

    for k, ((a, b), m) in enumerate(zip(run.pairs, run.removed), start=1):
        if m:
            change(a, -m)
            change(b, -m)
            change(a + b, m)
            total -= m
        tokens.append(total)
        used_at.append(used)
        r, s = _entropies_of_sums(total, power, plogp, alpha)
        renyi.append(r)
        shannon.append(s)
        if whole_at is not None and run.whole_gain is not None:
            whole_at.append(whole_at[-1] + run.whole_gain[k - 1])
    return MetricsCurve(tuple(tokens), tuple(whole_at) if whole_at is not None else None, tuple(vocab_sizes),
                        tuple(used_at), tuple(renyi), tuple(shannon), characters, size, words, unknown, alpha)


def corpus_metrics_curve(history: History, alpha: float = DEFAULT_ALPHA) -> MetricsCurve:
    """The corpus's measures after every step of ``history``. A word is a corpus word, counted as often
    as it occurs: the whitespace split's words, or the pieces of another split (whose words kept whole
    are then not counted)."""
    corpus = history.corpus
    start: Counter[Hashable] = Counter()
    whole_gain = [0] * history.last_step
    whole_start = 0
    for w, count in enumerate(corpus.counts):
        for symbol in corpus.symbols(w):
            start[symbol] += count
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
    run = _Run(start, pairs, removed, whole_start if counted else None, whole_gain if counted else None)
    extra = len(tokenizer.special_ids) + (unknown_id is not None)
    sizes = [tokenizer.tables.regular_after[k] + extra for k in range(steps + 1)]
    words_in_text = len(word_spans(text))
    return _sweep(run, sizes, characters, size, words_in_text, unknown, alpha)
