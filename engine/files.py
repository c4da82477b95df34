"""Reading the user's files with clear messages, and writing files whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from engine.errors import BpeLabError


def read_text(path: str | os.PathLike) -> str:
    """A UTF-8 text file's contents; a message that says what to do when it cannot be read."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise BpeLabError(f"{p}: no such file; check the path") from None
    except IsADirectoryError:
        raise BpeLabError(f"{p} is a folder, not a file") from None
    except PermissionError:
        raise BpeLabError(f"{p}: permission denied; check that you may read it") from None
    except OSError as exc:
        raise BpeLabError(f"{p}: cannot be read ({exc.strerror})") from None
    return decode_utf8(data, str(p))


def decode_utf8(data: bytes, source: str) -> str:
    if b"\x00" in data[:8192]:
        raise BpeLabError(f"{source} looks like a binary file, not text: give a UTF-8 text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BpeLabError(
            f"{source} is not UTF-8 text (byte 0x{data[exc.start]:02X} at offset {exc.start}): "
            "save it as UTF-8 and try again"
        ) from None
    return text.removeprefix("\ufeff")


def write_atomic(path: str | os.PathLike, data: bytes | str) -> None:
    """Write to a temporary file beside ``path``, then rename: the old file survives any failure."""
    p = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = p.parent if str(p.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise BpeLabError(f"{p}: the folder {folder} does not exist") from None
    except PermissionError:
        raise BpeLabError(f"{p}: cannot write in {folder} (permission denied); choose another folder") from None
    except OSError as exc:
        raise BpeLabError(f"{p}: cannot write in {folder} ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, IsADirectoryError):
            raise BpeLabError(f"{p} is a folder; give a file name") from None
        raise BpeLabError(f"{p}: could not be written ({exc.strerror}); nothing was changed") from None
