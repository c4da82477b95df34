"""A long word (a text with no spaces, or split none) moves step to step where its merges were
made; what the lesson state shows must equal the history index's answer at every step."""

import random

import pytest

from engine.lesson import LONG_WORD, Lesson, LessonState
from engine.settings import Settings


def long_text(seed: int, length: int = 1500) -> str:
    rng = random.Random(seed)
    # few letters and a repeated run (aaaa) so merges overlap and tie inside one word
    return "".join(rng.choice("abcaé") for _ in range(length)) + "aaaaaaa"


def fresh(lesson: Lesson, k: int) -> LessonState:
    return LessonState(lesson, k)


def same(state: LessonState, lesson: Lesson, k: int) -> None:
    history = lesson.history
    assert state.step == k
    for w in range(len(lesson.corpus)):
        assert state.tokens(w) == history.word_tokens(w, k)
    table = history.pairs_at(k)
    assert state.pair_counts() == table.counts
    for pair in table.counts:
        assert state.pair_sources(pair) == table.sources(pair)


@pytest.mark.parametrize("settings", [
    Settings(split="none", merges=60),
    Settings(split="whitespace", merges=60),  # one long word with the </w> marker, and short ones
    Settings(split="none", units="bytes", merges=60),
])
def test_long_word_moves_in_place_to_every_step(settings):
    text = long_text(1) + " ab ab abc" if settings.split == "whitespace" else long_text(1)
    lesson = Lesson(text, False, settings).train()
    assert len(lesson.history.word_tokens(0, 0)) >= LONG_WORD
    state = LessonState(lesson)
    for k in range(1, lesson.last_step + 1):
        state.go_to(k)
        same(state, lesson, k)
    for k in range(lesson.last_step - 1, -1, -1):
        state.go_to(k)
        same(state, lesson, k)
    rng = random.Random(3)
    for _ in range(15):
        k = rng.randint(0, lesson.last_step)
        state.go_to(k)
        same(state, lesson, k)


def test_ranked_pairs_of_one_long_word_follow_the_tie_rule():
    lesson = Lesson(long_text(2, 3000), False, Settings(split="none", merges=30)).train()
    state = LessonState(lesson, 10)
    top = state.ranked_pairs(5)
    # the first of them is the merge the trainer made next
    assert top[0][0] == lesson.steps[10].pair
    assert [p for p, _ in top] == [p for p, _ in state.ranked_pairs()[:5]]
