"""The ranking module is the one answer to "which pairs, in which order": the trainer's steps,
the textbook loop, the history and the lesson state all agree with it, under every tie rule."""

import doctest
from unittest import mock

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

import engine.algorithm.ranking
from engine import BpeLabError, Settings
from engine.lesson.lesson import Lesson, LessonState
from engine.algorithm.ranking import (
    TIE_BREAKS,
    ReadingOrder,
    TieRule,
    rank,
    rule_named,
    ties,
)
from engine.algorithm.textbook import textbook_merges

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3"

# a tiny alphabet makes ties, overlapping runs (aaaa) and rebuilt tokens (a+bc, ab+c) common
words = st.text(alphabet="abc", min_size=1, max_size=7)
word_counts = st.lists(st.tuples(words, st.integers(1, 4)), min_size=1, max_size=10)


@st.composite
def settings_strategy(draw):
    units = draw(st.sampled_from(["chars", "bytes"]))
    markers = ["auto", None, "_"] if units == "chars" else ["auto", None]
    return Settings(
        split=draw(st.sampled_from(["whitespace", "none"])), units=units,
        end_of_word=draw(st.sampled_from(markers)), min_frequency=draw(st.integers(1, 3)),
        tie_break=draw(st.sampled_from(TIE_BREAKS)), merges=draw(st.one_of(st.none(), st.integers(0, 20))),
    )


def _lesson(pairs, settings) -> Lesson:
    if settings.split == "none":
        return Lesson(" ".join(w for w, c in pairs for _ in range(c)), False, settings).train()
    return Lesson("\n".join(f"{w} {c}" for w, c in pairs), True, settings).train()


def _classic(tie_break: str, **kwargs) -> tuple[dict, ReadingOrder]:
    lesson = Lesson(CLASSIC, True, Settings(tie_break=tie_break, **kwargs)).train()
    counts = lesson.history.pair_counts(0)
    return counts, ReadingOrder(counts, lesson.tokenizer.token_to_id, "chars")


@hyp_settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, settings_strategy(), st.sampled_from(["plain", "arrays", "long words"]))
def test_every_step_of_a_run_is_what_the_ranking_says(pairs, settings, layout):
    lesson = _lesson(pairs, settings)
    history, rule = lesson.history, rule_named(settings.tie_break)
    ids = lesson.tokenizer.token_to_id
    # the lesson state holds its words as lists, as numpy arrays, or each word as a long word
    limits = {"arrays": {"LARGE_CORPUS": 0}, "long words": {"LONG_WORD": 1}, "plain": {"LONG_WORD": 10 ** 12}}
    with mock.patch.multiple("engine.lesson.lesson", **limits[layout]):
        state = LessonState(lesson)
    assert (state._arrays is not None) == (layout == "arrays")
    textbook = list(textbook_merges(lesson.corpus))
    assert len(textbook) == len(lesson.steps)
    for k, (step, (pair, count, tied)) in enumerate(zip(lesson.steps, textbook)):
        counts = history.pair_counts(k)
        facts = ReadingOrder(counts, ids, settings.units)
        ranked = rank(counts, rule, facts)
        expected_ties = ties(counts, rule, facts)
        assert ranked[0] == (step.pair, step.count) == (pair, count)
        assert (list(step.tied), step.tie_count) == (expected_ties[:len(step.tied)], len(expected_ties))
        assert tied == expected_ties == history.ties(k)
        state.go_to(k)
        assert state.ranked_pairs() == ranked
        assert state.tied_pairs(step.count) == expected_ties
        for limit in (1, 2, 3):
            assert state.ranked_pairs(limit) == ranked[:limit]
    # where training stopped for want of a repeated pair, the ranking's best does not repeat
    counts = history.pair_counts(len(lesson.steps))
    if lesson.stop_reason == "no pair repeats":
        assert rank(counts, rule, ReadingOrder(counts, ids, settings.units), 1)[0][1] < settings.min_frequency


def test_first_rule_ranks_the_classic_ties_as_met_reading_the_words():
    counts, facts = _classic("first")
    assert rank(counts, rule_named("first"), facts, 5) == [
        (("e", "s"), 9), (("s", "t"), 9), (("t", "</w>"), 9), (("w", "e"), 8), (("l", "o"), 7)]
    assert ties(counts, rule_named("first"), facts) == [("e", "s"), ("s", "t"), ("t", "</w>")]


def test_first_and_hf_part_where_the_pair_met_first_has_the_larger_ids():
    # "ba" is read first; a has the smaller id (the base vocabulary is sorted)
    lesson = Lesson("ba 1\nab 1", True, Settings(end_of_word=None, min_frequency=1)).train()
    counts = lesson.history.pair_counts(0)
    facts = ReadingOrder(counts, lesson.tokenizer.token_to_id, "chars")
    assert ties(counts, rule_named("first"), facts) == [("b", "a"), ("a", "b")]
    assert ties(counts, rule_named("hf"), facts) == [("a", "b"), ("b", "a")]


def test_hf_rule_orders_by_left_id_then_right_id():
    ids = {"a": 0, "b": 1, "c": 2}
    counts = {("b", "a"): 3, ("a", "c"): 3, ("a", "b"): 3, ("c", "c"): 4}
    ranked = rank(counts, rule_named("hf"), ReadingOrder(counts, ids.__getitem__, "chars"))
    assert ranked == [(("c", "c"), 4), (("a", "b"), 3), (("a", "c"), 3), (("b", "a"), 3)]


def test_a_limit_cuts_inside_a_tie_in_rule_order():
    counts, facts = _classic("first")
    assert rank(counts, rule_named("first"), facts, 2) == [(("e", "s"), 9), (("s", "t"), 9)]


def test_a_pair_that_must_be_included_takes_the_last_place_below_the_cut():
    counts, facts = _classic("first")
    ranked = rank(counts, rule_named("first"), facts, 3, must_include=("d", "e"))
    assert ranked == [(("e", "s"), 9), (("s", "t"), 9), (("d", "e"), 3)]
    # already in: nothing moves
    assert rank(counts, rule_named("first"), facts, 3, must_include=("s", "t")) == rank(
        counts, rule_named("first"), facts, 3)


def test_the_state_includes_the_answer_below_the_cut():
    lesson = Lesson(CLASSIC, True).train()
    state = LessonState(lesson)
    assert state.ranked_pairs(2, must_include=("t", "</w>")) == [(("e", "s"), 9), (("t", "</w>"), 9)]


def test_a_rule_is_one_key_over_the_pairs_facts():
    # a rule of one's own is one more key over the same facts: the last-met rule, written again
    last = TieRule("mine", lambda place, left, right: (-place,), by_place=True, by_ids=False)
    counts, facts = _classic("first")
    assert ties(counts, last, facts) == ties(counts, rule_named("last"), facts) == [
        ("t", "</w>"), ("s", "t"), ("e", "s")]
    assert not last.first_met_first and rule_named("first").first_met_first


def test_an_unknown_rule_name_is_refused_naming_the_rules():
    with pytest.raises(BpeLabError) as caught:
        rule_named("largest")
    assert all(name in str(caught.value) for name in TIE_BREAKS)


def test_settings_take_their_tie_rules_from_the_ranking():
    for name in TIE_BREAKS:
        assert Settings(tie_break=name).tie_break == name
    with pytest.raises(BpeLabError):
        Settings(tie_break="largest")


def test_the_module_docstring_example_holds():
    result = doctest.testmod(engine.algorithm.ranking)
    assert result.attempted and not result.failed
