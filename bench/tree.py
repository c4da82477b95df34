"""Wall time, CPU time and peak memory of a command's whole process tree.

    from bench.tree import measure
    m = measure([sys.executable, "-m", "app", "train", ...])
    print(m.wall_s, m.cpu_s, m.peak_bytes, m.method)

``/usr/bin/time`` and ``wait4`` see one process: its CPU plus that of the children it waited for, and
the largest single process's resident set. A trainer that counts in a forkserver pool escapes both:
the forkserver is never waited for, so its workers' CPU is lost, and the workers' memory is held at
the same time as the parent's, so the tree's peak is their sum. Here the command runs in a fresh
cgroup where one can be made (cgroup v1's memory and cpuacct controllers, or v2), which accounts for
every process started inside it; elsewhere ``psutil`` samples the tree every 10 ms.

Memory is the tree's anonymous memory (heap, stacks, shared memory segments) in a cgroup, sampled
every 10 ms: the cgroup's own high-water mark (``memory.max_usage_in_bytes``, ``memory.peak``) also
counts the page cache of every file the tree reads or writes, so a corpus read for the first time
would count and the same corpus read again would not. ``Measured.method`` says which method measured.
Wall time ends when the command's first process exits (what a user waits for); CPU and memory go on
until the last process of the tree has gone.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

SAMPLE_S = 0.01
CGROUP = Path("/sys/fs/cgroup")
# how long the tree may outlive its first process (a forkserver exits when its pipe closes) before
# what is left is killed
LINGER_S = 10.0


@dataclass(frozen=True)
class Measured:
    wall_s: float
    cpu_s: float
    peak_bytes: int
    method: str
    returncode: int
    stdout: str = ""
    stderr: str = ""


class Tree:
    """How one method follows the tree: what the child does before exec, the memory now, the CPU
    used, the wait for the tree's end and the kill of what is left."""

    method = ""

    def preexec(self) -> None:
        """In the forked child, before it execs."""

    def memory(self, pid: int) -> int:
        raise NotImplementedError

    def finish(self, pid: int) -> None:
        """After the first process has exited and been waited for: wait for the rest of the tree."""

    def kill(self, pid: int) -> None:
        raise NotImplementedError

    def cpu_s(self) -> float:
        raise NotImplementedError

    def close(self) -> None:
        pass


# --- cgroups -----------------------------------------------------------------------------------

def _stat(path: Path) -> dict[str, int]:
    pairs = (line.split() for line in path.read_text().splitlines())
    return {p[0]: int(p[1]) for p in pairs if len(p) == 2}


def _own_group(controller: str) -> str:
    """This process's group in the hierarchy of ``controller`` ("" for v2's), so a new one nests
    under it rather than beside groups that others made."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        if controller in names.split(","):
            return path.lstrip("/")
    return ""


class Groups(Tree):
    """A fresh group (one folder per v1 controller) that the child enters before exec: every
    process it starts is born inside, and the group's counters keep the CPU of those reaped."""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = folders
        self.made: list[Path] = []
        for folder in folders:
            folder.mkdir()
            self.made.append(folder)

    def preexec(self) -> None:
        pid = str(os.getpid()).encode()
        for folder in self.folders:
            fd = os.open(folder / "cgroup.procs", os.O_WRONLY)
            try:
                os.write(fd, pid)
            finally:
                os.close(fd)

    def pids(self) -> list[int]:
        return [int(x) for x in (self.folders[0] / "cgroup.procs").read_text().split()]

    def finish(self, pid: int) -> None:
        deadline = time.monotonic() + LINGER_S
        while self.pids() and time.monotonic() < deadline:
            time.sleep(SAMPLE_S)
        self.kill(pid)

    def kill(self, pid: int) -> None:
        while left := self.pids():
            for each in left:
                try:
                    os.kill(each, 9)
                except ProcessLookupError:
                    pass
            time.sleep(SAMPLE_S)

    def close(self) -> None:
        for folder in reversed(self.made):
            try:
                folder.rmdir()
            except OSError:
                pass


class GroupsV1(Groups):
    method = ("cgroup v1: CPU = cpuacct.usage of the group (every process, reaped or not); memory = peak of "
              "memory.stat total_rss + total_shmem sampled every 10 ms (page cache left out)")

    def __init__(self, name: str) -> None:
        super().__init__([CGROUP / c / _own_group(c) / name for c in ("memory", "cpuacct")])

    def memory(self, pid: int) -> int:
        stat = _stat(self.folders[0] / "memory.stat")
        return stat.get("total_rss", 0) + stat.get("total_shmem", 0)

    def cpu_s(self) -> float:
        return int((self.folders[1] / "cpuacct.usage").read_text()) / 1e9


class GroupsV2(Groups):
    method = ("cgroup v2: CPU = cpu.stat usage_usec of the group (every process, reaped or not); memory = peak "
              "of memory.stat anon + shmem sampled every 10 ms (page cache left out)")

    def __init__(self, name: str) -> None:
        super().__init__([CGROUP / _own_group("") / name])

    def memory(self, pid: int) -> int:
        stat = _stat(self.folders[0] / "memory.stat")
        return stat.get("anon", 0) + stat.get("shmem", 0)

    def cpu_s(self) -> float:
        return _stat(self.folders[0] / "cpu.stat")["usage_usec"] / 1e6


