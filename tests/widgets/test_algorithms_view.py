"""Lesson > Compare algorithms: three columns whose measures are the engine's, training in a worker that stops."""

from __future__ import annotations

import os
import random
import signal
import string

import pytest

from engine.algorithm.settings import Settings
from engine.lesson.lesson import Lesson
from engine.readable.algorithms import ALGORITHMS, METRIC_ROWS, compare_algorithms, train_bpe
from engine.readable.metrics import measure
from tests.child_processes import cpu_seconds, forkserver_children, gone
from widgets.algorithms_view import AlgorithmsDialog, corpus_text

PARAGRAPH = ("the cat sat on the mat and the dog sat on the log while the other cat ran to the mat then sat "
             "on the hat and the rat sat on the cat")
HELD_OUT = "the bat sat on the rat's hat"
# how long a stopped training's process may take to go: a bound on "it stopped", not a measure
STOPPED_WITHIN_MS = 3_000


def trained_dialog(qtbot, lesson):
    dialog = AlgorithmsDialog(lesson)
    qtbot.addWidget(dialog)
    dialog.start()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    return dialog


def test_three_columns_show_the_engines_measures_of_the_held_out_text(qtbot):
    lesson = Lesson(PARAGRAPH, held_out=HELD_OUT).train()
    dialog = trained_dialog(qtbot, lesson)
    assert dialog.columns == list(ALGORITHMS)
    results = dialog.results
    size = lesson.history.vocab_size(lesson.last_step)
    assert "trained on the lesson's corpus to" in dialog.intro.text() and "the held-out text" in dialog.intro.text()
    # BPE and Unigram learn the same way every run: the engine's own comparison gives the same figures
    engine = {t.name: t for t in compare_algorithms(PARAGRAPH, size, HELD_OUT)}
    assert results[0].metrics == engine["BPE"].metrics == measure(train_bpe(PARAGRAPH, size), HELD_OUT)
    assert results[2].metrics == engine["Unigram"].metrics
    for trained in results:
        cells = {part: label.text() for (name, part), label in dialog.cells.items() if name == trained.name}
        for _, attr, fmt in METRIC_ROWS:
            assert cells[attr] == f"<b>{fmt.format(getattr(trained.metrics, attr))}</b>"
        assert cells["how"].startswith(trained.name)
    assert dialog.cells[("BPE", "vocab_size")].text() == f"<b>{size:,}</b>"
    # the pieces are the held-out text's tokens, in order, each unbroken (word joiners between its characters)
    pieces = dialog.cells[("BPE", "pieces")].text().replace("\u2060", "")
    assert "&lt;\u2060/\u2060w\u2060&gt;" in dialog.cells[("BPE", "pieces")].text()
    at = 0
    for token in results[0].tokens:
        at = pieces.index(f">{token.replace('<', '&lt;').replace('>', '&gt;')}<", at)


def test_a_word_count_table_is_trained_on_as_running_text():
    lesson = Lesson("low 5\nlower 2\n", word_counts=True).train()
    assert corpus_text(lesson).split() == ["low"] * 5 + ["lower"] * 2


def test_cancel_stops_before_the_columns_are_made(qtbot):
    lesson = Lesson(PARAGRAPH).train()
    dialog = AlgorithmsDialog(lesson)
    qtbot.addWidget(dialog)
    dialog.start()
    assert dialog.running and dialog.cancel_button.isEnabled()
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=60_000)
    assert dialog.results is None and dialog.columns == []
    assert dialog.status.text().startswith("Stopped")
    assert not dialog.cancel_button.isEnabled()



def large_lesson():
    """A corpus of made-up words on which Unigram trains for several seconds."""
    rng = random.Random(7)
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 12))) for _ in range(10_000)]
    return Lesson(" ".join(rng.choice(words) for _ in range(40_000)), settings=Settings(vocab_size=1_000)).train()


def unigram_process(qtbot, dialog):
    """The process training Unigram for ``dialog``, once it has started."""
    qtbot.waitUntil(lambda: dialog.status.text() == "Training Unigram…", timeout=120_000)
    # the WordPiece training's process has ended by now: the one left is Unigram's
    qtbot.waitUntil(lambda: len(forkserver_children()) == 1, timeout=60_000)
    (pid,) = forkserver_children()
    return pid


@pytest.mark.slow
def test_cancel_mid_unigram_ends_its_process_and_says_it_stopped(qtbot):
    dialog = AlgorithmsDialog(large_lesson())
    qtbot.addWidget(dialog)
    dialog.start()
    pid = unigram_process(qtbot, dialog)
    dialog.cancel_button.click()
    assert dialog.status.text() == "Stopping…"
    # generous bounds on "it stopped": the process ends within a tenth of a second of the click
    qtbot.waitUntil(lambda: gone(pid), timeout=STOPPED_WITHIN_MS)
    qtbot.waitUntil(lambda: not dialog.running, timeout=STOPPED_WITHIN_MS)
    assert dialog.status.text().startswith("Stopped")
    assert dialog.results is None and dialog.columns == []


@pytest.mark.slow
def test_closing_the_dialog_mid_training_leaves_no_process(qtbot):
    dialog = AlgorithmsDialog(large_lesson())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.start()
    pid = unigram_process(qtbot, dialog)
    dialog.close()
    qtbot.waitUntil(lambda: gone(pid), timeout=STOPPED_WITHIN_MS)
    qtbot.waitUntil(lambda: not dialog.running, timeout=STOPPED_WITHIN_MS)


@pytest.mark.slow
def test_a_training_process_that_dies_is_said_in_the_dialog(qtbot):
    dialog = AlgorithmsDialog(large_lesson())
    qtbot.addWidget(dialog)
    dialog.start()
    pid = unigram_process(qtbot, dialog)
    qtbot.waitUntil(lambda: cpu_seconds(pid) >= 0.5, timeout=60_000)  # training, past receiving the text
    os.kill(pid, signal.SIGKILL)  # as the system does when memory runs out
    qtbot.waitUntil(lambda: not dialog.running, timeout=STOPPED_WITHIN_MS)
    assert dialog.status.text() == ("Could not compare: the Unigram training stopped unexpectedly (the process was "
                                    "ended by SIGKILL, perhaps for want of memory): try again, or with a smaller "
                                    "text or vocabulary size.")
    assert dialog.results is None
