"""Counting a large text in parts gives exactly the corpus of counting it whole."""

import pytest

from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import Settings

TEXT = "the cat  sat\non the mat; The CAT sat again\tand again ΟΔΟΣ Σ " * 50


@pytest.mark.parametrize("settings", [Settings(), Settings(lowercase=True), Settings(end_of_word=None),
                                      Settings(split="gpt2", units="bytes")])
@pytest.mark.parametrize("part", [1, 7, 64, 1000])
def test_parts_give_the_same_words_counts_and_order(settings, part):
    calls = []
    whole = Corpus.from_text(TEXT, settings)
    parts = Corpus.from_text_in_parts(TEXT, settings, progress=lambda done, total: calls.append(done), part=part)
    assert parts == whole
    assert len(calls) > 1 and calls[-1] == len(TEXT)


def test_split_none_counts_in_one_go():
    calls = []
    settings = Settings(split="none")
    assert Corpus.from_text_in_parts(TEXT, settings, lambda *_: calls.append(1), part=8) == Corpus.from_text(TEXT, settings)
    assert calls == [1]
