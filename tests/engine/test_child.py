"""``engine.child``: work in a child process, its answer or its exception back, and the child gone the
moment the caller stops waiting, or goes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.child import ChildDiedError, run_in_child
from engine.errors import BpeLabError
from tests.child_processes import gone

ROOT = Path(__file__).resolve().parents[2]
# generous: the bound on "it stopped", never a measure of speed
GONE_WITHIN = 10.0


class Stop(Exception):
    pass


class OddError(Exception):
    """An exception that pickles and then cannot be rebuilt: its constructor wants two arguments."""

    def __init__(self, a, b):
        super().__init__(f"{a} and {b}")


def square(n):
    return n * n


def refuse(message):
    raise BpeLabError(message)


def refuse_oddly():
    raise OddError(1, 2)


def die():
    os.kill(os.getpid(), signal.SIGKILL)


def say_pid_then_sleep(path):
    Path(path).write_text(str(os.getpid()))
    time.sleep(600)


def wait_for(condition, seconds=GONE_WITHIN):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def test_the_works_answer_comes_back():
    assert run_in_child(square, 12) == 144


def test_an_error_in_the_child_is_raised_again_as_itself():
    with pytest.raises(BpeLabError, match="^the text is empty$"):
        run_in_child(refuse, "the text is empty")
    # one that cannot cross is named, class and message
    with pytest.raises(RuntimeError, match="OddError: 1 and 2"):
        run_in_child(refuse_oddly)


def test_a_child_that_dies_says_so():
    with pytest.raises(ChildDiedError, match="the Unigram training stopped unexpectedly .*SIGKILL"):
        run_in_child(die, what="the Unigram training")


def test_a_check_that_raises_ends_the_child(tmp_path):
    pid_file = tmp_path / "pid"

    def check():
        if pid_file.exists() and pid_file.read_text():
            raise Stop

    with pytest.raises(Stop):
        run_in_child(say_pid_then_sleep, str(pid_file), check=check)
    # ended before the exception went on: nothing to wait for
    assert gone(int(pid_file.read_text()))


CALLER = """
import sys
from engine.child import run_in_child
from tests.engine.test_child import say_pid_then_sleep
if __name__ == "__main__":
    run_in_child(say_pid_then_sleep, sys.argv[1])
"""


def caller(tmp_path, pid_file, **kwargs):
    script = tmp_path / "caller.py"
    script.write_text(CALLER)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    caller = subprocess.Popen([sys.executable, str(script), str(pid_file)], env=env, cwd=ROOT,
                              stderr=subprocess.PIPE, text=True, **kwargs)
    assert wait_for(lambda: pid_file.exists() and pid_file.read_text(), 60), caller.stderr
    return caller, int(pid_file.read_text())


def test_a_child_whose_caller_is_killed_ends_too(tmp_path):
    killed, child = caller(tmp_path, tmp_path / "pid")
    killed.kill()
    killed.wait(60)
    assert wait_for(lambda: gone(child))


def test_ctrl_c_ends_the_caller_and_the_child(tmp_path):
    # a terminal sends Ctrl+C to the whole foreground group: the child ignores it, the caller ends it
    interrupted, child = caller(tmp_path, tmp_path / "pid", start_new_session=True)
    os.killpg(interrupted.pid, signal.SIGINT)
    _, err = interrupted.communicate(timeout=60)
    assert interrupted.returncode != 0 and "KeyboardInterrupt" in err
    assert wait_for(lambda: gone(child))
