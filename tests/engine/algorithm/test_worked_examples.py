"""The worked facts of the lesson, which any correct engine reproduces."""

from engine import Corpus, Settings, Tokenizer, train
from engine.algorithm.trainer import NO_PAIR_REPEATS

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def classic(**kw):
    return Corpus.from_word_counts(CLASSIC, Settings(**kw))


def test_classic_corpus_starts_with_95_symbols():
    assert classic().total_symbols() == 95


def test_classic_first_five_merges_with_counts():
    trainer, steps = train(classic(merges=5))
    assert [(s.pair, s.count) for s in steps] == [
        (("e", "s"), 9),
        (("es", "t"), 9),
        (("est", "</w>"), 9),
        (("l", "o"), 7),
        (("lo", "w"), 7),
    ]
    assert [s.token for s in steps] == ["es", "est", "est</w>", "lo", "low"]


def test_first_merge_is_a_three_way_tie_broken_by_reading_order():
    _, steps = train(classic(merges=1))
    assert steps[0].tied == (("e", "s"), ("s", "t"), ("t", "</w>"))


def test_pair_s_t_occurs_nine_times_at_the_start():
    from engine.algorithm.textbook import get_stats

    corpus = classic()
    stats = get_stats([corpus.symbols(i) for i in range(len(corpus))], corpus.counts)
    assert stats[("s", "t")] == 9


def test_lowest_encodes_as_two_tokens_after_five_merges():
    trainer, _ = train(classic(merges=5))
    encoding = Tokenizer.from_trainer(trainer).encode("lowest")
    assert encoding.tokens == ("low", "est</w>")
    assert len(encoding) == 2


def test_totals_fall_by_the_places_merged():
    trainer, steps = train(classic(merges=5))
    assert [s.tokens_after for s in steps] == [86, 77, 68, 61, 54]
    assert steps[0].tokens_before == 95
    base = len(trainer.base)
    # base symbols, each new token, and the unknown token
    assert [s.vocab_size for s in steps] == [base + 1 + k + 1 for k in range(5)]


def test_six_tea_words_without_marker():
    corpus = Corpus.from_text("tea tea team teams steam seat", Settings(end_of_word=None))
    assert corpus.total_symbols() == 24
    trainer, steps = train(corpus)
    assert [(s.pair, s.count, s.tokens_after) for s in steps] == [
        (("e", "a"), 6, 18),
        (("t", "ea"), 5, 13),
        (("tea", "m"), 3, 10),
    ]
    assert trainer.stop_reason == NO_PAIR_REPEATS


def test_wikipedia_string_with_split_none():
    corpus = Corpus.from_text("aaabdaaabac", Settings(split="none", end_of_word=None))
    trainer, steps = train(corpus)
    # "aa" occurs four times counting overlaps; then "aa a" ties with "a b" and is met first
    assert [(s.pair, s.count) for s in steps] == [(("a", "a"), 4), (("aa", "a"), 2), (("aaa", "b"), 2)]
    assert steps[1].tied == (("aa", "a"), ("a", "b"))
    # overlaps are merged once: "aaa" holds one "aa" merge, not two
    assert steps[0].places == ((0, 0), (0, 5))
    assert [s.tokens_after for s in steps] == [9, 7, 5]
    assert Tokenizer.from_trainer(trainer).encode("aaabdaaabac").tokens == ("aaab", "d", "aaab", "a", "c")
