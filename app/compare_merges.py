"""File > Compare merges…: anyone's merge list walked beside the lesson on screen, off the GUI thread.

``comparing`` reads the list, trains the lesson's text with its settings afresh (the lesson shown
is the session's, never touched from another thread) and walks the two lists
(``engine.compare.walk``), saying each stage as it starts; ``merge_comparison()`` runs it as a
``LatestRun``, which ends with ``done(Compared)``, ``failed(reason)`` or ``cancelled()``.

A stop is heard between two merges of the training, and at once during the walk: the walk re-trains
the text under every other tie rule and mistake in plain loops, minutes on a book, so past a few
lines of text it runs in a child process (``engine.child``) that a stop ends.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from PySide6.QtCore import QObject

from engine.algorithm.settings import Settings
from engine.child import run_in_child
from engine.compare.walk import Report
from engine.errors import BpeLabError, internal_detail, is_bad_input, one_line
from engine.lesson.lesson import Lesson
from widgets.latest_run import LatestRun
from widgets.worker import abort_if_requested

# the stages a run says, in order
STAGES = ("Reading the merge list…", "Training the lesson…", "Walking the two lists…")
# a text at least this long is walked in a child process: 2,000 characters take half a second, 5,000
# two seconds and 20,000 eight, and a child costs about a second to start and receive the lesson
WALK_IN_CHILD_FROM = 3_000


@dataclass(frozen=True, slots=True)
class Compared:
    """A finished walk and the settings that say its pairs and tokens."""

    report: Report
    settings: Settings


def comparing(path: str, text: str, word_counts: bool, settings: Settings) -> Generator[str, None, Compared]:
    """The walk as a generator: each stage's name as it starts, the ``Compared`` as its return."""
    from engine.compare.merge_lists import pairs_of, read_merge_list
    from engine.compare.mistakes import Training
    from engine.compare.walk import compare

    yield STAGES[0]
    found = read_merge_list(path, settings)
    yield STAGES[1]
    training = Training(text, word_counts, settings)
    if training.corpus().is_empty:  # a tokenizer read from a file keeps no corpus either
        raise BpeLabError("the lesson on screen has no training text to compare with: type or open a text first")
    # trained as engine.compare.walk.trained trains it, a stop heard between two merges
    lesson = Lesson(text, word_counts=word_counts, settings=settings)
    for _ in lesson.training():
        abort_if_requested()
    yield STAGES[2]
    pairs = pairs_of(found, list(lesson.history.base))
    if len(text) < WALK_IN_CHILD_FROM:
        return Compared(compare(training, pairs, path, found.kind, lesson), settings)
    report = run_in_child(compare, training, pairs, path, found.kind, lesson, check=abort_if_requested,
                          what="the walk of the two lists")
    return Compared(report, settings)


def failure(error: BaseException) -> str:
    """What the user reads when a compare fails: the engine's one-line reason for a bad file."""
    if is_bad_input(error):
        return one_line(str(error))
    return f"an internal error of BPE Lab ({internal_detail(error)}), not a problem with your file"


def merge_comparison(parent: QObject | None = None) -> LatestRun:
    """The window's one compare run: ``start(path, text, word_counts, settings)``, then ``done(Compared)``."""
    return LatestRun(comparing, failure, parent)
