"""Every shape of merge list is read as the pairs it holds; a malformed one gets a one-line reason."""

from __future__ import annotations

import json

import pytest

from engine.algorithm.corpus import Corpus
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import Tokenizer
from engine.algorithm.trainer import train
from engine.compare.merge_lists import AmbiguousMergeError, MergeListError, pairs_of, read_merge_list
from engine.files.writing import write_files
from engine.formats.lesson_file import LessonFile, save_lesson
from engine.formats.load import Source, export_files

TEA = "tea tea team teams steam seat"
TEA_MERGES = [("e", "a"), ("t", "ea"), ("tea", "m")]
NO_MARKER = Settings(end_of_word=None)
BYTES = Settings(units="bytes", end_of_word=None)


def exported(tmp_path, fmt: str, name: str, settings: Settings) -> tuple[str, list[tuple[str, str]]]:
    trainer, steps = train(Corpus.from_text(TEA, settings))
    path = str(tmp_path / name)
    files, folder = export_files(Source(Tokenizer.from_trainer(trainer), steps), fmt, path)
    write_files(files, make_folder=folder)
    return path, [s.pair for s in steps]


@pytest.mark.parametrize("fmt, name, settings, kind", [
    ("gpt2", "gpt2-folder", Settings(), "vocab.json + merges.txt"),
    ("hf", "tokenizer.json", Settings(), "tokenizer.json"),
    ("bpelab", "tea.json", Settings(), "BPE Lab tokenizer"),
    ("tiktoken", "tea.tiktoken", BYTES, ".tiktoken"),
    ("gpt2", "bytes-folder", BYTES, "vocab.json + merges.txt"),
    ("hf", "bytes.json", BYTES, "tokenizer.json"),
])
def test_what_bpe_lab_exports_reads_back_as_its_merges(tmp_path, fmt, name, settings, kind):
    path, merges = exported(tmp_path, fmt, name, settings)
    found = read_merge_list(path, settings)
    assert found.kind == kind and found.pairs == merges


def test_a_tiktoken_file_alone_is_split_into_its_merges(tmp_path):
    path, merges = exported(tmp_path, "tiktoken", "tea.tiktoken", BYTES)
    (tmp_path / "tea.tiktoken.json").unlink()
    assert read_merge_list(path, BYTES).pairs == merges
    # the same bytes spelt as text for a chars lesson
    assert read_merge_list(path, NO_MARKER).pairs == TEA_MERGES


def test_a_lesson_file_gives_the_merges_its_training_makes(tmp_path):
    path = tmp_path / "tea.bpelab"
    save_lesson(LessonFile(TEA, settings=NO_MARKER), path)
    found = read_merge_list(path, NO_MARKER)
    assert found.kind == "lesson file" and found.pairs == TEA_MERGES


@pytest.mark.parametrize("text", ["#version: 0.2\ne a\nt ea\ntea m\n", "e a\nt ea\ntea m", "e a\r\nt ea\r\ntea m\r\n"])
@pytest.mark.parametrize("name", ["merges.txt", "mine.txt"])
def test_merges_txt_with_or_without_its_version_line(tmp_path, text, name):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert read_merge_list(path, NO_MARKER).pairs == TEA_MERGES


def test_a_folder_with_merges_txt_alone(tmp_path):
    (tmp_path / "merges.txt").write_text("e a\nt ea\ntea m\n", encoding="utf-8")
    assert read_merge_list(tmp_path, NO_MARKER).pairs == TEA_MERGES


def test_a_minbpe_model_file_spells_its_ids_as_bytes(tmp_path):
    # e=101 a=97 -> 256, t=116 + 256 -> 257, 257 + m=109 -> 258; one special token after the merges
    path = tmp_path / "tea.model"
    path.write_text("minbpe v1\n\n1\n<|endoftext|> 259\n101 97\n116 256\n257 109\n", encoding="utf-8")
    assert read_merge_list(path, NO_MARKER).pairs == TEA_MERGES
    assert read_merge_list(path, BYTES).pairs == TEA_MERGES  # ASCII bytes spell themselves