def _make_groups() -> Groups:
    """Fresh groups for one run; OSError where none can be made here."""
    name = f"bench-tree-{os.getpid()}-{time.monotonic_ns()}"
    if (CGROUP / "memory" / "memory.stat").exists() and (CGROUP / "cpuacct" / "cpuacct.usage").exists():
        kind: type[Groups] = GroupsV1
    elif (CGROUP / "cgroup.controllers").exists():
        kind = GroupsV2
    else:
        raise OSError("no cgroup hierarchy with memory and CPU accounting is mounted")
    try:
        return kind(name)
    except OSError:
        # a half-made pair is taken down
        for folder in reversed([CGROUP / c / _own_group(c) / name for c in ("memory", "cpuacct", "")]):
            try:
                folder.rmdir()
            except OSError:
                pass
        raise


_usable: bool | None = None


def cgroup_usable() -> bool:
    """Whether a cgroup can be made and a process put into it here (tried once per process)."""
    global _usable
    if _usable is None:
        _usable = False
        try:
            groups = _make_groups()
        except OSError:
            return False
        try:
            groups.memory(0)
            groups.cpu_s()
            done = subprocess.run(["true"], preexec_fn=groups.preexec, check=False)
            _usable = done.returncode == 0
        except (OSError, KeyError, subprocess.SubprocessError):
            pass
        finally:
            groups.close()
    return _usable


# --- the fallback: psutil ----------------------------------------------------------------------

def _set_subreaper() -> bool:
    """Orphans of the tree are then handed to this process, which waits for them, so that their CPU
    is counted (Linux only; it holds for this process's life)."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


class Sampled(Tree):
    """psutil's view: the summed resident set of the process and its descendants, sampled; CPU from
    this process's children's times (the command, what it waited for, and the orphans waited for
    here)."""

    def __init__(self) -> None:
        import psutil

        self.psutil = psutil
        self.me = psutil.Process()
        reaping = ("plus every orphan's, waited for here as their subreaper" if _set_subreaper()
                   else "(an orphan's CPU is missed: no subreaper here)")
        self.method = (f"psutil: CPU = the command's and the descendants it waited for {reaping}; memory = peak of "
                       "the summed RSS of the process and all its descendants sampled every 10 ms (shared "
                       "library pages counted in each process)")
        self.seen: set[int] = set()
        self.top = 0
        self.before = os.times()

    def processes(self) -> list:
        """The command's process, its descendants and the orphans adopted here with theirs."""
        psutil = self.psutil
        roots = [c for c in self.me.children() if c.pid == self.top or c.pid in self.seen]
        found = []
        for root in roots:
            try:
                found += [root, *root.children(recursive=True)]
            except psutil.NoSuchProcess:
                pass
        return found

    def memory(self, pid: int) -> int:
        self.top = pid
        total = 0
        for p in self.processes():
            self.seen.add(p.pid)
            try:
                total += p.memory_info().rss
            except self.psutil.NoSuchProcess:
                pass
        return total

    def orphans(self, pid: int) -> list[int]:
        return [c.pid for c in self.me.children() if c.pid in self.seen and c.pid != pid]

    def finish(self, pid: int) -> None:
        deadline = time.monotonic() + LINGER_S
        while left := self.orphans(pid):
            for each in left:
                if time.monotonic() > deadline:
                    os.kill(each, 9)
                try:
                    os.waitpid(each, 0)
                except ChildProcessError:
                    pass

    def kill(self, pid: int) -> None:
        for p in self.processes():
            try:
                p.kill()
            except self.psutil.NoSuchProcess:
                pass
        self.finish(pid)

    def cpu_s(self) -> float:
        after = os.times()
        return (after.children_user - self.before.children_user) + (after.children_system - self.before.children_system)


# --- measuring ---------------------------------------------------------------------------------

def measure(argv: list[str], *, env: Mapping[str, str] | None = None, cwd: str | os.PathLike[str] | None = None,
            timeout: float | None = None, method: str = "auto") -> Measured:
    """Run ``argv`` to its end and measure its whole tree. ``method`` is "auto" (a cgroup where one
    can be made, else psutil), "cgroup" or "psutil". On a timeout the whole tree is killed and
    ``subprocess.TimeoutExpired`` raised."""
    if method not in ("auto", "cgroup", "psutil"):
        raise ValueError(f"method must be auto, cgroup or psutil, not {method!r}")
    tree = _make_groups() if method == "cgroup" or (method == "auto" and cgroup_usable()) else Sampled()
    try:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            wall, peak, code = _run(tree, argv, env, cwd, timeout, out, err)
            cpu = tree.cpu_s()
            out.seek(0)
            err.seek(0)
            return Measured(wall, cpu, peak, tree.method, code, out.read().decode("utf-8", "replace"),
                            err.read().decode("utf-8", "replace"))
    finally:
        tree.close()


def _run(tree: Tree, argv: list[str], env: Mapping[str, str] | None, cwd: str | os.PathLike[str] | None,
         timeout: float | None, out: IO[bytes], err: IO[bytes]) -> tuple[float, int, int]:
    """Wall seconds, peak bytes and the return code of one run, memory sampled every 10 ms until the
    whole tree has gone."""
    peak = [0]
    stop = threading.Event()
    start = time.perf_counter()
    # output to files, not pipes: nothing to drain while the sampler runs, however much is written
    proc = subprocess.Popen(argv, env=None if env is None else dict(env), cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=out, stderr=err, preexec_fn=tree.preexec)

    def sampler() -> None:
        while not stop.is_set():
            try:
                peak[0] = max(peak[0], tree.memory(proc.pid))
            except (OSError, ValueError):  # a process gone between two reads
                pass
            stop.wait(SAMPLE_S)

    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    try:
        try:
            code = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            tree.kill(proc.pid)
            raise
        wall = time.perf_counter() - start
        tree.finish(proc.pid)
    finally:
        stop.set()
        thread.join()
    return wall, peak[0], code
