"""The top few pairs a chart asks for on every step are the head of the full ranking."""

from hypothesis import given, settings as hyp_settings, strategies as st

from engine.lesson.lesson import Lesson, LessonState
from engine.algorithm.settings import Settings

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"
PROSE = (
    "the cat sat on the mat and the other cat sat on the hat; a banana, an ananas and a bandana "
    "stand in the band stand. aaaa aaa aa a baaa abab ababab"
)


def _full_then_cut(state: LessonState, limit: int):
    return state.ranked_pairs()[:limit]


def test_classic_ties_come_in_reading_order():
    lesson = Lesson(CLASSIC, word_counts=True).train()
    state = LessonState(lesson)
    top = state.ranked_pairs(3)
    # e s, s t and t </w> all count 9: the rule takes the one met first
    assert top == [(("e", "s"), 9), (("s", "t"), 9), (("t", "</w>"), 9)]
    assert top == _full_then_cut(state, 3)


def test_limited_ranking_is_the_head_of_the_full_one_at_every_step():
    for tie_break in ("first", "hf"):
        lesson = Lesson(PROSE, settings=Settings(tie_break=tie_break)).train()
        state = LessonState(lesson)
        for k in range(lesson.last_step + 1):
            state.go_to(k)
            for limit in (1, 2, 5, 12):
                assert state.ranked_pairs(limit) == _full_then_cut(state, limit), (tie_break, k, limit)


@hyp_settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="abc ", min_size=1, max_size=12), min_size=1, max_size=8), st.integers(1, 6))
def test_limited_ranking_matches_on_random_texts(parts, limit):
    text = " ".join(parts)
    lesson = Lesson(text, settings=Settings(min_frequency=1))
    if lesson.is_empty:
        return
    lesson.train()
    state = LessonState(lesson)
    for k in range(lesson.last_step + 1):
        state.go_to(k)
        assert state.ranked_pairs(limit) == _full_then_cut(state, limit)
