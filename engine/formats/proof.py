"""Checking an export before it is written, and proving it once written: read the files back and
encode the lesson's own texts with them.

``check_formats(source, formats, step)`` is a generator (run it in a worker): it yields a
``FormatCheck`` per format, whether the format can hold the lesson (``load.check_export``, which
builds the whole file in memory: 0.2 to 0.6 s a format for 20,000 merges).

``export_and_prove(source, fmt, path, texts)`` is a generator (run it in a worker): it writes the
export (``load.export``, which refuses before writing anything), then yields a ``ProofProgress``
before each reading and returns a ``ProofReport``. The readers are BPE Lab's own (``read_tokenizer``,
as ``bpe-lab encode --tokenizer`` reads a file) and, when it is importable, the library the format
targets: `tokenizers` for tokenizer.json and the GPT-2 folder, tiktoken for .tiktoken. Each reader's
ids are compared with those of the tokenizer that was exported in both of BPE Lab's modes: text that
spells a special token read as ordinary text (`tokenizers` with ``encode_special_tokens = True``,
tiktoken's ``encode_ordinary``), and special tokens matched whole (the libraries' default; the rule
of ``engine.formats.verify``).

The library given a long text reads the files and encodes in a child process (``engine.child``): its
encoding runs in native code for seconds on a long text, deaf to a stop, and a child ends at once.
``check``, called while the child works and between the other steps, stops the proof by raising (a
worker's stop).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Generator, Iterable, Iterator

from engine.algorithm.encoder import Encoder
from engine.child import run_in_child
from engine.readable.describe import plural
from engine.errors import BpeLabError
from engine.files.reading import read_text
from engine.formats.load import Source, check_export, export, read_tokenizer
from engine.formats.refusal import Retrain, parts_of
from engine.formats.verify import (MODES, first_difference, gpt2_tokenizer_json, library_encoders, tiktoken_encoders,
                                   tiktoken_encoding)

# which library reads each format, when it is installed
LIBRARY = {"hf": "tokenizers", "gpt2": "tokenizers", "tiktoken": "tiktoken"}
OWN_READER = "BPE Lab's reader"
# how many ids a difference shows on each side
SHOWN = 3
# a text at least this long is read by the library in a child process: it encodes about a million
# characters a second, and a child costs a second's work to start and load the files in
IN_CHILD_FROM = 1_000_000


@dataclass(frozen=True)
class FormatCheck:
    """Whether ``fmt`` can hold the lesson at ``step``: ``refusal`` says why not (None: it can), in
    parts each front end puts in its own terms (``engine.formats.refusal``)."""

    fmt: str
    step: int
    refusal: tuple[str | Retrain, ...] | None


def check_formats(source: Source, formats: Iterable[str], step: int) -> Iterator[FormatCheck]:
    """Each of ``formats`` checked in turn for ``source``, the lesson at ``step``."""
    for fmt in formats:
        try:
            check_export(source, fmt)
        except BpeLabError as exc:
            yield FormatCheck(fmt, step, parts_of(exc))
        else:
            yield FormatCheck(fmt, step, None)


@dataclass(frozen=True)
class ProofProgress:
    done: int
    total: int
    what: str


@dataclass(frozen=True)
class Proof:
    """One reader on one text in one mode (``allow_special``: special tokens matched whole, else
    their text is ordinary text): ``position`` is the first token where its ids differ (None: the same)."""

    reader: str
    text_name: str
    ids: int
    position: int | None = None
    expected: tuple[int, ...] = ()
    got: tuple[int, ...] = ()
    allow_special: bool = False

    @property
    def same(self) -> bool:
        return self.position is None

    def sentence(self) -> str:
        mode = MODES[self.allow_special]
        if self.same:
            return f"{self.reader} gives the same {plural(self.ids, 'id')} on {self.text_name} with {mode}"
        return (f"{self.reader} differs on {self.text_name} with {mode} from token {self.position:,} on: "
                f"expected {list(self.expected)}, got {list(self.got)}")


@dataclass(frozen=True)
class ProofReport:
    proofs: tuple[Proof, ...]
    # a library the format targets that is not installed here
    missing: str | None = None

    @property
    def proven(self) -> bool:
        return all(p.same for p in self.proofs)


Encoders = dict[bool, Callable[[str], list[int]]]


def _library_encoders(fmt: str, path: Path) -> Encoders:
    """The target library's encoders for the written files, by allow_special (ImportError when it
    is not installed)."""
    if fmt == "tiktoken":
        from engine.formats.tiktoken_file import sidecar_path  # the regex engine: only for .tiktoken files

        return tiktoken_encoders(tiktoken_encoding(read_text(path), read_text(sidecar_path(path))))
    from tokenizers import Tokenizer as Library

    if fmt == "gpt2":
        from engine.formats.gpt2 import MERGES, SIDECAR, VOCAB  # the regex engine: only for GPT-2 folders

        library = Library.from_str(gpt2_tokenizer_json(*(read_text(path / name) for name in (VOCAB, MERGES, SIDECAR))))
    else:
        library = Library.from_str(read_text(path))
    return library_encoders(library)


def _own_ids(own: Encoder, allow_special: bool, text: str) -> list[int]:
    return own.encode_ids(text, allow_special=allow_special)


def _nothing() -> None:
    return None


def _library_ids(fmt: str, path: str, allow_special: bool, text: str) -> list[int]:
    """In a child process: the library's ids for ``text``, the files read afresh."""
    return list(_library_encoders(fmt, Path(path))[allow_special](text))


