"""``vocab_size`` targets exactly the one vocabulary size: a merge that rebuilds a token already
there does not count as growth, and a size below the base vocabulary is refused."""

import re

import pytest
from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

from engine import BpeLabError, Corpus, Settings, Trainer, train
from engine.lesson.history import History
from engine.algorithm.textbook import textbook_merges
from engine.algorithm.trainer import TARGET_REACHED


def test_a_rebuilt_token_does_not_count_towards_the_size():
    # the example of issue 13: </w + > rebuilds the marker, so a vocabulary of 9 takes 4 merges, not 3
    corpus = Corpus.from_word_counts("</w> 5", Settings(vocab_size=9))
    trainer, steps = train(corpus)
    history = History(corpus, steps)
    assert [s.token for s in steps] == ["</", "</w", "</w>", "</w></w>"]
    assert history.vocab_size(history.last_step) == steps[-1].vocab_size == 9
    assert trainer.stop_reason == TARGET_REACHED
    assert [pair for pair, _, _ in textbook_merges(corpus)] == [s.pair for s in steps]


@pytest.mark.parametrize("text, settings, start", [
    # l o w e r and </w>, then <unk>
    ("low lower", Settings(vocab_size=5), "7 (6 base symbols + <unk>)"),
    ("low lower", Settings(units="bytes", vocab_size=100), "256 (256 base symbols)"),
    ("low lower", Settings(vocab_size=8, special_tokens=("<s>", "<t>")), "9 (6 base symbols + 2 special + <unk>)"),
])
def test_a_size_below_the_base_vocab_is_refused_naming_the_base_size(text, settings, start):
    corpus = Corpus.from_text(text, settings)
    with pytest.raises(BpeLabError, match=re.escape(f"smaller than the base vocabulary, which already holds {start}")):
        Trainer(corpus)
    with pytest.raises(BpeLabError, match="base vocabulary"):
        list(textbook_merges(corpus))


def test_the_base_size_itself_is_a_vocab_of_no_merges():
    corpus = Corpus.from_text("low lower", Settings(vocab_size=7))
    trainer, steps = train(corpus)
    assert steps == [] and trainer.stop_reason == TARGET_REACHED


# fragments that rebuild tokens: the marker's letters, a + bc and ab + c
words = st.lists(st.sampled_from(["a", "b", "c", "ab", "bc", "</w>", "w", "_"]), min_size=1, max_size=4).map("".join)


@hyp_settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(words, st.integers(1, 5)), min_size=1, max_size=8),
       st.sampled_from(["auto", "_", None]), st.integers(1, 2), st.integers(0, 25))
def test_training_stops_exactly_at_the_size_or_says_why_not(pairs, marker, min_frequency, extra):
    text = "\n".join(f"{w} {c}" for w, c in pairs)
    # the vocabulary before any merge, in the one definition
    start = History(Corpus.from_word_counts(text, Settings(end_of_word=marker)), []).vocab_size(0)
    settings = Settings(end_of_word=marker, min_frequency=min_frequency, vocab_size=start + extra)
    corpus = Corpus.from_word_counts(text, settings)
    trainer, steps = train(corpus)
    history = History(corpus, steps)
    size = history.vocab_size(history.last_step)
    if trainer.stop_reason == TARGET_REACHED:
        assert size == start + extra
    else:
        assert size < start + extra
    # the size was not reached one merge earlier: no merge past the target
    assert history.vocab_size(max(0, history.last_step - 1)) < start + extra or not steps
    assert [pair for pair, _, _ in textbook_merges(corpus)] == [s.pair for s in steps]
