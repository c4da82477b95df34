"""One entry point for every tokenizer BPE Lab reads, and one for every format it writes.

``read_source("cl100k")`` gives GPT-4's tokenizer; a path is recognised by what it holds:

- a folder, ``vocab.json`` or ``merges.txt``: GPT-2 style files (``engine.formats.gpt2``)
- ``*.tiktoken`` or lines of ``base64 rank``: tiktoken ranks (``engine.formats.tiktoken_file``)
- ``*.csv``: BPE Lab's vocabulary CSV (``engine.formats.csv_vocab``)
- JSON: BPE Lab's tokenizer file, a lesson file, or a Hugging Face ``tokenizer.json``

Reading trains nothing: a lesson file is returned as the ``LessonFile`` it holds, and
``engine.lesson_io.loading`` trains it to the tokenizer the class is looking at. ``Source`` keeps a
training's steps, so an export can say how often each pair occurred when it was merged.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.files.reading import MAX_BYTES, MAX_LESSON_BYTES, parse_json, path_status, plain_path, read_text
from engine.errors import BpeLabError

if TYPE_CHECKING:  # a command that writes what it trained starts without the tokenizer's protocol
    from engine.algorithm.encoder import Encoder
    from engine.formats.lesson_file import LessonFile
    from engine.algorithm.tokenizer import Tokenizer
    from engine.algorithm.trainer import MergeStep

# an export's files, path -> text, to be written together (engine.files.writing)
Files = dict[str | os.PathLike[str], str]

FORMATS = ("bpelab", "hf", "gpt2", "tiktoken", "csv")
# the formats that are one file, which standard output can take
ONE_FILE = ("bpelab", "hf", "csv")
BUILT_IN = {"cl100k": False, "cl100k_base": False, "cl100k-chat": True}
_RANK_LINE = re.compile(r"^[A-Za-z0-9+/=]+ \d+$")


@dataclass(frozen=True)
class Recognised:
    """What a file was recognised as, with its parsed JSON for the JSON formats (else None), so
    that loading it later need not read and parse it again."""

    kind: str
    data: object = None


@dataclass
class Source:
    """A loaded tokenizer, with its training steps when it was trained here (else None)."""

    tokenizer: Encoder
    steps: list[MergeStep] | None = None
    kind: str = ""


def detect_format(path: str | os.PathLike[str]) -> str:
    """bpelab, lesson, hf, gpt2, tiktoken or csv, from the name and the first bytes."""
    return recognise(path).kind


def recognise(path: str | os.PathLike[str]) -> Recognised:
    """The format of a file, with its parsed JSON for the JSON formats: a JSON file is read and parsed once."""
    p = os.fspath(path)
    status = path_status(p)
    if status is None:
        raise BpeLabError(f"{p}: no such file; check the path (or give the built-in name cl100k)")
    name = os.path.basename(plain_path(p))
    if stat.S_ISDIR(status.st_mode) or name in ("vocab.json", "merges.txt"):
        return Recognised("gpt2")
    suffix = os.path.splitext(name)[1].lower()
    if suffix == ".tiktoken":
        return Recognised("tiktoken")
    if suffix == ".csv":
        return Recognised("csv")
    text = read_text(p, MAX_LESSON_BYTES if suffix == ".bpelab" else MAX_BYTES)
    head = text.lstrip()[:1]
    if head in ("{", "["):
        data = parse_json(text, p)
        kind = data.get("format") if isinstance(data, dict) else None
        if kind == "bpe-lab-tokenizer":
            return Recognised("bpelab", data)
        if kind == "bpe-lab-lesson":
            return Recognised("lesson", data)
        if isinstance(data, dict) and "model" in data:
            return Recognised("hf", data)
        raise BpeLabError(
            f"{p} is JSON but not a tokenizer BPE Lab knows (no \"format\" of BPE Lab, no \"model\" of tokenizer.json)"
        )
    first = text.split("\n", 1)[0].strip()
    if _RANK_LINE.match(first):
        return Recognised("tiktoken")
    if text.startswith("# BPE Lab vocabulary"):
        return Recognised("csv")
    raise BpeLabError(
        f"{p} is not a tokenizer BPE Lab can read: give a tokenizer.json, a BPE Lab tokenizer or lesson file, "
        "a folder with vocab.json and merges.txt, a .tiktoken file, a vocabulary .csv, or cl100k"
    )


def read_source(name: str | os.PathLike[str], recognised: Recognised | None = None) -> Source | LessonFile:
    """What a path or built-in name holds: a tokenizer as a ``Source``, or a lesson file as the
    ``LessonFile`` it is (``engine.lesson_io.loading.load_source`` trains it).

    ``recognised``: what ``recognise(name)`` said of the file, which is then not read again to tell.
    """
    key = str(name)
    # each reader is imported when a file of its kind is read: the hf reader alone takes 160 ms to
    # import (the regex engine, the libraries' checks), and a command reads one kind of file
    if key in BUILT_IN and path_status(key) is None:
        from engine.algorithm.cl100k import load_cl100k

        return Source(load_cl100k(chat=BUILT_IN[key]), None, "cl100k")
    recognised = recognised or recognise(name)
    kind, data = recognised.kind, recognised.data
    if kind == "lesson":
        from engine.formats.lesson_file import lesson_from_data

        return lesson_from_data(data, key)
    if kind == "bpelab":
        from engine.formats.bpelab import tokenizer_from_data

        return Source(tokenizer_from_data(data, key), None, kind)
    if kind == "hf":
        from engine.formats.hf import tokenizer_from_hf_data

        return Source(tokenizer_from_hf_data(data, key), None, kind)
    if kind == "gpt2":
        from engine.formats.gpt2 import load_gpt2

        return Source(load_gpt2(name), None, kind)
    if kind == "tiktoken":
        from engine.formats.tiktoken_file import load_tiktoken

        return Source(load_tiktoken(name), None, kind)
    from engine.formats.csv_vocab import load_csv

    return Source(load_csv(name), None, kind)


def read_tokenizer(name: str | os.PathLike[str], recognised: Recognised | None = None) -> Source:
    """The tokenizer a path or built-in name holds; a lesson file, which holds a corpus to train
    rather than a tokenizer, is refused."""
    found = read_source(name, recognised)
    if not isinstance(found, Source):
        raise BpeLabError(f"{name} is a lesson file, not a tokenizer: open it as a lesson, or export it first")
    return found


def _check_exportable(tokenizer: Encoder) -> None:
    # the tokenizer module takes 70 ms to import, which recognising a file (``recognise``) never needs
    from engine.algorithm.tokenizer import RankTokenizer, Tokenizer

    if type(tokenizer) in (Tokenizer, RankTokenizer):
        return  # trained here, or ranks: BPE Lab's own split and spelling, which every format holds
    # imported only for a tokenizer read from a file: it brings in the regex engine (65 ms of
    # -X importtime), which the train command, writing what it trained, goes without
    from engine.formats.hf_pipeline import FileTokenizer

    if isinstance(tokenizer, FileTokenizer):
        raise BpeLabError(
            f"this tokenizer.json cuts and spells words its own way ({tokenizer.way}), "
            "which no format BPE Lab writes can hold: keep the tokenizer.json itself"
        )


def check_one_file(fmt: str) -> None:
    """Refuse a format that writes more than one file where one stream is asked for (``--out -``)."""
    if fmt not in ONE_FILE:
        raise BpeLabError(f"the {fmt} format writes more than one file, which standard output cannot hold: "
                          "give --out a path, not -")


def export_text(source: Source, fmt: str) -> str:
    """A one-file format as text, checked like a written export (for ``--out -``)."""
    check_one_file(fmt)
    files, _ = export_files(source, fmt, "-")
    return files["-"]


def _bpelab_layout(tokenizer: Encoder) -> Tokenizer:
    """The tokenizer, when its ids follow BPE Lab's layout; else the refusal to write it as bpelab."""
    from engine.algorithm.tokenizer import Tokenizer  # 70 ms, as in ``_check_exportable``

    if type(tokenizer) is Tokenizer:
        return tokenizer  # trained here: BPE Lab's layout
    # a file reader's module, which the train command goes without
    from engine.formats.rebuilt_tokenizer import RenumberedTokenizer

    if isinstance(tokenizer, RenumberedTokenizer) or not isinstance(tokenizer, Tokenizer):
        raise BpeLabError(
            "this tokenizer's ids do not follow BPE Lab's layout (base, merges, special tokens), which "
            "the bpelab format assumes: export with --format hf or tiktoken to keep its ids"
        )
    return tokenizer


