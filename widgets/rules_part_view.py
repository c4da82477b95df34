"""Where the tie rules part: one row per two tie rules, the first step where their merges differ.

It shows what it is given: a run's stage (with Cancel), the partings of a finished run (the step,
the pairs tied at the top there and their count, what each rule merges), or why there is nothing
to show. Choosing a row that holds the lesson's own rule asks for that step; the window sends it
to the session. Rows of two other rules say so: the lesson on screen never makes their merges.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from engine.algorithm.settings import Settings
from engine.lesson.rules_part import Parting
from engine.readable.display import for_settings

COLUMNS = ("Rules", "Step", "Tied at the top", "Merges")


def parting_cells(parting: Parting, settings: Settings) -> tuple[str, str, str, str]:
    """One row of the table, in words a student reads."""
    one, other = parting.rules
    rules = f"{one} / {other}"
    if parting.step is None or parting.chosen is None:
        return rules, "never", "no tie that matters", "the same merges to the end"
    shown = for_settings(settings)
    tied = ", ".join(shown.pair(p) for p in parting.tied)
    times = f"{parting.count} time{'s' if parting.count != 1 else ''}"
    return (rules, str(parting.step), f"{len(parting.tied)} pairs, {times} each: {tied}",
            f"{one}: {shown.pair(parting.chosen[0])}; {other}: {shown.pair(parting.chosen[1])}")


class RulesPartView(QWidget):
    cancel_requested = Signal()
    step_requested = Signal(int)  # the 1-based step where the lesson's rule parts from another

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("rulesPartView")
        self.verdict = QLabel("Choose Lesson > Where the tie rules part… to train this lesson under every tie rule.")
        self.verdict.setObjectName("panelHeading")
        self.verdict.setWordWrap(True)
        self.hint = QLabel()
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        # the rules and the step fit their words; the pairs share the rest and wrap at classroom size
        for column in range(len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents if column < 2
                                        else QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.cellClicked.connect(self._on_cell_clicked)
        self.table.cellActivated.connect(self._on_cell_clicked)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_requested)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict)
        layout.addWidget(self.hint)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self.steps: list[int | None] = []  # per row, the step a click asks for (None: not the lesson's rule)
        self.cancel_button.hide()
        self.table.hide()

    def show_running(self, stage: str) -> None:
        self._say_only(stage, cancellable=True)

    def show_cancelled(self) -> None:
        self.verdict.setText("Cancelled: the lesson is as it was. Choose Lesson > Where the tie rules part… to run it again.")
        self.cancel_button.hide()

    def show_nothing(self, reason: str) -> None:
        self._say_only(reason, cancellable=False)

    def _say_only(self, sentence: str, cancellable: bool) -> None:
        """One sentence and no table: a run going on (which Cancel stops) or none to show."""
        self.verdict.setText(sentence)
        self.hint.setText("")
        self._fill([])
        self.table.hide()
        self.cancel_button.setVisible(cancellable)

    def show_stale(self) -> None:
        """The lesson changed since the run: its rows are another lesson's steps, read but not followed."""
        if self.steps:
            self.steps = [None] * len(self.steps)
            self.hint.setText("The lesson has changed since: choose Lesson > Where the tie rules part… again for this one.")

    def show_partings(self, partings: Mapping[tuple[str, str], Parting], settings: Settings) -> None:
        """The partings of the lesson's corpus; rows with ``settings.tie_break`` lead to their step."""
        self.cancel_button.hide()
        rows = list(partings.values())
        apart = sum(p.step is not None for p in rows)
        own = settings.tie_break
        self.verdict.setText(f"Trained under every tie rule: {apart} of {len(rows)} pairs of rules part."
                             if apart else "Every tie rule makes the same merges on this lesson: it has no tie that matters.")
        self.hint.setText(f"Choose a row with this lesson's rule ({own}) to see that step on the tiles.")
        self._fill(rows, settings)
        self.table.show()

    def _fill(self, rows: list[Parting], settings: Settings | None = None) -> None:
        self.table.setRowCount(0)
        self.steps = []
        if settings is None:
            return
        self.table.setRowCount(len(rows))
        for r, parting in enumerate(rows):
            ours = settings.tie_break in parting.rules and parting.step is not None
            self.steps.append(parting.step if ours else None)
            for c, text in enumerate(parting_cells(parting, settings)):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
                item.setToolTip("Show this step on the tiles" if ours else
                                "The lesson on screen follows neither rule of this row" if parting.step is not None
                                else "")
                self.table.setItem(r, c, item)

    def _on_cell_clicked(self, row: int, _column: int) -> None:
        if 0 <= row < len(self.steps) and (step := self.steps[row]) is not None:
            self.step_requested.emit(step)
