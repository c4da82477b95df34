"""The textbook merge loop, and the common mistakes in it, each a small change to one of its parts.

Students writing a trainer get the loop right and one part wrong: how pairs are counted, how a
pair is merged, or when the loop stops; or they prepare the words differently (no end-of-word
marker, lowercased). Each mistake here is that loop with its one part swapped, so a merge list
is explained by re-training under the mistake and seeing whether the list comes out, never by
guessing from a pair.

>>> training = Training("tea tea team teams steam seat", False, Settings(end_of_word=None))
>>> learn(training, limit=3)
[('e', 'a'), ('t', 'ea'), ('tea', 'm')]
>>> learn(training, MISTAKES["unweighted"], limit=1)
[('e', 'a')]

Left out: the fast trainer (``engine.algorithm.trainer``), which the tests hold to this loop, and
combinations of two mistakes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import islice

from engine.algorithm.corpus import Corpus
from engine.algorithm.pretokenize import lowercase, split_on_whitespace
from engine.algorithm.ranking import TieRule, rule_named
from engine.algorithm.settings import Settings
from engine.algorithm.textbook import merge
from engine.algorithm.trainer import check_vocab_target, extra_ids
from engine.compare.pair_counts import PairCounts

Pair = tuple[str, str]
Words = list[list[str]]
# the most symbols a mistake that writes every occurrence of a word out is run on
MAX_WRITTEN_OUT = 2_000_000
# a token made by merging an overlapping run twice can spell its run twice over, and a long run
# (a line of ====) doubles it each round; past this many characters beyond the longest word, the
# re-training stops rather than fill memory (no list it could explain is that long-winded)
MAX_OVERGROWTH = 10_000


@dataclass(frozen=True)
class Training:
    """What a lesson trains from: its text (word counts if ``word_counts``) and its settings."""

    text: str
    word_counts: bool
    settings: Settings

    def corpus(self, settings: Settings | None = None) -> Corpus:
        chosen = settings or self.settings
        if self.word_counts:
            return Corpus.from_word_counts(self.text, chosen)
        return Corpus.from_text(self.text, chosen)


def merge_overlapping(symbols: list[str], pair: Pair) -> list[str]:
    """Every place the pair is found is merged, even where two places share a symbol:
    merge_overlapping(list("aaa"), ("a", "a")) == ["aa", "aa"] (the middle ``a`` used twice)."""
    out: list[str] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            # the mistake: the next look starts at the right symbol, which is merged again
            if i + 2 < len(symbols) and (symbols[i + 1], symbols[i + 2]) == pair:
                i += 1
            else:
                i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def merge_from_right(symbols: list[str], pair: Pair) -> list[str]:
    """The pair merged scanning from the right: merge_from_right(list("aaa"), ("a", "a")) == ["a", "aa"]."""
    out: list[str] = []
    i = len(symbols) - 1
    while i >= 0:
        if i >= 1 and (symbols[i - 1], symbols[i]) == pair:
            out.append(pair[0] + pair[1])
            i -= 2
        else:
            out.append(symbols[i])
            i -= 1
    out.reverse()
    return out


@dataclass(frozen=True)
class Mistake:
    """One part of the loop done another way; ``says`` names it for a student."""

    name: str
    says: str
    # False: each distinct word counted once, whatever its frequency
    weighted: bool = True
    merge: Callable[[list[str], Pair], list[str]] = merge
    # merges made past the loop's stop (1), or left undone before it (-1)
    extra: int = 0
    # the words as one sequence, every occurrence written out: pairs then cross each word's end
    across_words: bool = False
    # settings the words are prepared with, from the lesson's (None: the mistake does not apply)
    prepare: Callable[[Settings], Settings | None] | None = None


def _without_marker(settings: Settings) -> Settings | None:
    return replace(settings, end_of_word=None) if settings.marker is not None else None


def _lowercase_flipped(settings: Settings) -> Settings:
    return replace(settings, lowercase=not settings.lowercase)


MISTAKES: dict[str, Mistake] = {m.name: m for m in (
    Mistake("across words", "pairs counted across word boundaries", across_words=True),
    Mistake("unweighted", "counts not weighted by word frequency", weighted=False),
    Mistake("overlap merged twice", "an overlapping run (a a a) merged twice", merge=merge_overlapping),
    Mistake("right to left", "merges applied right to left", merge=merge_from_right),
    Mistake("one merge too many", "the stopping rule off by one: one merge too many", extra=1),
    Mistake("one merge too few", "the stopping rule off by one: one merge too few", extra=-1),
    Mistake("no end-of-word marker", "the end-of-word marker left out", prepare=_without_marker),
    Mistake("lowercase", "the text lowercased (or not) unlike the lesson", prepare=_lowercase_flipped),
)}
TEXTBOOK = Mistake("textbook", "the lesson's own loop")


def _written_out(training: Training, corpus: Corpus) -> tuple[Words, tuple[int, ...]] | None:
    """Every occurrence of every word as one sequence (None if too long): in the text's own order
    where the words are the text's runs of non-space, as a student's ``text.split()`` reads them;
    else (word counts, other splits) each word as often as it occurs, in order of first appearance."""
    if corpus.total_symbols() > MAX_WRITTEN_OUT:
        return None
    settings = corpus.settings
    end = [settings.marker] if settings.marker is not None else []
    sequence: list[str] = []
    if (not training.word_counts and settings.split == "whitespace" and settings.units == "chars"
            and not settings.special_tokens):
        text = lowercase(training.text) if settings.lowercase else training.text
        words = split_on_whitespace(text)
        if set(words) == set(corpus.words):
            for word in words:
                sequence.extend(list(word) + end)
            return [sequence], (1,)
    for w in range(len(corpus)):
        symbols = corpus.symbols(w)
        for _ in range(corpus.counts[w]):
            sequence.extend(symbols)
    return [sequence], (1,)


def learn(training: Training, mistake: Mistake = TEXTBOOK, rule: TieRule | None = None,
          limit: int | None = None) -> list[Pair] | None:
    """The merges the textbook loop makes with ``mistake`` in it and ties broken by ``rule`` (the
    lesson's by default): at most ``limit``; None where the mistake cannot apply to this lesson."""
    found = learning(training, mistake, rule)
    return None if found is None else list(islice(found, limit))


def learning(training: Training, mistake: Mistake = TEXTBOOK,
             rule: TieRule | None = None) -> Iterator[Pair] | None:
    """``learn``'s merges one by one, made as they are asked for; None where the mistake cannot apply."""
    settings = training.settings
    if mistake.prepare is not None:
        prepared = mistake.prepare(settings)
        if prepared is None:
            return None
        settings = prepared
    corpus = training.corpus(settings)
    vocab = corpus.base_vocab()
    check_vocab_target(settings, len(vocab))
    words: Words = [corpus.symbols(w) for w in range(len(corpus))]
    counts: tuple[int, ...] = corpus.counts
    if mistake.across_words:
        found = _written_out(training, corpus)
        if found is None:
            return None
        words, counts = found
    made = _loop(settings, vocab, words, counts, mistake, rule or rule_named(settings.tie_break))
    return _without_last(made) if mistake.extra < 0 else made


def _without_last(merges: Iterator[Pair]) -> Iterator[Pair]:
    """One merge too few: each merge is given once the next is made, so the loop's last never is."""
    held = next(merges, None)
    for pair in merges:
        if held is not None:
            yield held
        held = pair


def _loop(settings: Settings, vocab: list[str], words: Words, counts: tuple[int, ...], mistake: Mistake,
          rule: TieRule) -> Iterator[Pair]:
    ids = {t: i for i, t in enumerate(vocab)}
    longest = max((sum(map(len, w)) for w in words), default=0) + MAX_OVERGROWTH
    pairs = PairCounts(words, counts if mistake.weighted else tuple(1 for _ in counts), settings.units)
    done = 0
    past_stop = 0
    while True:
        best_count = pairs.best()
        if not best_count:
            return
        stop = ((settings.merges is not None and done >= settings.merges)
                or (settings.vocab_size is not None and len(vocab) + extra_ids(settings) >= settings.vocab_size)
                or best_count < settings.min_frequency)
        if stop:
            if past_stop >= mistake.extra:
                return
            past_stop += 1
        best = pairs.tied(rule, ids.__getitem__)[0]
        token = best[0] + best[1]
        if len(token) > longest:
            return
        if token not in ids:
            ids[token] = len(vocab)
            vocab.append(token)
        pairs.merge(best, mistake.merge)
        done += 1
        yield best
