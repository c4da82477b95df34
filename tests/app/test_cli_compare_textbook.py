"""``bpe-lab train --compare-textbook``: the textbook loop raced against the trainer, said on stderr."""

import json
import re

from tests.app.cli_run import run

PARAGRAPH = "the quick brown fox jumps over the lazy dog while the other dogs sleep in the sun " * 4


def test_the_race_is_said_with_measured_figures_and_the_tokenizer_is_the_same(tmp_path, capsys):
    corpus = tmp_path / "text.txt"
    corpus.write_text(PARAGRAPH, encoding="utf-8")
    raced, plain = tmp_path / "raced.json", tmp_path / "plain.json"
    status, out, err = run(capsys, "train", corpus, "--out", raced, "--compare-textbook")
    assert status == 0 and out == ""
    merges = re.search(r"both make the same ([\d,]+) merges", err)
    assert merges, err
    assert re.search(r"textbook loop .* took [\d.]+ (ms|s); the trainer .* took [\d.]+ (ms|s)", err)
    assert run(capsys, "train", corpus, "--out", plain)[0] == 0
    assert json.loads(raced.read_text("utf-8")) == json.loads(plain.read_text("utf-8"))
    assert int(merges.group(1).replace(",", "")) == len(json.loads(plain.read_text("utf-8"))["merges"])


def test_the_textbook_loop_shows_its_own_bar_with_progress(tmp_path, capsys):
    corpus = tmp_path / "text.txt"
    corpus.write_text(PARAGRAPH, encoding="utf-8")
    status, _, err = run(capsys, "train", corpus, "--out", tmp_path / "t.json", "--compare-textbook", "--progress")
    assert status == 0
    assert "textbook loop [" in err and "training:" in err
    assert "On this corpus (" in err
