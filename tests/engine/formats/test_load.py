"""One loader for every format: detection by content, lesson files, and files that are not tokenizers."""

import json

import pytest

from engine.errors import BpeLabError
from engine.formats.lesson_file import LessonFile, save_lesson
from engine.formats.load import Source, detect_format, export
from engine.lesson_io.loading import load_any, load_source
from engine.algorithm.settings import Settings
from tests.engine.formats.samples import TEXT, trained

WORDS = "low 5\nlower 2\nnewest 6\nwidest 3\n"


@pytest.mark.parametrize("fmt, expected", [("bpelab", "bpelab"), ("hf", "hf"), ("gpt2", "gpt2"),
                                           ("tiktoken", "tiktoken"), ("csv", "csv")])
def test_every_export_is_recognised_even_renamed(fmt, expected, tmp_path):
    tok, steps = trained(units="bytes", split="gpt2")
    out = tmp_path / f"t.{fmt}"
    export(Source(tok, steps), fmt, out)
    assert detect_format(out) == expected
    if fmt in ("bpelab", "hf"):
        renamed = tmp_path / "no-extension"
        renamed.write_bytes(out.read_bytes())
        assert detect_format(renamed) == expected
    back = load_any(out)
    assert back.merges == tok.merges
    assert back.encode(TEXT).ids == tok.encode(TEXT).ids


def test_a_lesson_exports_the_tokenizer_at_its_step(tmp_path):
    path = tmp_path / "lesson.bpelab"
    save_lesson(LessonFile(WORDS, word_counts=True, step=3), path)
    source = load_source(path)
    assert source.tokenizer.merges == [("e", "s"), ("es", "t"), ("est", "</w>")]
    assert [s.count for s in source.steps] == [9, 9, 9]
    assert len(load_source(path, all_merges=True).tokenizer.merges) > 3


def test_a_lesson_step_past_the_training_is_refused(tmp_path):
    path = tmp_path / "lesson.bpelab"
    save_lesson(LessonFile(WORDS, word_counts=True, settings=Settings(merges=4), step=9), path)
    with pytest.raises(BpeLabError, match="step 9.*only 4 merges.*--all-merges"):
        load_source(path)


def test_an_unknown_lesson_version_is_refused(tmp_path):
    path = tmp_path / "future.bpelab"
    save_lesson(LessonFile(WORDS, word_counts=True), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BpeLabError, match="lesson version 99"):
        load_any(path)


def test_a_binary_file_is_refused_by_name(tmp_path):
    path = tmp_path / "picture.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(BpeLabError, match="picture.png looks like a binary file"):
        load_any(path)


def test_text_that_is_no_tokenizer_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("just some notes\n")
    with pytest.raises(BpeLabError, match="notes.txt is not a tokenizer BPE Lab can read"):
        load_any(path)
    path.write_text('{"hello": 1}')
    with pytest.raises(BpeLabError, match="JSON but not a tokenizer"):
        load_any(path)


def test_a_truncated_bpelab_file_names_the_line(tmp_path):
    tok, _ = trained()
    path = tmp_path / "t.json"
    export(Source(tok), "bpelab", path)
    path.write_text(path.read_text(encoding="utf-8")[:200], encoding="utf-8")
    with pytest.raises(BpeLabError, match=r"t.json: not valid JSON \(line \d+"):
        load_any(path)


def test_cl100k_by_name():
    tok = load_any("cl100k")
    assert tok.encode("hello world").ids == (15339, 1917)


def test_an_imported_tokenizer_with_other_ids_is_not_written_as_bpelab(tmp_path):
    from tests.engine.formats.test_hf import _library_trained
    from tests.engine.formats.samples import TRAINING

    data = _library_trained(TRAINING, ["<s>"])
    data["pre_tokenizer"]["add_prefix_space"] = False
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BpeLabError, match="--format hf"):
        export(load_source(path), "bpelab", tmp_path / "out.json")
    export(load_source(path), "hf", tmp_path / "again.json")
    assert load_any(tmp_path / "again.json").encode(TEXT).ids == load_any(path).encode(TEXT).ids


def test_several_files_are_written_all_or_none(tmp_path, monkeypatch):
    import os

    tok, _ = trained(units="bytes", split="gpt2")
    export(Source(tok), "tiktoken", tmp_path / "t.tiktoken")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    bigger, _ = trained(units="bytes", split="gpt2", merges=400)
    real = os.fdopen
    calls = []

    def full_disk(fd, *args, **kwargs):
        calls.append(fd)
        if len(calls) == 2:
            os.close(fd)
            raise OSError(28, "No space left on device")
        return real(fd, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", full_disk)
    with pytest.raises(BpeLabError, match="No space left on device.*nothing was changed"):
        export(Source(bigger), "tiktoken", tmp_path / "t.tiktoken")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
