"""A question the class votes on, as the projector asks it and as phones receive it.

The projector builds a ``VoteQuestion`` from what it shows (a predict-first question, a quiz
question); labels and tiles arrive already rendered by ``engine.readable.display``'s rules, so this
package never needs the tokenizer. Phones get ``to_json()``: the prompt and the choices, never which
is right, so reading the page's traffic gives nothing away before the reveal.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InternalError

# the kinds a phone can answer: predict-first's pair, and each kind the quiz has
KINDS = ("pair", "choose", "multi", "number", "fill", "order")
# kinds whose answers are option keys; number and fill are answered with free text
OPTION_KINDS = ("pair", "choose", "multi", "order")


class VoteQuestionError(InternalError):
    """The projector built a question no phone could answer (no options, repeated keys): a bug."""


@dataclass(frozen=True)
class VoteOption:
    key: str  # "0", "1", ...: stable within the question
    label: str  # display text, already rendered ("e + s</w>")
    tokens: tuple[str, ...] = ()  # pair questions: the tiles to draw, each already rendered

    def to_json(self) -> dict[str, object]:
        return {"key": self.key, "label": self.label, "tokens": list(self.tokens)}


@dataclass(frozen=True)
class VoteQuestion:
    qid: str  # unique per question in the session: "merge-12", "quiz-3"
    kind: str  # one of KINDS
    prompt: str
    options: tuple[VoteOption, ...] = ()  # pair/choose/multi, or order's items to arrange
    correct: tuple[str, ...] = ()  # keys (pair/choose/multi), the keys in order (order), accepted texts
    note: str = ""  # said at the reveal: the tie-rule sentence when the choices tie
    tolerance: float = 0  # number: an answer this close to a right one is right too, as in the quiz

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise VoteQuestionError(f"a vote question cannot be of kind {self.kind!r}: one of {', '.join(KINDS)}")
        if not self.qid:
            raise VoteQuestionError("a vote question needs an id")
        keys = [o.key for o in self.options]
        if len(set(keys)) != len(keys):
            raise VoteQuestionError(f"vote question {self.qid} repeats an option key: {keys}")
        if self.kind in OPTION_KINDS and not self.options:
            raise VoteQuestionError(f"vote question {self.qid} of kind {self.kind} has no options")
        if self.kind not in OPTION_KINDS and self.options:
            raise VoteQuestionError(f"vote question {self.qid} of kind {self.kind} is answered in words, not options")
        if self.tolerance < 0 or (self.tolerance and self.kind != "number"):
            raise VoteQuestionError(f"vote question {self.qid}: only a number question has a tolerance, and it is not negative")
        if self.kind in OPTION_KINDS and not set(self.correct) <= set(keys):
            raise VoteQuestionError(f"vote question {self.qid} counts as right a key it does not offer")

    def option(self, key: str) -> VoteOption | None:
        return next((o for o in self.options if o.key == key), None)

    def to_json(self) -> dict[str, object]:
        """What phones get: never ``correct``, ``note`` nor ``tolerance``."""
        return {"qid": self.qid, "kind": self.kind, "prompt": self.prompt,
                "options": [o.to_json() for o in self.options]}
