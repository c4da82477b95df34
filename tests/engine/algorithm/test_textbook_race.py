"""The textbook loop against the trainer: the same merges, each timed on its own clock, stoppable."""

import doctest

import pytest

import engine.algorithm.textbook_race
from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import Settings
from engine.algorithm.textbook_race import TEXTBOOK, TRAINER, Race, drive, race
from engine.algorithm.trainer import train
from engine.errors import BpeLabError
from resources.presets import PRESETS


def corpus_of(preset):
    if preset.word_counts:
        return Corpus.from_word_counts(preset.text(), preset.settings)
    return Corpus.from_text(preset.text(), preset.settings)


def test_the_worked_example_in_the_docstring_holds():
    result = doctest.testmod(engine.algorithm.textbook_race)
    assert result.attempted >= 3 and result.failed == 0


@pytest.mark.parametrize("preset", [p for p in PRESETS if p.stem is not None], ids=lambda p: p.key)
def test_both_loops_make_the_trainers_merges_on_every_small_preset(preset):
    corpus = corpus_of(preset)
    result = drive(race(corpus))
    _, steps = train(corpus)
    assert result.same and result.parted_at is None
    assert result.merges == len(steps) > 0
    assert result.symbols == corpus.total_symbols()
    assert result.words == len(corpus)
    assert result.word_symbols == sum(len(corpus.symbols(i)) for i in range(len(corpus)))


@pytest.mark.parametrize("settings", [
    Settings(tie_break="hf"),
    Settings(units="bytes", split="gpt2", vocab_size=300),
    Settings(end_of_word=None, merges=7),
])
def test_both_loops_agree_under_other_settings(settings):
    corpus = Corpus.from_text("the cat sat on the mat; the rat ate the hat that sat there " * 3, settings)
    assert drive(race(corpus)).same


def test_each_loop_is_timed_on_its_own_clock_and_progress_is_not_counted():
    now = [0.0]

    def clock() -> float:
        now[0] += 1
        return now[0]

    corpus = Corpus.from_word_counts("low 5\nlower 2\nnewest 6\nwidest 3", Settings())
    run = race(corpus, clock=clock)
    progress = []
    while True:
        try:
            progress.append(next(run))
        except StopIteration as end:
            result = end.value
            break
        now[0] += 1000  # whoever watches the progress takes its time: no loop's
    trainer = [p for p in progress if p.runner == TRAINER]
    textbook = [p for p in progress if p.runner == TEXTBOOK]
    assert [p.done for p in trainer] == list(range(1, result.merges + 1))
    assert [p.done for p in textbook] == list(range(1, result.merges + 1))
    assert {p.total for p in textbook} == {result.merges}
    # each report carries its runner's own time so far, and the trainer's whole time beside the textbook's
    assert [p.seconds for p in trainer] == [1 + k for k in range(1, result.merges + 1)]
    assert [p.seconds for p in textbook] == list(range(1, result.merges + 1))
    assert {p.trainer_seconds for p in textbook} == {result.trainer_seconds}
    # a tick for building the trainer, one per merge made and one for finding there are no more
    assert result.trainer_seconds == 1 + result.merges + 1
    assert result.textbook_seconds == result.merges + 1


def test_a_race_closed_midway_stops_without_a_result():
    corpus = Corpus.from_text("the cat sat on the mat " * 20, Settings())
    run = race(corpus)
    seen = [next(run) for _ in range(3)]
    run.close()
    assert len(seen) == 3
    with pytest.raises(StopIteration):
        next(run)


def test_an_empty_corpus_is_refused():
    with pytest.raises(BpeLabError):
        drive(race(Corpus.from_text("", Settings())))


def test_the_ratio_is_the_textbook_time_over_the_trainers():
    result = Race(10, 100, 5, 80, trainer_seconds=0.002, textbook_seconds=0.05, parted_at=None)
    assert result.ratio == pytest.approx(25)
