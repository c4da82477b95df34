"""Writing files whole or not at all: the one place BPE Lab writes a file.

Each file goes to a hidden temporary beside it (``.NAME.xxxxxxxx.bpe-lab.tmp``), is flushed to
disk, and only then renamed over the old one, so a crash or a full disk leaves the old file whole.
The new file keeps the old one's permission bits (never setuid, setgid or sticky) and owner, where
the system allows, or follows the umask when it is new; a private file is 0600 whatever either says.
A file without its owner's write bit is refused (``ReadOnlyFileError``) unless the caller has asked
the user. Only regular files and new paths are written: a device, a pipe or a socket is refused,
never replaced.

A save holds an advisory lock (``flock``) on its temporary until the rename, so a temporary whose
lock can be taken belongs to no live run: a killed save's is removed by the next save into the same
folder, or by ``clean_stale_folders`` at start, whatever its age. Where there is no ``flock`` (or
the file system refuses it), a temporary is removed only once it is old enough that no run can
still be writing it.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from dataclasses import dataclass
from typing import BinaryIO, Iterable, Mapping, TypeVar

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; stale temporaries are told by their age alone
    fcntl = None  # type: ignore[assignment]

from engine.errors import BpeLabError, ReadOnlyFileError
from engine.files.reading import path_status, plain_path, special_kind

TEMP_SUFFIX = ".bpe-lab.tmp"
_Path = TypeVar("_Path", bound="str | os.PathLike[str]")
# without a lock to ask, a temporary older than this belongs to no run that is still saving (a save takes seconds)
STALE_AFTER_S = 15 * 60
# the temporary adds a dot before the name and ``.<8 letters>`` and TEMP_SUFFIX after it: the
# longest name whose temporary still fits the system's 255 bytes
MAX_NAME_BYTES = 255 - 1 - 9 - len(TEMP_SUFFIX)
# the letters of a temporary's name, and how many names are tried before giving up
_TEMP_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"
_TEMP_TRIES = 100
# ours: .NAME.<8 random letters><.bpe-lab>.tmp; without the mark only earlier versions' (see clean_stale)
_TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}(?P<mark>\.bpe-lab)?\.tmp$")
# what a replaced file never keeps of the old one's mode
_SPECIAL_BITS = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX
PRIVATE_MODE = 0o600
# (device, inode) of the temporaries this process is writing: where flock is emulated with POSIX
# locks (NFS), a lock belongs to the process, so asking it from here would be granted and closing
# the asking descriptor would drop the writer's; this process's own cleaning skips them instead
_WRITING: set[tuple[int, int]] = set()


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, private: bool = False,
                 overwrite_read_only: bool = False) -> None:
    """Write one file whole or not at all (see ``write_files``)."""
    write_files({path: data}, private=private, overwrite_read_only=overwrite_read_only)


def write_files(files: Mapping[_Path, str | bytes], make_folder: str | os.PathLike[str] | None = None, *, private: bool = False,
                overwrite_read_only: bool = False) -> None:
    """Write several files all or none: every one goes to a temporary first, then all are renamed.

    ``files`` maps a path to bytes or text. ``make_folder``, when given and missing, is made first
    (its parent must exist) and removed again if the writing fails. A failure before the renames
    leaves every old file as it was. ``private``: the files are 0600 (unsaved work no one else may
    read). A file there without its owner's write bit raises ``ReadOnlyFileError`` before anything
    is written, unless ``overwrite_read_only`` (the user was asked).
    """
    made = _make_folder(plain_path(make_folder)) if make_folder is not None else None
    staged: list[_Staged] = []
    done = False
    try:
        targets = [(_target(plain_path(path)), data) for path, data in files.items()]
        if not overwrite_read_only:
            for target, _ in targets:
                _refuse_read_only(target)
        for folder in {_folder_of(t) for t, _ in targets}:
            clean_stale(folder, names={os.path.basename(t) for t, _ in targets if _folder_of(t) == folder})
        for target, data in targets:
            staged.append(_stage(target, data, private))
        try:
            for one in staged:
                os.replace(one.temp, one.target)
        except OSError as exc:
            raise BpeLabError(f"could not finish writing ({exc.strerror}); choose another folder") from None
        for one in staged:
            one.release()
        staged = []
        done = True
    finally:
        # removed while still locked, so no other run's cleaning can mistake them for stale in between
        for one in staged:
            _remove(one.temp)
            one.release()
        if not done and made is not None:
            try:
                os.rmdir(made)
            except OSError:
                pass


@dataclass
class _Staged:
    """A temporary written whole, waiting for its rename over ``target``; ``file`` stays open while
    it holds the temporary's lock (None: no lock, closed already)."""

    temp: str
    target: str
    file: BinaryIO | None
    key: tuple[int, int]  # (device, inode), in _WRITING until released

    def release(self) -> None:
        """No longer ours to write: the lock is let go."""
        _WRITING.discard(self.key)
        if self.file is not None:
            _close(self.file)


