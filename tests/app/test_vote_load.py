"""300 students vote from their own process in two rounds on loopback: every vote counted exactly
once, no request refused, each round within 10 s, and the GUI thread never held up 50 ms meanwhile
(the design's bound for a server on its own thread; figures over several runs are in the bench).

Other programs on a shared machine can only add to the GUI thread's gaps, never take from them, so
the bound is asked of the best of a few runs: a design that stalls the GUI thread fails every run.
Every run's counts are checked.
"""

import pytest

from tests.app import vote_students
from tests.app.vote_load import run_class

pytestmark = pytest.mark.slow

GUI_GAP_BOUND_S = 0.050
RUNS = 5


def test_a_class_of_300_votes_twice_and_every_vote_counts_once(qtbot):
    longest = []
    for _ in range(RUNS):
        run = run_class(students=300, round_timeout_s=10.0)
        assert run.problems == []
        assert [t.round for t in run.tallies] == [1, 2]
        for tally, round_number in zip(run.tallies, (1, 2)):
            assert tally.voters == 300
            assert tally.counts == vote_students.expected(round_number, 300)
        assert run.notices > 0 and run.gaps
        longest.append(max(run.gaps))
        if longest[-1] < GUI_GAP_BOUND_S:
            break
    assert min(longest) < GUI_GAP_BOUND_S, f"the GUI thread's longest wait in each run: {longest} s"
