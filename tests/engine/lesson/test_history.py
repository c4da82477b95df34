"""The history index answers "at step k" exactly as a plain replay of the first k merges does,
and as the lesson state moved there step by step; the vocabulary size follows the one definition."""

from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

from engine import Corpus, Settings, Tokenizer, train
from engine.readable.describe import describe_vocab
import engine.lesson.history as history_module
from engine.lesson.history import History
from engine.lesson.lesson import Lesson, LessonState
from engine.algorithm.textbook import get_stats, merge

# a tiny alphabet makes ties, overlapping runs (aaaa) and repeated strings (a+bc, ab+c) common;
# "_" is also a marker below, so a marker inside words is met too; "é" is two bytes
words = st.text(alphabet="abc_é", min_size=1, max_size=7)
word_counts = st.lists(st.tuples(words, st.integers(1, 4)), min_size=1, max_size=10)
chars_settings = st.builds(
    Settings,
    split=st.sampled_from(["whitespace", "none"]),
    units=st.just("chars"),
    end_of_word=st.sampled_from(["auto", None, "_", "</w>"]),
    min_frequency=st.integers(1, 3),
    tie_break=st.sampled_from(["first", "hf"]),
    merges=st.one_of(st.none(), st.integers(0, 30)),
    special_tokens=st.sampled_from([(), ("<|endoftext|>",)]),
)
bytes_settings = st.builds(
    Settings,
    split=st.sampled_from(["whitespace", "none", "gpt2"]),
    units=st.just("bytes"),
    min_frequency=st.integers(1, 3),
    tie_break=st.sampled_from(["first", "hf"]),
    merges=st.one_of(st.none(), st.integers(0, 30)),
)


def corpus_of(pairs, settings) -> Corpus:
    if settings.split == "whitespace":
        return Corpus.from_word_counts("\n".join(f"{w} {c}" for w, c in pairs), settings)
    return Corpus.from_text(" ".join(w for w, c in pairs for _ in range(c)), settings)


def replay(corpus: Corpus, steps, k: int) -> list[list[str]]:
    """Every word's tokens after the first k merges, applied in order by the textbook merge."""
    tokens = [corpus.symbols(w) for w in range(len(corpus))]
    for step in steps[:k]:
        tokens = [merge(t, step.pair) for t in tokens]
    return tokens


def vocab_by_definition(corpus: Corpus, steps, k: int) -> int:
    """Base symbols + the distinct strings the first k merges made + special tokens + <unk> for chars."""
    base = corpus.base_vocab()
    learned = {s.token for s in steps[:k]} - set(base)
    settings = corpus.settings
    return len(base) + len(learned) + len(settings.special_tokens) + (settings.units == "chars")


def sources_by_replay(tokens: list[list[str]]) -> dict[tuple[str, str], list[tuple[int, int]]]:
    found: dict[tuple[str, str], dict[int, int]] = {}
    for w, word in enumerate(tokens):
        for pair in zip(word, word[1:]):
            where = found.setdefault(pair, {})
            where[w] = where.get(w, 0) + 1
    return {pair: sorted(where.items()) for pair, where in found.items()}


def check_agreement(pairs, settings, data) -> None:
    lesson = Lesson("", settings=settings, corpus=corpus_of(pairs, settings)).train()
    corpus, steps, history = lesson.corpus, lesson.steps, lesson.history
    state = LessonState(lesson)
    ks = data.draw(st.lists(st.integers(0, len(steps) + 2), min_size=1, max_size=6), label="steps")
    for k in ks:
        state.go_to(k)
        k = min(k, len(steps))
        expected = replay(corpus, steps, k)
        total = sum(len(t) * c for t, c in zip(expected, corpus.counts))
        assert history.tokens_at(k) == expected
        assert [history.word_tokens(w, k) for w in range(len(corpus))] == expected
        assert [history.token_count(w, k) for w in range(len(corpus))] == [len(t) for t in expected]
        assert [state.tokens(w) for w in range(len(corpus))] == expected
        assert history.total_tokens(k) == state.total_tokens == total
        stats = get_stats(expected, corpus.counts)
        # the same counts, in the order a merge round meets the pairs
        assert list(history.pair_counts(k).items()) == list(stats.items())
        assert state.pair_counts() == stats
        sources = sources_by_replay(expected)
        for pair in stats:
            assert history.pair_sources(pair, k) == state.pair_sources(pair) == sources[pair]
        following = history.next_merge(k)
        assert following is state.next_step()
        assert (following is None) == (k == len(steps))
        assert history.vocab_size(k) == vocab_by_definition(corpus, steps, k)
        assert history.vocab_size(k) == lesson.tokenizer.truncated(k).get_vocab_size()
    # the trainer's own records say the same
    assert history.totals() == [corpus.total_symbols()] + [s.tokens_after for s in steps]
    assert history.vocab_sizes()[1:] == [s.vocab_size for s in steps]