def check_export(source: Source, fmt: str) -> None:
    """Raise the refusal ``export`` would give for ``fmt``, writing nothing: the writers build the
    files in memory, which is where they refuse (the libraries' own check is left to ``export``)."""
    export_files(source, fmt, "export-check", library_check=False)


def export_files(source: Source, fmt: str, out: str | os.PathLike[str],
                 library_check: bool = True) -> tuple[Files, str | os.PathLike[str] | None]:
    """(path -> contents, the folder to make or None): ``source`` in ``fmt`` as checked files, not
    yet written, so that a caller can write them together with others (``engine.files.writing``);
    ``library_check``: the files are also read back by the library the format is for."""
    tokenizer = source.tokenizer
    _check_exportable(tokenizer)
    # each writer is imported when its format is asked for, as each reader is (``read_source``)
    if fmt == "bpelab":
        from engine.formats.bpelab import tokenizer_to_json

        return {out: tokenizer_to_json(_bpelab_layout(tokenizer))}, None
    if fmt == "hf":
        from engine.formats.hf import checked_files, tokenizer_json

        return (checked_files(tokenizer, out) if library_check else {out: tokenizer_json(tokenizer)}), None
    if fmt == "gpt2":
        from engine.formats import gpt2

        folder = (gpt2.checked_files if library_check else gpt2.folder_files)(tokenizer, out)
        return dict(folder.items()), out
    if fmt == "tiktoken":
        from engine.formats import tiktoken_file

        return (tiktoken_file.checked_files if library_check else tiktoken_file.tiktoken_files)(tokenizer, out), None
    if fmt == "csv":
        from engine.formats.csv_vocab import vocab_csv

        return {out: vocab_csv(tokenizer, source.steps)}, None
    raise BpeLabError(f"unknown format '{fmt}': choose one of {', '.join(FORMATS)}")


def export(source: Source, fmt: str, out: str | os.PathLike[str]) -> None:
    """Write ``source`` in ``fmt``: the files are whole or not written at all."""
    from engine.files.writing import write_files  # only a command that writes, not one that checks

    files, folder = export_files(source, fmt, out)
    write_files(files, make_folder=folder)
