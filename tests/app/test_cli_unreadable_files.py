"""Every command that reads a file the user names refuses, in one line and with exit 2, a file it
may not read and a file that is no stored file (a named pipe, a stream such as /proc/kmsg), before
reading a byte of it: never a traceback, never a wait for data that does not come."""

import builtins
import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from tests.app.cli_run import run
from tests.app.test_cli_bad_files import one_line

ROOT = Path(__file__).resolve().parents[2]

# every command that reads a file the user names, with {file} the file in question
COMMANDS = {
    "train": ["train", "{file}", "--out", "{tmp}/t.json"],
    "train --word-counts": ["train", "{file}", "--word-counts", "--out", "{tmp}/t.json"],
    "train --format hf": ["train", "{file}", "--format", "hf", "--out", "-"],
    "count": ["count", "{file}", "--out", "-"],
    "count, second file": ["count", "{good}", "{file}", "--out", "{tmp}/c.tsv"],
    "encode --tokenizer": ["encode", "--tokenizer", "{file}", "low"],
    "encode --file": ["encode", "--tokenizer", "{tokenizer}", "--file", "{file}"],
    "decode --tokenizer": ["decode", "--tokenizer", "{file}", "1"],
    "export": ["export", "{file}", "--format", "csv", "--out", "-"],
    "quiz check": ["quiz", "check", "{file}"],
}
# a command that renders with Qt: run in a process of its own only (it sets up Qt's messages for the process)
IN_PROCESS_OF_ITS_OWN = {"snapshot": ["snapshot", "{file}", "--out", "{tmp}/s.png"]}
# what each command reads, written well: the command would succeed if it could read it
CONTENT = {"encode --tokenizer": "tokenizer", "decode --tokenizer": "tokenizer", "export": "tokenizer",
           "quiz check": "pack"}
PACK = '{"format": "bpe-lab-quiz", "version": 1, "questions": [{"id": "n", "kind": "number", "prompt": "?", "answer": 9}]}'


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    root = tmp_path_factory.mktemp("readable")
    (root / "corpus.txt").write_text("low low lower newest newest widest\n")
    assert main(["train", str(root / "corpus.txt"), "--out", str(root / "tokenizer.json")]) == 0
    (root / "pack.json").write_text(PACK)
    return root


def argv(case, file, good, tmp_path):
    return [a.format(file=file, good=good / "corpus.txt", tokenizer=good / "tokenizer.json", tmp=tmp_path)
            for a in {**COMMANDS, **IN_PROCESS_OF_ITS_OWN}[case]]


def forbid(monkeypatch, path):
    """Opening ``path`` fails as it does for a user without read permission (the tests may run as
    root, who may read anything): through ``os.open`` and through Python's ``open`` alike."""
    target = os.path.abspath(path)

    def denied(name):
        return isinstance(name, (str, bytes, os.PathLike)) and os.path.abspath(os.fsdecode(name)) == target

    def guarded(real):
        def opener(name, *args, **kwargs):
            if denied(name):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(name))
            return real(name, *args, **kwargs)
        return opener

    monkeypatch.setattr(os, "open", guarded(os.open))
    monkeypatch.setattr(builtins, "open", guarded(builtins.open))
    monkeypatch.setattr(io, "open", guarded(io.open))


@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_a_file_the_user_may_not_read_is_said_so(case, good, tmp_path, capsys, monkeypatch):
    file = tmp_path / "locked.json"
    file.write_bytes((good / {"tokenizer": "tokenizer.json", "pack": "pack.json"}.get(CONTENT.get(case), "corpus.txt"))
                     .read_bytes())
    forbid(monkeypatch, file)
    line = one_line(*run(capsys, *argv(case, file, good, tmp_path))[::2], str(file), "permission denied")
    assert "check that you may read it" in line


def streams():
    """Files that look like a stored file to open but block a plain read: a named pipe, and the
    kernel's log where this system lets it be opened (it is a regular file of size 0)."""
    found = ["fifo"]
    try:
        os.close(os.open("/proc/kmsg", os.O_RDONLY | os.O_NONBLOCK))
    except OSError:
        pass
    else:
        found.append("/proc/kmsg")
    return found


@pytest.mark.parametrize("case", sorted({**COMMANDS, **IN_PROCESS_OF_ITS_OWN}))
@pytest.mark.parametrize("special", streams())
def test_a_file_that_would_block_a_read_is_refused_at_once(case, special, good, tmp_path):
    if special == "fifo":
        special = tmp_path / "pipe"
        os.mkfifo(special)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    # in a process of its own: a read that waits fails the test at the timeout rather than hang it
    done = subprocess.run([sys.executable, "-m", "app", *argv(case, special, good, tmp_path)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    line = one_line(done.returncode, done.stderr, str(special))
    assert "not a regular file" in line or "it is not a stored file" in line
