"""The numpy layout and bulk merges, and the compact layout of arrays, give exactly the textbook loop's merges, ties and all."""

from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

from engine import Corpus, Settings, Tokenizer, train
from engine.lesson.history import History
from engine.algorithm.textbook import textbook_merges
from engine.algorithm.trainer_bulk import _order
from tests.engine.algorithm.test_trainer_properties import _corpus, settings_strategy

# a tiny alphabet makes ties, overlapping runs (aaaa), a b a b and rebuilt strings (a+bc, ab+c) common
words = st.text(alphabet="abc", min_size=1, max_size=9)
word_counts = st.lists(st.tuples(words, st.integers(1, 4)), min_size=1, max_size=14)


def _train_in_bulk(corpus, places=1):
    # every layout by numpy, and every merge with at least ``places`` places in bulk
    with mock.patch("engine.algorithm.trainer.BULK_SYMBOLS", 0), mock.patch("engine.algorithm.trainer.BULK_PLACES", places):
        return train(corpus)


@hyp_settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, settings_strategy, st.integers(1, 3))
def test_bulk_merges_equal_the_textbook(pairs, settings, places):
    corpus = _corpus(pairs, settings)
    trainer, steps = _train_in_bulk(corpus, places)
    expected = list(textbook_merges(corpus))
    assert [(s.pair, s.count, list(s.tied), s.tie_count) for s in steps] == [
        (pair, count, tied[:50], len(tied)) for pair, count, tied in expected]


@hyp_settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, settings_strategy)
def test_bulk_steps_record_the_same_places_and_totals_as_the_python_loop(pairs, settings):
    corpus = _corpus(pairs, settings)
    trainer, steps = train(corpus)
    bulk_trainer, bulk_steps = _train_in_bulk(corpus)
    assert [(s.places, s.tokens_before, s.tokens_after, s.vocab_size) for s in bulk_steps] == [
        (s.places, s.tokens_before, s.tokens_after, s.vocab_size) for s in steps]
    assert bulk_trainer.vocab == trainer.vocab and bulk_trainer.stop_reason == trainer.stop_reason
    history = History(corpus, bulk_steps)
    tokenizer = Tokenizer.from_trainer(bulk_trainer)
    # the words' tokens at the end are what replaying the merges makes of them
    for w in range(len(corpus)):
        assert history.word_tokens(w, history.last_step) == tokenizer.merge_symbols(corpus.symbols(w))


def test_a_b_a_b_reads_the_left_token_just_made():
    # the second "ab" of "abab" has the first one's new token on its left: the pair ab+ab is made
    corpus = Corpus.from_word_counts("abab 3\nabx 2", Settings(end_of_word=None, merges=2, min_frequency=1))
    _, steps = _train_in_bulk(corpus)
    assert [(s.pair, s.count) for s in steps] == [(("a", "b"), 8), (("ab", "ab"), 3)]
    assert steps[0].places == ((0, 0), (0, 2), (1, 0))


def test_an_overlapping_run_merges_left_to_right_in_a_bulk_run():
    corpus = Corpus.from_word_counts("aaaaa 2\nab 1", Settings(end_of_word=None, merges=2, min_frequency=1))
    _, steps = _train_in_bulk(corpus)
    assert [(s.pair, s.count) for s in steps] == [(("a", "a"), 8), (("aa", "aa"), 2)]
    assert steps[0].places == ((0, 0), (0, 2))


def test_weights_of_32_bits_add_up_past_2_31_in_a_bulk_run():
    # each word's weight fits 32 bits; the pairs' weighted counts do not
    corpus = Corpus.from_word_counts("abab 2000000000\nabx 2000000000", Settings(end_of_word=None, merges=2, min_frequency=1))
    _, steps = _train_in_bulk(corpus)
    assert [(s.pair, s.count) for s in steps] == [(("a", "b"), 6_000_000_000), (("ab", "ab"), 2_000_000_000)]
    assert steps[0].tokens_before - steps[0].tokens_after == 6_000_000_000


def test_a_word_counted_2_31_times_or_more_keeps_its_weight_in_a_bulk_run():
    corpus = Corpus.from_word_counts("abab 3000000000\nabx 2", Settings(end_of_word=None, merges=2, min_frequency=1))
    _, steps = _train_in_bulk(corpus)
    assert [(s.pair, s.count) for s in steps] == [(("a", "b"), 6_000_000_002), (("ab", "ab"), 3_000_000_000)]


@hyp_settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, settings_strategy)
def test_the_compact_layout_without_numpy_makes_the_same_steps_as_the_lists(pairs, settings):
    corpus = _corpus(pairs, settings)
    _, steps = train(corpus)
    with mock.patch("engine.algorithm.trainer.COMPACT_SYMBOLS", 0):
        trainer, compact_steps = train(corpus)
    assert trainer.compact and not trainer.bulk
    # the same pairs, counts, totals, places and ties
    assert compact_steps == steps


# 300 characters: their pairs number past 2**16, which the layout sorts 16 bits at a time, twice
wide_alphabet = "".join(map(chr, range(0x4E00, 0x4E00 + 300)))


@hyp_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.text(alphabet=wide_alphabet[:6], min_size=1, max_size=9), st.integers(1, 4)),
                min_size=1, max_size=10), settings_strategy)
def test_a_wide_alphabet_laid_out_by_numpy_makes_the_python_loops_steps(pairs, settings):
    corpus = _corpus([(wide_alphabet, 1), *pairs], settings)
    _, steps = train(corpus)
    _, bulk_steps = _train_in_bulk(corpus)
    assert bulk_steps == steps


@given(st.sampled_from([1 << 8, 1 << 16, (1 << 16) + 1, 1 << 24, 1 << 32, 1 << 40]), st.data())
def test_the_radix_order_is_numpys_stable_sort(most, data):
    ids = np.array(data.draw(st.lists(st.integers(0, most - 1), max_size=60)), np.int64)
    assert _order(ids, most).tolist() == np.argsort(ids, kind="stable").tolist()
