"""A long word (a text with no spaces, or split none) is kept in numpy arrays and moved where its
merges were made; everything the lesson state answers about it must equal the plain path's answer
(every word kept as a list of strings) and the history index's, at every step, forward, back and
by jumps, under both tie rules."""

import random

import pytest

import engine.lesson.lesson
import engine.lesson.long_word
from engine.lesson.lesson import LONG_WORD, Lesson, LessonState
from engine.lesson.long_word import LongWord, TokenIds
from engine.algorithm.settings import Settings

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow


def long_text(seed: int, length: int = 1500, letters: str = "abcaé") -> str:
    rng = random.Random(seed)
    # few letters and a repeated run (aaaa) so merges overlap and tie inside one word
    return "".join(rng.choice(letters) for _ in range(length)) + "aaaaaaa"


def plain_state(lesson: Lesson, monkeypatch) -> LessonState:
    """The state with every word kept as a list of strings, the path short words take."""
    with monkeypatch.context() as patch:
        patch.setattr(engine.lesson.lesson, "LONG_WORD", 10 ** 12)
        state = LessonState(lesson)
    assert not state._long
    return state


def same(state: LessonState, plain: LessonState, lesson: Lesson, k: int) -> None:
    history = lesson.history
    assert state.step == plain.step == k
    for w in range(len(lesson.corpus)):
        assert state.tokens(w) == plain.tokens(w) == history.word_tokens(w, k)
        assert state.token_count(w) == history.token_count(w, k)
        assert state.tokens_head(w, 40) == plain.tokens_head(w, 40) == history.word_head(w, k, 40)
    table = history.pairs_at(k)
    assert state.pair_counts() == plain.pair_counts() == table.counts
    for pair in table.counts:
        assert state.pair_sources(pair) == plain.pair_sources(pair) == table.sources(pair)
    # the ranking compares first places: the whole ranking and the top few found from candidates
    assert state.ranked_pairs() == plain.ranked_pairs()
    for limit in (1, 5, 40):
        assert state.ranked_pairs(limit) == plain.ranked_pairs(limit)
    nxt = history.next_merge(k)
    if nxt is not None:
        assert state.ranked_pairs(1)[0][0] == nxt.pair


def walk(lesson: Lesson, monkeypatch, seed: int) -> None:
    """Every step forward, every step back, then random jumps, checked against the plain path."""
    state, plain = LessonState(lesson), plain_state(lesson, monkeypatch)
    assert state._long
    last = lesson.last_step
    rng = random.Random(seed)
    order = list(range(1, last + 1)) + list(range(last - 1, -1, -1)) + [rng.randint(0, last) for _ in range(12)]
    for k in order + [last, 0, last // 2]:
        change, expected = state.go_to(k), plain.go_to(k)
        assert change == expected
        same(state, plain, lesson, k)


SETTINGS = [
    Settings(split="none", merges=40),
    Settings(split="none", merges=40, tie_break="hf"),
    Settings(split="whitespace", merges=40),  # long words with the </w> marker, and short ones
    Settings(split="none", units="bytes", merges=40),
    Settings(split="none", end_of_word="</w>", merges=40, tie_break="hf"),
]


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("seed", [1, 2])
def test_long_words_give_what_the_plain_path_gives_at_every_step(settings, seed, monkeypatch):
    if settings.split == "whitespace":
        text = f"{long_text(seed)} ab ab abc {long_text(seed + 10, 1200, 'abé')} ab"
    else:
        text = long_text(seed, letters="abcaé" if seed == 1 else "ab")
    lesson = Lesson(text, False, settings).train()
    assert lesson.history.token_count(0, 0) >= LONG_WORD
    walk(lesson, monkeypatch, seed)


@pytest.mark.parametrize("settings", SETTINGS[:2])
@pytest.mark.parametrize("replayed, place_cost", [(3, 8), (10 ** 6, 0), (10 ** 6, 10 ** 6)])
def test_moves_by_rebuilding_recounting_or_place_by_place_agree(settings, replayed, place_cost, monkeypatch):
    """A jump across many steps rebuilds the word, one across many places counts every pair again,
    and one of few places counts the pairs around them: each the same state."""
    monkeypatch.setattr(engine.lesson.long_word, "REPLAYED_STEPS", replayed)
    monkeypatch.setattr(engine.lesson.long_word, "PLACE_COST", place_cost)
    lesson = Lesson(long_text(5), False, settings).train()
    walk(lesson, monkeypatch, 5)


def test_a_state_opened_at_a_step_holds_what_stepping_there_gives(monkeypatch):
    lesson = Lesson(long_text(3, 2500), False, Settings(split="none", merges=30)).train()
    plain = plain_state(lesson, monkeypatch)
    for k in (0, 7, 30):
        plain.go_to(k)
        same(LessonState(lesson, k), plain, lesson, k)


def test_the_head_of_a_long_word_is_the_tokens_starting_within_it():
    lesson = Lesson("ab" * 800, False, Settings(split="none", end_of_word=None, merges=2)).train()
    state = LessonState(lesson, 2)
    assert state.tokens_head(0, 9) == ["abab", "abab", "abab"]
    assert state.token_count(0) == 400


def test_a_steps_places_in_a_word_below_a_limit_are_its_first_places():
    lesson = Lesson(long_text(4, 3000), False, Settings(split="none", merges=30)).train()
    history = lesson.history
    for step in lesson.steps:
        places = step.offsets_in(0)
        assert places
        for limit in (0, 1, 50, 700, 10 ** 6):
            assert history.merge_offsets(0, step.step, limit) == [p for p in places if p < limit]
    assert history.merge_offsets(0, 0, 100) == []


def test_first_places_are_found_past_the_first_slices_read():
    # pairs that first start tens of thousands of symbols in, past slices that hold none of them
    text = "ab" * 12000 + "cdcd" * 5000 + "e"
    lesson = Lesson(text, False, Settings(split="none", merges=2)).train()
    history = lesson.history
    table = TokenIds(history)
    for k in range(lesson.last_step + 1):
        tokens = history.word_tokens(0, k)
        starts = [0]
        for token in tokens[:-1]:
            starts.append(starts[-1] + len(token))
        first: dict[tuple[str, str], int] = {}
        for at, pair in zip(starts, zip(tokens, tokens[1:])):
            first.setdefault(pair, at)
        word = LongWord(table, history, 0, k)
        wanted = {table.code(pair): at for pair, at in first.items() if not set("ab") & set(pair[0] + pair[1])}
        assert min(wanted.values()) > 20000
        assert word.first_places(set(wanted)) == wanted
        assert word.all_first_places() == {table.code(pair): at for pair, at in first.items()}
