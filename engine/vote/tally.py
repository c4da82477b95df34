"""Counting one round's answers: what the projector's bars and the results file show.

An answer arrives here already checked and normalised (``engine.vote.ballot``) as a tuple of
strings: the one key chosen (pair, choose), the keys chosen in the options' order (multi), every key
in the voter's order (order), or the one canonical text (number, fill). Counting is then by that
tuple, so two spellings of one answer (``3`` and ``3.0``, ``Low`` and ``low ``) are one bar.

    >>> q = VoteQuestion("q", "choose", "Which?", (VoteOption("0", "yes"), VoteOption("1", "no")), ("0",))
    >>> [(r.label, r.count, r.correct) for r in count(q, 1, True, [("1",), ("1",)]).rows]
    [('yes', 0, True), ('no', 2, False)]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from engine.vote.question import VoteOption, VoteQuestion

Answer = tuple[str, ...]
# joins the keys of an order answer in its row's key, and the labels in the row's label
ORDER_KEY_SEPARATOR = ","
ORDER_LABEL_SEPARATOR = " → "


@dataclass(frozen=True, slots=True)
class TallyRow:
    key: str  # an option key, an order's keys joined by commas, or the canonical free answer
    label: str
    count: int
    correct: bool


@dataclass(frozen=True, slots=True)
class Tally:
    qid: str  # "" when no question is shown
    kind: str
    round: int  # 0 before the question's first round opens
    is_open: bool
    voters: int
    rows: tuple[TallyRow, ...] = ()

    @property
    def counts(self) -> dict[str, int]:
        return {r.key: r.count for r in self.rows}


def number_text(value: float) -> str:
    """One text per number, so 3 and 3.0 count together: an integer without a point, else Python's
    shortest repr."""
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def fill_form(text: str) -> str:
    """The form a filled-in word is counted by: stripped, casefolded."""
    return text.strip().casefold()


def is_correct(question: VoteQuestion, answer: Answer) -> bool:
    """Whether a whole answer is right; for multi, exactly the right keys."""
    if question.kind == "number":
        given = _numbers(answer[:1])
        # within the tolerance as the quiz grades it (engine.quiz.grading), a rounding's width more
        return bool(given) and any(abs(given[0] - right) <= question.tolerance + 1e-9 * max(1.0, abs(right))
                                   for right in _numbers(question.correct))
    if question.kind == "fill":
        return answer[0] in {fill_form(t) for t in question.correct}
    if question.kind == "multi":
        return set(answer) == set(question.correct)
    if question.kind == "order":
        return answer == question.correct
    return answer[0] in question.correct


def count(question: VoteQuestion, round_number: int, is_open: bool, answers: Iterable[Answer]) -> Tally:
    answers = list(answers)
    if question.kind in ("pair", "choose", "multi"):
        # one bar per option, in the options' order, an option nobody chose included
        chosen = Counter(key for answer in answers for key in answer)
        rows = tuple(TallyRow(o.key, o.label, chosen[o.key], o.key in question.correct) for o in question.options)
    else:
        # one bar per distinct answer given, the most given first
        given = Counter(answers)
        rows = tuple(TallyRow(_key(question, a), _label(question, a), n, is_correct(question, a))
                     for a, n in sorted(given.items(), key=lambda item: (-item[1], _label(question, item[0]))))
    return Tally(question.qid, question.kind, round_number, is_open, len(answers), rows)


def _key(question: VoteQuestion, answer: Answer) -> str:
    return ORDER_KEY_SEPARATOR.join(answer) if question.kind == "order" else answer[0]


def _label(question: VoteQuestion, answer: Answer) -> str:
    if question.kind == "order":
        options = {o.key: o for o in question.options}
        return ORDER_LABEL_SEPARATOR.join(options.get(k, VoteOption(k, k)).label for k in answer)
    return answer[0]


def _numbers(texts: Iterable[str]) -> list[float]:
    found = []
    for text in texts:
        try:
            value = float(text)
        except ValueError:
            continue
        if math.isfinite(value):
            found.append(value)
    return found
