"""``bpe-lab compare-algorithms``: three algorithms, one corpus, one vocabulary size, the engine's measures."""

import json
import os
import random
import signal
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.readable.algorithms import ALGORITHMS, compare_algorithms
from tests.app.cli_run import run
from tests.child_processes import forkserver_children, gone

ROOT = Path(__file__).resolve().parents[2]

CORPUS = ("lowest newest widest slowest low lower new wider " * 20) + "unbelievable " * 30
HELD_OUT = "the slowest newest low, unbelievable\n"


@pytest.fixture
def texts(tmp_path):
    (tmp_path / "c.txt").write_text(CORPUS, encoding="utf-8")
    (tmp_path / "h.txt").write_text(HELD_OUT, encoding="utf-8")
    return tmp_path


def test_json_holds_the_three_with_the_engines_measures(texts, capsys):
    status, out, err = run(capsys, "compare-algorithms", texts / "c.txt", "--vocab-size", "40",
                           "--held-out", texts / "h.txt", "--json")
    assert status == 0, err
    got = json.loads(out)
    expected = compare_algorithms(CORPUS, 40, HELD_OUT)
    assert got["vocab_size"] == 40
    assert [a["name"] for a in got["algorithms"]] == list(ALGORITHMS)
    # WordPiece's trainer breaks ties between equally frequent pairs in an order of its own that
    # changes from run to run, so its figures are checked for their shape and their sums
    for shown, trained in zip(got["algorithms"], expected):
        assert set(shown["metrics"]) == set(trained.metrics.as_dict()) and shown["how_it_learns"]
        if trained.name != "WordPiece":
            assert shown["metrics"] == trained.metrics.as_dict()
            assert shown["only_here"] == list(trained.only_here)
    wordpiece = got["algorithms"][1]["metrics"]
    assert wordpiece["tokens_per_word"] == wordpiece["tokens"] / wordpiece["words"] and wordpiece["words"] == 5


def test_the_corpus_is_the_held_out_text_by_default(texts, capsys):
    got = json.loads(run(capsys, "compare-algorithms", texts / "c.txt", "--vocab-size", "40", "--json")[1])
    assert got["algorithms"][0]["metrics"]["words"] == len(CORPUS.split())


def test_text_output_sets_the_measures_side_by_side(texts, capsys):
    status, out, _ = run(capsys, "compare-algorithms", texts / "c.txt", "--vocab-size", "40", "--held-out", texts / "h.txt")
    lines = out.splitlines()
    assert status == 0
    assert lines[0].split() == list(ALGORITHMS)
    tokens = next(line for line in lines if line.startswith("tokens "))
    expected = compare_algorithms(CORPUS, 40, HELD_OUT)
    shown = tokens.split()[1:]
    assert (shown[0], shown[2]) == (str(expected[0].metrics.tokens), str(expected[2].metrics.tokens))
    assert any(line.startswith("only Unigram has: ") for line in lines)
    assert any("most frequent pair" in line for line in lines)


def test_bad_inputs_give_one_line_and_exit_2(texts, tmp_path, capsys):
    (tmp_path / "empty.txt").write_text("   \n", encoding="utf-8")
    for argv in (["compare-algorithms", tmp_path / "missing.txt", "--vocab-size", "40"],
                 ["compare-algorithms", tmp_path / "empty.txt", "--vocab-size", "40"],
                 ["compare-algorithms", texts / "c.txt", "--vocab-size", "0"],
                 ["compare-algorithms", texts / "c.txt", "--vocab-size", "40", "--held-out", tmp_path / "none.txt"]):
        status, out, err = run(capsys, *argv)
        assert status == 2 and not out, err
        assert len(err.splitlines()) == 1 and err.startswith("bpe-lab: ") and "Traceback" not in err


def test_without_the_tokenizers_library_it_says_how_to_install_it(texts, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "tokenizers", None)  # import tokenizers now fails
    status, out, err = run(capsys, "compare-algorithms", texts / "c.txt", "--vocab-size", "40")
    assert status == 2 and not out
    assert "pip install 'tokenizers>=0.19'" in err and len(err.splitlines()) == 1


def test_ctrl_c_mid_training_ends_the_command_and_its_training_process(tmp_path):
    rng = random.Random(7)
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 12))) for _ in range(10_000)]
    corpus = tmp_path / "large.txt"
    corpus.write_text(" ".join(rng.choice(words) for _ in range(40_000)), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # its own session, so that Ctrl+C goes to its whole group as a terminal sends it
    command = subprocess.Popen([sys.executable, "-m", "app", "compare-algorithms", str(corpus), "--vocab-size", "1000"],
                               env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        end = time.monotonic() + 120
        while not (training := forkserver_children(command.pid)):
            assert command.poll() is None and time.monotonic() < end, command.communicate()
            time.sleep(0.02)
        os.killpg(command.pid, signal.SIGINT)
        out, err = command.communicate(timeout=60)
    finally:
        command.kill()
    assert command.returncode == 130 and err == "bpe-lab: interrupted\n" and not out
    # the command ended its training before it went: a generous bound on "it stopped"
    end = time.monotonic() + 3
    while not all(gone(pid) for pid in training):
        assert time.monotonic() < end
        time.sleep(0.05)
