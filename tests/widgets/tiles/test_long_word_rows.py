"""A word millions of symbols long (a text with no spaces) shows as the head of its row: the
tiles that start in its first HEAD_SYMBOLS symbols, the same at rest and through a merge."""

from __future__ import annotations

import random

import pytest

from engine.lesson.lesson import Lesson, LessonState
from engine.algorithm.settings import Settings
from widgets.tiles.layout import HEAD_SYMBOLS, TileRows


class Sizes:
    top, row_h, tile_top, tile_h, gap = 10.0, 50.0, 5.0, 30.0, 4.0

    def measure(self, token: str) -> float:
        return 10.0 * len(token)


@pytest.fixture(scope="module")
def lesson():
    rng = random.Random(5)
    text = "".join(rng.choice("abcab") for _ in range(3 * HEAD_SYMBOLS))
    # one long word (split none) and the marker-free whitespace case share the same rows code
    return Lesson(text, False, Settings(split="none", merges=40)).train()


def head_of(tokens: list[str]) -> list[str]:
    shown, s = [], 0
    for token in tokens:
        if s >= HEAD_SYMBOLS:
            break
        shown.append(token)
        s += len(token)
    return shown


def test_a_long_word_lays_out_its_head_and_counts_the_rest(lesson):
    for step in (0, 1, 17, lesson.last_step):
        state = LessonState(lesson, step)
        rows = TileRows(Sizes())
        rows.set_lesson(lesson, state)
        layout = rows.layout(0)
        tokens = lesson.history.word_tokens(0, step)
        assert list(layout.tokens) == head_of(tokens)
        assert layout.more == len(tokens) - len(layout.tokens) > 0
        # the history's own head of the word is the same tiles
        assert lesson.history.word_head(0, step, HEAD_SYMBOLS) == list(layout.tokens)


def test_a_merge_in_a_long_word_runs_between_its_heads_before_and_after(lesson):
    for number in (1, 2, 25):
        step = lesson.steps[number - 1]
        rows = TileRows(Sizes())
        rows.set_lesson(lesson, LessonState(lesson, number))
        merge = rows.merge_of(step, 0)
        assert merge is not None
        assert list(merge.after.tokens) == list(rows.layout(0).tokens)
        assert list(merge.before.tokens) == head_of(lesson.history.word_tokens(0, number - 1))
        # the row's label counts every tile of the word, not only those laid out
        frames, n, _ = rows.frames_in(0, None, 0, 500)
        assert n == lesson.history.token_count(0, number)
        assert frames and frames[0].x == 0.0
