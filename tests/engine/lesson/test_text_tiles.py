"""A typed text cut by a lesson's merges at any step: the same tokens the tokenizer cut at that
step gives, for trained lessons and for every kind of tokenizer file, without cutting one per step."""

from __future__ import annotations

import base64
import doctest

import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

import engine.lesson.text_tiles as text_tiles_module
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import RankTokenizer
from engine.formats.tiktoken_file import save_tiktoken
from engine.lesson.lesson import Lesson
from engine.lesson.text_tiles import LONG_WORD, TextTiles
from engine.lesson_io.from_tokenizer import read_imported
from engine.drain import drain

TEXT = "low lower newest widest lowest newer " * 3
TYPED = "the lowest newer widest, lower? 🙂 naïve 日本語 </w> low"


def flattened(tiles: TextTiles, k: int) -> list[str]:
    """The text's tokens at step k in reading order, from the distinct words' cuts."""
    index = {word: w for w, word in enumerate(tiles.words)}
    return [t for word in tiles.lesson.tokenizer_at(k).pre_tokenize(tiles.text) for t in tiles.tokens(index[word], k)]


def assert_cut_as_the_tokenizer_cuts(lesson: Lesson, text: str, steps=None) -> TextTiles:
    tiles = TextTiles(lesson, text)
    for k in steps if steps is not None else range(lesson.last_step + 1):
        assert flattened(tiles, k) == list(lesson.tokenizer_at(k).encode(text).tokens), k
        assert tiles.total_tokens(k) == len(lesson.tokenizer_at(k).encode(text)), k
    return tiles


def test_the_worked_example_holds():
    assert doctest.testmod(text_tiles_module).failed == 0


def test_words_are_kept_once_with_their_counts_in_order_of_first_appearance():
    tiles = TextTiles(Lesson(TEXT).train(), "newer low newer low low")
    assert tiles.words == ["newer", "low"] and tiles.counts == [2, 3]
    assert tiles.symbols(1) == ["l", "o", "w", "</w>"]


@pytest.mark.parametrize("settings", [Settings(min_frequency=1), Settings(units="bytes", split="gpt2", min_frequency=1),
                                      Settings(end_of_word=None, split="none", min_frequency=1)])
def test_a_trained_lesson_cuts_a_typed_text_as_its_tokenizer_at_every_step(settings):
    assert_cut_as_the_tokenizer_cuts(Lesson(TEXT, settings=settings).train(), TYPED)


@hyp_settings(max_examples=40, deadline=None)
@given(st.text(alphabet="abc </w>", min_size=1, max_size=30), st.text(alphabet="abcd ", min_size=1, max_size=20))
def test_merges_that_rebuild_a_token_are_replayed_in_order(training, typed):
    # few letters and a marker letters can spell: ab + c after a + bc, and a literal </w>
    lesson = Lesson(training, settings=Settings(min_frequency=1))
    if lesson.is_empty:
        return
    assert_cut_as_the_tokenizer_cuts(lesson.train(), typed)


