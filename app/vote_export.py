"""File > Export class vote results…: every finished round of the window's class votes as CSV.

One row per option or answer of each round (``engine.vote.results``: the question, its id, the
round, the option, its count, whether it is right): counts only, no voter and no address, so the
file can be shared. The entry is enabled once a round has been closed, and stays so until the
window closes, through leaving classroom mode.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

from engine.errors import BpeLabError
from engine.vote.results import write_results


def export_vote_results(window, path: str | Path | None = None) -> Path | None:
    """Write the results; None when there are none, the teacher cancels, or it fails (after saying why)."""
    rows = window.classroom.class_vote.results()
    if not rows:
        window.tell("No class vote has been revealed yet: start one in classroom mode (V) and reveal a question.")
        return None
    if path is None:
        path, _ = QFileDialog.getSaveFileName(window, "Export class vote results", "class-vote.csv", "CSV files (*.csv)")
        if not path:
            return None
    path = Path(path)
    if path.suffix.lower() != ".csv":
        path = path.with_name(path.name + ".csv")
    try:
        write_results(path, rows)
    except BpeLabError as exc:
        window.tell(f"The class vote results were not written: {exc}")
        return None
    return path


def add_vote_export_action(window, class_vote, before: QAction) -> QAction:
    """The File menu's entry, just before ``before``; enabled while there are results to write."""
    action = QAction("Export class &vote results…", window)
    action.setStatusTip("The class votes' counts per question, round and answer as CSV (no personal data)")
    action.triggered.connect(lambda _checked=False: export_vote_results(window))
    window.file_menu.insertAction(before, action)
    action.setEnabled(False)
    class_vote.results_changed.connect(lambda: action.setEnabled(bool(class_vote.results())))
    return action
