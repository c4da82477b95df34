"""The incremental trainer gives exactly the textbook loop's merges, ties and all."""

from unittest import mock

from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

from engine import Corpus, Settings, Tokenizer, train
from engine.algorithm.trainer import Trainer
import engine.algorithm.spelling_order
from engine.lesson.history import History
from engine.algorithm.ranking import TIE_BREAKS
from engine.algorithm.textbook import textbook_merges

# a tiny alphabet makes ties, overlapping runs (aaaa) and repeated strings (a+bc, ab+c) common; é
# is two bytes, one of them above every byte of a, b, c and the space
words = st.text(alphabet="abcé", min_size=1, max_size=7)
word_counts = st.lists(st.tuples(words, st.integers(1, 4)), min_size=1, max_size=12)


@st.composite
def _settings(draw):
    # bytes units order the lexicographic rules by bytes, which the byte alphabet's code points do not keep
    units = draw(st.sampled_from(["chars", "bytes"]))
    return Settings(
        split=draw(st.sampled_from(["whitespace", "none"])), units=units,
        end_of_word=draw(st.sampled_from(["auto", None, "_", "</w>"] if units == "chars" else ["auto", None])),
        min_frequency=draw(st.integers(1, 3)), tie_break=draw(st.sampled_from(TIE_BREAKS)),
        merges=draw(st.one_of(st.none(), st.integers(0, 30))),
    )


settings_strategy = _settings()


def _corpus(pairs, settings):
    if settings.split == "none":
        text = " ".join(w for w, c in pairs for _ in range(c))
        return Corpus.from_text(text, settings)
    return Corpus.from_word_counts("\n".join(f"{w} {c}" for w, c in pairs), settings)


@hyp_settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, settings_strategy)
def test_incremental_equals_textbook(pairs, settings):
    corpus = _corpus(pairs, settings)
    trainer, steps = train(corpus)
    expected = list(textbook_merges(corpus))
    assert [(s.pair, s.count, list(s.tied)) for s in steps] == expected
    assert [s.tie_count for s in steps] == [len(tied) for _, _, tied in expected]


@hyp_settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, settings_strategy, st.integers(1, 3))
def test_a_step_keeping_few_ties_still_merges_as_the_textbook_and_the_history_lists_them_all(pairs, settings, kept):
    # keeping one to three tied pairs makes the kept ones overflow, refill and go stale all the time
    corpus = _corpus(pairs, settings)
    with mock.patch("engine.algorithm.trainer.TIES_KEPT", kept):
        trainer, steps = train(corpus)
    expected = list(textbook_merges(corpus))
    assert [(s.pair, s.count) for s in steps] == [(pair, count) for pair, count, _ in expected]
    history = History(corpus, steps)
    for k, (s, (_, _, tied)) in enumerate(zip(steps, expected)):
        assert (list(s.tied), s.tie_count) == (tied[:kept], len(tied))
        assert history.ties(k) == tied


@hyp_settings(max_examples=200, deadline=None)
@given(word_counts, settings_strategy)
def test_step_records_add_up(pairs, settings):
    corpus = _corpus(pairs, settings)
    trainer, steps = train(corpus)
    total = corpus.total_symbols()
    tokenizer = Tokenizer.from_trainer(trainer)
    for s in steps:
        assert s.tokens_before == total
        # every place merged removes one token per occurrence of its word
        assert s.tokens_before - s.tokens_after == sum(corpus.counts[w] for w, _ in s.places)
        assert s.tokens_after < s.tokens_before
        assert s.tied[0] == s.pair
        total = s.tokens_after
    # the words' final tokens, replayed by the tokenizer, add up to the last total
    final = sum(len(tokenizer.merge_symbols(corpus.symbols(w))) * c for w, c in enumerate(corpus.counts))
    assert final == total
    assert steps[-1].vocab_size == tokenizer.get_vocab_size() if steps else True


def test_repeated_strings_keep_one_id():
    # "ab"+"c" and "a"+"bc" both make "abc": the vocabulary holds it once, as tokenizers does
    corpus = Corpus.from_word_counts("abc 3\nbcx 4\nabz 4", Settings(end_of_word=None, merges=4, min_frequency=1))
    trainer, steps = train(corpus)
    tokens = [s.token for s in steps]
    assert len(trainer.vocab) == len(set(trainer.vocab))
    assert [s.vocab_size for s in steps][-1] == len(trainer.vocab) + 1
    assert [(s.pair, s.count) for s in steps] == [(p, c) for p, c, _ in textbook_merges(corpus)]
    assert len(tokens) == 4


@hyp_settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, settings_strategy, st.integers(9, 12))
def test_tokens_labelled_afresh_when_spelling_order_runs_out_of_room_still_merge_as_the_textbook(pairs, settings, bits):
    # a label space of a few hundred leaves no room between neighbours after a few merges
    corpus = _corpus(pairs, settings)
    with mock.patch.object(engine.algorithm.spelling_order, "_END", 1 << bits):
        trainer, steps = train(corpus)
    assert [(s.pair, s.count, list(s.tied)) for s in steps] == list(textbook_merges(corpus))


def test_pairs_counted_below_the_heaps_floor_wait_and_still_merge_as_the_textbook():
    # the heap starts at 32, the power of two at or below the top count: the pairs of 9, 5, 3 and 2
    # wait by count and come onto the heap band by band as the top falls
    corpus = Corpus.from_word_counts("ab 40\ncd 9\nef 5\ngh 3\nij 2\nxy 1", Settings(end_of_word=None, min_frequency=2))
    trainer = Trainer(corpus)
    assert trainer.heap_floor == 32 and sorted(map(len, trainer.waiting), reverse=True)[:4] == [2, 1, 1, 0]
    steps = list(trainer.steps())
    assert [(s.pair, s.count, list(s.tied)) for s in steps] == list(textbook_merges(corpus))
    assert [s.count for s in steps] == [40, 9, 5, 3, 2]