@hyp_settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, chars_settings, st.data())
def test_chars_index_state_and_replay_agree(pairs, settings, data):
    check_agreement(pairs, settings, data)


@hyp_settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, bytes_settings, st.data())
def test_bytes_index_state_and_replay_agree(pairs, settings, data):
    check_agreement(pairs, settings, data)


def answers(history: History) -> tuple:
    """What the index says at every step: tokens, totals, each word's steps, the words each step changed."""
    last = history.last_step
    return (history.totals(), [history.tokens_at(k) for k in range(last + 1)],
            [history.merge_steps(w) for w in range(len(history.corpus))],
            [history.words_changed(k, k + 1) for k in range(last)],
            [history.merge_offsets(w, k, 10**6) for w in range(len(history.corpus)) for k in range(last + 1)])


@hyp_settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_counts, st.one_of(chars_settings, bytes_settings))
def test_the_index_made_all_at_once_answers_as_the_one_made_place_by_place(pairs, settings):
    lesson = Lesson("", settings=settings, corpus=corpus_of(pairs, settings)).train()
    each = History(lesson.corpus, lesson.steps)
    with mock.patch.object(history_module, "BULK_PLACES", 0):
        every = History(lesson.corpus, lesson.steps)
    assert answers(every) == answers(each)
    for made, built in zip(every.place_arrays(), each.place_arrays()):
        assert made.dtype == built.dtype and np.array_equal(made, built)


def test_whole_step_is_the_first_step_a_word_is_one_token():
    corpus = Corpus.from_word_counts("low 5\nlower 2\nnewest 6\nwidest 3", Settings())
    _, steps = train(corpus)
    history = History(corpus, steps)
    for w in range(len(corpus)):
        counts = [history.token_count(w, k) for k in range(len(steps) + 1)]
        assert history.whole_step(w) == (counts.index(1) if 1 in counts else None)


def test_a_marker_the_letters_spell_is_split_where_the_merges_made_it():
    # the text spells "</w>", the marker's own string: the merged token and the marker are one id,
    # but the merged one spans four characters where the marker spans one
    corpus = Corpus.from_word_counts("a</w> 3\nb</w> 2", Settings(min_frequency=2))
    _, steps = train(corpus)
    history = History(corpus, steps)
    assert "</w>" in [s.token for s in steps]
    for k in range(len(steps) + 1):
        assert history.tokens_at(k) == replay(corpus, steps, k)


# -- the worked facts of PRODUCT.md ----------------------------------------------------------------


