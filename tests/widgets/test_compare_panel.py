"""The compare panel: a report in words a student reads, and the parting step asked for."""

from __future__ import annotations

from engine.algorithm.settings import Settings
from engine.compare.mistakes import Training
from engine.compare.walk import compare
from widgets.compare_panel import ComparePanel

SETTINGS = Settings(end_of_word=None)
TIED = "xy xy xy cd cd ab ab"


def _report(text, pairs):
    return compare(Training(text, False, SETTINGS), pairs, "mine.txt", "merges.txt")


def test_a_tie_broken_another_way_names_the_rule_the_pairs_and_asks_for_its_step(qtbot):
    panel = ComparePanel()
    qtbot.addWidget(panel)
    panel.show_report(_report(TIED, [("x", "y"), ("a", "b"), ("c", "d")]), SETTINGS)
    assert panel.verdict.text().startswith("Your list parts from the lesson at step 2")
    assert "breaking ties by rule hf" in panel.verdict.text()
    assert "Tied at the top: c + d, a + b." == panel.ties.text()
    with qtbot.waitSignal(panel.step_requested) as asked:
        panel.show_button.click()
    assert asked.args == [2]


def test_later_differences_are_listed_with_their_verdicts(qtbot):
    panel = ComparePanel()
    qtbot.addWidget(panel)
    # two ties at 2, each broken another way: c + d waits while a + b, then e + f, go first
    report = _report("xy xy xy cd cd ab ab ef ef", [("x", "y"), ("a", "b"), ("e", "f"), ("c", "d")])
    panel.show_report(report, SETTINGS)
    later = [panel.later.item(i).text() for i in range(panel.later.count())]
    assert later == ["step 3: your list merges e + f where the lesson would merge c + d: "
                     "same choice under rule greatest or last"]
    assert not panel.later.isHidden()


def test_an_identical_list_says_so_and_offers_no_step(qtbot):
    panel = ComparePanel()
    qtbot.addWidget(panel)
    panel.show_report(_report(TIED, [("x", "y"), ("c", "d"), ("a", "b")]), SETTINGS)
    assert "identical" in panel.verdict.text() and panel.show_button.isHidden() and panel.step is None


def test_a_failure_shows_the_reason_and_a_stale_report_no_longer_offers_its_step(qtbot):
    panel = ComparePanel()
    qtbot.addWidget(panel)
    panel.show_report(_report(TIED, [("x", "y"), ("a", "b")]), SETTINGS)
    panel.show_stale()
    assert panel.show_button.isHidden() and "compare again" in panel.source.text()
    panel.show_failure("bad.txt", "bad.txt, line 1: expected two tokens")
    assert panel.verdict.text() == "This file cannot be compared: bad.txt, line 1: expected two tokens"
