"""What the reveal shows, read from the closed rounds' tallies: one bar per option or answer, a
count per round.

A question with options has a bar for each, in the projector's order, nobody's choice included;
a pair's bar carries its raw pair so the chart draws the tiles the prompt drew. Typed answers (a
number, a gap) and orders have a bar for each answer given in any round, the most given first.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.vote.question import OPTION_KINDS, VoteQuestion
from engine.vote.tally import Tally
from widgets.classroom.predict import Question as PredictQuestion
from widgets.classroom.vote_reveal import Bar, Reveal


def reveal_of(question: VoteQuestion, tallies: Sequence[Tally], predict: PredictQuestion | None = None) -> Reveal:
    rounds = tuple((t.round, t.voters) for t in tallies)
    per_round = [t.counts for t in tallies]
    if question.kind in OPTION_KINDS and question.kind != "order":
        keyed = [(o.key, o.label, o.key in question.correct) for o in question.options]
    else:
        seen: dict[str, tuple[str, bool]] = {}
        for t in tallies:
            for row in t.rows:
                seen.setdefault(row.key, (row.label, row.correct))
        totals = {k: sum(c.get(k, 0) for c in per_round) for k in seen}
        keyed = [(k, seen[k][0], seen[k][1]) for k in sorted(seen, key=lambda k: (-totals[k], _in_order(question, k)))]
    bars = []
    for key, label, correct in keyed:
        pair = None
        if question.kind == "pair" and predict is not None and key.isdigit() and int(key) < len(predict.choices):
            pair = predict.choices[int(key)].pair
        # numbered as the projector numbers the choices (the prompt's boxes, the quiz's options)
        number = str(int(key) + 1) if question.kind in ("pair", "choose", "multi") and key.isdigit() else ""
        bars.append(Bar(label, tuple(c.get(key, 0) for c in per_round), correct, pair, number))
    return Reveal(question.prompt, rounds, tuple(bars), question.note)


def _in_order(question: VoteQuestion, key: str) -> tuple[float, str]:
    """Answers given as often read in order: numbers by value, text alphabetically."""
    if question.kind == "number":
        try:
            return float(key), key
        except ValueError:
            pass
    return 0.0, key
