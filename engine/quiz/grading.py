"""Grading: an answer in, a score and the reason out.

Answers take the shape the panel collects: a number question takes text or a number; a choose
question the indices of the chosen options; a fill question one string per gap; an order question
the indices (into ``items``, the right order) in the order the student put them.

Scores run from 0 to 1. Only choose-many and fill give part marks: choose-many counts the right
options found less the wrong ones chosen, over the number of right options (never below 0); fill
counts the gaps filled right. A number is right within ``tolerance`` of the answer.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine.quiz.questions import (
    ChooseQuestion,
    FillQuestion,
    Misconception,
    NumberQuestion,
    OrderQuestion,
    Question,
)


@dataclass(frozen=True)
class Result:
    """``valid`` is False when there is nothing to grade yet (an empty or unreadable answer):
    ``message`` then says what to give, and the attempt does not count."""

    correct: bool
    score: float
    message: str
    expected: str = ""
    misconception: Misconception | None = None
    valid: bool = True
    parts: tuple[bool, ...] = ()


def _invalid(message: str) -> Result:
    return Result(False, 0.0, message, valid=False)


def grade(question: Question, answer: Any, misconceptions: Mapping[str, Misconception] | None = None) -> Result:
    """Grade one answer; ``misconceptions`` resolves the ids that wrong answers point to."""
    # an answer is whatever a view or a saved file gave: every shape is checked here, none trusted
    known = misconceptions or {}
    if isinstance(question, NumberQuestion):
        return _grade_number(question, answer, known)
    if isinstance(question, ChooseQuestion):
        return _grade_choose(question, answer, known)
    if isinstance(question, FillQuestion):
        return _grade_fill(question, answer)
    if isinstance(question, OrderQuestion):
        return _grade_order(question, answer)
    raise TypeError(f"no grading for {type(question).__name__}")


# -- number -------------------------------------------------------------------------------------

_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$")


def parse_number(text: object) -> float | None:
    """A number typed by a student: '9', ' 9.5 ', '1,000', '1 000', '2,5' (decimal comma)."""
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        try:
            value = float(text)
        except OverflowError:
            # an int past the floats (10**400): no answer is that large
            return None
        return value if math.isfinite(value) else None
    s = str(text).strip().replace("\u2212", "-").replace("\u00a0", "").replace(" ", "").replace("_", "")
    if _THOUSANDS.match(s):
        s = s.replace(",", "")
    elif s.count(",") == 1 and "." not in s:
        s = s.replace(",", ".")
    try:
        value = float(s)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def typed(answer: Any) -> str:
    """An answer as the student gave it, cut short for a message."""
    try:
        text = str(answer).strip()
    except ValueError:
        # Python writes no whole number of more than 4,300 digits
        return "that number"
    return text if len(text) <= 40 else text[:37] + "..."


def format_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def points(value: float) -> str:
    """A score as people read it: 1, 0.5, 0.67 (two decimals at most)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


def _grade_number(q: NumberQuestion, answer: Any, known: Mapping[str, Misconception]) -> Result:
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        return _invalid("Type a number, then check.")
    value = parse_number(answer)
    if value is None and isinstance(answer, (int, float)) and not isinstance(answer, bool):
        return _invalid("That number is too large to be an answer: type a number such as 12.")
    if value is None:
        return _invalid(f"'{typed(answer)}' is not a number we can use: type digits, such as 12.")
    expected = format_number(q.answer)
    if q.tolerance:
        expected += f" (± {format_number(q.tolerance)})"
    # a hair of slack so that 0.1 + 0.2 style answers are not refused on rounding
    if abs(value - q.answer) <= q.tolerance + 1e-9 * max(1.0, abs(q.answer)):
        return Result(True, 1.0, "Right.", expected)
    for wrong in q.wrong:
        if abs(value - wrong.answer) <= 1e-9 * max(1.0, abs(wrong.answer)):
            mis = known.get(wrong.misconception)
            return Result(False, 0.0, f"Not quite: the answer is {expected}.", expected, mis)
    direction = "too high" if value > q.answer else "too low"
    return Result(False, 0.0, f"Not quite: {format_number(value)} is {direction}; the answer is {expected}.", expected)


# -- choose -------------------------------------------------------------------------------------


def _chosen_indices(q: ChooseQuestion, answer: Any) -> list[int] | None:
    if answer is None:
        return []
    if isinstance(answer, int) and not isinstance(answer, bool):
        answer = [answer]
    try:
        chosen = sorted(set(int(i) for i in answer))
    except (TypeError, ValueError, OverflowError):  # not a number, or one past what int() turns (inf)
        return None
    if any(i < 0 or i >= len(q.options) for i in chosen):
        return None
    return chosen


