"""The questions a class votes on, as phones get them: one ``VoteQuestion`` from a predict-first
question or from a quiz question of any kind.

A predict question becomes kind "pair": its choices in the shuffled order and numbering the projector
shows (option "0" is choice 1), each pair's two tiles read through the lesson's ``Display``, the winner's
key as the right answer and, when the choices tie, the tie rule's sentence as the note said at the
reveal. A quiz question keeps its kind (choose-many is "multi"); its Markdown becomes plain text, as
the phone shows text only; an order question lists its items as the quiz panel first shows them.
What the teacher alone should see (hints, explanations, misconceptions) never goes into one.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QTextDocument

from engine.quiz.grading import format_number
from engine.quiz.packs import GAP
from engine.quiz.questions import ChooseQuestion, FillQuestion, NumberQuestion, OrderQuestion, Question
from engine.vote.question import VoteOption, VoteQuestion
from widgets.classroom.predict import Question as PredictQuestion
from widgets.quiz.answers import shown_order

# a fill question with several gaps is answered in one line, the gaps in order between these
GAPS_APART = " / "
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")


def predict_prompt(question: PredictQuestion) -> str:
    return f"Merge {question.merge}: which pair wins?"


def from_predict(question: PredictQuestion) -> VoteQuestion:
    """The predict-first question before merge ``question.merge``, as the projector numbers it."""
    options = tuple(
        VoteOption(str(i), question.pair_text(c.pair), (question.shown(c.pair[0]), question.shown(c.pair[1])))
        for i, c in enumerate(question.choices)
    )
    return VoteQuestion(qid=f"merge-{question.merge}", kind="pair", prompt=predict_prompt(question),
                        options=options, correct=(str(question.winner_index),), note=question.tie_note())


def plain_text(markdown: str) -> str:
    """Markdown as the text it reads as (an image as its description)."""
    document = QTextDocument()
    document.setMarkdown(_IMAGE.sub(lambda m: m.group(1), markdown))
    return re.sub(r"\n{3,}", "\n\n", document.toPlainText()).strip()


def _prompt(question: Question) -> str:
    parts = [question.title, plain_text(question.prompt)]
    return "\n".join(p for p in parts if p)


def from_quiz(question: Question, seed: int = 0) -> VoteQuestion | None:
    """A quiz question as phones get it (``seed``: the panel's shuffle of an order question, its
    position in the quiz); None for a kind a phone cannot answer."""
    qid = f"quiz-{question.id}"
    prompt = _prompt(question)
    if isinstance(question, ChooseQuestion):
        options = tuple(VoteOption(str(i), plain_text(o.text)) for i, o in enumerate(question.options))
        correct = tuple(str(i) for i in sorted(question.correct_indices))
        return VoteQuestion(qid, "multi" if question.multiple else "choose", prompt, options, correct)
    if isinstance(question, NumberQuestion):
        note = f"Right within ± {format_number(question.tolerance)}." if question.tolerance else ""
        return VoteQuestion(qid, "number", prompt, correct=(format_number(question.answer),), note=note,
                            tolerance=question.tolerance)
    if isinstance(question, FillQuestion):
        gaps = len(question.blanks)
        text = plain_text(GAP.sub(lambda m: f"[ {m.group(1)} ]" if gaps > 1 else "____", question.text))
        if gaps > 1:
            text += f"\n(Write the {gaps} gaps in order, with “{GAPS_APART.strip()}” between them.)"
        prompt = "\n".join(p for p in (prompt, text) if p)
        if gaps == 1:
            correct = question.blanks[0]
        else:
            correct = (GAPS_APART.join(accepted[0] for accepted in question.blanks),)
        return VoteQuestion(qid, "fill", prompt, correct=tuple(correct))
    if isinstance(question, OrderQuestion):
        options = tuple(VoteOption(str(i), plain_text(question.items[i])) for i in shown_order(question, seed))
        return VoteQuestion(qid, "order", prompt, options, tuple(str(i) for i in range(len(question.items))))
    return None
