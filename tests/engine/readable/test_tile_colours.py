"""A lesson's colouring: tokens side by side differ whenever a colour is free, a token keeps its
colour from step to step, and the colours are the tokenizer's ids'."""

from __future__ import annotations

import doctest
import itertools
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

import engine.readable.tile_colours as colouring_module
from engine.readable.tile_colours import (COLOURS, FILLED_KINDS, NEAR, Colouring, carry_colours, colour_every_token,
                                          colour_graph, colouring_of)
from engine.readable.display import for_settings
from engine.lesson_io.from_tokenizer import imported_lesson
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from resources.presets import preset

# few letters make ties, runs (aaaa) and rebuilt tokens (a+bc after ab+c) common, and still more
# symbols meet than there are colours; "é" is two bytes, "_" also a marker
texts = st.lists(st.text(alphabet="abcdefghij_é", min_size=1, max_size=9), min_size=1, max_size=25).map(" ".join)
lesson_settings = st.one_of(
    st.builds(Settings, split=st.sampled_from(["whitespace", "none"]), end_of_word=st.sampled_from(["auto", None, "_"]),
              min_frequency=st.integers(1, 2)),
    st.builds(Settings, split=st.sampled_from(["whitespace", "gpt2"]), units=st.just("bytes"),
              min_frequency=st.integers(1, 2)),
)


def trained(text: str, settings: Settings | None = None, word_counts: bool = False) -> Lesson:
    return Lesson(text, word_counts, settings or Settings()).train()


def filled(lesson: Lesson, token: str) -> bool:
    return for_settings(lesson.settings).kind(token) in FILLED_KINDS


def colour(lesson: Lesson, token: str) -> int:
    return colouring_of(lesson).colour(lesson.tokenizer.token_to_id(token))


def neighbours_when_made(lesson: Lesson, token: str) -> set[str]:
    """The other ordinary tokens beside ``token`` at the step that first made it."""
    step = lesson.history.made_by(token).step
    found = set()
    for tokens in lesson.history.tokens_at(step):
        for a, b in zip(tokens, tokens[1:]):
            for this, other in ((a, b), (b, a)):
                if this == token and other != token and filled(lesson, other):
                    found.add(other)
    return found


def near_any(c: int, taken: set[int]) -> bool:
    return any(c == d or (min(c, d), max(c, d)) in NEAR for d in taken)


def rebuilt(lesson: Lesson, token: str) -> bool:
    return sum(step.token == token for step in lesson.steps) > 1


def test_the_worked_example_holds():
    result = doctest.testmod(colouring_module)
    assert result.attempted and not result.failed


def test_the_classic_lesson_never_puts_one_colour_side_by_side():
    lesson = trained(preset("classic").text(), word_counts=True)
    for k in range(lesson.last_step + 1):
        for tokens in lesson.history.tokens_at(k):
            for a, b in zip(tokens, tokens[1:]):
                if a != b and filled(lesson, a) and filled(lesson, b):
                    assert colour(lesson, a) != colour(lesson, b), (k, a, b)


def test_a_merged_token_avoids_its_parts_where_a_colour_is_free():
    lesson = trained("low 5\nlower 2\nnewest 6\nwidest 3", word_counts=True)
    avoided = 0
    for step in lesson.steps:
        taken = {colour(lesson, t) for t in neighbours_when_made(lesson, step.token)}
        parts = {colour(lesson, t) for t in step.pair}
        # its neighbours come first: a colour clear of theirs and of the colours near theirs
        if any(not near_any(c, taken) and c not in parts for c in range(COLOURS)):
            assert colour(lesson, step.token) not in parts, step.token
            avoided += 1
    assert avoided >= len(lesson.steps) // 2


@hyp_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, lesson_settings)
def test_a_new_token_takes_a_colour_none_of_its_neighbours_has_when_one_is_free(text, settings):
    lesson = trained(text, settings)
    for step in lesson.steps:
        token = step.token
        if lesson.history.made_by(token) is not step or not filled(lesson, token):
            continue
        taken = {colour(lesson, t) for t in neighbours_when_made(lesson, token)}
        if len(taken) < COLOURS:
            assert colour(lesson, token) not in taken, token
        # and, where one is left, a colour the palette holds well apart from all of theirs
        if any(not near_any(c, taken) for c in range(COLOURS)):
            assert not near_any(colour(lesson, token), taken), token


@hyp_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, lesson_settings)
def test_neighbours_share_a_colour_only_where_every_colour_was_taken(text, settings):
    # merging only joins neighbours, so a pair of neighbours first meets when the newer is made
    lesson = trained(text, settings)
    history = lesson.history
    base = set(history.base)
    symbols = {t for tokens in history.tokens_at(0) for t in tokens if filled(lesson, t)}
    for k in range(lesson.last_step + 1):
        for tokens in history.tokens_at(k):
            for a, b in zip(tokens, tokens[1:]):
                if a == b or not (filled(lesson, a) and filled(lesson, b)) or colour(lesson, a) != colour(lesson, b):
                    continue
                if a in base and b in base:
                    assert len(symbols) > COLOURS, (a, b)
                    continue
                newer = max((a, b), key=lambda t: history.made_by(t).step if t not in base else 0)
                if rebuilt(lesson, newer):
                    continue
                assert len({colour(lesson, t) for t in neighbours_when_made(lesson, newer)}) == COLOURS, (k, a, b)


