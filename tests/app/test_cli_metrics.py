"""``bpe-lab metrics``: the engine's measures for any tokenizer BPE Lab reads, as text or JSON."""

import json

import pytest

from engine.lesson_io.loading import load_any
from engine.readable.metrics import measure
from tests.app.cli_run import run

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"
TEXT = "the lowest newer low é, and newest widest <|endoftext|>\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    from app.cli import main

    root = tmp_path_factory.mktemp("metrics")
    (root / "c.txt").write_text(CLASSIC, encoding="utf-8")
    (root / "t.txt").write_text(TEXT, encoding="utf-8")
    assert main(["train", str(root / "c.txt"), "--word-counts", "--merges", "5", "--out", str(root / "chars.json")]) == 0
    assert main(["export", str(root / "chars.json"), "--format", "hf", "--out", str(root / "hf.json")]) == 0
    assert main(["train", str(root / "c.txt"), "--word-counts", "--merges", "5", "--units", "bytes",
                 "--format", "tiktoken", "--out", str(root / "t.tiktoken")]) == 0
    return root


@pytest.mark.parametrize("name", ["chars.json", "hf.json", "t.tiktoken", "cl100k"])
def test_json_values_are_the_engines(files, name, capsys):
    tokenizer = str(files / name) if name != "cl100k" else name
    status, out, err = run(capsys, "metrics", "--tokenizer", tokenizer, "--file", files / "t.txt", "--json")
    assert status == 0, err
    expected = measure(load_any(tokenizer), TEXT).as_dict()
    assert json.loads(out) == expected
    assert set(expected) >= {"characters_per_token", "bytes_per_token", "tokens_per_word", "whole_share",
                             "split_share", "unknown", "unknown_share", "vocab_used", "vocab_used_share",
                             "renyi_efficiency", "shannon_efficiency", "alpha"}


def test_a_char_level_vocabulary_counts_its_unknowns_and_a_byte_level_one_has_none(files, capsys):
    chars = json.loads(run(capsys, "metrics", "--tokenizer", files / "chars.json", "--file", files / "t.txt", "--json")[1])
    bytes_ = json.loads(run(capsys, "metrics", "--tokenizer", files / "t.tiktoken", "--file", files / "t.txt", "--json")[1])
    # outside the classic letters: h; é and the comma; a; < | f x | > of <|endoftext|> (ordinary text)
    assert chars["unknown"] == 10 and bytes_["unknown"] == 0


def test_alpha_and_allow_special_reach_the_measure(files, capsys):
    out = run(capsys, "metrics", "--tokenizer", "cl100k", "--file", files / "t.txt", "--json", "--alpha", "1",
              "--allow-special")[1]
    got = json.loads(out)
    assert got == measure(load_any("cl100k"), TEXT, alpha=1, allow_special=True).as_dict()
    assert got["renyi_efficiency"] == got["shannon_efficiency"]


def test_text_output_names_every_measure_with_the_engines_figures(files, capsys):
    status, out, _ = run(capsys, "metrics", "--tokenizer", files / "chars.json", "--file", files / "t.txt")
    m = measure(load_any(str(files / "chars.json")), TEXT)
    lines = dict(line.split("  ", 1) for line in out.splitlines())
    assert status == 0
    assert lines["tokens"].strip() == str(m.tokens)
    assert lines["tokens per word"].strip().startswith(f"{m.tokens_per_word:.3f}")
    assert f"{m.renyi_efficiency:.4f}" in lines["Rényi efficiency (α = 2.5)"]
    assert any(name.startswith("unknown tokens") for name in lines)


def _one_line(status, out, err, *words):
    assert status == 2 and not out, err
    assert "Traceback" not in err and len(err.splitlines()) == 1 and err.startswith("bpe-lab: "), err
    for word in words:
        assert word in err


def test_bad_inputs_give_one_line_and_exit_2(files, tmp_path, capsys):
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    _one_line(*run(capsys, "metrics", "--tokenizer", tmp_path / "missing.json", "--file", files / "t.txt"), "missing.json")
    _one_line(*run(capsys, "metrics", "--tokenizer", tmp_path / "broken.json", "--file", files / "t.txt"), "broken.json")
    _one_line(*run(capsys, "metrics", "--tokenizer", files / "chars.json", "--file", tmp_path / "latin1.txt"), "UTF-8")
    _one_line(*run(capsys, "metrics", "--tokenizer", files / "chars.json", "--file", tmp_path / "nothing.txt"))
    _one_line(*run(capsys, "metrics", "--tokenizer", files / "chars.json", "--file", files / "t.txt", "--alpha", "0"),
              "--alpha")
