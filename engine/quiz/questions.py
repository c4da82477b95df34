"""The five kinds of question, misconceptions, worked examples and readings, as frozen records.

A question knows what it asks and what counts as right; grading lives in ``engine.quiz.grading``
and reading packs in ``engine.quiz.packs`` / ``engine.quiz.markdown``. Choose-one and choose-many
are one kind (``ChooseQuestion``) told apart by ``multiple``, as in the pack formats.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# the kinds a pack may name, in the order the quiz panel lists them
KINDS = ("number", "choose", "fill", "order")


@dataclass(frozen=True)
class Misconception:
    """A wrong idea a wrong answer can reveal: what it is, why it is wrong, how to think instead."""

    id: str
    title: str
    text: str = ""
    fix: str = ""


@dataclass(frozen=True)
class Question:
    """What every kind shares. ``reveal_step`` is set on questions generated from a lesson: the
    training step at which the tiles show the answer (None when no step shows it)."""

    id: str
    prompt: str
    title: str = ""
    hint: str = ""
    explanation: str = ""
    labels: tuple[str, ...] = ()
    reveal_step: int | None = None
    purpose: str = ""  # what the question checks, for the teacher

    kind = "question"


@dataclass(frozen=True)
class WrongAnswer:
    """A number that a known misconception leads to."""

    answer: float
    misconception: str


@dataclass(frozen=True)
class NumberQuestion(Question):
    answer: float = 0
    tolerance: float = 0
    wrong: tuple[WrongAnswer, ...] = ()

    kind = "number"


@dataclass(frozen=True)
class Option:
    text: str
    correct: bool = False
    misconception: str = ""


@dataclass(frozen=True)
class ChooseQuestion(Question):
    options: tuple[Option, ...] = ()
    multiple: bool = False

    kind = "choose"

    @property
    def correct_indices(self) -> frozenset[int]:
        return frozenset(i for i, o in enumerate(self.options) if o.correct)


@dataclass(frozen=True)
class FillQuestion(Question):
    """``text`` holds the gaps as ``[[1]]``, ``[[2]]``...; ``blanks[i]`` lists what gap i+1 accepts."""

    text: str = ""
    blanks: tuple[tuple[str, ...], ...] = ()
    case_sensitive: bool = False

    kind = "fill"


@dataclass(frozen=True)
class OrderQuestion(Question):
    """``items`` in the right order; the panel shows them shuffled."""

    items: tuple[str, ...] = ()

    kind = "order"


@dataclass(frozen=True)
class WorkedExample:
    """A step-through example: Markdown steps shown one at a time beside the questions."""

    id: str
    title: str
    steps: tuple[str, ...]
    body: str = ""
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reading:
    """Reading text a pack brings (a concept page's explanation section), shown beside the examples."""

    id: str
    title: str
    text: str
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pack:
    """What a pack file yields: the questions that loaded, and a message for each that did not."""

    title: str = ""
    questions: tuple[Question, ...] = ()
    misconceptions: dict[str, Misconception] = field(default_factory=dict)
    examples: tuple[WorkedExample, ...] = ()
    errors: tuple[str, ...] = ()
    source: str = ""
    readings: tuple[Reading, ...] = ()

    def misconception(self, key: str) -> Misconception | None:
        return self.misconceptions.get(key) if key else None
