import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from engine import BpeLabError, Settings, Tokenizer
from engine.lesson.lesson import Lesson, LessonState
from engine.algorithm.textbook import get_stats

CORPORA = [
    ("low 5\nlower 2\nnewest 6\nwidest 3\n", True, Settings()),
    ("tea tea team teams steam seat", False, Settings(end_of_word=None)),
    ("aaabdaaabac aaaa abab", False, Settings(min_frequency=1)),
    ("the cat sat on the mat; the cat ate", False, Settings(units="bytes", split="gpt2", tie_break="hf")),
]


@pytest.mark.parametrize("text, word_counts, settings", CORPORA)
def test_state_at_every_step_matches_a_fresh_replay(text, word_counts, settings):
    lesson = Lesson(text, word_counts, settings).train()
    state = LessonState(lesson)
    order = list(range(lesson.last_step + 1)) + list(range(lesson.last_step, -1, -2)) + [lesson.last_step, 0]
    for k in order:
        state.go_to(k)
        words = [lesson.history.word_tokens(w, k) for w in range(len(lesson.corpus))]
        assert [state.tokens(w) for w in range(len(words))] == words
        assert state.pair_counts() == get_stats(words, lesson.corpus.counts)
        expected_total = lesson.steps[k - 1].tokens_after if k else lesson.initial_tokens
        assert state.total_tokens == expected_total
        nxt = state.next_step()
        if nxt is not None:
            # the state ranks first the pair the trainer merged next, with the same ties
            ranked = state.ranked_pairs()
            assert ranked[0][0] == nxt.pair
            assert [p for p, c in ranked if c == nxt.count] == lesson.history.ties(k)


def test_pair_sources_add_up_to_the_count():
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", True).train()
    state = LessonState(lesson, 3)
    assert state.pair_count(("l", "o")) == 7
    sources = state.pair_sources(("l", "o"))
    assert sources == [(0, 1), (1, 1)]
    assert sum(n * lesson.corpus.counts[w] for w, n in sources) == 7


def test_reading_places_are_each_pairs_first_place_in_reading_order():
    # "low 5 / lower 2" at step 0: (l, o) first in word 0 at 0; (w, e) only in word 1, at 2
    lesson = Lesson("low 5\nlower 2\n", True).train()
    state = LessonState(lesson)
    first = {}
    for w in range(len(lesson.corpus)):
        tokens = state.tokens(w)
        for i, pair in enumerate(zip(tokens, tokens[1:])):
            first.setdefault(pair, w << 32 | i)
    assert first[("l", "o")] == 0 and first[("w", "e")] == 1 << 32 | 2
    assert state.reading_places(list(first)) == first
    assert state.reading_places([("w", "e"), ("o", "w")]) == {("w", "e"): 1 << 32 | 2, ("o", "w"): 1}
    # enough=1: the pair met first must be there; the later one may be left out
    assert state.reading_places([("w", "e"), ("l", "o")], enough=1)[("l", "o")] == 0


def test_untrained_lesson_has_no_state():
    lesson = Lesson("a b", False)
    with pytest.raises(BpeLabError):
        LessonState(lesson)


def test_lesson_tokenizer_at_a_step_encodes_like_replaying_the_merges():
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3\n", True).train()
    assert isinstance(lesson.tokenizer_at(5), Tokenizer)
    assert lesson.tokenizer_at(5).encode("lowest").tokens == ("low", "est</w>")
    assert lesson.tokenizer_at(0).encode("lowest").tokens == tuple("lowest") + ("</w>",)


def test_cautions_name_a_marker_inside_words_and_a_learned_unknown_spelling():
    from engine.algorithm.tokenizer import UNKNOWN

    plain = Lesson("low lower newest", settings=Settings()).train()
    assert plain.cautions() == []
    underscored = Lesson("snake_case snake_case low", settings=Settings(end_of_word="_")).train()
    assert any("marker _ also appears inside words" in c for c in underscored.cautions())
    # bytes units keep the marker out of the text's alphabet, so there is nothing to say
    assert Lesson("snake_case snake_case", settings=Settings(units="bytes")).train().cautions() == []
    unknown = Lesson(f"{UNKNOWN} {UNKNOWN} {UNKNOWN} a{UNKNOWN}", settings=Settings(end_of_word=None)).train()
    assert any(UNKNOWN in step.token for step in unknown.steps)
    assert any("also how the unknown token is spelt" in c for c in unknown.cautions())


@pytest.mark.parametrize("text, word_counts, settings", CORPORA)
def test_a_step_move_names_exactly_the_words_it_re_split(text, word_counts, settings):
    import random

    lesson = Lesson(text, word_counts, settings).train()
    state = LessonState(lesson)
    jumps = random.Random(12).choices(range(lesson.last_step + 1), k=40) + [lesson.last_step, 0, 0]
    for k in jumps:
        before = [list(state.tokens(w)) for w in range(len(lesson.corpus))]
        previous = state.step
        change = state.go_to(k)
        after = [state.tokens(w) for w in range(len(lesson.corpus))]
        assert (change.step, change.previous) == (k, previous)
        assert change.words == tuple(w for w in range(len(before)) if before[w] != after[w])


@hyp_settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="ab ", min_size=1, max_size=14), min_size=1, max_size=6),
       st.lists(st.integers(0, 40), min_size=1, max_size=12))
def test_moves_in_any_order_keep_every_pair_where_a_fresh_count_finds_it(parts, stops):
    # words of repeating letters: a merge changes them in several places, and equal tokens stand
    # on both sides of each change, where only the pairs around the change may be counted again
    lesson = Lesson(" ".join(parts), settings=Settings(min_frequency=1))
    if lesson.is_empty:
        return
    lesson.train()
    state = LessonState(lesson)
    for stop in stops:
        k = stop % (lesson.last_step + 1)
        state.go_to(k)
        table = lesson.history.pairs_at(k)
        assert state.pair_counts() == table.counts
        assert {pair: state.pair_sources(pair) for pair in table.counts} == \
            {pair: table.sources(pair) for pair in table.counts}
        assert state.ranked_pairs(3) == state.ranked_pairs()[:3]
