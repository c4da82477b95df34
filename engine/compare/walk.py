"""Walking a merge list beside the lesson: where they part, what the pairs counted there, and why.

The lesson is trained with the settings given; the two lists are walked together to the first step
where they differ. There the report holds the pair counts of the lesson at that step (the top
pairs, and which words each count comes from), the ties, each list's pair, and a diagnosis: the
textbook loop re-trained under every other tie rule and under every common mistake
(``engine.compare.mistakes``), naming those that make the other list from that step on.

After the first difference the other list is followed on its own corpus: each of its merges is
checked against the pairs counted after its own earlier merges, as "same choice under rule X"
(a tied pair that rule takes) or a real difference.

>>> training = Training("tea tea team teams steam seat", False, Settings(end_of_word=None))
>>> compare(training, [("e", "a"), ("t", "ea"), ("tea", "m")], "x").identical
True
>>> report = compare(training, [("e", "a"), ("ea", "m")], "x")
>>> report.first.step, report.first.theirs, report.first.ours, report.diagnosis
(2, ('ea', 'm'), ('t', 'ea'), 'real difference')

Left out: reading the lists (``engine.compare.merge_lists``) and saying the report in words
(``engine.compare.report``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from engine.algorithm.ranking import TIE_RULES, rule_named
from engine.algorithm.textbook import merge
from engine.algorithm.trainer import extra_ids
from engine.algorithm.settings import Settings  # noqa: F401  (used by the doctest)
from engine.compare.mistakes import MISTAKES, Training, learning
from engine.compare.pair_counts import PairCounts
from engine.lesson.lesson import Lesson, LessonState

Pair = tuple[str, str]
# the top pairs a first difference shows
TOP_PAIRS = 5
REAL = "real difference"
SAME_RULE = "same choice under rule"
TIED_NO_RULE = "a tied pair no tie rule takes"
LESSON_STOPS = "the lesson stops here"
LIST_ENDS = "the list stops where the lesson goes on"


@dataclass(frozen=True, slots=True)
class Counted:
    """A pair's count at a step and where it comes from: (word, occurrences in it) in corpus order."""

    pair: Pair
    count: int
    sources: tuple[tuple[str, int, int], ...]  # (word, occurrences, the word's frequency)


@dataclass(frozen=True, slots=True)
class Explanation:
    """A tie rule or mistake tried at the first difference: ``reproduces`` when it makes the whole
    other list; else ``parts_at``, the step where it leaves the other list again."""

    kind: str  # "tie rule" or "mistake"
    name: str
    says: str
    reproduces: bool
    parts_at: int | None


@dataclass(frozen=True, slots=True)
class FirstDifference:
    """The first step (1-based) where the lists part; ``ours`` or ``theirs`` is None where that list ends."""

    step: int
    ours: Pair | None
    theirs: Pair | None
    our_count: int | None
    their_count: int | None
    top: tuple[Counted, ...]
    ties: tuple[Pair, ...]
    stop_reason: str | None
    tried: tuple[Explanation, ...]

    @property
    def explained_by(self) -> tuple[Explanation, ...]:
        return tuple(e for e in self.tried if e.reproduces)

    @property
    def explains_step(self) -> tuple[Explanation, ...]:
        """What takes the other list's pair at this step but leaves it later."""
        return tuple(e for e in self.tried if not e.reproduces and e.parts_at is not None and e.parts_at > self.step)


@dataclass(frozen=True, slots=True)
class Difference:
    """A step of the other list that is not the lesson's choice on that list's own corpus, nor the
    lesson's own merge at that step; ``count`` is the list's pair's there, ``best`` the most any has."""

    step: int
    ours: Pair | None
    theirs: Pair | None
    verdict: str
    rules: tuple[str, ...] = ()
    count: int | None = None
    best: int | None = None

    @property
    def says(self) -> str:
        return f"{SAME_RULE} {' or '.join(self.rules)}" if self.rules else self.verdict


