"""Where the commands write: regular files or new paths, standard output for `-`, the tokenizer and
its history together or not at all."""

import json
import os
import stat

import pytest

from tests.app.cli_run import run

CORPUS = "low low low lower lower newest newest widest\n"


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text(CORPUS, encoding="utf-8")
    return path



def names(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("fmt, key", [("bpelab", "format"), ("hf", "model")])
def test_train_out_dash_prints_a_one_file_format(tmp_path, corpus, capsys, monkeypatch, fmt, key):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "train", corpus, "--merges", 3, "--format", fmt, "--out", "-")
    assert status == 0, err
    assert key in json.loads(out)
    assert names(tmp_path) == ["corpus.txt"]  # no file named "-"


@pytest.mark.parametrize("command", ["train", "export"])
def test_out_dash_is_refused_for_a_format_of_several_files(tmp_path, corpus, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    argv = ["train", corpus, "--merges", 3] if command == "train" else ["export", "cl100k"]
    status, out, err = run(capsys, *argv, "--format", "gpt2", "--out", "-")
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and "more than one file" in err and "give --out a path" in err
    assert names(tmp_path) == ["corpus.txt"]


def test_out_onto_a_device_is_refused_and_the_device_kept(corpus, capsys):
    status, _, err = run(capsys, "train", corpus, "--merges", 3, "--out", "/dev/null")
    assert status == 2
    assert err.count("\n") == 1 and "/dev/null is a device, not a regular file" in err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_when_the_history_cannot_be_written_the_tokenizer_is_not_either(tmp_path, corpus, capsys):
    out = tmp_path / "tok.json"
    out.write_text("the old tokenizer")
    status, _, err = run(capsys, "train", corpus, "--merges", 3, "--out", out,
                         "--history", tmp_path / "missing" / "history.json")
    assert status == 2 and "does not exist" in err
    assert out.read_text() == "the old tokenizer"
    assert names(tmp_path) == ["corpus.txt", "tok.json"]


def test_a_gpt2_folder_is_not_left_behind_when_the_history_fails(tmp_path, corpus, capsys):
    status, _, _ = run(capsys, "train", corpus, "--merges", 3, "--format", "gpt2", "--out", tmp_path / "gpt2",
                       "--history", tmp_path / "missing" / "history.json")
    assert status == 2
    assert names(tmp_path) == ["corpus.txt"]


def test_history_dash_prints_the_history_and_writes_the_tokenizer(tmp_path, corpus, capsys):
    out = tmp_path / "tok.json"
    status, printed, _ = run(capsys, "train", corpus, "--merges", 3, "--out", out, "--history", "-")
    assert status == 0
    assert len(json.loads(printed)["steps"]) == 3
    assert json.loads(out.read_text())["format"] == "bpe-lab-tokenizer"


@pytest.mark.slow
def test_an_export_over_a_shared_file_keeps_its_mode(tmp_path, capsys):
    out = tmp_path / "cl100k.csv"
    out.write_text("old")
    out.chmod(0o664)
    assert run(capsys, "export", "cl100k", "--format", "csv", "--out", out)[0] == 0
    assert out.read_text().startswith("# BPE Lab vocabulary")
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o664


def test_a_symbolic_link_loop_is_named_as_one_for_reading_and_writing(tmp_path, corpus, capsys):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for argv in (["train", loop, "--out", tmp_path / "t.json"], ["train", corpus, "--merges", 1, "--out", loop]):
        status, _, err = run(capsys, *argv)
        assert status == 2
        assert err.count("\n") == 1 and "a loop of symbolic links" in err


# each format, and the file of it made read-only (a folder's merges.txt, a .tiktoken's sidecar)
READ_ONLY = [("bpelab", "tok.json"), ("hf", "tokenizer.json"), ("csv", "vocab.csv"), ("gpt2", "gpt2/merges.txt"),
             ("tiktoken", "out.tiktoken"), ("tiktoken", "out.tiktoken.json")]


@pytest.mark.parametrize("command", ["train", "export"])
@pytest.mark.parametrize("fmt, locked", READ_ONLY)
def test_every_export_refuses_a_read_only_file_and_changes_nothing(tmp_path, corpus, capsys, command, fmt, locked):
    source = tmp_path / "source.json"
    options = ["--units", "bytes", "--split", "gpt4", "--merges", 3]
    assert run(capsys, "train", corpus, "--out", source, *options)[0] == 0
    out = tmp_path / ("gpt2" if fmt == "gpt2" else ("out.tiktoken" if fmt == "tiktoken" else locked))
    (tmp_path / locked).parent.mkdir(exist_ok=True)
    (tmp_path / locked).write_text("kept")
    (tmp_path / locked).chmod(0o444)
    before = names(tmp_path)
    argv = ["train", corpus, *options] if command == "train" else ["export", source]
    status, printed, err = run(capsys, *argv, "--format", fmt, "--out", out)
    assert (status, printed) == (2, "")
    assert err.count("\n") == 1
    assert f"{tmp_path / locked} is read-only" in err and "make it writable, or save under another name" in err
    assert (tmp_path / locked).read_text() == "kept"
    assert names(tmp_path) == before


def test_count_refuses_a_read_only_output(tmp_path, corpus, capsys):
    out = tmp_path / "counts.tsv"
    out.write_text("kept")
    out.chmod(0o444)
    status, _, err = run(capsys, "count", corpus, "--out", out)
    assert status == 2 and "is read-only" in err and out.read_text() == "kept"
