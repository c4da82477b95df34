"""File > Export handout: choose the merges to print, then where to save the PDF.

``HandoutDialog`` offers all merges, every n-th, or a typed list (``1, 4, 7-9``), and says how many
pages that makes before the teacher commits. ``add_handout_action(window, menu, before)`` puts the
menu entry in the window's File menu; ``export_handout(window, path, steps)`` does the work, asking only for
what it is not given (tests pass both).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractButton, QButtonGroup, QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QGridLayout, QLabel, QLineEdit, QMenu, QRadioButton,
    QSpinBox, QVBoxLayout,
)

from engine.errors import BpeLabError

# widgets.handout (the PDF's pages) is imported when a handout is asked for: the menu entry is all the
# window's start needs


class HandoutDialog(QDialog):
    def __init__(self, last_step: int, parent=None, vote_rounds: int = 0):
        super().__init__(parent)
        self.setWindowTitle("Export handout")
        self.last_step = last_step
        self.all_button = QRadioButton(f"Every merge (1 to {last_step})")
        self.every_button = QRadioButton("Every")
        self.every = QSpinBox()
        self.every.setRange(1, max(1, last_step))
        self.every.setValue(max(1, last_step // 10))
        # "every 1 merge", "every 3 merges": the suffix agrees with the number in the box
        self.every.valueChanged.connect(lambda n: self.every.setSuffix(" merge" if n == 1 else " merges"))
        self.every.setSuffix(" merge" if self.every.value() == 1 else " merges")
        self.list_button = QRadioButton("These merges:")
        self.list = QLineEdit()
        self.list.setPlaceholderText("for example 1, 4, 7-9")
        group = QButtonGroup(self)
        for b in (self.all_button, self.every_button, self.list_button):
            group.addButton(b)
        self.all_button.setChecked(True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        # offered once a class vote has results: they close the handout
        self.votes_box = QCheckBox(f"Add the class vote's results ({vote_rounds:,} round{'s' if vote_rounds != 1 else ''})")
        self.votes_box.setChecked(vote_rounds > 0)
        self.votes_box.setVisible(vote_rounds > 0)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Choose file…")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        grid = QGridLayout()
        grid.addWidget(self.all_button, 0, 0, 1, 2)
        grid.addWidget(self.every_button, 1, 0)
        grid.addWidget(self.every, 1, 1)
        grid.addWidget(self.list_button, 2, 0)
        grid.addWidget(self.list, 2, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("One page per merge, then the growth chart and the final vocabulary."))
        layout.addLayout(grid)
        layout.addWidget(self.votes_box)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)

        group.buttonToggled.connect(lambda *_: self._update())
        self.every.valueChanged.connect(lambda _: self._choose(self.every_button))
        self.list.textEdited.connect(lambda _: self._choose(self.list_button))
        self._update()

    def _choose(self, button: QAbstractButton) -> None:
        """Editing a choice's own field picks that choice."""
        button.setChecked(True)
        self._update()

    def spec(self) -> str:
        if self.every_button.isChecked():
            return f"every {self.every.value()}"
        if self.list_button.isChecked():
            return self.list.text()
        return "all"

    def steps(self) -> list[int]:
        from widgets.handout import choose_steps  # PDF code: 250 ms, only once asked

        return choose_steps(self.spec(), self.last_step)

    def _update(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        try:
            steps = self.steps()
        except BpeLabError as exc:
            self.summary.setText(str(exc))
            ok.setEnabled(False)
            return
        self.summary.setText(f"{len(steps):,} merge page{'s' if len(steps) != 1 else ''} and the closing pages.")
        ok.setEnabled(bool(steps))


def export_handout(window, path: str | Path | None = None, steps: list[int] | None = None,
                   with_votes: bool = True) -> Path | None:
    """Write the handout of the window's lesson (with the class vote's results, when there are any
    and the teacher keeps them); None when the teacher cancels or it fails (after saying why)."""
    lesson = window.session.lesson
    if not lesson.trained or lesson.last_step == 0:
        window.tell("The lesson has no merges to put in a handout yet: give it a text with repeated pairs first.")
        return None
    if lesson.corpus is None:
        window.tell("This lesson is an imported tokenizer with no training corpus: a handout shows the words and "
                    "counts at each merge, so there is nothing to print. Train a lesson on a text of your own.")
        return None
    votes = window.classroom.class_vote.results()
    if steps is None:
        dialog = HandoutDialog(lesson.last_step, window, len({(r.qid, r.round) for r in votes}))
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        steps = dialog.steps()
        with_votes = dialog.votes_box.isChecked()
    if path is None:
        suggested = window.files.path.with_suffix(".pdf").name if window.files.path else "handout.pdf"
        path, _ = QFileDialog.getSaveFileName(window, "Export handout", suggested, "PDF documents (*.pdf)")
        if not path:
            return None
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        path = path.with_name(path.name + ".pdf")
    title = window.files.path.stem if window.files.path else "Untitled lesson"
    from widgets.handout import write_handout  # PDF code: 250 ms, only once asked

    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        write_handout(lesson, path, steps, title, votes if with_votes else ())
    except BpeLabError as exc:
        window.tell(f"The handout was not written: {exc}")
        return None
    finally:
        QGuiApplication.restoreOverrideCursor()
    return path


def add_handout_action(window, menu: QMenu, before: QAction) -> QAction:
    """File > Export handout…: put in ``menu`` (the window's File menu) just before ``before`` (Quit)."""
    action = QAction("Export &handout…", window)
    action.setStatusTip("A PDF of the lesson for print: chosen merges, the growth chart, the vocabulary")
    action.triggered.connect(lambda _checked=False: export_handout(window))
    menu.insertAction(before, action)
    menu.insertSeparator(before)
    return action