@dataclass(frozen=True, slots=True)
class Report:
    """The walk of one merge list beside the lesson."""

    source: str
    kind: str
    lesson_merges: int
    their_merges: int
    matched: int
    first: FirstDifference | None
    differences: tuple[Difference, ...]
    tie_rule: str

    @property
    def identical(self) -> bool:
        return self.first is None

    @property
    def diagnosis(self) -> str:
        """In a few words: identical, what reproduces the other list, or a real difference."""
        if self.first is None:
            return "identical"
        found = self.first.explained_by
        if found:
            return "; ".join(_named(e) for e in found)
        if self.differences and self.differences[0].rules:
            return self.differences[0].says
        return REAL


def _named(e: Explanation) -> str:
    return f"tie rule {e.name}" if e.kind == "tie rule" else e.says


def _parting(theirs: list[Pair], made: list[Pair] | None, k: int) -> tuple[bool, int | None]:
    """(made is the whole list, the 1-based step where it leaves the list) for a re-trained list that
    agrees with the list up to step k."""
    if made is None or made[:k] != theirs[:k]:
        return False, None
    n = min(len(made), len(theirs))
    at = next((i for i in range(k, n) if made[i] != theirs[i]), n)
    if at == n and len(made) == len(theirs):
        return True, None
    return False, at + 1


class Retrained:
    """The lists the textbook loop makes under every other tie rule and every mistake, for one
    lesson: each made once and kept, so grading a folder re-trains each once, not once a file."""

    def __init__(self, training: Training):
        self.training = training
        # (kind, name) -> the merges made so far, and the loop making more (None once it stopped)
        self._made: dict[tuple[str, str], tuple[list[Pair], Iterator[Pair] | None] | None] = {}

    def candidates(self) -> list[tuple[str, str, str]]:
        """(kind, name, what it says) of each tie rule but the lesson's, then each mistake."""
        lesson_rule = self.training.settings.tie_break
        rules = [("tie rule", name, f"ties broken by rule {name}") for name in TIE_RULES if name != lesson_rule]
        return rules + [("mistake", m.name, m.says) for m in MISTAKES.values()]

    def merges(self, kind: str, name: str, limit: int) -> list[Pair] | None:
        """The first ``limit`` merges (fewer where it stops) of one candidate; None where it does not apply."""
        key = (kind, name)
        if key not in self._made:
            loop = (learning(self.training, rule=TIE_RULES[name]) if kind == "tie rule"
                    else learning(self.training, MISTAKES[name]))
            self._made[key] = None if loop is None else ([], loop)
        made = self._made[key]
        if made is None:
            return None
        merges, loop = made
        if loop is not None and len(merges) < limit:
            merges.extend(islice(loop, limit - len(merges)))
            if len(merges) < limit:
                self._made[key] = (merges, None)
        return merges[:limit]


def _tried(retrained: Retrained, theirs: list[Pair], k: int) -> tuple[Explanation, ...]:
    """Every candidate, re-trained far enough to make the whole list and one merge more."""
    found = []
    for kind, name, says in retrained.candidates():
        # most candidates part from the list before its step k: only those that make it to the
        # step are re-trained to the end
        head = retrained.merges(kind, name, k + 1)
        if head is None or head != theirs[: k + 1]:
            found.append(Explanation(kind, name, says, False, None))
            continue
        reproduces, at = _parting(theirs, retrained.merges(kind, name, len(theirs) + 1), k)
        found.append(Explanation(kind, name, says, reproduces, at))
    return tuple(found)


def _counted(state: LessonState, pair: Pair, count: int) -> Counted:
    corpus = state.corpus
    sources = tuple((corpus.words[w], n, corpus.counts[w]) for w, n in state.pair_sources(pair))
    return Counted(pair, count, sources)