def test_a_token_keeps_its_colour_whatever_order_the_steps_are_asked_in():
    p = preset("paragraph")
    lesson = trained(p.text(), p.settings)
    ids = range(len(lesson.history.base) + lesson.last_step)
    forwards = [Colouring(lesson.history, for_settings(lesson.settings)).colour(i) for i in ids]
    backwards = Colouring(lesson.history, for_settings(lesson.settings))
    assert [backwards.colour(i) for i in reversed(ids)][::-1] == forwards
    # the same text trained again gets the same colours
    again = trained(p.text(), p.settings)
    assert [colouring_of(again).colour(i) for i in ids] == forwards


@pytest.mark.parametrize("key", ["paragraph", "code"])
def test_a_merge_made_all_at_once_colours_as_one_made_place_by_place(key, monkeypatch):
    p = preset(key)
    every, each = _colours_with(trained(p.text(), p.settings), monkeypatch, "_MANY_PLACES", (1, 10**9))
    assert every == each


@pytest.mark.parametrize("key", ["paragraph", "code", "languages"])
@pytest.mark.parametrize("units", ["chars", "bytes"])
def test_base_symbols_counted_all_at_once_colour_as_counted_one_by_one(key, units, monkeypatch):
    p = preset(key)
    lesson = trained(p.text(), replace(p.settings, units=units))
    every, each = _colours_with(lesson, monkeypatch, "_MANY_SYMBOLS", (0, 10**9))
    assert every == each
    assert len(set(every)) == COLOURS  # a real colouring, not one colour everywhere


class ColouringByPlaces(Colouring):
    """Reads each step's places word by word, as the colouring did before it took the trainer's positions."""

    def _positions(self, step):
        starts = self._laid_out()[0]
        return [starts[w] + offset for w, offset in step.places]


@hyp_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, lesson_settings)
def test_the_trainers_positions_colour_as_its_places_read_word_by_word(text, settings):
    lesson = trained(text, settings)
    if lesson.last_step:
        # what taking the positions as they are rests on: the trainer lays the words out as the colouring does
        assert lesson.steps[0].layout.word_start == list(itertools.accumulate(lesson.history.symbol_lengths(), initial=0))[:-1]
    ids = range(len(lesson.history.base) + lesson.last_step)
    display = for_settings(lesson.settings)
    by_positions, by_places = Colouring(lesson.history, display), ColouringByPlaces(lesson.history, display)
    assert [by_positions.colour(i) for i in ids] == [by_places.colour(i) for i in ids]


def _colours_with(lesson, monkeypatch, threshold: str, values) -> list[list]:
    """Every token's colour, once for each value of the colouring's ``threshold``."""
    ids = range(len(lesson.history.base) + lesson.last_step)
    found = []
    for value in values:
        monkeypatch.setattr(colouring_module, threshold, value)
        colouring = Colouring(lesson.history, for_settings(lesson.settings))
        found.append([colouring.colour(i) for i in ids])
    return found