def _grade_choose(q: ChooseQuestion, answer: Any, known: Mapping[str, Misconception]) -> Result:
    chosen = _chosen_indices(q, answer)
    if chosen is None:
        return _invalid("That answer does not match the options shown.")
    if not chosen:
        return _invalid("Choose an option, then check." if not q.multiple else "Choose one or more options, then check.")
    right = q.correct_indices
    expected = "; ".join(q.options[i].text for i in sorted(right))
    wrong_chosen = [i for i in chosen if i not in right]
    misconception = None
    for i in wrong_chosen:
        misconception = known.get(q.options[i].misconception)
        if misconception:
            break
    parts = tuple((i in right) == (i in chosen) for i in range(len(q.options)))
    if not q.multiple:
        if len(chosen) > 1:
            return _invalid("Choose only one option.")
        if chosen[0] in right:
            return Result(True, 1.0, "Right.", expected, parts=parts)
        return Result(False, 0.0, f"Not quite: the answer is {expected}.", expected, misconception, parts=parts)
    found = sum(1 for i in chosen if i in right)
    if set(chosen) == right:
        return Result(True, 1.0, f"Right: all {len(right)} correct options and no others.", expected, parts=parts)
    score = max(0.0, (found - len(wrong_chosen)) / len(right)) if right else 0.0
    said = [f"you found {found} of the {len(right)} correct options"]
    if wrong_chosen:
        said.append(f"{len(wrong_chosen)} of your choices {'is' if len(wrong_chosen) == 1 else 'are'} wrong")
    message = "Partly right: " + " and ".join(said) + f". The correct options: {expected}."
    if found == 0:
        message = f"Not quite: the correct options are {expected}."
    return Result(False, score, message, expected, misconception, parts=parts)


# -- fill ---------------------------------------------------------------------------------------


def _normal(text: str, case_sensitive: bool) -> str:
    text = " ".join(str(text).split())
    return text if case_sensitive else text.casefold()


def _forms(text: str, case_sensitive: bool) -> set[str]:
    """The spellings a gap treats as one answer: spaces and hyphens inside a word do not matter
    ("white space", "whitespace", "white-space"), nor does a plural ending on a word ("messages")."""
    text = _normal(text, case_sensitive)
    joined = text.replace(" ", "").replace("-", "")
    forms = {text, joined}
    if joined.isalpha():
        for ending in ("es", "s"):
            if joined.endswith(ending) and len(joined) > len(ending) + 2:
                forms.add(joined[: -len(ending)])
    return forms


def gap_accepts(q: FillQuestion, gap: int, text: str) -> bool:
    given = _forms(text, q.case_sensitive)
    return any(given & _forms(a, q.case_sensitive) for a in q.blanks[gap])


def _grade_fill(q: FillQuestion, answer: Any) -> Result:
    if isinstance(answer, str):
        answer = [answer]
    given = list(answer or [])
    given += [""] * (len(q.blanks) - len(given))
    if not any(str(g).strip() for g in given):
        return _invalid("Fill in the gaps, then check.")
    parts = tuple(gap_accepts(q, i, given[i]) for i in range(len(q.blanks)))
    right = sum(parts)
    expected = "; ".join(f"gap {i + 1}: {q.blanks[i][0]}" for i in range(len(q.blanks)))
    if all(parts):
        return Result(True, 1.0, "Right: every gap is filled correctly.", expected, parts=parts)
    missed = ", ".join(f"gap {i + 1} is {q.blanks[i][0]!r}" for i, ok in enumerate(parts) if not ok)
    lead = "Partly right" if right else "Not quite"
    return Result(False, right / len(q.blanks), f"{lead}: {right} of {len(q.blanks)} gaps right; {missed}.",
                  expected, parts=parts)


# -- order --------------------------------------------------------------------------------------


def _grade_order(q: OrderQuestion, answer: Sequence[int]) -> Result:
    n = len(q.items)
    try:
        order = [int(i) for i in answer]
    except (TypeError, ValueError, OverflowError):
        return _invalid("Put the items in order, then check.")
    if sorted(order) != list(range(n)):
        return _invalid("Every item must appear once: put all of them in order, then check.")
    parts = tuple(order[i] == i for i in range(n))
    expected = " → ".join(q.items)
    if all(parts):
        return Result(True, 1.0, "Right: that is the order.", expected, parts=parts)
    placed = sum(parts)
    return Result(False, 0.0, f"Not quite: {placed} of {n} items are in the right place. The order is: {expected}.",
                  expected, parts=parts)
