"""The history JSON names the first tied pairs of each step and counts them all."""

import json

from engine import Corpus, Settings, train
from engine.lesson_io.history_file import history_to_json
from engine.algorithm.trainer import TIES_KEPT


def test_each_step_lists_its_first_ties_and_their_number():
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [a + b for a in letters for b in letters][:120]
    corpus = Corpus.from_word_counts("\n".join(f"{w} 3" for w in words), Settings(end_of_word=None, merges=2))
    trainer, steps = train(corpus)
    data = json.loads(history_to_json(trainer, steps))
    first, second = data["steps"]
    assert first["tie_count"] == 120 and len(first["tied"]) == TIES_KEPT
    assert first["tied"][:2] == [["a", "a"], ["a", "b"]] and first["pair"] == ["a", "a"]
    assert second["tie_count"] == 119 and second["tied"][0] == ["a", "b"]
