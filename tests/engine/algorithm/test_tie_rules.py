"""Each tie rule's worked example: small corpora whose ties are broken by hand in the comments, held
for the trainer and the textbook loop alike."""

import doctest

import pytest

import engine.algorithm.spelling_order
from engine import Corpus, Settings, train
from engine.algorithm.ranking import TIE_BREAKS, ReadingOrder, rule_named, spelling_of, ties
from engine.algorithm.spelling_order import SpellingLabels
from engine.algorithm.textbook import get_stats, textbook_merges
from engine.errors import TrainingError

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3"


def merges(corpus):
    """The trainer's merges, held to the textbook loop's."""
    _, steps = train(corpus)
    pairs = [s.pair for s in steps]
    assert pairs == [pair for pair, _, _ in textbook_merges(corpus)]
    return pairs


def words(text, rule, **kwargs):
    return Corpus.from_word_counts(text, Settings(tie_break=rule, **kwargs))


def test_greatest_compares_the_left_tokens_then_the_right_ones():
    # ab x2, ac x2, ca x2: a b, a c and c a tie at 2. greatest: c a (left c above a); then a b and
    # a c tie, their left tokens equal: a c (right c above b); then a b
    assert merges(words("ab 2\nac 2\nca 2", "greatest", end_of_word=None)) == [("c", "a"), ("a", "c"), ("a", "b")]
    # smallest, the other way round: a b, a c, then c a
    assert merges(words("ab 2\nac 2\nca 2", "smallest", end_of_word=None)) == [("a", "b"), ("a", "c"), ("c", "a")]


def test_greatest_compares_tokens_not_the_strings_they_join_into():
    # abc x2, xbc x2 with no marker: a b 2, b c 4, x b 2: b c first (4). Then a bc and x bc tie at 2:
    # greatest takes x bc, smallest a bc
    assert merges(words("abc 2\nxbc 2", "greatest", end_of_word=None)) == [("b", "c"), ("x", "bc"), ("a", "bc")]
    # "ab" + "c" and "a" + "bc" spell the same string; compared as tokens, "ab" comes after "a"
    counts = {("a", "bc"): 2, ("ab", "c"): 2}
    facts = ReadingOrder(counts, {"a": 0, "bc": 1, "ab": 2, "c": 3}.__getitem__, "chars")
    assert ties(counts, rule_named("greatest"), facts) == [("ab", "c"), ("a", "bc")]


def test_the_classic_corpus_under_the_smallest_pair_parts_from_hf_at_the_second_step():
    # e s, s t and t </w> tie at 9: smallest takes e s (e before s before t). Then es t and t </w>
    # tie at 9: "es" comes before "t" (hf takes t </w>: es is a new token, of a larger id). Then
    # est </w> (9), l o and o w tie at 7: l o; lo w (7); then n e, e w and w est</w> tie at 6: e w
    # (hf's and first's rule take n e)
    assert merges(words(CLASSIC, "smallest", merges=6)) == [
        ("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w"), ("e", "w")]
    assert merges(words(CLASSIC, "hf", merges=2))[1] == ("t", "</w>")


def test_the_classic_corpus_under_the_greatest_pair():
    # e s, s t, t </w> tie at 9: t </w> ("t" is the greatest left token). Then s t</w> (9) and
    # e st</w> (9) in turn; l o and o w tie at 7: o w; then l ow (7)
    assert merges(words(CLASSIC, "greatest", merges=5)) == [
        ("t", "</w>"), ("s", "t</w>"), ("e", "st</w>"), ("o", "w"), ("l", "ow")]


def test_bytes_units_compare_the_bytes_not_the_letters_that_show_them():
    # "xy xy a a", split as GPT-2 does: xy, Ġxy, Ġa, Ġa. x y and Ġ a tie at 2. A space is byte 0x20,
    # below x (0x78), though its letter Ġ is U+0120, above x: greatest takes x y, smallest Ġ a
    settings = dict(split="gpt2", units="bytes")
    greatest = Corpus.from_text("xy xy a a", Settings(tie_break="greatest", **settings))
    smallest = Corpus.from_text("xy xy a a", Settings(tie_break="smallest", **settings))
    assert merges(greatest) == [("x", "y"), ("Ġ", "a")]
    assert merges(smallest) == [("Ġ", "a"), ("x", "y")]
    assert spelling_of("bytes")("Ġ") == b" " and spelling_of("chars")("Ġ") == "Ġ"


def test_last_takes_the_tied_pair_whose_first_occurrence_comes_last():
    # ab x1, cd x2, xab x1: a b (1 + 1) and c d (2) tie at 2, x a counts 1. Reading the words, a b
    # is met first (in ab), c d next: the last met is c d, though a b occurs again after it (in xab)
    corpus = words("ab 1\ncd 2\nxab 1", "last", end_of_word=None)
    assert merges(corpus)[0] == ("c", "d")
    # what >= in a max loop over the counts, in the order the counts dict meets them, picks
    stats = get_stats([corpus.symbols(i) for i in range(len(corpus))], corpus.counts)
    best, winner = 0, None
    for pair, count in stats.items():
        if count >= best:
            best, winner = count, pair
    assert winner == ("c", "d")


def test_last_follows_a_pair_whose_first_occurrence_was_merged_away():
    # ca x5, cab x2, de x2, ab x2: c a wins at 7. Then ca b (2, in cab), d e (2, in de) and a b
    # (2, now first met in the last word: its place in cab went with the merge) tie: last takes a b,
    # first takes ca b
    text = "ca 5\ncab 2\nde 2\nab 2"
    assert merges(words(text, "last", end_of_word=None))[:2] == [("c", "a"), ("a", "b")]
    assert merges(words(text, "first", end_of_word=None))[:2] == [("c", "a"), ("ca", "b")]


def test_every_rule_is_known_to_the_settings_and_named_exactly():
    assert TIE_BREAKS == ("first", "hf", "greatest", "smallest", "last")
    for name in TIE_BREAKS:
        assert rule_named(name).name == name


def test_labels_keep_spelling_order_and_make_room_when_a_gap_closes(monkeypatch):
    monkeypatch.setattr(engine.algorithm.spelling_order, "_END", 1 << 6)
    labels = SpellingLabels(["a", "z"], str.__str__, descending=False)
    added = ["a" + "b" * n for n in range(1, 8)]
    # each token spelt just after the one before: the gap above "a" halves until none is left
    spread = [labels.add(token) for token in added]
    assert any(spread) and not spread[0]
    order = sorted(range(len(labels.of)), key=labels.of.__getitem__)
    assert [(["a", "z"] + added)[i] for i in order] == sorted(["a", "z"] + added)
    descending = SpellingLabels(["a", "z", "m"], str.__str__, descending=True)
    assert descending.of[1] < descending.of[2] < descending.of[0]


def test_the_labels_docstring_example_holds():
    result = doctest.testmod(engine.algorithm.spelling_order)
    assert result.attempted and not result.failed


def test_a_rule_whose_key_the_queue_cannot_order_is_refused(monkeypatch):
    from engine.algorithm import ranking

    odd = ranking.TieRule("first", lambda place, left, right: (right, left), by_place=False, by_ids=True)
    monkeypatch.setitem(ranking.TIE_RULES, "first", odd)
    with pytest.raises(TrainingError):
        train(words("ab 2", "first"))
