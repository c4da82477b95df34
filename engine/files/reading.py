"""Reading the user's files with clear messages (writing them: ``engine.files.writing``)."""

from __future__ import annotations

import codecs
import errno
import json
import math
import os
import re
import stat
from collections.abc import Iterable
from typing import Any, NoReturn

from engine.errors import BpeLabError, NotPlainTextError


# the largest file read: a 100 MB corpus fits, memory does not run out on a runaway file
MAX_BYTES = 256 * 1024 * 1024
# the largest lesson file read: a text of MAX_BYTES grows in JSON (a line break is written as two
# characters, a control character as six), and a lesson holds a held-out text too; the writer refuses
# a lesson larger than this, so every lesson BPE Lab writes is one it opens
MAX_LESSON_BYTES = 3 * MAX_BYTES
# deeper JSON than any of BPE Lab's formats uses; the limit keeps every later walk off Python's stack
MAX_JSON_DEPTH = 100
# Python's own limit for turning digits into an int; a number that long is never a count we read
MAX_JSON_DIGITS = 4300
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def megabytes(n: int) -> str:
    """A size as people read it: 256 MB, 12 KB."""
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):,.0f} MB"
    return f"{max(1, round(n / 1024)):,} KB"


def plain_path(path: str | os.PathLike[str]) -> str:
    """A path as text, without trailing separators (``out/`` names the folder ``out``)."""
    p = os.fspath(path)
    return p.rstrip(os.sep + (os.altsep or "")) or p


def path_status(path: str | os.PathLike[str]) -> os.stat_result | None:
    """The path's status (symlinks followed), None when nothing is there; a clear message otherwise."""
    p = os.fspath(path)
    try:
        return os.stat(p)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise BpeLabError(_os_problem(p, exc)) from None
    except ValueError:
        raise BpeLabError(f"{p[:80]!r} is not a path: it holds a NUL character") from None


def _os_problem(p: str, exc: OSError) -> str:
    """What went wrong opening ``p``, said for the user."""
    if exc.errno == errno.ELOOP:
        return f"{p}: a loop of symbolic links (a link that leads back to itself); fix or remove the link"
    if exc.errno == errno.ENAMETOOLONG:
        longest = max(p.split(os.sep), key=len)
        return (f"{p[:60]}...: a name in the path is too long ({len(longest)} characters; at most 255): "
                "give a shorter name")
    if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
        return (f"{p} has nothing to read yet: it streams what comes (a log or a device), it is not a "
                "stored file; give a regular file")
    if isinstance(exc, PermissionError):
        return f"{p}: permission denied; check that you may read it"
    if isinstance(exc, IsADirectoryError):
        return f"{p} is a folder, not a file"
    if isinstance(exc, (FileNotFoundError, NotADirectoryError)):
        return f"{p}: no such file; check the path"
    return f"{p}: cannot be read ({exc.strerror or exc})"


class RegularFile:
    """A regular file opened for reading, checked before its first byte is read, read in parts.

    Opened without blocking: a named pipe, a device such as /dev/zero or a folder is refused at
    once rather than waited on or read without end, and a file that looks regular but streams
    (/proc/kmsg) says it has nothing to read rather than wait. Every problem, on opening or on any
    later read, is a ``BpeLabError`` that names the file; nothing past its first ``limit`` bytes is read.
    """

    def __init__(self, path: str | os.PathLike[str], limit: int = MAX_BYTES):
        self.name = os.fspath(path)
        self.limit = limit
        self._at = 0  # where the next read starts
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        try:
            self._fd = os.open(self.name, flags)
        except OSError as exc:
            raise BpeLabError(_os_problem(self.name, exc)) from None
        except ValueError:
            raise BpeLabError(f"{self.name[:80]!r} is not a path: it holds a NUL character") from None
        try:
            info = os.fstat(self._fd)
            if stat.S_ISDIR(info.st_mode):
                raise BpeLabError(f"{self.name} is a folder, not a file")
            if not stat.S_ISREG(info.st_mode):
                raise BpeLabError(f"{self.name} is {special_kind(info.st_mode)}, not a regular file: give a file")
            if info.st_size > limit:
                raise BpeLabError(f"{self.name} is {megabytes(info.st_size)}; BPE Lab reads files up to "
                                  f"{megabytes(limit)}: use a part of it")
        except BaseException:
            os.close(self._fd)
            raise
        self.size = info.st_size

    def __enter__(self) -> "RegularFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def read(self, n: int) -> bytes:
        """Up to ``n`` bytes from where the last read ended; b"" at the end."""
        try:
            # one byte past the limit tells a file that grew while it was read
            data = os.read(self._fd, max(0, min(n, self.limit + 1 - self._at)))
        except OSError as exc:
            raise BpeLabError(_os_problem(self.name, exc)) from None
        self._at += len(data)
        if self._at > self.limit:
            raise BpeLabError(f"{self.name} grew past {megabytes(self.limit)} while it was read; "
                              "BPE Lab reads files up to that size")
        return data

    def seek(self, offset: int) -> None:
        """The next read starts at ``offset``."""
        try:
            self._at = os.lseek(self._fd, offset, os.SEEK_SET)
        except OSError as exc:
            raise BpeLabError(_os_problem(self.name, exc)) from None

    def read_at(self, offset: int, n: int) -> bytes:
        """Up to ``n`` bytes from ``offset``; later reads go on from there."""
        self.seek(offset)
        return self.read(n)

    def read_all(self) -> bytes:
        """Every byte from the start (at most ``limit``)."""
        chunks = [self.read_at(0, 1 << 24)]
        while chunks[-1]:
            chunks.append(self.read(1 << 24))
        return b"".join(chunks)


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> bytes:
    """A regular file's bytes, at most ``limit`` of them; a message that says what to do otherwise
    (``RegularFile``)."""
    with RegularFile(path, limit) as f:
        return f.read_all()


