"""The merge film on a hand-driven clock: no widget, no timer, no waiting."""

from __future__ import annotations

import pytest

from engine.lesson.lesson import Lesson
from widgets.tiles.animation import FUSE_AT, MergeFilm, Tick

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


@pytest.fixture(scope="module")
def steps():
    return Lesson(CLASSIC, word_counts=True).train().steps


@pytest.fixture
def events():
    return []


@pytest.fixture
def film(events):
    film = MergeFilm(on_start=lambda: events.append("start"), on_end=lambda: events.append("end"))
    film.set_merge_duration(1000)
    return film


def test_a_merge_plays_to_its_end(film, events, steps):
    t = film.move(0, 1, steps, now=5000)
    assert t is film.transition and t.step is steps[0] and t.forward and t.progress == 0.0
    assert events == ["start"]
    assert film.advance(5250) is Tick.MOVED
    assert 0 < t.progress < FUSE_AT and not t.fused
    assert t.tokens_shown == steps[0].tokens_before
    assert film.advance(5000 + 1000 * FUSE_AT + 1) is Tick.TURNED  # the pair fuses: the total follows
    assert t.fused and t.tokens_shown == steps[0].tokens_after
    assert film.advance(5900) is Tick.MOVED
    assert film.advance(6000) is Tick.ENDED
    assert not film.running and events == ["start", "end"]
    assert film.advance(6100) is Tick.STILL  # nothing left to move: the clock may stop


def test_a_step_back_plays_the_same_merge_as_a_split(film, steps):
    t = film.move(3, 2, steps, now=0)
    assert t.step is steps[2] and not t.forward and t.progress == 1.0 and t.fused
    film.advance(500)
    assert t.progress == pytest.approx(0.5)
    assert film.advance(1000) is Tick.ENDED


def test_a_step_asked_for_mid_film_ends_the_running_one_first(film, events, steps):
    first = film.move(0, 1, steps, now=0)
    film.advance(300)
    second = film.move(1, 2, steps, now=300)
    assert events == ["start", "end", "start"]
    # the new film starts from its own beginning, not from where the cut one stood
    assert second is not first and second.step is steps[1] and second.progress == 0.0
    assert film.advance(300 + 100) is Tick.MOVED and second.progress == pytest.approx(0.1)
    assert film.advance(300 + 1000) is Tick.ENDED


def test_a_jump_mid_film_shows_at_once(film, events, steps):
    film.move(0, 1, steps, now=0)
    film.advance(300)
    assert film.move(1, 7, steps, now=300) is None
    assert not film.running and events == ["start", "end"]
    assert film.move(7, 7, steps, now=400) is None  # not a move at all
    assert events == ["start", "end"]


def test_reduce_motion_skips_the_frames(film, events, steps):
    film.move(0, 1, steps, now=0)
    film.set_reduce_motion(True)  # turning it on ends the running film
    assert not film.running and events == ["start", "end"]
    assert film.move(1, 2, steps, now=10) is None
    assert film.move(2, 1, steps, now=20) is None
    assert events == ["start", "end"]
    film.set_reduce_motion(False)
    assert film.move(1, 2, steps, now=30) is not None


def test_no_film_where_the_view_may_not_move(film, events, steps):
    # the desktop asks for reduced motion, or the view is hidden
    assert film.move(0, 1, steps, now=0, motion=False) is None
    assert events == []


def test_counting_sweeps_along_the_longest_row_before_the_merge(events, steps):
    film = MergeFilm(longest_row=lambda step: 7, on_end=lambda: events.append("end"))
    film.set_merge_duration(1000)
    film.sweep_ms = 100
    film.show_counting = True
    t = film.move(0, 1, steps, now=0)
    assert t.sweep_positions == 6 and t.sweeping and film.length() == 6 * 100 + 1000
    film.advance(250)
    assert t.sweep == pytest.approx(2.5) and t.tokens_shown == steps[0].tokens_before
    assert film.advance(601) is Tick.TURNED  # counted: the merge itself begins
    assert not t.sweeping and t.progress == pytest.approx(0.001)
    assert film.advance(1600) is Tick.ENDED and events == ["end"]
    # a split shows no counting: nothing is counted to undo a merge
    assert film.move(1, 0, steps, now=2000).sweep_positions == 0


def test_seek_holds_the_film_until_it_is_finished(film, events, steps):
    t = film.move(0, 1, steps, now=0)
    film.seek(0.25)
    assert t.progress == pytest.approx(0.25)
    assert film.advance(900) is Tick.STILL and t.progress == pytest.approx(0.25)  # the clock no longer moves it
    film.seek(1.0)
    assert film.running and t.progress == pytest.approx(1.0)  # held at the last moment, not ended
    assert film.stop() and events == ["start", "end"]
    assert not film.stop()  # nothing left to stop
    assert film.seek(0.5) is Tick.STILL
