"""Reading the user's files with clear messages, and writing files whole or not at all."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from engine.errors import BpeLabError, NotPlainTextError


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


def read_json(path: str | os.PathLike):
    """A JSON file's data, read with ``parse_json``."""
    return parse_json(read_text(path), str(path))


def parse_json(text: str, source: str):
    """JSON with a message naming the line, and duplicate keys refused rather than silently dropped."""

    def no_repeats(pairs):
        seen = {}
        for key, value in pairs:
            if key in seen:
                raise BpeLabError(f"{source}: the key \"{key}\" appears twice in one object")
            seen[key] = value
        return seen

    try:
        return json.loads(text, object_pairs_hook=no_repeats)
    except json.JSONDecodeError as exc:
        raise BpeLabError(
            f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}; "
            "the file may be cut short: export it again"
        ) from None


def decode_utf8(data: bytes, source: str) -> str:
    """UTF-8 text without its byte order mark; ``NotPlainTextError`` for binary data or another encoding."""
    if b"\x00" in data[:8192]:
        raise NotPlainTextError(f"{source} looks like a binary file, not text: give a UTF-8 text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotPlainTextError(
            f"{source} is not UTF-8 text (byte 0x{data[exc.start]:02X} at offset {exc.start}): "
            "save it as UTF-8 and try again"
        ) from None
    return text.removeprefix("\ufeff")


def write_atomic(path: str | os.PathLike, data: bytes | str) -> None:
    """Write to a temporary file beside ``path``, then rename: the old file survives any failure."""
    write_files({path: data})


def write_files(files: dict) -> None:
    """Write several files all or none: every one goes to a temporary file first, then all are renamed.

    ``files`` maps a path to bytes or text. A failure before the renames leaves every old file as it was.
    """
    temps: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            p = Path(path)
            if isinstance(data, str):
                data = data.encode("utf-8")
            folder = p.parent if str(p.parent) else Path(".")
            if p.is_dir():
                raise BpeLabError(f"{p} is a folder; give a file name")
            try:
                fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
            except FileNotFoundError:
                raise BpeLabError(f"{p}: the folder {folder} does not exist; create it first") from None
            except PermissionError:
                raise BpeLabError(f"{p}: cannot write in {folder} (permission denied); choose another folder") from None
            except OSError as exc:
                raise BpeLabError(f"{p}: cannot write in {folder} ({exc.strerror}); choose another folder") from None
            temps.append((tmp, p))
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
            except OSError as exc:
                raise BpeLabError(
                    f"{p}: could not be written ({exc.strerror}); nothing was changed: free some space or "
                    "choose another folder"
                ) from None
        for tmp, p in temps:
            os.replace(tmp, p)
        temps = []
    except OSError as exc:
        raise BpeLabError(f"could not finish writing ({exc.strerror}); choose another folder") from None
    finally:
        for tmp, _ in temps:
            try:
                os.unlink(tmp)
            except OSError:
                pass
