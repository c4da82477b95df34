"""Undo for lesson edits: every change of corpus, mode, settings or preset is one command.

A command holds the lesson source before and after (frozen ``LessonFile`` records), so undoing
retrains the old source; the worker makes that as cheap as the first time.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtGui import QUndoCommand

from engine.formats.lesson_file import LessonFile


class ChangeLesson(QUndoCommand):
    def __init__(self, apply: Callable[[LessonFile], None], before: LessonFile, after: LessonFile, text: str):
        super().__init__(text)
        self.apply = apply
        self.before = before
        self.after = after

    def redo(self) -> None:
        self.apply(self.after)

    def undo(self) -> None:
        self.apply(self.before)
