"""Callers tell the engine's errors apart by class: each kind a caller acts on has one."""

import pytest

from engine import Corpus, Settings
from engine.errors import BpeLabError, InternalError, NotPlainTextError, TrainingError, is_bad_input
from engine.files.reading import decode_utf8, read_text
from engine.lesson.lesson import Lesson, LessonState
from engine.algorithm.trainer import Trainer


def test_a_pair_counted_but_found_nowhere_stops_training_with_a_training_error():
    trainer = Trainer(Corpus.from_text("low low lower lowest", Settings()))
    key = max(trainer.counts, key=trainer.counts.get)
    # a count that disagrees with the pair's heap entry makes the trainer look its places up again,
    # and there are none: the state the guard exists for
    trainer.counts[key] += 1
    trainer.places_of[key] = []
    with pytest.raises(TrainingError, match="nowhere in the corpus") as caught:
        next(trainer.steps())
    assert isinstance(caught.value, InternalError) and isinstance(caught.value, BpeLabError)


def test_a_pair_listed_in_a_word_that_does_not_hold_it_is_an_internal_error():
    state = LessonState(Lesson("low 5\nlower 2\nnewest 6\nwidest 3", word_counts=True).train())
    assert state.ranked_pairs(2)  # the top few, found from the first word holding each
    pair = max(state.pair_counts(), key=state.pair_counts().get)
    # the state's pair table names a word that holds no such pair (word 0 is "low")
    state._pairs[pair] = {0: 1}
    with pytest.raises(InternalError, match="does not hold it"):
        state.ranked_pairs(2)


@pytest.mark.parametrize("data, said", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    ("caf\xe9 cr\xe8me".encode("latin-1"), "not UTF-8"),
])
def test_a_file_that_is_not_plain_utf8_text_is_a_not_plain_text_error(tmp_path, data, said):
    path = tmp_path / "file.txt"
    path.write_bytes(data)
    with pytest.raises(NotPlainTextError, match=said):
        read_text(path)
    with pytest.raises(NotPlainTextError):
        decode_utf8(data, "standard input")


def test_other_file_problems_are_not_mistaken_for_text_in_another_encoding(tmp_path):
    with pytest.raises(BpeLabError) as missing:
        read_text(tmp_path / "absent.txt")
    with pytest.raises(BpeLabError) as folder:
        read_text(tmp_path)
    assert not isinstance(missing.value, NotPlainTextError)
    assert not isinstance(folder.value, NotPlainTextError)
    assert decode_utf8("\ufeffcafé".encode("utf-8"), "x") == "café"


def test_bad_input_is_told_from_an_internal_error_by_class():
    assert is_bad_input(BpeLabError("line 2: a count must be a whole number"))
    assert is_bad_input(NotPlainTextError("binary"))
    assert not is_bad_input(TrainingError("pair counted but found nowhere"))
    assert not is_bad_input(InternalError("tables disagree"))
    assert not is_bad_input(RuntimeError("anything else"))


def test_a_training_that_would_run_out_of_memory_is_refused_before_it_starts_with_the_estimate(monkeypatch):
    import engine.algorithm.trainer as trainer_module

    corpus = Corpus.from_text("low low lower lowest " * 3, Settings(merges=4))
    need = trainer_module.memory_needed(corpus)
    # symbols: l o w </w> (4) + l o w e r </w> (6) + l o w e s t </w> (7), then four steps
    assert need == 17 * trainer_module.BYTES_PER_SYMBOL + 4 * trainer_module.BYTES_PER_STEP
    monkeypatch.setattr(trainer_module, "memory_available", lambda: need - 1)
    with pytest.raises(BpeLabError, match=r"would take about 0\.0 GB of memory, and 0\.0 GB is free"):
        Trainer(corpus)
    monkeypatch.setattr(trainer_module, "memory_available", lambda: need)
    assert len(list(Trainer(corpus).steps())) == 4


def test_a_vocabulary_target_past_what_the_corpus_can_make_is_not_counted_as_steps():
    import engine.algorithm.trainer as trainer_module

    corpus = Corpus.from_text("big numbers big numbers", Settings(vocab_size=2_000_000_000))
    # at most one merge per symbol: 4 + 8 symbols of the two words with their markers
    assert trainer_module.memory_needed(corpus) == 12 * (trainer_module.BYTES_PER_SYMBOL + trainer_module.BYTES_PER_STEP)