def test_a_long_word_is_cut_afresh_as_the_tokenizer_cuts_it():
    lesson = Lesson("ab" * 40 + " abab abc", settings=Settings(end_of_word=None, split="none", min_frequency=1)).train()
    typed = "abcab" * (LONG_WORD // 4)
    tiles = assert_cut_as_the_tokenizer_cuts(lesson, typed)
    assert len(tiles.words[0]) >= LONG_WORD


def test_each_step_names_where_it_merged_and_how_often():
    tiles = TextTiles(Lesson(TEXT).train(), "lowest lowest newer")
    for k in range(1, tiles.last_step + 1):
        step = tiles.lesson.steps[k - 1]
        for w in range(len(tiles)):
            before, offsets = tiles.tokens(w, k - 1), tiles.merge_offsets(w, k)
            starts = [sum(len(t) for t in before[:i]) for i in range(len(before))]
            # each place holds the pair before the step, and the step joins exactly those
            joined = [i for i, at in enumerate(starts) if at in offsets]
            assert all((before[i], before[i + 1]) == step.pair for i in joined), (k, w)
            after = list(before)
            for i in reversed(joined):
                after[i:i + 2] = [before[i] + before[i + 1]]
            assert after == tiles.tokens(w, k)
        assert tiles.places(k) == tiles.total_tokens(k - 1) - tiles.total_tokens(k)
    assert tiles.merge_offsets(0, 0) == [] and tiles.places(0) == 0


def test_a_tokenizer_json_written_by_tokenizers_cuts_as_the_file_at_every_step(tmp_path):
    from tokenizers import Tokenizer as HfTokenizer, models, pre_tokenizers, trainers

    hf = HfTokenizer(models.BPE(unk_token="[UNK]"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    hf.train_from_iterator([TEXT], trainers.BpeTrainer(vocab_size=40, special_tokens=["[UNK]", "[CLS]"]))
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    lesson = drain(read_imported(path))
    assert lesson.corpus is None
    tiles = assert_cut_as_the_tokenizer_cuts(lesson, "lowest newer wider, zq")
    assert flattened(tiles, lesson.last_step) == hf.encode("lowest newer wider, zq", add_special_tokens=False).tokens


@pytest.mark.parametrize("shape", ["char_bpe", "sentencepiece_byte_fallback", "byte_level"])
def test_the_shapes_tokenizers_writes_cut_as_the_file(shape, tmp_path):
    from tests.engine.formats.test_hf_imports import SHAPES

    path = tmp_path / "tokenizer.json"
    SHAPES[shape](path)
    lesson = drain(read_imported(path))
    last = lesson.last_step
    assert_cut_as_the_tokenizer_cuts(lesson, TYPED, sorted({0, 1, last // 3, last // 2, last - 1, last}))


def test_a_tiktoken_file_cuts_as_the_file_at_every_step(tmp_path):
    trained = Lesson(TEXT, settings=Settings(units="bytes", split="gpt4", min_frequency=1, merges=20)).train()
    save_tiktoken(trained.tokenizer, tmp_path / "t.tiktoken")
    lesson = drain(read_imported(tmp_path / "t.tiktoken"))
    assert lesson.corpus is None
    assert_cut_as_the_tokenizer_cuts(lesson, TYPED)
    assert_cut_as_the_tokenizer_cuts(lesson, "lowest" * 60)  # one word past LONG_WORD bytes


def test_ranks_no_merge_list_replays_cut_with_tiktokens_rule_over_the_ranks_of_each_step(tmp_path):
    # "ab" and "bc" come before "abc": tiktoken splits abc as ab + c
    ranks = {bytes([b]): b for b in range(256)}
    # gaps between the ranks: no merge list gives these ids, so the file stays ranks
    ranks.update({b"ab": 300, b"bc": 302, b"abc": 304, b"abcabc": 306, b"bcd": 308})
    path = tmp_path / "t.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()), encoding="utf-8")
    lesson = drain(read_imported(path))
    assert isinstance(lesson.tokenizer, RankTokenizer)
    tiles = assert_cut_as_the_tokenizer_cuts(lesson, "abc bcd abcabc " + "abcd" * LONG_WORD)
    assert [tiles.tokens(0, k) for k in range(4)] == [["a", "b", "c"], ["ab", "c"], ["ab", "c"], ["abc"]]
    assert tiles.merge_offsets(0, 2) == [] and tiles.merge_offsets(0, 3) == [0]


def test_going_to_any_step_cuts_no_tokenizer(monkeypatch):
    lesson = Lesson(TEXT, settings=Settings(min_frequency=1)).train()
    tiles = TextTiles(lesson, TYPED)

    def refuse(k):
        raise AssertionError(f"a tokenizer was cut at step {k}")

    monkeypatch.setattr(lesson, "tokenizer_at", refuse)
    for k in (lesson.last_step, 3, 0, lesson.last_step // 2):
        assert tiles.total_tokens(k) > 0 and tiles.merge_offsets(0, k) is not None
