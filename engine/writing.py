"""Writing files whole or not at all: the one place BPE Lab writes a file.

Each file goes to a hidden temporary beside it (``.NAME.xxxxxxxx.bpe-lab.tmp``), is flushed to
disk, and only then renamed over the old one, so a crash or a full disk leaves the old file whole.
The new file keeps the old one's mode (and owner, where the system allows), or follows the umask
when it is new. Only regular files and new paths are written: a device, a pipe or a socket is
refused, never replaced. A temporary that a killed run left behind is removed by the next save
into the same folder, once it is old enough that no other run can still be writing it.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from pathlib import Path
from typing import Iterable, Mapping

from engine.errors import BpeLabError
from engine.files import path_status, special_kind

TEMP_SUFFIX = ".bpe-lab.tmp"
# a temporary older than this belongs to no run that is still saving (a save takes seconds)
STALE_AFTER_S = 15 * 60
# the temporary adds to the name; keep below the system's 255 bytes
MAX_NAME_BYTES = 240
# ours: .NAME.<8 letters of mkstemp><.bpe-lab>.tmp; without the mark only earlier versions' (see clean_stale)
_TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}(?P<mark>\.bpe-lab)?\.tmp$")


def write_atomic(path: str | os.PathLike, data: bytes | str) -> None:
    """Write one file whole or not at all (see ``write_files``)."""
    write_files({path: data})


def write_files(files: Mapping, make_folder: str | os.PathLike | None = None) -> None:
    """Write several files all or none: every one goes to a temporary first, then all are renamed.

    ``files`` maps a path to bytes or text. ``make_folder``, when given and missing, is made first
    (its parent must exist) and removed again if the writing fails. A failure before the renames
    leaves every old file as it was.
    """
    made = _make_folder(Path(make_folder)) if make_folder is not None else None
    staged: list[tuple[str, Path]] = []
    done = False
    try:
        targets = [(_target(Path(path)), data) for path, data in files.items()]
        for folder in {t.parent for t, _ in targets}:
            clean_stale(folder, names={t.name for t, _ in targets if t.parent == folder})
        for target, data in targets:
            staged.append((_stage(target, data), target))
        try:
            for temp, target in staged:
                os.replace(temp, target)
        except OSError as exc:
            raise BpeLabError(f"could not finish writing ({exc.strerror}); choose another folder") from None
        staged = []
        done = True
    finally:
        for temp, _ in staged:
            _remove(temp)
        if not done and made is not None:
            try:
                made.rmdir()
            except OSError:
                pass


def _make_folder(folder: Path) -> Path | None:
    """Make ``folder`` when it is missing (returned, to remove on failure); refuse a file in its place."""
    status = path_status(folder)
    if status is not None:
        if not stat.S_ISDIR(status.st_mode):
            raise BpeLabError(f"{folder} is a file; this format writes a folder: give a folder name")
        return None
    try:
        folder.mkdir(parents=False)
    except FileNotFoundError:
        raise BpeLabError(f"{folder}: the folder {folder.parent} does not exist; create it first") from None
    except OSError as exc:
        raise BpeLabError(f"{folder}: cannot make the folder ({exc.strerror}); choose another place") from None
    return folder


def _target(p: Path) -> Path:
    """Where the file's bytes go: ``p``, or the file a symbolic link names (the link stays a link);
    refused when it is there and not a regular file."""
    if len(os.fsencode(p.name)) > MAX_NAME_BYTES:
        raise BpeLabError(f"{str(p)[:60]}...: the file name is too long (at most {MAX_NAME_BYTES} bytes): "
                          "give a shorter name")
    status = path_status(p)  # follows links; a loop is said to be a loop
    if os.path.islink(p):
        p = Path(os.path.realpath(p))
    if status is None:
        return p
    if stat.S_ISDIR(status.st_mode):
        raise BpeLabError(f"{p} is a folder; give a file name")
    if not stat.S_ISREG(status.st_mode):
        raise BpeLabError(f"{p} is {special_kind(status.st_mode)}, not a regular file: BPE Lab writes only "
                          "regular files or new paths; give another name")
    return p


def _stage(target: Path, data: bytes | str) -> str:
    """A temporary beside ``target`` holding ``data``, flushed to disk, with the mode (and owner) the
    file will have."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=folder)
    except FileNotFoundError:
        raise BpeLabError(f"{target}: the folder {folder} does not exist; create it first") from None
    except PermissionError:
        raise BpeLabError(f"{target}: cannot write in {folder} (permission denied); choose another folder") from None
    except OSError as exc:
        raise BpeLabError(f"{target}: cannot write in {folder} ({exc.strerror}); choose another folder") from None
    try:
        with os.fdopen(fd, "wb") as f:
            _take_over_mode(f.fileno(), path_status(target))
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        _remove(temp)
        raise BpeLabError(
            f"{target}: could not be written ({exc.strerror}); nothing was changed: free some space or "
            "choose another folder"
        ) from None
    return temp


def _take_over_mode(fd: int, old: os.stat_result | None) -> None:
    """The old file's permission bits and, where we may (root, or our own file), its owner and group;
    a new file gets what the umask gives (mkstemp's 0600 would hide it from everyone else)."""
    if old is None:
        os.fchmod(fd, 0o666 & ~current_umask())
        return
    if hasattr(os, "fchown") and (_me() == 0 or old.st_uid == _me()):
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except PermissionError:
            pass  # a group we are not in: the file stays ours, with our group
    os.fchmod(fd, stat.S_IMODE(old.st_mode))


def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux 4.7+)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def clean_stale(folder: str | os.PathLike, names: Iterable[str] = ()) -> list[Path]:
    """Remove the temporaries a killed save left in ``folder``; returns those removed.

    Only ours: hidden regular files named as this module names them, owned by this user, untouched
    for ``STALE_AFTER_S``. Earlier versions named them without the ``.bpe-lab`` mark; such a name is
    taken as ours only for a file in ``names`` (the files being saved now), never for any other.
    """
    names = set(names)
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _TEMP_NAME.match(entry.name)
        if match is None or (match["mark"] is None and match["name"] not in names):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if (stat.S_ISREG(info.st_mode) and info.st_uid == _me()
                and now - info.st_mtime > STALE_AFTER_S and _remove(entry.path)):
            removed.append(Path(entry.path))
    return removed


def _me() -> int:
    """This process's user id (0 where the system has none, as Windows reports every owner)."""
    return os.geteuid() if hasattr(os, "geteuid") else 0


def _remove(path: str) -> bool:
    try:
        os.unlink(path)
    except OSError:
        return False
    return True
