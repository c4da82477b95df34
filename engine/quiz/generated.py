"""Questions built from the lesson on screen, answered by the engine itself.

Given the lesson's history index and the step the lesson is at, each generator asks about that
exact state and takes its answer from the same index the tiles, the charts and the handout read:
a word's tokens after k merges, the pair counts (weighted by word frequency, as a merge round
counts them) and the vocabulary size. Every question carries ``reveal_step``: the step at which
the tiles show its answer (the step asked about, never one past it), so the quiz can ask the lesson
to go there.

Left out: questions about text outside the corpus (the bundled pack covers unseen words).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable, Sequence

from engine.readable.display import for_settings
from engine.algorithm.corpus import Corpus
from engine.readable.describe import describe_vocab, tie_rule, tie_rule_sentence, tied_rivals, times
from engine.readable.metrics_run import corpus_metrics_curve
from engine.lesson.history import History
from engine.quiz.questions import ChooseQuestion, Misconception, NumberQuestion, Option, Question, WrongAnswer
from engine.algorithm.trainer import MergeStep

# the ideas a wrong answer to a generated question can reveal (the bundled pack defines the same ids)
MISCONCEPTIONS = {
    m.id: m
    for m in (
        Misconception(
            "token-is-word",
            "A token is a word",
            "Tokens are whatever pieces the merges have built so far. Early in training most words are "
            "several tokens; only frequent words end up as one.",
            "Count the tiles, not the words: each tile is one token.",
        ),
        Misconception(
            "merge-replaces-parents",
            "A merge replaces its two parts in the vocabulary",
            "The two parts stay in the vocabulary: other words may still need them on their own. "
            "A merge only adds the new token.",
            "Each merge adds one token (unless that string was already made), so the size grows by one.",
        ),
        Misconception(
            "unweighted-count",
            "Each word counts once",
            "The corpus lists each word once with its count, but a word seen 5 times holds the pair 5 times.",
            "Multiply each place by the word's count, then add.",
        ),
        Misconception(
            "token-is-letter",
            "A token is a letter",
            "Letters (or bytes) are only where training starts. After merges, a token can span "
            "several letters.",
            "Look at the tiles after the step: glued letters are one token.",
        ),
    )
}


@dataclass(frozen=True)
class LiveLesson:
    """The lesson on screen: its history index and the step it is at (clamped to the history)."""

    history: History
    step: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "step", max(0, min(self.step, self.history.last_step)))

    @property
    def corpus(self) -> Corpus:
        return self.history.corpus

    @property
    def steps(self) -> Sequence[MergeStep]:
        return self.history.steps

    @property
    def last_step(self) -> int:
        return self.history.last_step

    def size(self) -> int:
        """Base symbols in the distinct words: what building a question costs grows with it."""
        return self.history.distinct_symbols()

    def at_step(self, step: int) -> "LiveLesson":
        """The same lesson at another step, sharing the index (a snapshot for a worker)."""
        return LiveLesson(self.history, step)

    def show(self, token: str) -> str:
        """A token or word as the tiles show it (engine.readable.display)."""
        return for_settings(self.corpus.settings).token(token)

    def show_pair(self, pair: tuple[str, str]) -> str:
        return for_settings(self.corpus.settings).pair(pair)

    def show_tokens(self, tokens: Sequence[str]) -> str:
        return for_settings(self.corpus.settings).tokens(tokens)


def _shuffled(options: list[Option], rng: random.Random) -> tuple[Option, ...]:
    rng.shuffle(options)
    return tuple(options)


# -- the generators -------------------------------------------------------------------------------


def next_pair(state: LiveLesson, rng: random.Random) -> Question | None:
    """"Which pair merges next?" — the winner, its tied rivals, then the strongest other pairs."""
    k = state.step
    step = state.history.next_merge(k)
    if step is None:
        return None
    counts = state.history.pair_counts(k)
    rivals = list(tied_rivals(step))
    others = sorted((p for p in counts if p != step.pair and p not in rivals), key=lambda p: -counts[p])
    shown = [step.pair, *(rivals + others)[:3]]
    if len(shown) < 2:
        # one pair left: nothing to choose between
        return None
    options = [Option(state.show_pair(p), p == step.pair) for p in shown]
    lines = [f"{state.show_pair(step.pair)} occurs {times(step.count)}"]
    if rivals:
        # a step names the first of its tied pairs: the rest are counted
        more = f" and {step.tie_count - len(step.tied):,} more" if step.tie_count > len(step.tied) else ""
        lines[0] += f", and so {'does' if len(rivals) == 1 else 'do'} " + ", ".join(state.show_pair(p) for p in rivals) + more + "."
        lines.append(f"It is a tie, and a tie goes to {tie_rule(state.corpus.settings)}: {state.show_pair(step.pair)}.")
    else:
        lines[0] += ", more than any other pair."
    behind = [p for p in shown[1:] if p not in rivals]
    if behind:
        lines.append("Behind it: " + ", ".join(f"{state.show_pair(p)} ({counts[p]})" for p in behind) + ".")
    prompt = f"The lesson is at step {k}. Which pair of neighbouring tokens is merged at step {k + 1}?"
    if sum(counts[p] == step.count for p in shown) > 1:
        # options tied with the winner: without the rule the question has no single answer to reason out
        # (a tie among the pairs behind it decides nothing, so the rule is not said there)
        prompt += f" {tie_rule_sentence(state.corpus.settings)}"
    return ChooseQuestion(
        id=f"lesson:next-pair:{k}",
        title="Which pair merges next?",
        prompt=prompt,
        hint="Count each pair of neighbours in every word, times the word's count. The highest count wins.",
        explanation=" ".join(lines),
        labels=("lesson", "next merge"),
        # the step asked about, where the tiles crown the winning pair; at k + 1 it is fused and the
        # crown is on the merge after it
        reveal_step=k,
        options=_shuffled(options, rng),
    )


def pair_count(state: LiveLesson, rng: random.Random) -> Question | None:
    """"How many times does pair X occur now?" — with where the count comes from."""
    k = state.step
    table = state.history.pairs_at(k)
    counts = table.counts
    if not counts:
        return None
    ranked = sorted(counts, key=lambda p: -counts[p])[:5]
    pair = rng.choice(ranked)
    parts = []
    for i, n in table.sources(pair):
        word = state.show(state.corpus.words[i])
        # "low (×5)"; a word holding the pair twice: "aaa (2 × 5)"
        weight = f"×{state.corpus.counts[i]}" if n == 1 else f"{n} × {state.corpus.counts[i]}"
        parts.append((f"{word} ({weight})", n * state.corpus.counts[i]))
    answer = counts[pair]
    shown = " + ".join(str(v) for _, v in parts[:8]) + (" + …" if len(parts) > 8 else "")
    if len(parts) > 1:
        shown += f" = {answer}"
    explanation = (
        f"{state.show_pair(pair)} appears in " + ", ".join(w for w, _ in parts[:8]) + (", …" if len(parts) > 8 else "")
        + f": {shown}. Each place counts as many times as the {_unit_noun(state)} occurs."
    )
    wrong = []
    unweighted = len(parts)
    if unweighted != answer:
        # counting words that hold the pair, not weighting them by frequency
        wrong.append(WrongAnswer(unweighted, "unweighted-count"))
    return NumberQuestion(
        id=f"lesson:pair-count:{k}:{'+'.join(pair)}",
        title="How often does this pair occur?",
        prompt=f"At step {k}, how many times does the pair {state.show_pair(pair)} occur in the corpus?",
        hint=f"Find the {_unit_noun(state)}s where these two tokens stand side by side; add up their counts.",
        explanation=explanation,
        labels=("lesson", "counting"),
        reveal_step=k,
        answer=answer,
        wrong=tuple(wrong),
    )


# the longest word (in characters) a "how many tokens?" question asks about
MAX_ASKED_WORD = 40


def word_split(state: LiveLesson, rng: random.Random) -> Question | None:
    """"Into how many tokens does word W split after step t?" — t a few steps ahead."""
    k = state.step
    history = state.history
    if not len(state.corpus):
        return None
    target = min(state.last_step, k + rng.randint(1, 3))
    # the words these merges touch: asking about them makes the class apply the merges
    changing = history.words_changed(k, target)
    # a word a class can read and count on the board: a whole text with no spaces is not asked about
    words = state.corpus.words
    short = [i for i in range(len(words)) if len(words[i]) <= MAX_ASKED_WORD]
    shorts = set(short)
    pool = ([i for i in changing if i in shorts] or [i for i in short if history.token_count(i, target) > 1]
            or short)
    if not pool:
        return None
    index = rng.choice(pool[:50])
    tokens = history.word_tokens(index, target)
    now = history.word_tokens(index, k)
    word = state.show(state.corpus.words[index])
    noun = _unit_noun(state)
    note = _marker_note(state)
    wrong = []
    if len(tokens) != 1:
        wrong.append(WrongAnswer(1, "token-is-word"))
    letters = len(state.corpus.symbols(index))
    if letters != len(tokens) and letters != 1:
        wrong.append(WrongAnswer(letters, "token-is-letter"))
    when = "now" if target == k else f"after step {target}"
    return NumberQuestion(
        id=f"lesson:word-split:{target}:{index}",
        title="How many tokens?",
        prompt=f"Into how many tokens does the {noun} “{word}” split after step {target}?{note}",
        hint=f"Start from its tiles at step {k}: {state.show_tokens(now)}. Apply merges {k + 1} to {target} in order."
        if target > k else "Look at its tiles now and count them.",
        explanation=f"{when.capitalize()} “{word}” is {state.show_tokens(tokens)}: {len(tokens)} "
        f"token{'s' if len(tokens) != 1 else ''}.",
        labels=("lesson", "encoding"),
        reveal_step=target,
        answer=len(tokens),
        wrong=tuple(wrong),
    )


def vocab_size(state: LiveLesson, rng: random.Random) -> Question | None:
    """"What is the vocabulary size after m more merges?"."""
    k = state.step
    if state.history.next_merge(k) is None:
        return None
    more = rng.randint(1, min(5, state.last_step - k))
    vocab = state.history.vocab(k)
    now = vocab.total
    answer = state.history.vocab_size(k + more)
    made = [s.token for s in state.steps[k:k + more]]
    explanation = f"Now there are {now} tokens. Each merge adds its new token and keeps both parts"
    if answer == now + more:
        explanation += f", so {more} more merge{'s' if more > 1 else ''} make {now} + {more} = {answer}."
    else:
        explanation += (f"; {now + more - answer} of the new strings had been made before by another pair and "
                        f"keep their old id, so the size is {answer}.")
    wrong = []
    if now - more != answer and now - more > 0:
        wrong.append(WrongAnswer(now - more, "merge-replaces-parents"))
    return NumberQuestion(
        id=f"lesson:vocab-size:{k}:{more}",
        title="How big is the vocabulary?",
        prompt=f"At step {k} the vocabulary holds {describe_vocab(state.corpus.settings, vocab)}. How many tokens will "
        f"it hold after {more} more merge{'s' if more > 1 else ''} (at step {k + more})?",
        hint="What does one merge add to the vocabulary? Does it take anything away?",
        explanation=explanation + " New: " + ", ".join(state.show(t) for t in made) + ".",
        labels=("lesson", "vocabulary"),
        reveal_step=k + more,
        answer=answer,
        wrong=tuple(wrong),
    )


def in_pieces(state: LiveLesson, rng: random.Random) -> Question | None:
    """"Which word is still in pieces, and why?" — at this step, or at the end if no word is whole yet."""
    at = _first_whole_step(state, state.step)
    if at is None:
        return None
    counts = [state.history.token_count(i, at) for i in range(len(state.corpus))]
    whole = [i for i, n in enumerate(counts) if n == 1]
    pieces = [i for i, n in enumerate(counts) if n > 1]
    if not whole or not pieces:
        return None
    answer = rng.choice(pieces[:50])
    others = rng.sample(whole[:50], min(3, len(whole[:50])))
    options = [Option(state.show(state.corpus.words[answer]), True)]
    options += [Option(state.show(state.corpus.words[i]), False) for i in others]
    word = state.show(state.corpus.words[answer])
    join = _next_join(state, answer, at)
    whole_ones = [f"“{state.show(state.corpus.words[i])}”" for i in others]
    each = "is one token" if len(whole_ones) == 1 else "are one token each"
    why = (f"After step {at} “{word}” is still {state.show_tokens(state.history.word_tokens(answer, at))}, while "
           f"{_join(whole_ones)} {each}. ")
    if join is not None:
        step = state.steps[join - 1]
        why += (f"Its next merge is {state.show_pair(step.pair)} at step {join}: that pair occurs {times(step.count)}, "
                "and pairs that occur more often are merged first.")
    else:
        why += ("No merge of this training joins its pieces: the pairs inside it are too rare "
                f"(fewer than {state.corpus.settings.min_frequency} times) or training stopped first.")
    return ChooseQuestion(
        id=f"lesson:in-pieces:{at}:{answer}",
        title=f"Which {_unit_noun(state)} is still in pieces, and why?",
        prompt=f"After step {at}, which of these {_unit_noun(state)}s is still split into more than one token?"
        f"{_marker_note(state)}",
        hint=f"A {_unit_noun(state)} becomes one token only when merges have glued all of its pieces. "
        "Which pairs are rare?",
        explanation=why,
        labels=("lesson", "frequency"),
        reveal_step=at,
        options=_shuffled(options, rng),
    )


# how far a characters-per-token answer may be from the exact ratio: a class that rounds to one
# decimal place is right
PER_TOKEN_TOLERANCE = 0.05


def characters_per_token(state: LiveLesson, rng: random.Random) -> Question | None:
    """"How many characters does a token of the corpus hold on average at step k?" — from the metrics."""
    k = state.step
    m = corpus_metrics_curve(state.history).at(k)
    if not m.tokens:
        return None
    answer = round(m.characters_per_token, 3)
    wrong = []
    per_word = round(m.characters / m.words, 3) if m.words else 0.0
    if abs(per_word - answer) > PER_TOKEN_TOLERANCE and per_word:
        # characters per word: the answer of a class that takes every word for one token
        wrong.append(WrongAnswer(per_word, "token-is-word"))
    marker = state.corpus.settings.marker
    not_counted = f" The end-of-word marker {state.show(marker)} is a token but not a character." if marker else ""
    return NumberQuestion(
        id=f"lesson:characters-per-token:{k}",
        title="How many characters per token?",
        prompt=f"At step {k}, the corpus (each word counted as often as it occurs) is {m.tokens:,} tokens. "
        f"How many characters does one token hold on average? Give one decimal place (± {PER_TOKEN_TOLERANCE}).",
        hint=f"Count the characters of the corpus, each word as often as it occurs, and divide by the tokens.{not_counted}",
        explanation=f"The corpus holds {m.characters:,} characters in {m.tokens:,} tokens at step {k}: "
        f"{m.characters:,} / {m.tokens:,} = {m.characters_per_token:.2f} characters per token. Every merge "
        "makes the text shorter in tokens, so this number only grows; a longer token is not by itself a better one.",
        labels=("lesson", "metrics"),
        reveal_step=k,
        answer=answer,
        tolerance=PER_TOKEN_TOLERANCE,
        wrong=tuple(wrong),
    )


def words_whole(state: LiveLesson, rng: random.Random) -> Question | None:
    """"How many of the corpus's words are one token at step t?" — t a few steps ahead, from the metrics."""
    k = state.step
    if state.corpus.settings.split != "whitespace" or not len(state.corpus):
        # with another split the corpus's pieces are not its words
        return None
    target = min(state.last_step, k + rng.randint(0, 3))
    curve = corpus_metrics_curve(state.history)
    if curve.words_whole is None:
        return None
    m = curve.at(target)
    whole = [i for i in range(len(state.corpus)) if state.history.token_count(i, target) == 1]
    wrong = []
    if len(whole) != m.words_whole:
        wrong.append(WrongAnswer(len(whole), "unweighted-count"))
    if whole:
        names = ", ".join(f"{state.show(state.corpus.words[i])} (×{state.corpus.counts[i]})" for i in whole[:8])
        listed = f"The words that are one token: {names}{', …' if len(whole) > 8 else ''}. "
    else:
        listed = "No word is one token yet. "
    noun = "word" if m.words == 1 else "words"
    return NumberQuestion(
        id=f"lesson:words-whole:{target}",
        title="How many words are kept whole?",
        prompt=f"After step {target}, how many of the corpus's {m.words:,} {noun} (each counted as often as it "
        f"occurs) are kept whole, one token each?{_marker_note(state)}",
        hint="Find the words whose tiles are one tile, and add up their counts.",
        explanation=listed + f"{m.words_whole:,} of {m.words:,} words are whole: {m.whole_share:.0%}.",
        labels=("lesson", "metrics"),
        reveal_step=target,
        answer=m.words_whole,
        wrong=tuple(wrong),
    )


def _unit_noun(state: LiveLesson) -> str:
    """What a corpus entry is called: a word under the whitespace split; under the gpt2, gpt4 and
    none splits an entry may be ``↵␣␣␣`` or a whole text, which nobody calls a word ("piece" would
    blur with the tokens the question asks about)."""
    return "word" if state.corpus.settings.split == "whitespace" else "chunk"


def _join(names: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _marker_note(state: LiveLesson) -> str:
    """The reminder that a lone end-of-word marker is a token of its own (a word ending ``… st </w>``
    is in pieces until the marker is merged too)."""
    marker = state.corpus.settings.marker
    return f" Count the end-of-word marker {state.show(marker)} as a token when it stands alone." if marker else ""


def _first_whole_step(state: LiveLesson, start: int) -> int | None:
    """The first step from ``start`` on at which some word is one token (once whole, a word stays whole)."""
    steps = [w for w in (state.history.whole_step(i) for i in range(len(state.corpus))) if w is not None]
    return max(start, min(steps)) if steps else None


def _next_join(state: LiveLesson, index: int, after: int) -> int | None:
    """The first step after ``after`` at which a merge applies inside this word."""
    steps = state.history.merge_steps(index)
    i = bisect_right(steps, after)
    return steps[i] if i < len(steps) else None


GENERATORS: dict[str, Callable[[LiveLesson, random.Random], Question | None]] = {
    "next-pair": next_pair,
    "pair-count": pair_count,
    "word-split": word_split,
    "vocab-size": vocab_size,
    "in-pieces": in_pieces,
    "characters-per-token": characters_per_token,
    "words-whole": words_whole,
}


def generate(state: LiveLesson, kind: str, seed: int = 0) -> Question | None:
    """One question of ``kind`` (a key of GENERATORS) about the state, or None if it cannot be asked there."""
    return GENERATORS[kind](state, random.Random(f"{kind}:{state.step}:{seed}"))


def next_in_cycle(state: LiveLesson, count: int, kinds: Sequence[str] = tuple(GENERATORS)) -> tuple[Question | None, int]:
    """The next question in a round of ``kinds``, starting at question number ``count``:
    (the question or None, how far the round moved). A kind that cannot be asked here is skipped."""
    for attempt in range(len(kinds)):
        kind = kinds[(count + attempt) % len(kinds)]
        question = generate(state, kind, seed=count)
        if question is not None:
            return question, attempt + 1
    return None, len(kinds)
