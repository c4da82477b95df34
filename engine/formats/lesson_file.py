"""The lesson file (``.bpelab``): versioned JSON with a schema check on load.

    {"format": "bpe-lab-lesson", "version": 1,
     "corpus": {"text": "low 5\\n...", "word_counts": true},
     "settings": {...}, "step": 3, "held_out": "...", "quiz": {...}}

``quiz`` is the quiz panel's own record of progress; the lesson file only carries it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from engine.corpus import Corpus
from engine.errors import BpeLabError
from engine.files import read_json, write_atomic
from engine.settings import Settings

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
    quiz: dict = field(default_factory=dict)

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


def save_lesson(lesson: LessonFile, path: str | os.PathLike) -> None:
    write_atomic(path, lesson.to_json())


def lesson_from_data(data, source: str) -> LessonFile:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BpeLabError(f"{source} is not a BPE Lab lesson (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if not isinstance(version, int):
        raise BpeLabError(f"{source}: \"version\" is missing or not a number")
    if version > VERSION:
        raise BpeLabError(
            f"{source} was saved by a newer BPE Lab (lesson version {version}; this one reads up to "
            f"{VERSION}): update BPE Lab to open it"
        )
    if version < 1:
        raise BpeLabError(f"{source}: unknown lesson version {version}")
    corpus = data.get("corpus")
    if not isinstance(corpus, dict) or not isinstance(corpus.get("text"), str):
        raise BpeLabError(f"{source}: \"corpus\" must hold a \"text\" string")
    word_counts = corpus.get("word_counts", False)
    if not isinstance(word_counts, bool):
        raise BpeLabError(f"{source}: \"corpus.word_counts\" must be true or false")
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        raise BpeLabError(f"{source}: \"settings\" must be an object")
    try:
        settings = Settings.from_dict(settings)
    except BpeLabError as exc:
        raise BpeLabError(f"{source}: {exc}") from None
    step = data.get("step", 0)
    if not isinstance(step, int) or isinstance(step, bool) or step < 0:
        raise BpeLabError(f"{source}: \"step\" must be a whole number, 0 or more")
    held_out = data.get("held_out", "")
    if not isinstance(held_out, str):
        raise BpeLabError(f"{source}: \"held_out\" must be a string")
    quiz = data.get("quiz", {})
    if not isinstance(quiz, dict):
        raise BpeLabError(f"{source}: \"quiz\" must be an object")
    return LessonFile(corpus["text"], word_counts, settings, step, held_out, quiz)


def load_lesson(path: str | os.PathLike) -> LessonFile:
    return lesson_from_data(read_json(path), str(path))