def _readers(fmt: str, path: Path) -> tuple[list[tuple[str, Encoders]], str | None]:
    own = read_tokenizer(path).tokenizer
    readers: list[tuple[str, Encoders]] = [
        (OWN_READER, {allow: functools.partial(_own_ids, own, allow) for allow in MODES}),
    ]
    library = LIBRARY.get(fmt)
    if library is None:
        return readers, None
    try:
        readers.append((library, _library_encoders(fmt, path)))
    except ImportError:
        return readers, library
    return readers, None


def prove(tokenizer: Encoder, fmt: str, path: str | os.PathLike[str], texts: dict[str, str],
          check: Callable[[], None] = _nothing) -> Generator[ProofProgress, None, ProofReport]:
    """Read the written files back and compare ids on each of ``texts`` (name -> text) in both
    modes; returns a ProofReport."""
    readers, missing = _readers(fmt, Path(path))
    check()
    texts = {name: text for name, text in texts.items() if text}
    total = len(texts) * len(MODES) * len(readers)
    proofs: list[Proof] = []
    for name, text in texts.items():
        for allow in MODES:
            ours = tokenizer.encode_ids(text, allow_special=allow)
            check()  # a second on a long text: heard here, not only at the next reading
            for reader, encoders in readers:
                yield ProofProgress(len(proofs), total, f"{reader} on {name}")
                if reader != OWN_READER and len(text) >= IN_CHILD_FROM:
                    theirs = run_in_child(_library_ids, fmt, str(path), allow, text, check=check,
                                          what=f"reading the export with {reader}")
                else:
                    theirs = list(encoders[allow](text))
                    check()
                at = first_difference(ours, theirs)
                if at is None:
                    proofs.append(Proof(reader, name, len(ours), allow_special=allow))
                else:
                    proofs.append(Proof(reader, name, len(ours), at, tuple(ours[at:at + SHOWN]),
                                        tuple(theirs[at:at + SHOWN]), allow))
    yield ProofProgress(total, total, "done")
    return ProofReport(tuple(proofs), missing)


def export_and_prove(source: Source, fmt: str, path: str | os.PathLike[str], texts: dict[str, str],
                     check: Callable[[], None] = _nothing) -> Generator[ProofProgress, None, ProofReport]:
    """Write ``source`` in ``fmt`` at ``path``, then ``prove`` it; returns the ProofReport."""
    yield ProofProgress(0, 1, "writing")
    export(source, fmt, path)
    check()
    return (yield from prove(source.tokenizer, fmt, path, texts, check))