def test_json_lists_of_pairs_and_of_merged_tokens(tmp_path):
    pairs = tmp_path / "pairs.json"
    pairs.write_text(json.dumps([list(p) for p in TEA_MERGES]), encoding="utf-8")
    assert read_merge_list(pairs, NO_MARKER).pairs == TEA_MERGES
    for text in ('["ea", "tea", "team"]', "['ea', 'tea', 'team']", "ea\ntea\nteam\n"):
        path = tmp_path / "tokens.txt"
        path.write_text(text, encoding="utf-8")
        found = read_merge_list(path, NO_MARKER)
        assert found.strings == ["ea", "tea", "team"]
        assert pairs_of(found, ["a", "e", "m", "s", "t"]) == TEA_MERGES


def test_a_merged_token_is_split_into_the_two_tokens_known_by_then(tmp_path):
    path = tmp_path / "tokens.json"
    path.write_text('["es", "est", "est</w>", "lo", "low"]', encoding="utf-8")
    base = Corpus.from_word_counts("low 5\nlower 2\nnewest 6\nwidest 3", Settings()).base_vocab()
    assert pairs_of(read_merge_list(path, Settings()), base) == [
        ("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w")]


def test_a_merged_token_two_pairs_spell_is_reported_with_both(tmp_path):
    path = tmp_path / "tokens.json"
    path.write_text('["ab", "bc", "abc"]', encoding="utf-8")
    with pytest.raises(AmbiguousMergeError) as caught:
        pairs_of(read_merge_list(path, NO_MARKER), ["a", "b", "c"])
    assert caught.value.candidates == (("a", "bc"), ("ab", "c"))
    assert "merge 3" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("name, text", [
    ("merges.txt", "e a\nt ea x\n"),
    ("mine.txt", "e a\nea\n"),
    ("pairs.json", '[["e", "a"], ["t"]]'),
    ("pairs.json", "[1, 2]"),
    ("pairs.json", "[]"),
    ("pairs.json", '[["e", "a"]'),
    ("other.json", '{"merges": []}'),
    ("bad.model", "minbpe v1\n\n0\n101 97\n116 300\n"),
    ("bad.model", "minbpe v1\n\nmany\n"),
    ("bad.model", "minbpe v2\n\n0\n"),
    ("empty.txt", "\n\n"),
])
def test_a_malformed_file_gets_one_line_that_says_where(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MergeListError) as caught:
        pairs_of(read_merge_list(path, NO_MARKER), ["a", "e", "m", "s", "t"])
    assert "\n" not in str(caught.value) and name in str(caught.value)


def test_a_token_of_symbols_the_lesson_does_not_hold_is_refused(tmp_path):
    path = tmp_path / "tokens.json"
    path.write_text('["ea", "xy"]', encoding="utf-8")
    with pytest.raises(MergeListError, match="merge 2"):
        pairs_of(read_merge_list(path, NO_MARKER), ["a", "e", "m", "s", "t"])


def test_bytes_that_are_part_of_a_character_need_bytes_units(tmp_path):
    # é is two bytes, 195 169: merging 195 with 101 makes no text
    path = tmp_path / "cut.model"
    path.write_text("minbpe v1\n\n0\n195 101\n", encoding="utf-8")
    with pytest.raises(MergeListError, match="--units bytes"):
        read_merge_list(path, NO_MARKER)
    assert len(read_merge_list(path, BYTES).pairs) == 1


def test_a_tokenizer_json_trained_by_tokenizers_itself_is_the_lesson_under_rule_hf(tmp_path):
    from tokenizers import Tokenizer as HfTokenizer, models, pre_tokenizers, trainers

    from engine.compare.mistakes import Training
    from engine.compare.walk import compare

    text = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3)
    hf = HfTokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    hf.train_from_iterator([text], trainers.BpeTrainer(vocab_size=1000, min_frequency=2, show_progress=False))
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    # no unknown token, which BPE Lab's reader asks of a char-level model: its merges are still read
    found = read_merge_list(path, NO_MARKER)
    assert found.kind == "tokenizer.json (its merges)"
    assert compare(Training(text, False, Settings(end_of_word=None, tie_break="hf")), found.pairs, "t").identical
    report = compare(Training(text, False, NO_MARKER), found.pairs, "t")
    assert report.diagnosis == "tie rule hf"
