"""A large corpus is kept whole in numpy arrays (``engine.lesson.corpus_arrays``); everything the lesson
state answers about it must equal the plain path's answer (every word a list of strings) and the
history index's, at every step, forward, back and by jumps, under both tie rules."""

import random

import pytest

import engine.lesson.corpus_arrays
import engine.lesson.lesson
from engine.lesson.lesson import Lesson, LessonState
from engine.algorithm.settings import Settings

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow


def arrays_state(lesson: Lesson, monkeypatch, step: int = 0) -> LessonState:
    with monkeypatch.context() as patch:
        patch.setattr(engine.lesson.lesson, "LARGE_CORPUS", 0)
        state = LessonState(lesson, step)
    assert state._arrays is not None
    return state


def plain_state(lesson: Lesson, step: int = 0) -> LessonState:
    state = LessonState(lesson, step)
    assert state._arrays is None
    return state


def same(state: LessonState, plain: LessonState, lesson: Lesson, k: int) -> None:
    history = lesson.history
    assert state.step == plain.step == k
    for w in range(len(lesson.corpus)):
        assert state.tokens(w) == plain.tokens(w) == history.word_tokens(w, k)
        assert state.token_count(w) == plain.token_count(w)
        assert state.tokens_head(w, 3) == plain.tokens_head(w, 3)
    table = history.pairs_at(k)
    counts = state.pair_counts()
    assert counts == plain.pair_counts() == table.counts
    # met in the order a merge round meets them
    assert list(counts) == list(table.counts)
    assert state.distinct_pairs == plain.distinct_pairs == len(table.counts)
    for pair, count in table.counts.items():
        assert state.pair_count(pair) == count
        assert state.pair_sources(pair) == plain.pair_sources(pair) == table.sources(pair)
        assert state.pairs_with_count(count) == plain.pairs_with_count(count)
    assert state.pair_count(("no such", "pair")) == 0
    assert state.ranked_pairs() == plain.ranked_pairs()
    for limit in (1, 2, 5, 40):
        assert state.ranked_pairs(limit) == plain.ranked_pairs(limit)
    nxt = history.next_merge(k)
    if nxt is not None:
        assert state.ranked_pairs(1)[0][0] == nxt.pair


def text(seed: int, words: int = 80) -> str:
    rng = random.Random(seed)
    # short words of few letters, so merges overlap (aaaa), tie and touch side by side
    return " ".join("".join(rng.choice("abcaé") for _ in range(rng.randint(1, 7))) for _ in range(words))


def walk(lesson: Lesson, monkeypatch, seed: int) -> None:
    state, plain = arrays_state(lesson, monkeypatch), plain_state(lesson)
    last = lesson.last_step
    rng = random.Random(seed)
    order = list(range(1, last + 1)) + list(range(last - 1, -1, -1)) + [rng.randint(0, last) for _ in range(8)]
    for k in order + [last, 0, last // 2, last // 2]:
        assert state.go_to(k) == plain.go_to(k)
        same(state, plain, lesson, k)


SETTINGS = [
    Settings(merges=40),
    Settings(merges=40, tie_break="hf"),
    Settings(end_of_word=None, merges=40),
    Settings(split="gpt2", units="bytes", merges=40),
    Settings(end_of_word="_", min_frequency=1, tie_break="hf"),
]


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_arrays_give_what_the_plain_path_gives_at_every_step(settings, seed, monkeypatch):
    lesson = Lesson(text(seed), False, settings).train()
    walk(lesson, monkeypatch, seed)


@pytest.mark.parametrize("rebuilt, place_cost, dense", [(1, 8, 0), (10 ** 6, 0, 1 << 24), (10 ** 6, 10 ** 6, 0)])
def test_moves_by_rebuilding_or_place_by_place_agree(rebuilt, place_cost, dense, monkeypatch):
    """A jump across many steps (or places) rebuilds every word and counts every pair again, in
    one array by pair or by sorting the pairs; one of few places counts the pairs around them."""
    monkeypatch.setattr(engine.lesson.corpus_arrays, "REBUILT_STEPS", rebuilt)
    monkeypatch.setattr(engine.lesson.corpus_arrays, "PLACE_COST", place_cost)
    monkeypatch.setattr(engine.lesson.corpus_arrays, "DENSE_PAIRS", dense)
    lesson = Lesson(text(7), False, Settings(merges=60)).train()
    walk(lesson, monkeypatch, 7)


def test_word_counts_and_a_long_word_among_short_ones(monkeypatch):
    long = "ab" * 700 + "c"
    lesson = Lesson(f"low 5\nlower 2\nnewest 6\nwidest 3\n{long} 2", word_counts=True, settings=Settings()).train()
    walk(lesson, monkeypatch, 3)


def test_a_state_opened_at_a_step_holds_what_stepping_there_gives(monkeypatch):
    lesson = Lesson(text(4), False, Settings(merges=30)).train()
    plain = plain_state(lesson)
    for k in (0, 7, 30):
        plain.go_to(k)
        same(arrays_state(lesson, monkeypatch, k), plain, lesson, k)


def test_the_worked_example_ranks_its_tied_first_merge_first(monkeypatch):
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3", word_counts=True, settings=Settings(merges=5)).train()
    state = arrays_state(lesson, monkeypatch)
    assert state.ranked_pairs(3) == [(("e", "s"), 9), (("s", "t"), 9), (("t", "</w>"), 9)]
    state.go_to(5)
    assert state.tokens(2) == ["n", "e", "w", "est</w>"] and state.total_tokens == 95 - 9 - 9 - 9 - 7 - 7


def test_a_step_built_apart_and_adopted_lands_where_going_there_does(monkeypatch):
    # a worker drains ``rebuilding`` and hands the result to ``adopt``; without arrays it gives the step
    from engine.drain import drain

    lesson = Lesson(text(5), settings=Settings(merges=30, min_frequency=1)).train()
    for state, gone in ((arrays_state(lesson, monkeypatch), arrays_state(lesson, monkeypatch)),
                        (plain_state(lesson), plain_state(lesson))):
        for k in (lesson.last_step, 7, lesson.last_step + 5, 0):
            change = state.adopt(drain(state.rebuilding(k)))
            assert change == gone.go_to(k)
            same(state, gone, lesson, min(k, lesson.last_step))
