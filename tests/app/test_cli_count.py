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


def test_ctrl_c_mid_count_in_processes_ends_them_and_says_so_without_a_traceback(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from engine.algorithm.word_counting import PARALLEL_FROM
    from tests.child_processes import cpu_seconds, forkserver_children, gone

    root = Path(__file__).resolve().parents[2]
    big = tmp_path / "big.txt"
    line = "the lowest newest widest low lower é 漢字 tea team teams steam seat\n"
    big.write_text(line * (3 * PARALLEL_FROM // len(line.encode())), encoding="utf-8")
    # its own session, so that Ctrl+C reaches the whole group as a terminal sends it
    command = subprocess.Popen([sys.executable, "-m", "app", "count", str(big), "--out", str(tmp_path / "counts.txt")],
                               env={**os.environ, "PYTHONPATH": str(root)}, cwd=root, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        end = time.monotonic() + 120
        # interrupted while its processes count, not while they start
        while True:
            counting = forkserver_children(command.pid)
            if sum(map(cpu_seconds, counting)) >= 0.3:
                break
            assert command.poll() is None and time.monotonic() < end, command.communicate()
            time.sleep(0.02)
        os.killpg(command.pid, signal.SIGINT)
        _, err = command.communicate(timeout=60)
    finally:
        command.kill()
    assert command.returncode == 130 and err.startswith("bpe-lab: interrupted\n") and "Traceback" not in err
    end = time.monotonic() + 3  # a bound on "it stopped"
    while not all(gone(pid) for pid in counting):
        assert time.monotonic() < end
        time.sleep(0.05)
