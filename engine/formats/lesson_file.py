"""The lesson file (``.bpelab``): versioned JSON with a schema check on load.

    {"format": "bpe-lab-lesson", "version": 1,
     "corpus": {"text": "low 5\\n...", "word_counts": true},
     "settings": {...}, "step": 3, "held_out": "...", "quiz": {...}}

``quiz`` is the quiz panel's own record of progress; the lesson file only carries it.

A lesson holds what the user typed: word-count text with lines that are not yet ``word count``
is kept as it is, and only training it says which lines are wrong (as the corpus panel does while
typing). Every file ``save_lesson`` writes, ``load_lesson`` opens again with the same content.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from typing import Any

from engine.algorithm.corpus import Corpus
from engine.errors import BpeLabError
from engine.files.reading import MAX_LESSON_BYTES, megabytes, read_json
from engine.files.writing import write_atomic
from engine.formats.schema import MAX_COUNT, Fields, SchemaError
from engine.formats.settings_data import settings_from_data
from engine.algorithm.settings import Settings

FORMAT = "bpe-lab-lesson"
VERSION = 1
SUFFIX = ".bpelab"


@dataclass(frozen=True)
class LessonFile:
    """What a lesson file holds."""

    text: str
    word_counts: bool = False
    settings: Settings = field(default_factory=Settings)
    step: int = 0
    held_out: str = ""
    quiz: dict[str, Any] = field(default_factory=dict)

    def corpus(self) -> Corpus:
        if self.word_counts:
            return Corpus.from_word_counts(self.text, self.settings)
        return Corpus.from_text(self.text, self.settings)

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "corpus": {"text": self.text, "word_counts": self.word_counts},
            "settings": self.settings.to_dict(),
            "step": self.step,
            "held_out": self.held_out,
            "quiz": self.quiz,
        }
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


class LessonTooLargeError(BpeLabError):
    """The lesson's file would be larger than BPE Lab opens, so it is not written."""


def save_lesson(lesson: LessonFile, path: str | os.PathLike[str], private: bool = False,
                overwrite_read_only: bool = False) -> None:
    """Write the lesson; refused, before anything is written, when the file could not be opened
    again. ``private``: readable by its owner alone (unsaved work in the autosave).
    ``overwrite_read_only``: the user agreed to replace a read-only file."""
    data = lesson.to_json().encode("utf-8")
    if len(data) > MAX_LESSON_BYTES:
        raise LessonTooLargeError(
            f"the lesson would be a file of {megabytes(len(data))}, more than the {megabytes(MAX_LESSON_BYTES)} "
            "BPE Lab opens, so it was not written: train on a part of the text, or keep the text as a file of "
            "its own and open that"
        )
    write_atomic(path, data, private=private, overwrite_read_only=overwrite_read_only)


def lesson_from_data(data: object, source: str) -> LessonFile:
    """The lesson a parsed file describes, every key checked against the format.

    ``quiz`` is carried as the quiz panel wrote it; its reader (``engine.quiz.progress.read_progress``)
    checks it when the panel restores it.
    """
    f = Fields.of(data, source)
    if f.get("format", None) != FORMAT:
        raise SchemaError(f"{source} is not a BPE Lab lesson (no \"format\": \"{FORMAT}\")")
    version = f.whole("version", low=1, high=MAX_COUNT, must="must be a whole number, 1 or more")
    if version > VERSION:
        raise SchemaError(
            f"{source} was saved by a newer BPE Lab (lesson version {version}; this one reads up to "
            f"{VERSION}): update BPE Lab to open it"
        )
    corpus = f.fields("corpus")
    text = corpus.text("text", must="must hold the training text")
    word_counts = corpus.flag("word_counts", False)
    corpus.done()
    settings = settings_from_data(f.get("settings", {}), source)
    lesson = LessonFile(
        text=text,
        word_counts=word_counts,
        settings=settings,
        step=f.whole("step", 0, must="must be a whole number, 0 or more"),
        held_out=f.text("held_out", ""),
        quiz=f.fields("quiz", {}).data,
    )
    f.done()
    return lesson


def load_lesson(path: str | os.PathLike[str]) -> LessonFile:
    return lesson_from_data(read_json(path, MAX_LESSON_BYTES), str(path))
