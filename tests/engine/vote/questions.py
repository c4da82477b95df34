"""One small question of each kind, for the vote's tests."""

from engine.vote.question import VoteOption, VoteQuestion


def options(*labels: str) -> tuple[VoteOption, ...]:
    return tuple(VoteOption(str(i), label) for i, label in enumerate(labels))


PAIR = VoteQuestion("merge-1", "pair", "Which pair merges next?",
                    (VoteOption("0", "e + s", ("e", "s")), VoteOption("1", "s + t", ("s", "t")),
                     VoteOption("2", "t + </w>", ("t", "</w>"))), ("0",), note="e s, s t and t </w> tie: the first met wins")
CHOOSE = VoteQuestion("quiz-1", "choose", "A token is always a word?", options("yes", "no"), ("1",))
MULTI = VoteQuestion("quiz-2", "multi", "Which are merges?", options("e + s", "es + t", "x + y"), ("0", "1"))
NUMBER = VoteQuestion("quiz-3", "number", "How many symbols?", correct=("95",))
FILL = VoteQuestion("quiz-4", "fill", "The marker is ___", correct=("</w>", "end of word"))
ORDER = VoteQuestion("quiz-5", "order", "Put the merges in order", options("e s", "es t", "est </w>"), ("0", "1", "2"))
