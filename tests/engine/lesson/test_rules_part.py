"""Where the tie rules part: the first step where two rules' merges differ, and the tie there."""

import doctest

from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

import engine.lesson.rules_part
from engine import Corpus, Settings
from engine.algorithm.ranking import TIE_BREAKS
from engine.lesson.rules_part import runs_under_every_rule, where_rules_part

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3"


def test_the_classic_corpus_parts_first_and_greatest_at_the_first_three_way_tie():
    found = where_rules_part(Corpus.from_word_counts(CLASSIC, Settings()))
    assert set(found) == {(a, b) for i, a in enumerate(TIE_BREAKS) for b in TIE_BREAKS[i + 1:]}
    # e s, s t and t </w> tie at 9: first takes e s, greatest t </w>
    parting = found[("first", "greatest")]
    assert (parting.step, parting.count, parting.tied, parting.chosen) == (
        1, 9, (("e", "s"), ("s", "t"), ("t", "</w>")), (("e", "s"), ("t", "</w>")))
    # first and smallest agree on e s, es t, est </w>, l o, lo w; at 6, n e, e w and w est</w> tie
    parting = found[("first", "smallest")]
    assert (parting.step, parting.count, parting.chosen) == (6, 6, (("n", "e"), ("e", "w")))
    assert parting.tied == (("n", "e"), ("e", "w"), ("w", "est</w>"))


def test_rules_never_part_on_a_corpus_without_ties():
    # aab x3, ab x1: a b (4) leads a a (3); then a ab (3) is the only pair
    corpus = Corpus.from_word_counts("aab 3\nab 1", Settings(end_of_word=None))
    assert all(p.step is None and p.chosen is None for p in where_rules_part(corpus).values())


words = st.text(alphabet="abc", min_size=1, max_size=6)
word_counts = st.lists(st.tuples(words, st.integers(1, 3)), min_size=1, max_size=8)


@hyp_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, st.sampled_from(["chars", "bytes"]))
def test_two_runs_agree_up_to_where_they_part_and_part_at_a_tie_of_both_choices(pairs, units):
    corpus = Corpus.from_word_counts("\n".join(f"{w} {c}" for w, c in pairs), Settings(units=units, min_frequency=1))
    runs = runs_under_every_rule(corpus)
    for (one, other), parting in where_rules_part(corpus).items():
        a, b = [s.pair for s in runs[one]], [s.pair for s in runs[other]]
        if parting.step is None:
            assert a == b
            continue
        k = parting.step - 1
        assert a[:k] == b[:k] and a[k] != b[k]
        assert parting.chosen == (a[k], b[k]) and set(parting.chosen) <= set(parting.tied)
        assert runs[one][k].count == runs[other][k].count == parting.count
        assert len(parting.tied) == runs[one][k].tie_count


def test_the_module_docstring_example_holds():
    result = doctest.testmod(engine.lesson.rules_part)
    assert result.attempted and not result.failed
