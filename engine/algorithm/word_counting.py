"""Counting the words of a text: streamed from its file a part at a time, on every core when large.

A text is cut into parts only where the split rule is sure to cut, so every word, its count and
its place in the first-appearance order come out as counting the text whole gives them:

- ``whitespace``: before an ASCII white-space character (never inside a word; dropped anyway);
- ``gpt2`` and ``gpt4``: at a space between two ASCII letters (both patterns end a run of
  letters at a space and start the next word with that space, looking at nothing further);
- ``none``, or a special token that holds the character cut at: nowhere, one part.

Cuts fall on ASCII bytes, so a part never ends inside a multi-byte character. Parts counted
apart are added up in text order, which keeps the order of first appearance. Left out: the
corpus built from the counts (``engine.algorithm.corpus``) and the file checks (``engine.files.reading``: the file
is opened once as a ``RegularFile``; one that is no UTF-8 text is read whole for ``decode_utf8``
to say what is wrong with it).
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from typing import Callable, Generator, Iterable, Iterator

from engine.drain import drain
from engine.files.reading import RegularFile, decode_utf8
from engine.algorithm.pretokenize import lowercase, special_splitter, split_specials, split_words
from engine.algorithm.settings import Settings
from engine.algorithm.unicode_table import WHITE_SPACE

# characters (and bytes) per part; a part is what one process holds at a time
PART = 4 << 20
# below this many bytes a text counts in this process: starting workers costs more than it saves
PARALLEL_FROM = 8 << 20
# bytes one process reads at a time from a file it counts alone: its text is held three times over
# (read, decoded, split), which a large part would make most of a run's peak memory
STREAM_PART = 1 << 20
# characters split at a time within a part: the words of one chunk are a few hundred strings, where a
# whole part's would be a million (most of a small run's peak memory); and a chunk this short finds
# its characters of other scripts without numpy (``unicode_table.Agreement``), which a run of
# bytes units then never imports
CHUNK = 3 << 10
# parts waiting for or in the workers at once, per worker: bounds what is copied to them
IN_FLIGHT = 2
_WHITESPACE_CUT = "".join(c for c in " \t\n\x0b\x0c\r" if c in WHITE_SPACE)
_LETTERS_CUT = "(?<=[A-Za-z]) (?=[A-Za-z])"

Progress = Callable[[int, int], None]


def count_words(text: str, settings: Settings) -> Counter[str]:
    """Each word of a text and how often it occurs, in order of first appearance.

    Special tokens are cut out of the text as written, then the rest is lowercased: a special token
    with capitals (``<|EOT|>``, ``[CLS]``) is found, not trained on as letters.
    """
    pattern = special_splitter(settings.special_tokens)
    cuts = cuts_for(settings)
    counter: Counter[str] = Counter()
    for start, end, special in split_specials(text, pattern):
        if not special:
            segment = lowercase(text[start:end]) if settings.lowercase else text[start:end]
            begin = 0
            for stop in part_ends(segment, cuts, CHUNK):
                counter.update(split_words(segment[begin:stop], settings.split))
                begin = stop
    return counter


class Cuts:
    """Where a text may be cut for a split rule, in a str or in UTF-8 bytes."""

    def __init__(self, pattern: str):
        self._text = re.compile(pattern)
        self._bytes = re.compile(pattern.encode("ascii"))

    def after(self, data: str | bytes, pos: int) -> int | None:
        """The first cut at or after ``pos`` (never 0: a part is never empty), or None."""
        start = max(pos, 1)
        found = self._bytes.search(data, start) if isinstance(data, bytes) else self._text.search(data, start)
        return found.start() if found else None

    def last(self, data: bytes | bytearray, since: int = 0) -> int | None:
        """The last cut in ``data`` at or after ``since`` (and after its first byte), or None."""
        # looked for near the end first: a text has a cut every few bytes, and walking every one
        # of a long tail costs more than the counting of a small file
        first = max(1, since)
        for back in (1 << 10, 64 << 10, len(data)):
            found = None
            start = max(first, len(data) - back)
            for m in self._bytes.finditer(data, start):
                found = m.start()
            if found is not None or start == first:
                return found
        return None


def cuts_for(settings: Settings) -> Cuts | None:
    """Where this split rule is sure to cut, or None when the text must count in one part."""
    if settings.split == "whitespace":
        chars = _WHITESPACE_CUT
        pattern = f"[{re.escape(chars)}]"
    elif settings.split in ("gpt2", "gpt4"):
        chars = " "
        pattern = _LETTERS_CUT
    else:
        return None
    if any(c in token for token in settings.special_tokens for c in chars):
        return None  # a special token could stand across the cut
    return Cuts(pattern)


def part_ends(text: str | bytes, cuts: Cuts | None, part: int = PART) -> list[int]:
    """Where the parts of a text end (the last at its end): each near ``part`` long, at a cut."""
    ends = []
    pos = 0
    while cuts is not None and pos + part < len(text):
        end = cuts.after(text, pos + part)
        if end is None:
            break
        ends.append(end)
        pos = end
    ends.append(len(text))
    return ends


def workers_for(size: int, cuts: Cuts | None, workers: int | None) -> int:
    """How many processes count a text of ``size``: one unless it is large, cuttable and cores are free."""
    if workers is None:
        workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    # a frozen bundle starts no interpreter of its own for a worker to run in
    if cuts is None or size < PARALLEL_FROM or getattr(sys, "frozen", False):
        return 1
    return max(1, workers)


def count_text(text: str, settings: Settings, progress: Progress | None = None, workers: int | None = None,
               part: int = PART) -> Counter[str]:
    """``count_words`` of a text held in memory, a part at a time (on several processes when large).

    ``progress(characters counted, characters in all)`` runs after each part.
    """
    return drain(counting_text(text, settings, workers, part), progress)


def counting_text(text: str, settings: Settings, workers: int | None = None,
                  part: int = PART) -> Generator[tuple[int, int], None, Counter[str]]:
    """``count_text`` as a generator: (characters counted, characters in all) after each part, the
    counts as its return value. A worker thread stops between parts by closing it."""
    cuts = cuts_for(settings)
    ends = part_ends(text, cuts, part)
    spans = list(zip([0, *ends[:-1]], ends))
    n = workers_for(len(text), cuts, workers)
    pieces: Iterable[Counter[str]]
    if n == 1:
        pieces = (count_words(text[a:b], settings) for a, b in spans)
    else:
        pieces = _in_pool(n, count_words, ((text[a:b], settings) for a, b in spans))
    return (yield from _adding_up(pieces, [b for _, b in spans], len(text)))


def count_file(path: str | os.PathLike[str], settings: Settings, progress: Progress | None = None,
               workers: int | None = None, part: int = PART) -> Counter[str]:
    """``count_words`` of a UTF-8 text file, read a part at a time (on several processes when large).

    Memory holds the counts and one part per process, never the whole text. ``progress(bytes
    counted, bytes in all)`` runs after each part. The file is opened once, as ``RegularFile``
    checks it (a pipe, a device or a file the user may not read is refused before any byte is
    read); one that is not UTF-8 is read whole, for ``decode_utf8`` to say what is wrong with it.
    """
    cuts = cuts_for(settings)
    with RegularFile(path) as f:
        if cuts is None or f.read_at(0, 2) in (b"\xff\xfe", b"\xfe\xff"):
            # one part, or UTF-16: decoded whole
            return count_text(decode_utf8(f.read_all(), f.name), settings, progress, workers=1)
        n = workers_for(f.size, cuts, workers)
        try:
            if n == 1:
                return _count_stream(f, settings, cuts, progress, min(part, STREAM_PART))
            spans = _file_spans(f, cuts, part)
            pieces = _in_pool(n, _count_span, ((f.name, a, b, settings) for a, b in spans))
            return drain(_adding_up(pieces, [b for _, b in spans], f.size), progress)
        except UnicodeDecodeError:
            # not UTF-8, or a NUL byte: decode_utf8 words it, with the offset in the whole file
            return count_text(decode_utf8(f.read_all(), f.name), settings, progress, workers=1)


def _decode(data: bytes, first: bool) -> str:
    if b"\x00" in data:
        raise UnicodeDecodeError("utf-8", data, data.index(b"\x00"), data.index(b"\x00") + 1, "NUL byte")
    text = data.decode("utf-8")
    return text.removeprefix("\ufeff") if first else text


def _count_stream(f: RegularFile, settings: Settings, cuts: Cuts, progress: Progress | None, part: int) -> Counter[str]:
    counter: Counter[str] = Counter()
    done = 0
    data = bytearray()
    searched = 0  # where a cut may still be found in what was read: the bytes before it hold none
    size = f.size
    f.seek(0)
    while True:
        block = _read_part(f, part)
        data += block
        last = len(block) < part
        end = len(data) if last else (cuts.last(data, searched) or 0)
        if not end and not last:
            # no cut yet: the part grows until one comes, and only its new end is searched again
            # (a cut looks one byte ahead), or a long run without one costs its length each time
            searched = max(0, len(data) - 2)
            continue
        if end:
            counter.update(count_words(_decode(bytes(data[:end]), first=done == 0), settings))
        done += end
        del data[:end]
        searched = 0
        if progress is not None:
            progress(min(done, size), size)
        if last:
            return counter


def _read_part(f: RegularFile, n: int) -> bytes:
    """``n`` bytes, fewer only at the file's end (one read of a regular file may return less)."""
    chunks = [f.read(n)]
    got = len(chunks[0])
    while chunks[-1] and got < n:
        chunks.append(f.read(n - got))
        got += len(chunks[-1])
    return b"".join(chunks)


