"""A command run as its own process ends as soon as its output is out (``app.cli.exit_now``): the
files and the printed text are whole, a failed write to standard output still fails the command,
and a command run inside another program keeps nothing for an exit that never comes."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import app.cli
from tests.app.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
CORPUS = "low low low lower lower newest newest widest\n" * 20


def process(*argv, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "app", *map(str, argv)], env=env, cwd=ROOT, timeout=120, **kwargs)


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text(CORPUS, encoding="utf-8")
    return path


def test_a_training_process_writes_what_the_same_command_writes_in_process(tmp_path, corpus, capsys):
    done = process("train", corpus, "--out", tmp_path / "own.json", "--history", tmp_path / "own-history.json",
                   capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert run(capsys, "train", corpus, "--out", tmp_path / "here.json", "--history",
               tmp_path / "here-history.json")[0] == 0
    assert (tmp_path / "own.json").read_bytes() == (tmp_path / "here.json").read_bytes()
    assert (tmp_path / "own-history.json").read_bytes() == (tmp_path / "here-history.json").read_bytes()


def test_printed_output_is_whole_when_the_process_ends(corpus, capsys):
    done = process("count", corpus, "--out", "-", capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert run(capsys, "count", corpus, "--out", "-")[1] == done.stdout
    assert done.stdout.splitlines() == ["low\t60", "lower\t40", "newest\t40", "widest\t20"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a device that is always full")
def test_output_that_cannot_be_written_fails_the_command_and_says_so(corpus):
    with open("/dev/full", "w") as full:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("PYTHONUNBUFFERED", None)
        done = subprocess.run([sys.executable, "-m", "app", "count", str(corpus), "--out", "-"], env=env, cwd=ROOT,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode != 0
    assert "bpe-lab: cannot write the output (No space left on device)" in done.stderr


def test_a_reader_that_stops_early_ends_the_command_quietly(corpus):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONUNBUFFERED", None)
    big = corpus.parent / "big.txt"
    big.write_text(" ".join(f"w{i}" for i in range(200_000)), encoding="utf-8")
    writer = subprocess.Popen([sys.executable, "-m", "app", "count", str(big), "--out", "-"], env=env, cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    writer.stdout.read(10)
    writer.stdout.close()
    err = writer.stderr.read().decode()
    assert writer.wait(timeout=120) == 0
    assert err == ""


def test_a_command_run_in_another_program_keeps_nothing_for_the_exit(tmp_path, corpus, capsys):
    assert run(capsys, "train", corpus, "--out", tmp_path / "t.json")[0] == 0
    assert run(capsys, "count", corpus, "--out", tmp_path / "c.tsv")[0] == 0
    assert app.cli._kept.things == []