def test_the_colours_follow_the_tokenizers_ids_at_every_step():
    for key in ("classic", "code", "languages"):
        p = preset(key)
        lesson = trained(p.text(), p.settings, p.word_counts)
        colouring = colouring_of(lesson)
        for k in (0, lesson.last_step // 2, lesson.last_step):
            tokenizer = lesson.tokenizer_at(k)
            for tokens in lesson.history.tokens_at(k):
                for token in tokens:
                    assert colouring.colour(tokenizer.token_to_id(token)) == colouring.colour_of(token), (key, k, token)


def test_the_colouring_is_made_once_per_training():
    lesson = trained("low lower lowest")
    assert colouring_of(lesson) is colouring_of(lesson)
    first = colouring_of(lesson)
    lesson.train()
    assert colouring_of(lesson) is not first


def test_colours_worked_out_in_advance_leave_nothing_for_a_view_to_wait_for(monkeypatch):
    lesson = trained(preset("paragraph").text())
    colour_every_token(lesson)

    def merge_again(self, step):
        raise AssertionError(f"step {step.step} worked out again")

    monkeypatch.setattr(Colouring, "_merge", merge_again)
    colouring = colouring_of(lesson)
    newest = lesson.tokenizer.token_to_id(lesson.steps[-1].token)
    assert 0 <= colouring.colour(newest) < COLOURS


def test_a_tokenizer_from_a_file_keeps_each_ids_place_round_the_palette():
    lesson = imported_lesson(trained("low lower lowest newest").tokenizer, "t.json", "bpelab")
    colouring = colouring_of(lesson)
    assert [colouring.colour(i) for i in range(20)] == [i % COLOURS for i in range(20)]


def test_a_graph_that_can_be_coloured_is_and_one_that_cannot_clashes_where_it_weighs_least():
    ring = {i: {(i - 1) % 9: 1, (i + 1) % 9: 1} for i in range(9)}
    colours = colour_graph(ring, list(range(9)))
    assert all(colours[i] != colours[(i + 1) % 9] for i in range(9))
    # eight symbols all meeting: one pair must share, and it is the pair that meets least
    clique = {a: {b: 1 if {a, b} == {3, 5} else 10 for b in range(8) if b != a} for a in range(8)}
    colours = colour_graph(clique, list(range(8)))
    same = [(a, b) for a, b in itertools.combinations(range(8), 2) if colours[a] == colours[b]]
    assert same == [(3, 5)]


# -- a lesson trained again keeps the colours of the one it replaces ------------------------------

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3"


def shown_colours(lesson: Lesson, k: int) -> dict[str, int]:
    """Every filled tile's colour at step k, by token."""
    return {t: colour(lesson, t) for tokens in lesson.history.tokens_at(k) for t in tokens if filled(lesson, t)}


@pytest.mark.parametrize("word", ["quiz 1", "fog 2", "brown 4"])
def test_an_unrelated_word_leaves_every_token_its_colour(word):
    before = trained(CLASSIC, word_counts=True)
    seen = {k: shown_colours(before, k) for k in range(before.last_step + 1)}
    after = trained(f"{CLASSIC}\n{word}", word_counts=True)
    alone = trained(f"{CLASSIC}\n{word}", word_counts=True)
    # coloured afresh, the new word's symbols shift the ids and with them some colours
    assert any(shown_colours(alone, k).get(t, c) != c for k, now in seen.items() for t, c in now.items())
    carry_colours(before, after)
    for k in range(min(before.last_step, after.last_step) + 1):
        now = shown_colours(after, k)
        assert {t: c for t, c in seen[k].items() if t in now} == {t: now[t] for t in seen[k] if t in now}


def test_a_colouring_made_before_the_handover_is_made_again_with_the_earlier_colours():
    # the training worker colours every token before the session hands the lesson over
    before = trained(CLASSIC, word_counts=True)
    seen = shown_colours(before, before.last_step)
    after = trained(f"{CLASSIC}\nquiz 1", word_counts=True)
    colour_every_token(after)
    carry_colours(before, after)
    now = shown_colours(after, before.last_step)
    assert all(now[t] == c for t, c in seen.items() if t in now)


def test_a_base_symbol_gives_up_its_colour_only_to_a_more_frequent_neighbour_that_kept_it():
    lesson = trained("aab 3\nc 1", Settings(end_of_word=None), word_counts=True)
    ids = lesson.tokenizer.token_to_id
    colouring = Colouring(lesson.history, for_settings(lesson.settings), {"a": 2, "b": 2, "c": 2})
    # a (6 times) keeps 2; b stands beside a and takes another; c stands beside nothing and keeps 2
    assert [colouring.colour(ids(t)) for t in ("a", "c")] == [2, 2]
    assert colouring.colour(ids("b")) != 2


def test_a_merged_token_keeps_its_colour_unless_another_would_stand_beside_fewer_of_its_own():
    lesson = trained("abc 3", Settings(end_of_word=None), word_counts=True)
    assert lesson.steps[0].token == "ab"
    ids = lesson.tokenizer.token_to_id
    display = for_settings(lesson.settings)
    base = {"a": 0, "b": 1, "c": 2}
    # c, beside ab, has 2: ab would stand beside its own colour, so it takes one free of c's
    taken = Colouring(lesson.history, display, {**base, "ab": 2})
    assert taken.colour(ids("ab")) not in (2, taken.colour(ids("c")))
    kept = Colouring(lesson.history, display, {**base, "ab": 5})
    assert kept.colour(ids("ab")) == 5


def test_colours_go_to_the_next_lesson_once_and_never_to_a_tokenizer_file():
    before = trained(CLASSIC, word_counts=True)
    shown_colours(before, before.last_step)
    after = trained(f"{CLASSIC}\nquiz 1", word_counts=True)
    carry_colours(before, after)
    other = trained("quiz 9", word_counts=True)
    shown_colours(other, other.last_step)
    carry_colours(other, after)  # going back to a lesson shown before keeps what it showed
    was, now = shown_colours(before, before.last_step), shown_colours(after, before.last_step)
    assert all(now[t] == c for t, c in was.items() if t in now)
    imported = imported_lesson(before.tokenizer, "t.json", "hf")
    carry_colours(before, imported)
    ids = imported.tokenizer.token_to_id
    assert colouring_of(imported).colour(ids("l")) == ids("l") % COLOURS
