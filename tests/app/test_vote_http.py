"""The vote server's sliding-window limits and who is in the room, on a clock the test moves."""

from app.vote_http import REMEMBERED, Present, Recent


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_key_is_full_at_the_limit_within_the_window_and_free_once_it_has_passed():
    clock = Clock()
    wrong = Recent(5, 60.0, clock)
    for _ in range(4):
        wrong.add("10.0.0.7")
        clock.now += 1
    assert not wrong.full("10.0.0.7")
    wrong.add("10.0.0.7")
    assert wrong.full("10.0.0.7") and not wrong.full("10.0.0.8")
    clock.now += 56.5  # the first of the five is now more than a minute old
    assert not wrong.full("10.0.0.7")


def test_only_so_many_keys_are_remembered_the_oldest_forgotten_first():
    clock = Clock()
    votes = Recent(1, 1.0, clock)
    votes.add("first")
    for i in range(REMEMBERED):
        votes.add(f"voter {i}")
    assert len(votes._times) == REMEMBERED
    assert "first" not in votes._times and votes.full(f"voter {REMEMBERED - 1}")


def test_a_voter_heard_from_lately_or_listening_is_in_the_room_once():
    clock = Clock()
    room = Present(8.0, clock)
    room.heard("polls")
    room.heard("polls")
    room.stream_opened("listens")
    room.heard("listens")
    room.stream_opened("two tabs")
    room.stream_opened("two tabs")
    assert room.count() == 3
    clock.now += 8.5  # the poller has not asked for a while; the streams are still open
    assert room.count() == 2
    room.stream_closed("two tabs")
    assert room.count() == 2  # its other tab still listens
    room.stream_closed("two tabs")
    room.stream_closed("listens")
    assert room.count() == 2  # heard a moment ago, as they closed
    clock.now += 8.5
    assert room.count() == 0


def test_the_room_remembers_only_so_many_voters():
    clock = Clock()
    room = Present(8.0, clock)
    for i in range(REMEMBERED + 10):
        room.heard(f"voter {i}")
    assert room.count() == REMEMBERED