def special_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_text(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> str:
    """A text file's contents (UTF-8, or UTF-16 with its byte order mark), read with ``read_bytes``."""
    return decode_utf8(read_bytes(path, limit), str(path))


def read_json(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> Any:
    """A JSON file's data, read with ``parse_json``."""
    return parse_json(read_text(path, limit), str(path))


def parse_json(text: str, source: str, first_line: int = 1,
               hint: str = "the file may be cut short: export it again") -> Any:
    """JSON held to what BPE Lab's formats can use, with a message naming what is wrong.

    Refused: duplicate keys (rather than silently dropped), NaN and Infinity (not JSON numbers),
    numbers too large for a float or longer than 4,300 digits, nesting deeper than 100 levels, and
    an escaped half of a surrogate pair (no file can save it again). ``first_line`` is the line of
    the file the text starts on (a JSON block inside a page); ``hint`` says what to do about bad JSON.
    """

    def no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise BpeLabError(f"{source}: the key \"{key[:60]}\" appears twice in one object")
            seen[key] = value
        return seen

    def whole(digits: str) -> int:
        if len(digits) > MAX_JSON_DIGITS:
            raise BpeLabError(f"{source}: a number of {len(digits):,} digits; no value in this file can be that large")
        return int(digits)

    def real(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            raise BpeLabError(f"{source}: the number {digits[:40]} is too large to use")
        return value

    def constant(name: str) -> NoReturn:
        raise BpeLabError(f"{source}: {name} is not a number JSON allows; write a number")

    try:
        data = json.loads(text, object_pairs_hook=no_repeats, parse_int=whole, parse_float=real,
                          parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise BpeLabError(
            f"{source}: not valid JSON (line {exc.lineno + first_line - 1}, column {exc.colno}): {exc.msg}; {hint}"
        ) from None
    except RecursionError:
        raise BpeLabError(f"{source}: the JSON is nested too deep (at most {MAX_JSON_DEPTH} levels)") from None
    _check_shape(data, source, check_strings=_SURROGATE_ESCAPE.search(text) is not None)
    return data


def _check_shape(data: Any, source: str, check_strings: bool) -> None:
    """Refuse nesting past ``MAX_JSON_DEPTH`` and, when asked, strings with lone surrogates."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            items: Iterable[Any] = value.values()
            if check_strings:
                items = [*value.keys(), *items]
        elif isinstance(value, list):
            items = value
        else:
            if check_strings and isinstance(value, str):
                _check_unicode(value, source)
            continue
        if depth > MAX_JSON_DEPTH:
            raise BpeLabError(f"{source}: the JSON is nested too deep (at most {MAX_JSON_DEPTH} levels)")
        stack.extend((v, depth + 1) for v in items if check_strings or isinstance(v, (dict, list)))


def _check_unicode(text: str, source: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BpeLabError(
            f"{source}: a string holds half of a surrogate pair (\\u{ord(text[exc.start]):04x}), which is not "
            "a character: remove it or write the whole character"
        ) from None


# a UTF-16 half of a character: text typed or pasted from another program may hold one alone
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def without_lone_surrogates(text: str) -> tuple[str, int]:
    """``text`` with each lone surrogate replaced by U+FFFD, and how many there were.

    No file can hold one (UTF-8 has no spelling for it), so text that will be saved is cleaned
    where it comes in, and the user is told.
    """
    if text.isascii():
        return text, 0
    return _LONE_SURROGATE.subn("\ufffd", text)


def decode_utf8(data: bytes, source: str) -> str:
    """Text from UTF-8 (byte order mark dropped) or UTF-16 with its byte order mark.

    ``NotPlainTextError`` for binary data (a NUL byte anywhere) or another encoding.
    """
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise NotPlainTextError(f"{source} starts like UTF-16 but is not: save it as UTF-8 and try again") from None
        if "\x00" in text:
            raise NotPlainTextError(f"{source} looks like a binary file, not text: give a UTF-8 text file")
        return text.removeprefix("\ufeff")
    if b"\x00" in data:
        if _looks_like_utf16(data):
            raise NotPlainTextError(f"{source} is UTF-16 text without a byte order mark: save it as UTF-8 and try again")
        raise NotPlainTextError(f"{source} looks like a binary file, not text: give a UTF-8 text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotPlainTextError(
            f"{source} is not UTF-8 text (byte 0x{data[exc.start]:02X} at offset {exc.start}): "
            "save it as UTF-8 and try again"
        ) from None
    return text.removeprefix("\ufeff")


def _looks_like_utf16(data: bytes) -> bool:
    """Mostly Latin text in UTF-16: one byte of every pair is NUL at the start, the other never."""
    head = data[: min(len(data), 512) // 2 * 2]
    even, odd = head[0::2], head[1::2]
    return len(head) >= 4 and (
        (odd.count(0) == len(odd) and 0 not in even) or (even.count(0) == len(even) and 0 not in odd)
    )
