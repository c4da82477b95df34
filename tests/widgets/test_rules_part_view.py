"""The where-the-rules-part view: a row per two rules, in words, and which rows lead to a step."""

from __future__ import annotations

from engine.algorithm.settings import Settings
from engine.lesson.rules_part import Parting
from widgets.rules_part_view import RulesPartView, parting_cells

PARTED = Parting(("first", "hf"), 2, 9, (("es", "t"), ("t", "</w>")), (("es", "t"), ("t", "</w>")))
OTHERS = Parting(("greatest", "last"), 7, 6, (("n", "e"), ("e", "w")), (("n", "e"), ("e", "w")))
NEVER = Parting(("smallest", "last"), None)


def test_a_parting_reads_as_its_step_the_tie_and_each_rules_merge():
    assert parting_cells(PARTED, Settings()) == (
        "first / hf", "2", "2 pairs, 9 times each: es + t, t + </w>", "first: es + t; hf: t + </w>")
    assert parting_cells(NEVER, Settings())[1] == "never"


def test_only_a_row_with_the_lessons_rule_asks_for_its_step(qtbot):
    view = RulesPartView()
    qtbot.addWidget(view)
    view.show_partings({p.rules: p for p in (PARTED, OTHERS, NEVER)}, Settings(tie_break="first"))
    asked = []
    view.step_requested.connect(asked.append)
    for row in range(3):
        view.table.cellClicked.emit(row, 0)
    assert asked == [2]
    assert "2 of 3 pairs of rules part" in view.verdict.text()


def test_a_run_shows_its_stage_and_cancel_then_the_table(qtbot):
    view = RulesPartView()
    qtbot.addWidget(view)
    view.show_running("Training…")
    assert view.cancel_button.isVisibleTo(view) and not view.table.isVisibleTo(view)
    view.show_partings({PARTED.rules: PARTED}, Settings())
    assert not view.cancel_button.isVisibleTo(view) and view.table.isVisibleTo(view)
