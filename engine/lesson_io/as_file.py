"""A lesson as the record a lesson file holds, and back: the one place that knows both.

The lesson file (``engine.formats.lesson_file``) keeps what was typed, the settings, the step and
the quiz's progress; the lesson keeps where it came from. A lesson read from a tokenizer file has no
text to keep: its record holds none (and a save refuses it before it gets here).
"""

from __future__ import annotations

from typing import Any

from engine.formats.lesson_file import LessonFile
from engine.lesson.lesson import Lesson


def lesson_from_file(data: LessonFile) -> Lesson:
    """The untrained lesson a lesson file describes."""
    return Lesson(data.text, data.word_counts, data.settings, data.held_out)


def lesson_to_file(lesson: Lesson, step: int = 0, quiz: dict[str, Any] | None = None) -> LessonFile:
    """What a lesson file holds for ``lesson`` at ``step``, with the quiz's progress."""
    return LessonFile(lesson.text, lesson.word_counts, lesson.settings, step, lesson.held_out, quiz or {})
