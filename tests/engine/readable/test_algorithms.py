"""BPE, WordPiece and Unigram side by side, and what the paragraph on how each learns says, held to the library."""

import math

import pytest

from engine.readable.algorithms import (
    HOW_EACH_LEARNS,
    WORDPIECE_UNKNOWN,
    compare_algorithms,
    comparing,
    train_bpe,
    train_in_child,
    train_unigram,
    train_wordpiece,
)
from engine.readable.metrics import measure

# "th" is the most frequent pair; "qz" scores far better by WordPiece's original likelihood score
# count(ab) / (count(a) count(b)): q and z occur only together
PAIRS = ("th th th th th the the this that qz qz " * 3) + "at ta ht ha"
CORPUS = ("lowest newest widest slowest low lower new wider " * 20) + "unbelievable " * 30


def test_bpe_merges_the_most_frequent_pair_first():
    assert "BPE" in HOW_EACH_LEARNS and "most frequent pair" in HOW_EACH_LEARNS["BPE"]
    tok = train_bpe(PAIRS, 100)
    # t h occurs 27 times (th x15, the x6, this x3, that x3); no pair as often
    assert tok.merges[0] == ("t", "h")


def test_wordpiece_learns_by_frequency_not_by_the_likelihood_score():
    assert "most-frequent-pair" in HOW_EACH_LEARNS["WordPiece"]
    # the alphabet with its ## forms is 16 tokens: the 17th is the first learned, and it is th, not qz
    vocab = train_wordpiece(PAIRS, 17).get_vocab()
    learned = [t for t in vocab if len(t.removeprefix("##")) > 1 and t != WORDPIECE_UNKNOWN]
    assert learned == ["th"]


def test_wordpiece_marks_inner_pieces_and_takes_the_longest_piece_from_the_left():
    tok = train_wordpiece(CORPUS, 40)
    vocab = tok.get_vocab()
    for word in ("unbelievable", "slowest"):
        tokens = tok.encode(word, add_special_tokens=False).tokens
        assert len(tokens) > 1 and not tokens[0].startswith("##") and all(t.startswith("##") for t in tokens[1:])
        # each token is the longest piece of the vocabulary that starts what is left of the word
        rest, first = word, True
        for token in tokens:
            prefix = "" if first else "##"
            longest = max((p for p in vocab if p.startswith(prefix) and rest.startswith(p[len(prefix):])), key=len)
            assert token == longest
            rest, first = rest[len(token) - len(prefix):], False
        assert rest == ""


def test_wordpiece_turns_a_word_it_cannot_spell_into_one_unknown():
    tok = train_wordpiece(CORPUS, 60)
    assert tok.encode("lowest lowq", add_special_tokens=False).tokens[-1:] == [WORDPIECE_UNKNOWN]
    assert "one [UNK]" in HOW_EACH_LEARNS["WordPiece"]


def test_unigram_keeps_pieces_no_merge_could_make():
    # every BPE token past the base joins two earlier tokens; Unigram prunes from a larger set, so
    # it keeps pieces that no two of its pieces join to
    bpe = train_bpe(CORPUS, 40)
    bpe_vocab = set(bpe.vocab)
    assert all(a in bpe_vocab and b in bpe_vocab for a, b in bpe.merges)
    vocab = train_unigram(CORPUS, 40).get_vocab()
    unjoinable = [t for t in vocab if len(t) > 2 and not t.startswith("<")
                  and not any(t[:i] in vocab and t[i:] in vocab for i in range(1, len(t)))]
    assert unjoinable
    assert "no merge could make" in HOW_EACH_LEARNS["Unigram"]


def test_unigram_encodes_a_word_as_its_most_probable_split():
    import json

    tok = train_unigram(CORPUS, 40)
    scores = dict(map(tuple, json.loads(tok.to_str())["model"]["vocab"]))
    assert all(score <= 0 for score in scores.values())  # log probabilities

    def best(word):  # every split of the word into vocabulary pieces, the highest total log probability
        table = [(0.0, [])] + [(-math.inf, None)] * len(word)
        for end in range(1, len(word) + 1):
            for start in range(end):
                piece = word[start:end]
                if piece in scores and table[start][1] is not None:
                    total = table[start][0] + scores[piece]
                    if total > table[end][0]:
                        table[end] = (total, table[start][1] + [piece])
        return table[-1][1]

    for word in ("slowest", "unbelievable", "widest", "lower"):
        assert tok.encode(word, add_special_tokens=False).tokens == best(word)


def test_three_measured_on_the_held_out_text_with_the_engines_measures():
    found = compare_algorithms(CORPUS, 60, held_out="the slowest newest low")
    assert [t.name for t in found] == ["BPE", "WordPiece", "Unigram"]
    assert found[0].metrics == measure(train_bpe(CORPUS, 60), "the slowest newest low")
    for t in found:
        assert t.metrics.words == 4 and t.metrics.vocab_size <= 60
        # "only here" pieces are in this vocabulary and in neither other
        others = set().union(*(o.pieces for o in found if o is not t))
        assert set(t.only_here) <= t.pieces - others
    # h of "the" was never in the corpus: BPE and Unigram spell it unknown, WordPiece the whole word
    assert found[1].metrics.unknown == 1 and found[1].tokens[0] == WORDPIECE_UNKNOWN
    assert found[0].metrics.unknown == 1


@pytest.mark.parametrize("name", ["BPE", "WordPiece", "Unigram"])
def test_each_paragraph_is_short(name):
    assert len(HOW_EACH_LEARNS[name]) < 400


class Stop(Exception):
    pass


def test_a_check_that_raises_stops_bpe_between_two_merges():
    calls = []

    def check():
        calls.append(len(calls))
        if len(calls) == 3:
            raise Stop

    steps = comparing(CORPUS, 60, check=check)
    assert next(steps) == "BPE"
    with pytest.raises(Stop):
        next(steps)  # the third merge's check: WordPiece never starts
    assert len(calls) == 3


def test_the_library_trained_in_a_child_is_the_library_trained_here():
    # Unigram's scores may differ in their last digits between two runs, its pieces do not; WordPiece
    # breaks ties in an order that changes between runs, its size does not
    assert set(train_in_child("Unigram", CORPUS, 60).get_vocab()) == set(train_unigram(CORPUS, 60).get_vocab())
    assert train_in_child("WordPiece", CORPUS, 60).get_vocab_size() == train_wordpiece(CORPUS, 60).get_vocab_size()
