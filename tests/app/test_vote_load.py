"""300 students vote from their own process in two rounds on loopback: every vote counted exactly
once, no request refused, each round within 10 s, and the GUI thread never held up 50 ms meanwhile
(the design's bound for a server on its own thread; figures over several runs are in the bench).

The machine's other programs can only add to the GUI thread's gaps, never take from them. So the
part of a gap the thread spent ready to run but given no CPU (Linux's scheduler statistics; where
there are none it counts as held up) is not the process's doing and is left out, and the bound is
asked of the best of a few runs: a design that holds the GUI thread up, by running the server
there, by a lock or by its garbage, fails every run. Every run's counts are checked.
"""

import pytest

from tests.app import vote_students
from tests.app.vote_load import run_class

pytestmark = pytest.mark.slow

GUI_GAP_BOUND_S = 0.050
RUNS = 5


def test_a_class_of_300_votes_twice_and_every_vote_counts_once(qtbot):
    held, raw = [], []
    for _ in range(RUNS):
        run = run_class(students=300, round_timeout_s=10.0)
        assert run.problems == []
        assert [t.round for t in run.tallies] == [1, 2]
        for tally, round_number in zip(run.tallies, (1, 2)):
            assert tally.voters == 300
            assert tally.counts == vote_students.expected(round_number, 300)
        assert run.notices > 0 and run.gaps
        held.append(max(g - q for g, q in zip(run.gaps, run.queued)))
        raw.append(max(run.gaps))
        if held[-1] < GUI_GAP_BOUND_S:
            break
    assert min(held) < GUI_GAP_BOUND_S, (f"the GUI thread held up in each run: {held} s "
                                         f"(with the waits for a CPU: {raw} s)")
