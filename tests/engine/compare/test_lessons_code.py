"""The lessons' own trainers, written as the lessons write them, give BPE Lab's merges: "identical"."""

from __future__ import annotations

import json
import re

from engine.algorithm.settings import Settings
from engine.compare.merge_lists import pairs_of, read_merge_list
from engine.compare.mistakes import Training
from engine.compare.walk import compare, trained


def learn_merges(words: list[str]) -> list[str]:
    """The tea lesson's loop: count pairs, take the most frequent, merge it everywhere, repeat."""
    corpus = [list(word) for word in words]
    merges = []
    while True:
        counts: dict[tuple[str, str], int] = {}
        for word in corpus:
            for pair in zip(word, word[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = max(counts, key=counts.get)
        if counts[best] < 2:
            break
        merged = best[0] + best[1]
        for k, word in enumerate(corpus):
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                    out.append(merged)
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            corpus[k] = out
        merges.append(merged)
    return merges


def four_word_lesson() -> list[tuple[str, str]]:
    """The four-word lesson's count/merge/repeat: words as spaced symbols with </w>, a regex merge."""
    vocab = {"l o w </w>": 5, "l o w e r </w>": 2, "n e w e s t </w>": 6, "w i d e s t </w>": 3}
    merges = []
    while True:
        pairs: dict[tuple[str, str], int] = {}
        for word, freq in vocab.items():
            symbols = word.split()
            for i in range(len(symbols) - 1):
                pairs[symbols[i], symbols[i + 1]] = pairs.get((symbols[i], symbols[i + 1]), 0) + freq
        if not pairs or max(pairs.values()) < 2:
            break
        best = max(pairs, key=pairs.get)
        # the pair only where both halves are whole symbols
        found = re.compile(r"(?<!\S)" + re.escape(" ".join(best)) + r"(?!\S)")
        vocab = {found.sub("".join(best), word): freq for word, freq in vocab.items()}
        merges.append(best)
    return merges


def test_the_tea_lessons_learn_merges_is_identical(tmp_path):
    words = ["tea", "tea", "team", "teams", "steam", "seat"]
    printed = learn_merges(words)
    assert printed == ["ea", "tea", "team"]
    path = tmp_path / "merges.json"
    path.write_text(json.dumps(printed), encoding="utf-8")
    training = Training(" ".join(words), False, Settings(end_of_word=None))
    lesson = trained(training)
    report = compare(training, pairs_of(read_merge_list(path, training.settings), lesson.history.base), str(path))
    assert report.identical and report.diagnosis == "identical" and report.matched == 3


def test_the_four_word_lessons_loop_is_identical(tmp_path):
    merges = four_word_lesson()
    assert merges[:5] == [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w")]
    path = tmp_path / "merges.txt"
    path.write_text("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges), encoding="utf-8")
    training = Training("low 5\nlower 2\nnewest 6\nwidest 3", True, Settings())
    report = compare(training, pairs_of(read_merge_list(path, training.settings), []), str(path))
    assert report.identical and report.lesson_merges == len(merges)
