"""The processes a test started, read from /proc: to check that a stopped job's child is gone."""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")


def _parents() -> dict[int, int]:
    """Each process's parent, for the processes /proc shows now."""
    parents = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended while we looked
            continue
        # "pid (name) state ppid ...": the name may hold spaces and parentheses
        fields = stat.rsplit(")", 1)[1].split()
        parents[int(entry.name)] = int(fields[1])
    return parents


def forkserver_children(root: int | None = None) -> set[int]:
    """The processes forked by a forkserver that ``root`` (this process by default) started: the
    children ``engine.child`` runs work in."""
    root = os.getpid() if root is None else root
    parents = _parents()
    servers = {pid for pid, parent in parents.items() if parent == root and "forkserver" in _command(pid)}
    return {pid for pid, parent in parents.items() if parent in servers}


def _command(pid: int) -> str:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def gone(pid: int) -> bool:
    """The process has ended: no longer in /proc, or a zombie waiting for a parent that never reaps it."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def cpu_seconds(pid: int) -> float:
    """The processor time the process has used so far (0 once it has gone)."""
    try:
        fields = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime, the 14th and 15th fields of the line (11th and 12th after the name)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