def _close(f: BinaryIO) -> None:
    try:
        f.close()
    except OSError:
        pass


def _refuse_read_only(target: str) -> None:
    # the mode bits, not os.access: root may write anything, yet a read-only file is still meant to stay
    status = path_status(target)
    if status is not None and not status.st_mode & stat.S_IWUSR:
        raise ReadOnlyFileError(target)


def _folder_of(path: str) -> str:
    """The folder a path is in: ``.`` for a bare name."""
    return os.path.dirname(path) or "."


def _make_folder(folder: str) -> str | None:
    """Make ``folder`` when it is missing (returned, to remove on failure); refuse a file in its place."""
    status = path_status(folder)
    if status is not None:
        if not stat.S_ISDIR(status.st_mode):
            raise BpeLabError(f"{folder} is a file; this format writes a folder: give a folder name")
        return None
    try:
        os.mkdir(folder)
    except FileNotFoundError:
        raise BpeLabError(f"{folder}: the folder {_folder_of(folder)} does not exist; create it first") from None
    except OSError as exc:
        raise BpeLabError(f"{folder}: cannot make the folder ({exc.strerror}); choose another place") from None
    return folder


def _target(p: str) -> str:
    """Where the file's bytes go: ``p``, or the file a symbolic link names (the link stays a link);
    refused when it is there and not a regular file."""
    if len(os.fsencode(os.path.basename(p))) > MAX_NAME_BYTES:
        raise BpeLabError(f"{p[:60]}...: the file name is too long (at most {MAX_NAME_BYTES} bytes): "
                          "give a shorter name")
    status = path_status(p)  # follows links; a loop is said to be a loop
    if os.path.islink(p):
        p = os.path.realpath(p)
    if status is None:
        return p
    if stat.S_ISDIR(status.st_mode):
        raise BpeLabError(f"{p} is a folder; give a file name")
    if not stat.S_ISREG(status.st_mode):
        raise BpeLabError(f"{p} is {special_kind(status.st_mode)}, not a regular file: BPE Lab writes only "
                          "regular files or new paths; give another name")
    return p


def _stage(target: str, data: bytes | str, private: bool = False) -> _Staged:
    """A temporary beside ``target`` holding ``data``, flushed to disk, with the mode (and owner) the
    file will have."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = _folder_of(target)
    try:
        fd, temp, locked = _create_temp(folder, f".{os.path.basename(target)}.")
    except FileNotFoundError:
        raise BpeLabError(f"{target}: the folder {folder} does not exist; create it first") from None
    except PermissionError:
        raise BpeLabError(f"{target}: cannot write in {folder} (permission denied); choose another folder") from None
    except OSError as exc:
        raise BpeLabError(f"{target}: cannot write in {folder} ({exc.strerror}); choose another folder") from None
    info = os.fstat(fd)
    staged = _Staged(temp, target, None, (info.st_dev, info.st_ino))
    _WRITING.add(staged.key)
    try:
        staged.file = f = os.fdopen(fd, "wb")
        _take_over_mode(fd, path_status(target), private)
        f.write(data)
        f.flush()
        os.fsync(fd)
    except BaseException as exc:  # whatever stops the write (a full disk, Ctrl+C), the temporary goes
        _remove(temp)  # before closing: while locked, no other run's cleaning looks at it
        if staged.file is None:
            try:
                os.close(fd)
            except OSError:
                pass  # closed by the failed open
        staged.release()
        if not isinstance(exc, OSError):
            raise
        raise BpeLabError(
            f"{target}: could not be written ({exc.strerror}); nothing was changed: free some space or "
            "choose another folder"
        ) from None
    if not locked:
        _close(f)  # nothing to hold; Windows renames only a closed file
        staged.file = None
    return staged


def _create_temp(folder: str, prefix: str) -> tuple[int, str, bool]:
    """(open descriptor, path, whether it holds the file's lock) of a new file
    ``PREFIX<8 random letters>.bpe-lab.tmp`` in ``folder``, made by this call alone and readable by
    no one else, as ``tempfile.mkstemp`` makes it; written here because importing tempfile (shutil
    and random with it) costs a command's start more."""
    flags = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
             | getattr(os, "O_BINARY", 0))
    for _ in range(_TEMP_TRIES):
        letters = "".join(_TEMP_LETTERS[b % len(_TEMP_LETTERS)] for b in os.urandom(8))
        path = os.path.join(folder, f"{prefix}{letters}{TEMP_SUFFIX}")
        try:
            fd = os.open(path, flags, 0o600)
        except FileExistsError:
            continue
        locked = _try_lock(fd)
        # another run's cleaning may have found the file before it was locked: it is removed, or
        # about to be (that run holds the lock); a fresh name is safe
        if locked is False or (locked and not _names(path, fd)):
            os.close(fd)
            continue
        return fd, path, bool(locked)
    raise FileExistsError(errno.EEXIST, f"no free temporary name in {folder}")