def test_classic_four_words():
    corpus = Corpus.from_word_counts("low 5\nlower 2\nnewest 6\nwidest 3", Settings(merges=5))
    _, steps = train(corpus)
    history = History(corpus, steps)
    assert history.total_tokens(0) == 95
    assert history.pair_counts(0)[("s", "t")] == 9
    assert [s.pair for s in steps] == [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w")]
    assert history.next_merge(0).tied == (("e", "s"), ("s", "t"), ("t", "</w>"))
    assert history.word_tokens(0, 5) == ["low", "</w>"]
    # 11 base symbols (d e i l n o r s t w </w>), then one new token per merge, then <unk>
    assert [history.vocab_size(k) for k in range(6)] == [12, 13, 14, 15, 16, 17]
    assert history.next_merge(5) is None  # five merges asked for: nothing comes next


def test_tea_words():
    corpus = Corpus.from_text("tea tea team teams steam seat", Settings(end_of_word=None))
    _, steps = train(corpus)
    history = History(corpus, steps)
    assert [s.pair for s in steps] == [("e", "a"), ("t", "ea"), ("tea", "m")]
    assert history.totals() == [24, 18, 13, 10]
    # a, e, m, s, t + <unk>, then ea, tea, team
    assert history.vocab_sizes() == [6, 7, 8, 9]
    assert history.next_merge(3) is None


def test_a_merge_that_rebuilds_a_token_adds_no_new_one():
    # the letters spell the marker: "</w" + ">" makes "</w>", a token the vocabulary holds already
    corpus = Corpus.from_word_counts("a</w> 3\nb</w> 2", Settings())
    trainer, steps = train(corpus)
    history = History(corpus, steps)
    rebuilt = [s.token for s in steps].index("</w>") + 1
    sizes = history.vocab_sizes()
    assert sizes[rebuilt] == sizes[rebuilt - 1]
    assert sizes[-1] == Tokenizer.from_trainer(trainer).get_vocab_size() == sizes[0] + len(steps) - 1
    assert describe_vocab(corpus.settings, history.vocab(len(steps))) == (
        f"{sizes[-1]} tokens (7 base symbols + {len(steps) - 1} learned + <unk>; 1 merge rebuilt a token already there)")


def test_made_by_names_the_first_merge_that_made_a_token():
    # "</w>" is a base symbol and is spelt again by a merge of the letters: the first merge counts
    corpus = Corpus.from_word_counts("a</w> 3\nb</w> 2\nab 2", Settings(min_frequency=1))
    _, steps = train(corpus)
    history = History(corpus, steps)
    tokens = [s.token for s in steps]
    for token in set(tokens):
        assert history.made_by(token) is steps[tokens.index(token)]
    assert history.made_by("</w>").step == tokens.index("</w>") + 1
    assert history.made_by("a") is None and history.made_by("zz") is None


def test_the_one_wording_names_every_part_of_the_size():
    chars = Settings(special_tokens=("<|endoftext|>",))
    corpus = Corpus.from_word_counts("low 5\nlower 2", chars)  # l o w e r </w>
    _, steps = train(corpus)
    history = History(corpus, steps)
    k = history.last_step
    assert describe_vocab(chars, history.vocab(k)) == (
        f"{history.vocab_size(k)} tokens (6 base symbols + {k} learned + 1 special token (<|endoftext|>) + <unk>)")
    assert describe_vocab(chars, history.vocab(0)) == "8 tokens (6 base symbols + 1 special token (<|endoftext|>) + <unk>)"
    raw = Settings(units="bytes")
    corpus = Corpus.from_text("ab ab ab", raw)
    history = History(corpus, train(corpus)[1])
    # byte-level: 256 base symbols, no unknown token
    assert describe_vocab(raw, history.vocab(1)) == "257 tokens (256 base symbols + 1 learned)"


# -- ties past what a step keeps --------------------------------------------------------------------


def _two_letter_words(settings: Settings) -> Corpus:
    # 150 different two-letter words, each twice: all 150 pairs tie at the first merge
    letters = "zyxwvutsrqponmlkjihgfedcba"
    words = [a + b for a in letters for b in letters][:150]
    return Corpus.from_word_counts("\n".join(f"{w} 2" for w in words), settings)


def test_a_step_names_the_first_fifty_ties_and_counts_them_all_and_the_history_lists_every_one():
    corpus = _two_letter_words(Settings(end_of_word=None, merges=2))
    _, steps = train(corpus)
    history = History(corpus, steps)
    met = [tuple(w) for w in corpus.words]  # the pairs in reading order
    assert steps[0].tie_count == 150 and steps[0].tied == tuple(met[:50])
    assert history.ties(0) == met
    # the winner leaves the tie: the next step counts and names the rest
    assert steps[1].tie_count == 149 and steps[1].tied == tuple(met[1:51])
    assert history.ties(1) == met[1:]
    assert history.ties(2) == []


def test_with_the_hf_rule_the_history_lists_every_tie_by_ids():
    corpus = _two_letter_words(Settings(end_of_word=None, merges=1, tie_break="hf"))
    _, steps = train(corpus)
    by_ids = sorted(tuple(w) for w in corpus.words)  # base ids follow the letters' order
    assert steps[0].tie_count == 150 and steps[0].tied == tuple(by_ids[:50])
    assert History(corpus, steps).ties(0) == by_ids
