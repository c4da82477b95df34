"""One function run in a child process, which ends at once when the caller stops waiting for it.

For work Python cannot interrupt: Hugging Face ``tokenizers`` trains in native code that returns to
Python only when it is done, so neither a stop flag nor Ctrl+C reaches it. A process can be ended
whatever it runs, and its memory and cores are given back as it goes::

    json = run_in_child(train_to_json, text, 2_000, check=abort_if_requested)

``check`` is called about ten times a second while the child works; when it raises (a worker asked
to stop, Ctrl+C in the waiting thread) the child is terminated, killed if it lingers, and the
exception goes on. What the child raises is raised again here as itself (as a ``RuntimeError`` naming
it, when it cannot be sent across); a child that ends without answering raises ``ChildDiedError``.

The child is started by forkserver where the system has it, else spawn: never fork, since a window's
threads (Qt's among them) do not survive into a forked child. It ignores Ctrl+C, which its caller
decides about, and ends on its own when its caller's process goes, however that goes: it watches a pipe
only the caller holds open.

Left out: progress reported from the child, pools of children (``engine.algorithm.word_counting``
counts in a pool of its own).
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from engine.errors import BpeLabError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

T = TypeVar("T")

# seconds between two calls of ``check``: how long a stop waits at most before the child is ended
POLL_SECONDS = 0.1
# seconds a terminated child has to go before it is killed
TERMINATE_SECONDS = 1.0
# the exit status of a child whose caller went away
ORPHANED = 3


class ChildDiedError(BpeLabError):
    """The child process ended without an answer: killed (out of memory, by a person) or crashed."""


def _nothing() -> None:
    return None


def run_in_child(work: Callable[..., T], *args: Any, check: Callable[[], None] = _nothing, what: str = "the work") -> T:
    """``work(*args)`` computed in a child process; ``work``, the arguments and the result must pickle.

    ``what`` names the work in ``ChildDiedError``'s message ("the Unigram training").
    """
    import multiprocessing
    from multiprocessing.connection import wait

    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    answers, answer_end = context.Pipe(duplex=False)
    lifeline, kept_open = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, args, answer_end, lifeline), daemon=True,
                            name=f"bpe-lab: {what}")
    try:
        check()
        try:
            child.start()
        except (BrokenPipeError, ConnectionResetError):
            pass  # it died while it was handed the work: said below
        else:
            # only the child holds these ends now: its answer pipe reads as ended if it dies
            answer_end.close()
            lifeline.close()
            while True:
                check()
                ready = wait([answers, child.sentinel], POLL_SECONDS)
                if answers in ready or (ready and answers.poll()):
                    try:
                        data = answers.recv_bytes()
                    except EOFError:
                        break
                    kind, value = pickle.loads(data)
                    if kind == "raised":
                        raise value
                    result: T = value
                    return result
                if ready:  # the child ended and no answer is waiting
                    break
    finally:
        _end(child)
        for end in (answers, answer_end, lifeline, kept_open):
            end.close()
    raise ChildDiedError(f"{what} stopped unexpectedly ({_how_it_ended(child.exitcode)}): try again, or with "
                         "a smaller text or vocabulary size")


def _end(child: BaseProcess) -> None:
    """The child gone, by terminating it and then killing it if it lingers."""
    if child.pid is None:  # never started
        return
    child.join(0)
    if child.exitcode is None:
        child.terminate()
        child.join(TERMINATE_SECONDS)
    if child.exitcode is None:
        child.kill()
        child.join()


def _how_it_ended(code: int | None) -> str:
    if code is None:  # it never told its status
        return "the process ended as it started"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = ", perhaps for want of memory" if -code == signal.SIGKILL else ""
        return f"the process was ended by {name}{hint}"
    return f"the process exited with status {code}"


def _child(work: Callable[..., object], args: tuple[object, ...], answers: Connection, lifeline: Connection) -> None:
    """In the child: the answer sent back as pickled bytes, ("returned", value) or ("raised", exception)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with_caller, args=(lifeline,), daemon=True).start()
    answer: tuple[str, object]
    try:
        answer = ("returned", work(*args))
    except BaseException as exc:  # noqa: BLE001 (every failure goes back to the caller, which reports it)
        answer = ("raised", exc)
    try:
        data = pickle.dumps(answer)
        pickle.loads(data)  # an exception that pickles may still not unpickle (a constructor of its own)
    except Exception as failed:  # noqa: BLE001
        value = answer[1]
        if answer[0] == "returned":
            value = failed
        data = pickle.dumps(("raised", RuntimeError(f"{type(value).__name__}: {value}")))
    answers.send_bytes(data)


def _end_with_caller(lifeline: Connection) -> None:
    """Wait for the caller's end of the lifeline to close, then leave at once (the caller is gone)."""
    try:
        lifeline.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(ORPHANED)
