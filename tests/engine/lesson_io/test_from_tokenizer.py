"""A tokenizer file as a lesson: its merges are the steps, its tokenizer encodes at every step, and
nothing claims a count the file does not hold."""

import pytest
from tokenizers import Tokenizer as HfTokenizer

from engine.algorithm.bytelevel import bytes_to_symbols
from engine.errors import BpeLabError
from engine.formats.bpelab import save_tokenizer
from engine.formats.gpt2 import save_gpt2
from engine.formats.hf import save_hf
from engine.formats.tiktoken_file import save_tiktoken
from engine.lesson_io.from_tokenizer import imported_lesson, read_imported
from engine.lesson.lesson import Lesson, LessonState
from engine.lesson.source import FileSource
from engine.algorithm.pretokenize import GPT4_PATTERN
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import RankTokenizer

TEXT = "low lower newest widest lowest newer " * 3


def read(path) -> Lesson:
    run = read_imported(path)
    progress = []
    while True:
        try:
            progress.append(next(run))
        except StopIteration as end:
            lesson = end.value
            assert all(total == lesson.last_step for _, total in progress)
            assert [done for done, _ in progress] == sorted(done for done, _ in progress)
            return lesson


def trained(**settings) -> Lesson:
    return Lesson(TEXT, settings=Settings(min_frequency=1, merges=20, **settings)).train()


WRITERS = {
    "hf": (lambda tok, d: save_hf(tok, d / "tokenizer.json"), "tokenizer.json", {}),
    "bpelab": (lambda tok, d: save_tokenizer(tok, d / "tok.json"), "tok.json", {}),
    "gpt2": (lambda tok, d: save_gpt2(tok, d / "gpt2"), "gpt2", {"units": "bytes", "split": "gpt2"}),
    "tiktoken": (lambda tok, d: save_tiktoken(tok, d / "t.tiktoken"), "t.tiktoken", {"units": "bytes", "split": "gpt4"}),
}


@pytest.mark.parametrize("fmt", WRITERS)
def test_each_format_steps_through_the_merges_training_made(fmt, tmp_path):
    write, name, settings = WRITERS[fmt]
    lesson = trained(**settings)
    write(lesson.tokenizer, tmp_path)
    imported = read(tmp_path / name)
    assert imported.source == FileSource(fmt, name)
    assert [s.pair for s in imported.steps] == [s.pair for s in lesson.steps]
    assert [s.token for s in imported.steps] == [s.token for s in lesson.steps]
    # one vocabulary size at every step, the trained lesson's, and the file's at the end
    assert imported.history.vocab_sizes() == lesson.history.vocab_sizes()
    assert imported.history.vocab_size(imported.last_step) == imported.tokenizer.get_vocab_size()
    # the tokenizer at every step splits as the trained one did
    for k in (0, 1, 7, imported.last_step):
        assert imported.tokenizer_at(k).encode(TEXT).tokens == lesson.tokenizer_at(k).encode(TEXT).tokens, k
    # no corpus: nothing to tile, no count to claim, and the line that says so names the file
    assert imported.corpus is None and lesson.corpus is not None and not imported.is_empty
    assert all(s.count is None for s in imported.steps) and all(s.count for s in lesson.steps)
    assert "no training corpus" in imported.origin() and name in imported.origin()
    assert f"with {lesson.last_step} merges" in imported.origin()


