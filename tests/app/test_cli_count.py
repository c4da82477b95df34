"""``bpe-lab count``: word counts that ``train --word-counts`` reads back as the corpus ``train`` counts."""

from __future__ import annotations

import io
import os

import pytest

from tests.app.cli_run import run



def test_counts_of_several_files_add_up_in_order_of_first_appearance(tmp_path, capsys):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("low low\r\nlower <|endoftext|> Low\n", encoding="utf-8")
    b.write_text("newest low\u00a0widest", encoding="utf-8")
    status, out, err = run(capsys, "count", a, b, "--out", "-", "--special", "<|endoftext|>")
    assert status == 0 and err == ""
    assert out == "low\t3\nlower\t1\nLow\t1\nnewest\t1\nwidest\t1\n"
    status, out, _ = run(capsys, "count", a, b, "--out", "-", "--lowercase", "--special", "<|endoftext|>")
    assert out == "low\t4\nlower\t1\nnewest\t1\nwidest\t1\n"


def test_training_on_the_counts_learns_what_training_on_the_text_learns(tmp_path, capsys):
    text = tmp_path / "text.txt"
    text.write_text("the cat sat on the mat; the cat ate the rat\n" * 30 + "a tie: ab ba\n", encoding="utf-8")
    counts = tmp_path / "counts.tsv"
    assert run(capsys, "count", text, "--out", counts, "--progress")[0] == 0
    histories, bars = [], []
    for source, extra in ((text, []), (counts, ["--word-counts"])):
        history = tmp_path / f"h{len(histories)}.json"
        status, _, err = run(capsys, "train", source, *extra, "--out", tmp_path / "t.json", "--history", history,
                             "--progress")
        assert status == 0
        histories.append(history.read_text(encoding="utf-8"))
        bars.append(err)
    assert histories[0] == histories[1]
    # the bar starts with the counting of a text, before the merges
    assert bars[0].index("counting") < bars[0].index("training") and "counting" not in bars[1]


def test_standard_input_counts_too(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("b a b\n".encode("utf-8"))))
    assert run(capsys, "count", "-", "--out", "-")[1] == "b\t2\na\t1\n"


def test_no_words_and_special_files_end_with_one_line(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text(" \n", encoding="utf-8")
    status, _, err = run(capsys, "count", empty, "--out", tmp_path / "c.tsv")
    assert status == 2 and "no words" in err and not (tmp_path / "c.tsv").exists()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    status, _, err = run(capsys, "count", fifo, "--out", tmp_path / "c.tsv")
    assert status == 2 and "named pipe" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("split", ["gpt2", "none"])
def test_splits_whose_words_hold_spaces_are_refused(tmp_path, capsys, split):
    text = tmp_path / "t.txt"
    text.write_text("a b", encoding="utf-8")
    status, _, err = run(capsys, "count", text, "--out", "-", "--split", split)
    assert status == 2 and "--split" in err
