"""Lesson > Where the tie rules part…: the lesson's corpus trained under every tie rule, off the GUI thread.

The window's ``LatestRun`` of ``parting`` runs ``engine.lesson.rules_part.where_rules_part`` on the
lesson's corpus (a frozen record, safe to read from another thread) and ends with ``done(Parted)``,
``failed(reason)`` or ``cancelled()``. ``show_rules_part(window)`` opens the view beside the window and wires it.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QVBoxLayout, QWidget

from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import Settings
from engine.errors import internal_detail, is_bad_input, one_line
from engine.lesson.lesson import Lesson
from engine.lesson.rules_part import Parting
from widgets.latest_run import LatestRun
from widgets.rules_part_view import RulesPartView

STAGE = "Training the lesson under every tie rule…"
NOTHING_TO_TRAIN = ("The lesson on screen has no training text to train under each rule: "
                    "type or open a text first, then choose Lesson > Where the tie rules part… again.")


@dataclass(frozen=True, slots=True)
class Parted:
    """A finished run and the settings that say its pairs (the lesson's rule among them)."""

    partings: dict[tuple[str, str], Parting]
    settings: Settings


def parting(corpus: Corpus) -> Generator[str, None, Parted]:
    from engine.lesson.rules_part import where_rules_part

    yield STAGE
    return Parted(where_rules_part(corpus), corpus.settings)


def failure(error: BaseException) -> str:
    if is_bad_input(error):
        return one_line(str(error))
    return f"an internal error of BPE Lab ({internal_detail(error)}): the lesson is as it was"


class RulesPartWindow(QDialog):
    """The view in a window of its own, kept open beside the lesson while the teacher steps."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Where the tie rules part")
        self.view = RulesPartView()
        self.run = LatestRun(parting, failure, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.view.cancel_requested.connect(self.run.cancel)
        self.run.progressed.connect(self.view.show_running)
        self.run.done.connect(lambda done: self.view.show_partings(done.partings, done.settings))
        self.run.failed.connect(lambda reason: self.view.show_nothing(f"This lesson cannot be trained under each rule: {reason}"))
        self.run.cancelled.connect(self.view.show_cancelled)
        self.rejected.connect(lambda: self.run.cancel(quietly=True))

    def start(self, lesson: Lesson) -> None:
        if lesson.corpus is None or lesson.corpus.is_empty:  # a tokenizer read from a file keeps no corpus
            self.run.cancel(quietly=True)
            self.view.show_nothing(NOTHING_TO_TRAIN)
            return
        self.view.show_running("Starting…")
        self.run.start(lesson.corpus)


def show_rules_part(window) -> RulesPartWindow:
    """Lesson > Where the tie rules part…: the view for the lesson on screen, one per window."""
    dialog = getattr(window, "rules_part_window", None)
    if dialog is None:
        dialog = window.rules_part_window = RulesPartWindow(window)
        dialog.setWindowModality(Qt.WindowModality.NonModal)

        def go_to(step: int) -> None:
            # the state before the parting merge: the tiles frame the lesson's merge as the next one
            window.session.request_step(step - 1)
            window.show_view("Tiles")

        dialog.view.step_requested.connect(go_to)
        window.session.lesson_changed.connect(lambda _lesson: dialog.view.show_stale())
    dialog.start(window.session.lesson)
    # as wide as the window allows: at classroom size the tied pairs need the room to be read
    dialog.resize(min(window.width(), 1200), max(window.height() * 3 // 5, 360))
    dialog.show()
    dialog.raise_()
    return dialog