def _try_lock(fd: int) -> bool | None:
    """Take the file's exclusive lock without waiting: True, False when another holds it, None where
    the system or the file system has no such lock."""
    if fcntl is None:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # ENOLCK, EOPNOTSUPP: some network file systems
        return None
    return True


def _names(path: str, fd: int) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        there, held = os.lstat(path), os.fstat(fd)
    except OSError:
        return False
    return (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino)


def _take_over_mode(fd: int, old: os.stat_result | None, private: bool = False) -> None:
    """The old file's permission bits and, where we may (root, or our own file), its owner and group;
    a new file gets what the umask gives (the temporary's 0600 would hide it from everyone else).
    setuid, setgid and sticky bits are never carried over: new contents earn no one's privileges.
    A private file is 0600 whatever the old one was."""
    if old is None:
        os.fchmod(fd, PRIVATE_MODE if private else 0o666 & ~current_umask())
        return
    if hasattr(os, "fchown") and (_me() == 0 or old.st_uid == _me()):
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except PermissionError:
            pass  # a group we are not in: the file stays ours, with our group
    os.fchmod(fd, PRIVATE_MODE if private else stat.S_IMODE(old.st_mode) & ~_SPECIAL_BITS)


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


def clean_stale(folder: str | os.PathLike[str], names: Iterable[str] = ()) -> list[str]:
    """Remove the temporaries a killed save left in ``folder``; returns those removed.

    Only ours: hidden regular files named as this module names them, owned by this user, whose
    lock no run holds (a save holds it until its rename), or where locks cannot be asked, untouched
    for ``STALE_AFTER_S``. Earlier versions named them without the ``.bpe-lab`` mark and took no
    lock; such a name is taken as ours only for a file in ``names`` (the files being saved now),
    never for any other, and only once it is that old.
    """
    names = set(names)
    removed: list[str] = []
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
        if not stat.S_ISREG(info.st_mode) or info.st_uid != _me() or (info.st_dev, info.st_ino) in _WRITING:
            continue
        old = now - info.st_mtime > STALE_AFTER_S
        if match["mark"] is None:
            gone = old and _remove(entry.path)
        else:
            gone = _remove_unlocked(entry.path, info, old)
        if gone:
            removed.append(entry.path)
    return removed


def clean_stale_folders(folders: Iterable[str | os.PathLike[str]]) -> list[str]:
    """``clean_stale`` in each folder (the window's at start: its autosave folder, its recent files'
    folders); a folder that is missing or unreadable is passed over. Returns the temporaries removed."""
    removed = []
    for folder in dict.fromkeys(plain_path(f) for f in folders):
        removed += clean_stale(folder)
    return removed


def _remove_unlocked(path: str, info: os.stat_result, old: bool) -> bool:
    """Remove our temporary at ``path`` when no run holds its lock; ``old`` decides where no lock
    can be asked (no flock, a file system without it, a file we may not open)."""
    if fcntl is None:
        return old and _remove(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return old and _remove(path)
    try:
        held = os.fstat(fd)
        if (held.st_dev, held.st_ino) != (info.st_dev, info.st_ino):
            return False  # replaced since it was listed: look again at the next save
        locked = _try_lock(fd)
        if locked:
            # still the same file once locked: a save that renamed it away leaves another file or none here
            return _names(path, fd) and _remove(path)
    finally:
        os.close(fd)
    return locked is None and old and _remove(path)


def _me() -> int:
    """This process's user id (0 where the system has none, as Windows reports every owner)."""
    return os.geteuid() if hasattr(os, "geteuid") else 0


def _remove(path: str) -> bool:
    try:
        os.unlink(path)
    except OSError:
        return False
    return True
