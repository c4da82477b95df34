"""Tiles side by side stay apart in colour, for normal vision and for the two common kinds of
colour blindness, measured with CIEDE2000 on the tiles of real lessons."""

from __future__ import annotations

import itertools

import pytest

from engine.display import MARKER, PARTIAL, SPECIAL, UNKNOWN, for_settings
from engine.lesson import Lesson
from resources.presets import preset
from tests.widgets.colour_difference import VISIONS, difference
from widgets.colors import TOKEN_FILLS, look_of

APART = 12.0  # CIEDE2000: two tiles clearly differ at a glance (2 is a just-noticeable difference)
KINDS_OF_THEIR_OWN = (SPECIAL, MARKER, UNKNOWN, PARTIAL)


def test_the_difference_measure_matches_sharmas_reference_pairs():
    from tests.widgets.colour_difference import ciede2000

    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


@pytest.mark.parametrize("vision", VISIONS)
def test_every_two_fills_are_apart_in_every_vision(vision):
    for a, b in itertools.combinations(TOKEN_FILLS, 2):
        assert difference(a, b, vision) >= APART, (a, b, vision)


def adjacent_fills(key: str) -> list[tuple[str, str]]:
    """The fills of every two ordinary tiles side by side, at every step of a preset's lesson."""
    p = preset(key)
    lesson = Lesson(p.text(), p.word_counts, p.settings).train()
    tokenizer, display = lesson.tokenizer, for_settings(lesson.settings)
    pairs = []
    for k in range(lesson.history.last_step + 1):
        for tokens in lesson.history.tokens_at(k):
            looks = [(display.kind(t), look_of(display.kind(t), tokenizer.token_to_id(t), t).fill) for t in tokens]
            pairs += [(a[1], b[1]) for a, b in zip(looks, looks[1:])
                      if a[0] not in KINDS_OF_THEIR_OWN and b[0] not in KINDS_OF_THEIR_OWN]
    return pairs


LESSONS = ["classic", "tea", "paragraph", "languages", "code"]


def close_share(key: str) -> float:
    """The share of neighbouring tiles that look alike (closer than APART) to someone: normal
    vision, protanopia or deuteranopia."""
    pairs = adjacent_fills(key)
    close = [(a, b) for a, b in pairs if min(difference(a, b, v) for v in VISIONS) < APART]
    return len(close) / len(pairs)


def test_neighbouring_tiles_in_real_lessons_are_apart_for_every_vision():
    # only tokens whose ids are a multiple of seven apart share a fill; every other two are apart.
    # Tol's eight fills, hashed from the id, left 18% to 25% of neighbours this close in each lesson
    # (21% on average): e and w, est and n
    shares = {key: close_share(key) for key in LESSONS}
    assert max(shares.values()) < 0.19, shares
    assert sum(shares.values()) / len(shares) < 0.12, shares
    assert shares["tea"] == 0.0
