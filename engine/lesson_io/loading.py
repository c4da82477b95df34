"""A tokenizer by path or built-in name, a lesson file trained to the tokenizer it stands for.

The readers (``engine.formats.load.read_source``) return what a file holds and train nothing; a
lesson file holds a corpus and settings, so here it is trained, then cut at the lesson's current
step: the tokenizer is the one the class is looking at, with the steps that made it.
"""

from __future__ import annotations

import os

from engine.algorithm.encoder import Encoder
from engine.errors import BpeLabError
from engine.formats.lesson_file import LessonFile
from engine.formats.load import Recognised, Source, read_source
from engine.algorithm.tokenizer import Tokenizer
from engine.algorithm.trainer import train


def load_source(name: str | os.PathLike[str], all_merges: bool = False,
                recognised: Recognised | None = None) -> Source:
    """A tokenizer by path or built-in name; a lesson is cut at its step unless ``all_merges``.

    ``recognised``: what ``recognise(name)`` said of the file, which is then not read again to tell.
    """
    found = read_source(name, recognised)
    if isinstance(found, LessonFile):
        return lesson_source(found, str(name), all_merges)
    return found


def load_any(name: str | os.PathLike[str]) -> Encoder:
    """The tokenizer a path (any supported format) or built-in name (``cl100k``) stands for."""
    return load_source(name).tokenizer


def lesson_source(lesson: LessonFile, path: str, all_merges: bool = False) -> Source:
    """The tokenizer a lesson file stands for, trained on its corpus: cut at its step unless ``all_merges``."""
    try:
        corpus = lesson.corpus()
    except BpeLabError as exc:
        # a lesson keeps text that is not yet words with counts; only training it is refused
        raise BpeLabError(f"{path}: corpus.text, {exc}: fix those lines in BPE Lab first") from None
    if corpus.is_empty:
        raise BpeLabError(f"{path}: the lesson's corpus is empty, so there is nothing to export")
    trainer, steps = train(corpus)
    if all_merges:
        return Source(Tokenizer.from_trainer(trainer), steps, "lesson")
    if lesson.step > len(steps):
        raise BpeLabError(
            f"{path}: the lesson is at step {lesson.step}, but its training makes only {len(steps)} merges; "
            "use --all-merges to export them all"
        )
    return Source(Tokenizer.from_trainer(trainer, merges=lesson.step), steps[: lesson.step], "lesson")
