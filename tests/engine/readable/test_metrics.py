"""Each measure of a vocabulary on a text, worked out by hand on a tiny tokenizer."""

import math

import pytest

from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import Tokenizer
from engine.algorithm.trainer import train
from engine.readable.metrics import entropies, measure


def _trained(word_counts: str, settings: Settings) -> Tokenizer:
    return Tokenizer.from_trainer(train(Corpus.from_word_counts(word_counts, settings))[0])


@pytest.fixture
def aa():
    # "aa" x3, no marker: one merge a+a -> aa; vocabulary a, aa, <unk> (chars units): size 3
    return _trained("aa 3", Settings(end_of_word=None))


def test_counts_of_a_text_with_an_unknown_character(aa):
    # "aa a ab" -> aa | a | a <unk>: 4 tokens; the pieces aa, a, ab hold 5 characters, 5 bytes
    m = measure(aa, "aa a ab")
    assert aa.get_vocab_size() == 3
    assert (m.tokens, m.characters, m.bytes) == (4, 5, 5)
    assert m.characters_per_token == m.bytes_per_token == 5 / 4


def test_fertility_and_words_kept_whole(aa):
    # three words; aa and a are one token each, ab is two: 4 / 3 tokens per word, 2 of 3 whole, 1 split
    m = measure(aa, "aa a ab")
    assert m.words == 3 and m.tokens_per_word == 4 / 3
    assert (m.words_whole, m.words_split) == (2, 1)
    assert m.whole_share == 2 / 3 and m.split_share == 1 / 3


def test_unknown_tokens_count_and_share(aa):
    # b was never seen: one <unk> of 4 tokens
    m = measure(aa, "aa a ab")
    assert (m.unknown, m.unknown_share) == (1, 1 / 4)


def test_vocabulary_used(aa):
    # "aa" uses aa only: 1 of 3; "aa a ab" uses aa, a and <unk>: all 3
    assert (measure(aa, "aa").vocab_used, measure(aa, "aa").vocab_used_share) == (1, 1 / 3)
    assert measure(aa, "aa a ab").vocab_used_share == 1.0


def test_renyi_and_shannon_efficiency(aa):
    # p = (aa 1/4, a 1/2, <unk> 1/4) over |V| = 3
    # Shannon: H = 1/4 ln 4 + 1/2 ln 2 + 1/4 ln 4 = 1.5 ln 2, efficiency 1.5 ln 2 / ln 3 = 0.9464
    # alpha = 2: sum p^2 = 1/16 + 1/4 + 1/16 = 3/8, H_2 = -ln(3/8) = ln(8/3), efficiency ln(8/3) / ln 3 = 0.8928
    # alpha = 2.5: sum p^2.5 = 2 * 4^-2.5 + 2^-2.5 = 1/16 + 0.17678 = 0.23928, H = ln(0.23928) / (1 - 2.5) = 0.95343
    m2 = measure(aa, "aa a ab", alpha=2)
    assert m2.shannon_efficiency == pytest.approx(1.5 * math.log(2) / math.log(3))
    assert m2.renyi_efficiency == pytest.approx(math.log(8 / 3) / math.log(3))
    m = measure(aa, "aa a ab")
    assert m.alpha == 2.5
    assert m.renyi_entropy == pytest.approx(math.log(2 * 4 ** -2.5 + 2 ** -2.5) / -1.5)
    assert m.renyi_efficiency == pytest.approx(0.95343 / math.log(3), abs=1e-5)


def test_renyi_of_order_one_is_shannon_and_grows_no_larger_than_shannon():
    # a uniform distribution has every Rényi entropy equal to log n; a skewed one has H_2.5 < H_1
    assert entropies([5, 5, 5, 5]) == pytest.approx((math.log(4), math.log(4)))
    renyi, shannon = entropies([8, 1, 1])
    assert renyi < shannon
    assert entropies([8, 1, 1], alpha=1) == (shannon, shannon)


def test_the_marker_counts_with_its_word():
    # the classic lesson after 5 merges: "lowest low" -> low est</w> | low </w>: 4 tokens over
    # 9 characters (the marker is not one), and neither word is one token
    tok = _trained("low 5\nlower 2\nnewest 6\nwidest 3", Settings(merges=5))
    m = measure(tok, "lowest low")
    assert (m.tokens, m.characters, m.words, m.words_whole) == (4, 9, 2, 0)
    assert m.characters_per_token == 2.25 and m.tokens_per_word == 2.0


def test_bytes_per_token_counts_utf8_bytes():
    # byte units, no merges: "é" is 1 character, 2 bytes, 2 tokens, and a word split in two; no unknowns
    tok = _trained("ab 1", Settings(units="bytes"))
    m = measure(tok, "é")
    assert (m.characters, m.bytes, m.tokens, m.words_whole, m.unknown) == (1, 2, 2, 0, 0)
    assert (m.characters_per_token, m.bytes_per_token) == (0.5, 1.0)


def test_an_empty_text_measures_zero(aa):
    m = measure(aa, "  ")
    assert (m.tokens, m.words, m.characters_per_token, m.tokens_per_word, m.renyi_efficiency) == (0, 0, 0.0, 0.0, 0.0)


def test_the_modules_worked_example_holds():
    import doctest

    from engine.readable import metrics as metrics_module

    result = doctest.testmod(metrics_module)
    assert result.attempted and not result.failed