def test_the_file_ids_are_kept_at_the_last_step(tmp_path):
    from tokenizers import pre_tokenizers, models, trainers

    hf = HfTokenizer(models.BPE(unk_token="[UNK]"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    hf.train_from_iterator([TEXT], trainers.BpeTrainer(vocab_size=40, special_tokens=["[UNK]", "[CLS]"]))
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    imported = read(path)
    assert imported.last_step == len(imported.tokenizer.merges) > 0
    assert imported.tokenizer_at(imported.last_step).encode_ids("lowest newer") == hf.encode("lowest newer").ids
    assert imported.tokenizer_at(0).encode("low").tokens == ("l", "o", "w")


def test_a_lesson_state_steps_through_an_imported_lesson_with_no_words(tmp_path):
    lesson = trained()
    save_hf(lesson.tokenizer, tmp_path / "tokenizer.json")
    imported = read(tmp_path / "tokenizer.json")
    state = LessonState(imported)
    change = state.go_to(5)
    assert (change.step, change.words) == (5, ())
    assert state.pair_counts() == {} and state.ranked_pairs(10) == []
    assert state.next_step() is imported.steps[5]


def test_a_file_read_lesson_has_no_corpus_and_no_count_at_any_step(tmp_path):
    lesson = trained()
    save_tokenizer(lesson.tokenizer, tmp_path / "tok.json")
    imported = read(tmp_path / "tok.json")
    assert imported.corpus is None and imported.last_step == lesson.last_step > 0
    assert [s.count for s in imported.steps] == [None] * imported.last_step
    assert [s.tokens_before for s in imported.steps] == [None] * imported.last_step
    # the file keeps no text, yet the lesson has a run to step through
    assert imported.text == "" and not imported.word_counts and imported.trained


def test_ranks_no_merge_list_replays_step_with_tiktokens_own_rule():
    # "ab" (256) and "bc" (257) come before "abc" (258): tiktoken splits abc as ab + c
    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({b"ab": 256, b"bc": 257, b"abc": 258})
    tokenizer = RankTokenizer("t.tiktoken", ranks, GPT4_PATTERN, {"<|end|>": 300})
    lesson = imported_lesson(tokenizer, "t.tiktoken", "tiktoken")
    assert [s.pair for s in lesson.steps] == [("a", "b"), ("b", "c"), ("ab", "c")]
    assert lesson.base_vocab == [bytes_to_symbols(bytes([b])) for b in range(256)]
    assert lesson.history.vocab_sizes() == [257, 258, 259, 260]
    assert lesson.tokenizer_at(1).encode_ids("abc") == [256, ord("c")]
    assert lesson.tokenizer_at(2).encode_ids("abc") == [256, ord("c")]  # ab ranks before bc
    assert lesson.tokenizer_at(3) is tokenizer and tokenizer.encode_ids("abc") == [258]


@pytest.mark.parametrize("content, said", [
    ('{"model": {"type": "BPE", "unk_token": "<unk>", "vocab": {"<unk>": 0, "a": 1, "b": 2}, "merges": []}}',
     "tokenizer.json: the file holds no merges"),
    ('{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [["a", "b"]]}}', "tokenizer.json"),
    ('{"model": ', "not valid JSON"),
])
def test_a_file_with_nothing_to_step_through_or_broken_is_refused_with_the_reason(content, said, tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BpeLabError, match=said):
        read(path)


def test_an_imported_lesson_is_not_trained_again():
    lesson = imported_lesson(trained().tokenizer, "tok.json", "bpelab")
    with pytest.raises(BpeLabError, match="imported"):
        lesson.train()


@pytest.mark.parametrize("shape", ["whitespace", "whitespace_split", "char_bpe", "sentencepiece",
                                   "sentencepiece_byte_fallback", "byte_level"])
def test_every_shape_tokenizers_writes_steps_to_the_librarys_ids(shape, tmp_path):
    from tests.engine.formats.test_hf_imports import HELD_OUT, SHAPES

    path = tmp_path / "tokenizer.json"
    SHAPES[shape](path)
    library = HfTokenizer.from_file(str(path))
    lesson = read(path)
    assert lesson.last_step == len(lesson.tokenizer.merges) > 0
    assert lesson.history.vocab_size(lesson.last_step) == library.get_vocab_size()
    text = " ".join(HELD_OUT)
    assert lesson.tokenizer_at(lesson.last_step).encode_ids(text, allow_special=True) == library.encode(text).ids
    lengths = [len(lesson.tokenizer_at(k).encode(text)) for k in (0, lesson.last_step // 2, lesson.last_step)]
    assert lengths == sorted(lengths, reverse=True) and lengths[0] > lengths[-1]


def test_ranks_that_are_no_byte_pair_vocabulary_are_refused_naming_the_token(tmp_path):
    import base64

    # "abc" with neither "ab" nor "bc" ranked before it: no merge makes it
    ranks = {bytes([b]): b for b in range(256)}
    ranks[b"abc"] = 256
    path = tmp_path / "odd.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()), encoding="utf-8")
    with pytest.raises(BpeLabError, match=r"rank 256 is not the join of two earlier tokens.*cannot step through"):
        read(path)