def _first(lesson: Lesson, retrained: Retrained, ours: list[Pair], theirs: list[Pair], k: int) -> FirstDifference:
    state = LessonState(lesson, k)
    mine = ours[k] if k < len(ours) else None
    other = theirs[k] if k < len(theirs) else None
    top = state.ranked_pairs(TOP_PAIRS, must_include=other)
    our_count = state.pair_count(mine) if mine is not None else None
    their_count = state.pair_count(other) if other is not None else None
    best = top[0][1] if top else 0
    tied = tuple(state.tied_pairs(best)) if top else ()
    stop = lesson.stop_reason if mine is None else None
    return FirstDifference(k + 1, mine, other, our_count, their_count,
                           tuple(_counted(state, p, c) for p, c in top), tied, stop, _tried(retrained, theirs, k))


def _stops(training: Training, done: int, vocab: int, best: int) -> bool:
    s = training.settings
    return ((s.merges is not None and done >= s.merges)
            or (s.vocab_size is not None and vocab + extra_ids(s) >= s.vocab_size)
            or best < s.min_frequency)


def _followed(lesson: Lesson, training: Training, ours: list[Pair], theirs: list[Pair],
              k: int) -> tuple[Difference, ...]:
    """The other list from step k on, each merge checked on the corpus its own earlier merges made;
    a merge that is the lesson's own at that step lines the lists up again and is no difference
    (a list with one merge changed differs at that one step)."""
    history = lesson.history
    words = [list(tokens) for tokens in history.tokens_at(k)]
    counts = history.corpus.counts
    vocab = list(history.base)
    ids = {t: i for i, t in enumerate(vocab)}
    for a, b in theirs[:k]:
        if a + b not in ids:
            ids[a + b] = len(vocab)
            vocab.append(a + b)
    rule = rule_named(training.settings.tie_break)
    pairs = PairCounts(words, counts, training.settings.units)
    token_id = ids.__getitem__
    found: list[Difference] = []
    for j in range(k, len(theirs) + 1):
        best = pairs.best()
        tied = pairs.tied(rule, token_id) if best else []
        if j == len(theirs):
            if best and not _stops(training, j, len(vocab), best):
                found.append(Difference(j + 1, tied[0], None, LIST_ENDS))
            break
        pair = theirs[j]
        if not best or _stops(training, j, len(vocab), best):
            found.append(Difference(j + 1, None, pair, LESSON_STOPS))
            break
        lined_up = j > k and j < len(ours) and ours[j] == pair
        if pair != tied[0] and not lined_up:
            count = pairs.counts.get(pair, 0)
            if pair in tied:
                rules = tuple(name for name, other in TIE_RULES.items() if pairs.tied(other, token_id)[0] == pair)
                found.append(Difference(j + 1, tied[0], pair, TIED_NO_RULE if not rules else SAME_RULE, rules,
                                        count, best))
            else:
                found.append(Difference(j + 1, tied[0], pair, REAL, (), count, best))
        if pair[0] + pair[1] not in ids:
            ids[pair[0] + pair[1]] = len(vocab)
            vocab.append(pair[0] + pair[1])
        pairs.merge(pair, merge)
    return tuple(found)


def trained(training: Training) -> Lesson:
    """The lesson trained with the training's settings."""
    return Lesson(training.text, word_counts=training.word_counts, settings=training.settings).train()


def compare(training: Training, theirs: list[Pair], source: str, kind: str = "",
            lesson: Lesson | None = None, retrained: Retrained | None = None) -> Report:
    """The walk of ``theirs`` beside the lesson. A batch passes the same ``lesson``, already trained,
    and ``retrained``, so that each candidate is re-trained once for every file."""
    lesson = lesson or trained(training)
    ours = [step.pair for step in lesson.steps]
    matched = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    rule = training.settings.tie_break
    if matched == len(ours) == len(theirs):
        return Report(source, kind, len(ours), len(theirs), matched, None, (), rule)
    first = _first(lesson, retrained or Retrained(training), ours, theirs, matched)
    return Report(source, kind, len(ours), len(theirs), matched, first, _followed(lesson, training, ours, theirs, matched),
                  rule)
