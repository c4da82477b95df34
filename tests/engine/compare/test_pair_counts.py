"""The compare's textbook loop, counting word by word, makes exactly the engine's textbook merges."""

from __future__ import annotations

import doctest
from dataclasses import replace

from hypothesis import given, settings as hypothesis_settings, strategies as st

import engine.compare.pair_counts
from engine.algorithm.ranking import TIE_RULES, rule_named
from engine.algorithm.settings import Settings
from engine.algorithm.textbook import get_stats, textbook_merges
from engine.compare.mistakes import MISTAKES, Training, learn
from engine.compare.pair_counts import PairCounts

# few letters and short words: ties, overlapping runs and repeated words on every draw
WORDS = st.lists(st.text(alphabet="abc", min_size=1, max_size=6), min_size=1, max_size=12)


def test_the_worked_example_in_the_docstring_holds():
    result = doctest.testmod(engine.compare.pair_counts)
    assert result.attempted >= 3 and result.failed == 0


@hypothesis_settings(max_examples=60, deadline=None)
@given(words=WORDS, marker=st.sampled_from([None, "</w>"]), rule=st.sampled_from(sorted(TIE_RULES)))
def test_the_loop_makes_the_textbook_merges_under_every_rule(words, marker, rule):
    settings = Settings(end_of_word=marker, tie_break=rule)
    training = Training(" ".join(words), False, settings)
    expected = [pair for pair, _, _ in textbook_merges(training.corpus())]
    assert learn(training) == expected
    # under the lesson's rule given by name, or another rule handed in: the same loop
    other = replace(settings, tie_break="first")
    assert learn(Training(training.text, False, other), rule=rule_named(rule)) == expected


@hypothesis_settings(max_examples=60, deadline=None)
@given(words=WORDS, weights=st.lists(st.integers(1, 4), min_size=12, max_size=12))
def test_counts_kept_up_to_date_are_a_fresh_count(words, weights):
    symbols = [list(w) for w in words]
    counts = PairCounts([list(w) for w in symbols], weights[: len(words)], "chars")
    for _ in range(4):
        if not counts.counts:
            break
        pair = next(iter(counts.counts))
        counts.merge(pair, MISTAKES["overlap merged twice"].merge)
        assert counts.counts == get_stats(counts.words, tuple(weights[: len(words)]))
