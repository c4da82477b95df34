"""The compare panel: someone's merge list beside the lesson, in words a student reads.

It shows what it is given: a run's stage (with Cancel), a finished report (the one-sentence
diagnosis, the first parting step with both lists' pairs and counts, the ties, the later
differences each as "same choice under rule X" or "real difference"), or why a file could not be
read. "Show on the tiles" asks for the parting step; the window sends it to the session.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from engine.algorithm.settings import Settings
from engine.compare.report import summary
from engine.compare.walk import Difference, Report
from engine.readable.display import for_settings

Pair = tuple[str, str]


def _pair(settings: Settings, pair: Pair | None) -> str:
    return "nothing" if pair is None else for_settings(settings).pair(pair)


def _count(count: int | None) -> str:
    return "" if count is None else f" ({count} time{'s' if count != 1 else ''})"


def later_line(settings: Settings, d: Difference) -> str:
    """One later difference: the step, what each list merges, and the verdict."""
    if d.theirs is None:
        return f"step {d.step}: your list stops; the lesson would merge {_pair(settings, d.ours)}"
    if d.ours is None:
        return f"step {d.step}: your list merges {_pair(settings, d.theirs)}: {d.says}"
    return (f"step {d.step}: your list merges {_pair(settings, d.theirs)} where the lesson would merge "
            f"{_pair(settings, d.ours)}: {d.says}")


class ComparePanel(QWidget):
    cancel_requested = Signal()
    step_requested = Signal(int)  # the 1-based step where the lists part

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("comparePanel")
        self.source = QLabel()
        self.source.setObjectName("hint")
        self.source.setWordWrap(True)
        self.verdict = QLabel("Choose File > Compare merges… to walk a merge list beside this lesson.")
        self.verdict.setObjectName("panelHeading")
        self.verdict.setWordWrap(True)
        self.parting = QLabel()
        self.parting.setWordWrap(True)
        self.ties = QLabel()
        self.ties.setWordWrap(True)
        self.later_heading = QLabel("Later differences (your list followed on its own corpus):")
        self.later_heading.setWordWrap(True)
        self.later = QListWidget()
        # each verdict is read whole in a narrow dock, not scrolled to sideways
        self.later.setWordWrap(True)
        self.later.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.show_button = QPushButton("Show on the tiles")
        self.show_button.setToolTip("Move the lesson to the step where the lists part")
        self.show_button.clicked.connect(self._on_show_clicked)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.show_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        for label in (self.source, self.verdict, self.parting, self.ties, self.later_heading):
            layout.addWidget(label)
        layout.addWidget(self.later, 1)
        layout.addLayout(buttons)
        self.step: int | None = None
        self._show_details(False)
        self.cancel_button.hide()

    def _show_details(self, on: bool) -> None:
        for w in (self.parting, self.ties, self.later_heading, self.later, self.show_button):
            w.setVisible(on)

    def show_running(self, source: str, stage: str) -> None:
        self.step = None
        self.source.setText(source)
        self.verdict.setText(stage)
        self._show_details(False)
        self.cancel_button.show()

    def show_cancelled(self) -> None:
        self.verdict.setText("Compare cancelled: the lesson is as it was.")
        self.cancel_button.hide()

    def show_stale(self) -> None:
        """The lesson changed after the compare: its report is of the lesson before."""
        if self.step is not None or self.show_button.isVisibleTo(self):
            self.source.setText(self.source.text() + " · the lesson has changed since: compare again for this one")
        self.step = None
        self.show_button.hide()

    def show_failure(self, source: str, reason: str) -> None:
        self.step = None
        self.source.setText(source)
        self.verdict.setText(f"This file cannot be compared: {reason}")
        self._show_details(False)
        self.cancel_button.hide()

    def show_report(self, report: Report, settings: Settings) -> None:
        self.cancel_button.hide()
        what = f"{report.source} ({report.kind}, {report.their_merges} merges)" if report.kind else report.source
        self.source.setText(f"{what} against the lesson ({report.lesson_merges} merges, ties: {report.tie_rule})")
        self.verdict.setText(summary(report, settings))
        first = report.first
        self.later.clear()
        self._show_details(first is not None)
        if first is None:
            self.step = None
            return
        self.step = first.step
        self.parting.setText(f"Step {first.step}: the lesson merges {_pair(settings, first.ours)}{_count(first.our_count)}; "
                             f"your list merges {_pair(settings, first.theirs)}{_count(first.their_count)}.")
        tied = first.ties if len(first.ties) > 1 else ()
        self.ties.setText(f"Tied at the top: {', '.join(_pair(settings, p) for p in tied)}." if tied
                          else "No tie at this step.")
        later = report.differences[1:]
        self.later_heading.setVisible(bool(later))
        self.later.setVisible(bool(later))
        self.later.addItems([later_line(settings, d) for d in later])

    def _on_show_clicked(self) -> None:
        if self.step is not None:
            self.step_requested.emit(self.step)