def _file_spans(f: RegularFile, cuts: Cuts, part: int) -> list[tuple[int, int]]:
    """(start, end) byte spans of a file's parts, each ending at a cut, found by reading near each end."""
    size = f.size
    ends = []
    pos = 0
    while pos + part < size:
        base = pos + part
        f.seek(base)
        window = b""
        end = None
        while end is None:
            more = f.read(1 << 16)
            if not more:
                break
            # a cut looks one byte back and ahead: keep the window's last two bytes in view
            window = window[-2:] + more
            start = base - (len(window) - len(more))
            found = cuts.after(window, 1)
            if found is not None and start + found > pos + part - 1:
                end = start + found
            base += len(more)
        if end is None:
            break
        ends.append(end)
        pos = end
    ends.append(size)
    return list(zip([0, *ends[:-1]], ends))


def _count_span(path: str, start: int, end: int, settings: Settings) -> Counter[str]:
    # opened again in the worker, and checked again: the name may lead elsewhere by now
    with RegularFile(path) as f:
        f.seek(start)
        data = _read_part(f, end - start)
    return count_words(_decode(data, first=start == 0), settings)


def _ignore_ctrl_c() -> None:
    """In each counting process: Ctrl+C reaches the whole group, and only the caller acts on it (it ends
    the pool), so a worker says nothing rather than print its traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_pool(n: int, job: Callable[..., Counter[str]], tasks: Iterable[tuple[object, ...]]) -> Iterator[Counter[str]]:
    """``job(*task)`` for each task on n processes, in task order, with few tasks handed out at once."""
    # imported here: a corpus small enough for one process counts, and a command starts, without it
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    # never fork: a window's threads (Qt's among them) do not survive into a forked child
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with context.Pool(n, initializer=_ignore_ctrl_c) as pool:
        waiting = []
        tasks = iter(tasks)
        for task in tasks:
            waiting.append(pool.apply_async(job, task))
            if len(waiting) >= n * IN_FLIGHT:
                yield waiting.pop(0).get()
        while waiting:
            yield waiting.pop(0).get()


def _adding_up(pieces: Iterable[Counter[str]], ends: list[int],
               total: int) -> Generator[tuple[int, int], None, Counter[str]]:
    """The parts' counts added up in text order (which keeps the order of first appearance)."""
    counter: Counter[str] = Counter()
    for piece, end in zip(pieces, ends):
        counter.update(piece)
        yield end, total
    return counter
