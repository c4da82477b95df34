"""Counting a text in parts, streamed from its file or on several processes, gives exactly the
words, counts and first-appearance order of counting it whole, under every split rule."""

from __future__ import annotations

import random

import pytest

from engine.algorithm import word_counting as counting
from engine.algorithm.corpus import Corpus
from engine.algorithm.word_counting import count_file, count_text, count_words, cuts_for
from engine.errors import NotPlainTextError
from engine.files.reading import RegularFile
from engine.algorithm.settings import Settings

PIECES = ["the", "The", "cat", "CAT", "sat", "é", "ÉTÉ", "日本語", "🙂", "ΟΔΟΣ", "Σ", "it's", "I'M", "42", "1234567",
          "<|endoftext|>", "a-b", "x\u0301", "end."]
GAPS = [" ", "  ", "\n", "\r\n", "\r\n\r\n", "\t", " \n ", "\u00a0", "\u2028", "\x1c"]


def generated(seed: int, words: int = 3000) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(PIECES) + rng.choice(GAPS) for _ in range(words))


SETTINGS = [
    Settings(),
    Settings(lowercase=True),
    Settings(split="gpt2", units="bytes"),
    Settings(split="gpt4", lowercase=True),
    Settings(split="gpt4", special_tokens=("<|endoftext|>",)),
    Settings(special_tokens=("<|endoftext|>",)),
    Settings(split="none"),
    Settings(special_tokens=("a b",)),  # a special token holding a space: the text counts in one part
]


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("part", [5, 64, 1000])
def test_parts_in_memory_count_as_the_whole(settings, part):
    text = generated(1)
    whole = count_words(text, settings)
    seen = []
    parts = count_text(text, settings, lambda done, total: seen.append((done, total)), workers=1, part=part)
    assert list(parts.items()) == list(whole.items())  # the same words, counts and order
    assert seen[-1] == (len(text), len(text))
    if cuts_for(settings) is not None:
        assert len(seen) > 1


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("chunk", [2, 40])
def test_a_text_split_a_chunk_at_a_time_counts_as_split_whole(monkeypatch, settings, chunk):
    text = generated(3)
    monkeypatch.setattr(counting, "CHUNK", 1 << 30)
    whole = count_words(text, settings)
    monkeypatch.setattr(counting, "CHUNK", chunk)
    assert list(count_words(text, settings).items()) == list(whole.items())


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("part", [3, 17, 4096])
def test_a_streamed_file_counts_as_the_whole(tmp_path, settings, part):
    text = generated(2)
    path = tmp_path / "corpus.txt"
    # a byte order mark, and a part size that lands in the middle of multi-byte characters
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert list(count_file(path, settings, workers=1, part=part).items()) == list(count_words(text, settings).items())
    assert Corpus.from_file(path, settings, workers=1) == Corpus.from_text(text, settings)


@pytest.mark.parametrize("settings", [Settings(), Settings(split="gpt2"), Settings(split="gpt4", lowercase=True)])
def test_parallel_counting_counts_as_the_whole(tmp_path, monkeypatch, settings):
    monkeypatch.setattr(counting, "PARALLEL_FROM", 0)
    text = generated(3, 20000)
    path = tmp_path / "corpus.txt"
    path.write_bytes(text.encode("utf-8"))
    whole = list(count_words(text, settings).items())
    with RegularFile(path) as f:
        spans = counting._file_spans(f, cuts_for(settings), 7001)
    assert len(spans) > 5 and spans[-1][1] == path.stat().st_size
    assert all(a < b for a, b in spans) and all(x[1] == y[0] for x, y in zip(spans, spans[1:]))
    assert list(count_file(path, settings, workers=2, part=7001).items()) == whole
    assert list(count_text(text, settings, workers=2, part=7001).items()) == whole


def test_cuts_fall_where_the_rule_cuts():
    gpt = cuts_for(Settings(split="gpt2"))
    assert gpt.after("ab cd", 0) == 2 and gpt.after(b"ab  cd ef", 1) == 6
    assert gpt.after("a1 b", 0) is None
    assert cuts_for(Settings(split="none")) is None
    assert cuts_for(Settings(split="gpt4", special_tokens=("<|im start|>",))) is None
    assert cuts_for(Settings()).after("abc\r\ndef", 0) == 3


def test_a_file_that_is_not_utf8_is_refused_with_the_offset_in_the_whole_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"word " * 1000 + b"\xff rest")
    with pytest.raises(NotPlainTextError, match="offset 5000"):
        count_file(path, Settings(), workers=1, part=100)
    path.write_bytes(b"word " * 1000 + b"\x00")
    with pytest.raises(NotPlainTextError, match="binary"):
        count_file(path, Settings(), workers=1, part=100)


@pytest.mark.parametrize("split", ["whitespace", "gpt2"])
@pytest.mark.parametrize("tail", [0, 10, 5000, 100_000])
def test_the_last_cut_is_found_however_far_it_lies_from_the_end(split, tail):
    cuts = cuts_for(Settings(split=split))
    assert cuts.last(b"ab cd" + b"x" * tail) == 2
    assert cuts.last(b"x" * (tail + 1)) is None


@pytest.mark.parametrize("settings", [Settings(), Settings(split="gpt2")])
def test_a_long_run_without_a_cut_is_searched_once_not_again_with_each_part(tmp_path, monkeypatch, settings):
    from engine.algorithm.word_counting import Cuts

    path = tmp_path / "corpus.txt"
    text = "ab cd " + "x" * 20_000 + " y z"
    path.write_text(text, encoding="utf-8")
    searched = []
    last = Cuts.last

    def counted(self, data, since=0):
        searched.append(len(data) - max(1, since))
        return last(self, data, since)

    monkeypatch.setattr(Cuts, "last", counted)
    assert count_file(path, settings, workers=1, part=16) == count_words(text, settings)
    # searching all that was read again for each new part came to about 12 million bytes
    assert sum(searched) < 3 * len(text)
