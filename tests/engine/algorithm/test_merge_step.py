"""A step is a frozen record: what the trainer yields is the same record a caller builds by name."""

import dataclasses

import pytest

from engine import Corpus, Settings, train
from engine.algorithm.trainer import MergeStep

WORDS = "low 5\nlower 2\nnewest 6\nwidest 3"


def _steps():
    return train(Corpus.from_word_counts(WORDS, Settings()))[1]


def test_a_trained_step_is_a_frozen_merge_step_equal_to_one_built_by_name():
    first = _steps()[0]
    assert type(first) is MergeStep
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.count = 1  # type: ignore[misc]
    same = MergeStep(**{f.name: getattr(first, f.name) for f in dataclasses.fields(MergeStep)})
    assert same == first and hash(same) == hash(first)
    assert (first.pair, first.count, first.tie_count, first.tied) == (("e", "s"), 9, 3, (("e", "s"), ("s", "t"), ("t", "</w>")))


def test_steps_that_say_different_things_differ_and_ties_compare_by_name():
    first, second = _steps()[:2]
    assert first != second
    # no layout: the step names only its own pair as tied, so it says less than the trained one
    bare = dataclasses.replace(first, layout=None)
    assert bare != first
    assert repr(bare).startswith("MergeStep(step=1, pair=('e', 's'), token='es', count=9, tie_count=3,")
    assert "positions" not in repr(bare)
