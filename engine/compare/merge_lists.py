"""Anyone's merge list, read from any of the shapes trainers write, as pairs in the lesson's spelling.

The shapes: ``merges.txt`` (with or without its ``#version`` line), a folder of ``vocab.json`` and
``merges.txt``, a ``tokenizer.json``, BPE Lab's tokenizer and lesson files, a minbpe ``.model``
file, a ``.tiktoken`` file, a JSON list of pairs (``[["e", "s"], ...]``) and a JSON, Python or
one-a-line list of the merged tokens (``["ea", "tea", "team"]``), as the lessons' code prints them.

A list of merged tokens says what each merge made, not which two tokens it joined: the pair is
found by replay, as the two tokens known by then (the base symbols and the tokens made before)
that spell it. Where two such splits exist (``abc`` after both ``ab`` and ``bc``) both are named
and the list is refused: which one the trainer took cannot be known from the list.

    >>> pairs_of(MergeList("x", "tokens", strings=["ea", "tea", "team"]), ["a", "e", "m", "s", "t"])
    [('e', 'a'), ('t', 'ea'), ('tea', 'm')]

Files made of bytes (minbpe, tiktoken) are spelt as the lesson spells tokens: in the byte alphabet
for bytes units, as text for chars units. Left out: special tokens, which no merge makes.
"""

from __future__ import annotations

import ast
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.algorithm.bytelevel import bytes_to_symbols
from engine.algorithm.settings import Settings
from engine.errors import BpeLabError
from engine.files.reading import parse_json, path_status, plain_path, read_text
from engine.formats.merges_txt import read_merges

Pair = tuple[str, str]
# a Python list printed by the lessons' code is read as a literal only up to this size
MAX_LITERAL_CHARS = 4 * 1024 * 1024
MINBPE_HEADER = "minbpe v1"


class MergeListError(BpeLabError):
    """A merge list that cannot be read, or whose merges cannot be made from the lesson's symbols."""


class AmbiguousMergeError(MergeListError):
    """A merged token that two different pairs of known tokens spell: the list does not say which."""

    def __init__(self, message: str, candidates: tuple[Pair, ...]):
        super().__init__(message)
        self.candidates = candidates


@dataclass(frozen=True)
class MergeList:
    """What a file holds: merges as pairs, or the tokens they made (``strings``); ``kind`` its shape."""

    source: str
    kind: str
    pairs: list[Pair] | None = None
    strings: list[str] | None = field(default=None)


def read_merge_list(path: str | os.PathLike[str], settings: Settings) -> MergeList:
    """The merge list a file or folder holds, in whichever shape it is written."""
    p = os.fspath(path)
    status = path_status(p)
    if status is None:
        raise MergeListError(f"{p}: no such file; check the path")
    name = os.path.basename(plain_path(p))
    if stat.S_ISDIR(status.st_mode):
        return _folder(p)
    suffix = os.path.splitext(name)[1].lower()
    if suffix == ".tiktoken":
        return _tiktoken(p, settings)
    text = read_text(p)
    head = text.lstrip()[:1]
    if text.startswith(MINBPE_HEADER) or suffix == ".model":
        return _minbpe(text, p, settings)
    if name == "merges.txt":
        return MergeList(p, "merges.txt", pairs=_merges_txt(text, p))
    if head == "{":
        return _tokenizer_file(p, _json_or_literal(text, p))
    if head == "[":
        return _listed(_json_or_literal(text, p), p)
    return _lines(text, p, settings)


def _merges_txt(text: str, source: str) -> list[Pair]:
    try:
        return read_merges(text, source)[0]
    except BpeLabError as exc:
        raise MergeListError(str(exc)) from None


def _folder(p: str) -> MergeList:
    folder = Path(p)
    if not (folder / "merges.txt").is_file():
        raise MergeListError(f"{p}: a folder of merges holds a merges.txt (and vocab.json); this one has none")
    if (folder / "vocab.json").is_file():
        from engine.formats.gpt2 import load_gpt2  # reads the two files as the GPT-2 folder reader does

        return MergeList(p, "vocab.json + merges.txt", pairs=list(load_gpt2(folder).merges))
    merges = folder / "merges.txt"
    return MergeList(p, "merges.txt", pairs=_merges_txt(read_text(merges), str(merges)))


def _tokenizer_file(p: str, data: Any) -> MergeList:
    """A tokenizer.json, a BPE Lab tokenizer file, or a lesson file trained to all its merges."""
    from engine.algorithm.tokenizer import Tokenizer
    from engine.formats.lesson_file import LessonFile
    from engine.formats.load import Recognised, read_source

    kind = data.get("format") if isinstance(data, dict) else None
    shape = {"bpe-lab-tokenizer": "bpelab", "bpe-lab-lesson": "lesson"}.get(kind if isinstance(kind, str) else "")
    if shape is None and isinstance(data, dict) and "model" in data:
        shape = "hf"
    if shape is None:
        raise MergeListError(f"{p} is a JSON object with no merges BPE Lab knows (not a tokenizer.json, not a BPE Lab "
                             "file): give one of those, or a JSON list of pairs or of merged tokens")
    try:
        found = read_source(p, Recognised(shape, data))
    except MergeListError:
        raise
    except BpeLabError:
        # a tokenizer.json the reader cannot encode with (no unknown token, a pipeline of its own)
        # still holds its merge list, which is all a compare needs
        merges = _hf_merges(data) if shape == "hf" else None
        if merges is None:
            raise
        return MergeList(p, "tokenizer.json (its merges)", pairs=merges)
    if isinstance(found, LessonFile):
        from engine.algorithm.trainer import train

        corpus = found.corpus()
        if corpus.is_empty:
            raise MergeListError(f"{p}: the lesson's corpus is empty, so it makes no merges")
        _, steps = train(corpus)
        return MergeList(p, "lesson file", pairs=[s.pair for s in steps])
    tokenizer = found.tokenizer
    if not isinstance(tokenizer, Tokenizer):
        raise MergeListError(f"{p}: this tokenizer keeps no merge list to compare")
    return MergeList(p, "tokenizer.json" if found.kind == "hf" else "BPE Lab tokenizer", pairs=list(tokenizer.merges))


def _hf_merges(data: dict[str, Any]) -> list[Pair] | None:
    """A tokenizer.json's ``model.merges`` ("a b" or ["a", "b"] each), None unless every one is a pair."""
    model = data.get("model")
    merges = model.get("merges") if isinstance(model, dict) and model.get("type") == "BPE" else None
    if not isinstance(merges, list) or not merges:
        return None
    pairs: list[Pair] = []
    for entry in merges:
        parts = entry.split(" ") if isinstance(entry, str) else entry
        if not (isinstance(parts, list) and len(parts) == 2 and all(isinstance(x, str) and x for x in parts)):
            return None
        pairs.append((parts[0], parts[1]))
    return pairs


def _spelt(data: bytes, settings: Settings, source: str) -> str:
    """A token's bytes as the lesson spells tokens."""
    if settings.units == "bytes":
        return bytes_to_symbols(data)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise MergeListError(
            f"{source} merges bytes that are only part of a character ({data!r}), which chars units cannot "
            "spell: compare with --units bytes"
        ) from None


def _tiktoken(p: str, settings: Settings) -> MergeList:
    from engine.algorithm.tokenizer import RankTokenizer, Tokenizer
    from engine.formats.load import read_tokenizer
    from engine.formats.rank_merges import recover_merges
    from engine.algorithm.bytelevel import symbols_to_bytes

    tokenizer = read_tokenizer(p).tokenizer
    if isinstance(tokenizer, RankTokenizer):
        byte_pairs = recover_merges(tokenizer.ranks, p)
    elif isinstance(tokenizer, Tokenizer):
        byte_pairs = [(symbols_to_bytes(a), symbols_to_bytes(b)) for a, b in tokenizer.merges]
    else:
        raise MergeListError(f"{p}: this tokenizer keeps no merge list to compare")
    return MergeList(p, ".tiktoken", pairs=[(_spelt(a, settings, p), _spelt(b, settings, p)) for a, b in byte_pairs])


def _minbpe(text: str, p: str, settings: Settings) -> MergeList:
    """minbpe's text format: its header, the split pattern, the number of special tokens and a line
    for each, then a merge a line as two ids (under 256 a byte, else the token of merge id - 256)."""
    lines = text.split("\n")
    if lines[0].rstrip("\r") != MINBPE_HEADER:
        raise MergeListError(f"{p}, line 1: a minbpe .model file starts with '{MINBPE_HEADER}'")
    if len(lines) < 3:
        raise MergeListError(f"{p}: a minbpe .model file holds a pattern line and a count of special tokens")
    try:
        specials = int(lines[2])
    except ValueError:
        raise MergeListError(f"{p}, line 3: expected the number of special tokens, got '{lines[2][:40]}'") from None
    if specials < 0 or 3 + specials > len(lines):
        raise MergeListError(f"{p}, line 3: {specials} special tokens are announced, but the file is shorter")
    tokens: list[bytes] = [bytes([b]) for b in range(256)]
    pairs: list[Pair] = []
    for number, line in enumerate(lines[3 + specials:], start=4 + specials):
        line = line.rstrip("\r")
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or not all(x.isdigit() for x in parts):
            raise MergeListError(f"{p}, line {number}: expected two token ids, got '{line[:40]}'")
        a, b = int(parts[0]), int(parts[1])
        if a >= len(tokens) or b >= len(tokens):
            raise MergeListError(f"{p}, line {number}: id {max(a, b)} is no byte and no earlier merge's token")
        pairs.append((_spelt(tokens[a], settings, p), _spelt(tokens[b], settings, p)))
        tokens.append(tokens[a] + tokens[b])
    return MergeList(p, "minbpe .model", pairs=pairs)


def _json_or_literal(text: str, p: str) -> Any:
    """A JSON list, or a list as Python prints it (single quotes), read as a literal and nothing else."""
    try:
        return parse_json(text, p)
    except BpeLabError as exc:
        if len(text) > MAX_LITERAL_CHARS:
            raise MergeListError(str(exc)) from None
        try:
            return ast.literal_eval(text.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise MergeListError(str(exc)) from None


def _listed(data: Any, p: str) -> MergeList:
    if not isinstance(data, list | tuple) or not data:
        raise MergeListError(f"{p}: expected a list of merges, such as [[\"e\", \"s\"], ...] or [\"es\", ...]")
    if all(isinstance(item, str) for item in data):
        return MergeList(p, "list of tokens", strings=_checked_strings(list(data), p))
    pairs: list[Pair] = []
    for i, item in enumerate(data):
        if not (isinstance(item, list | tuple) and len(item) == 2 and all(isinstance(x, str) and x for x in item)):
            raise MergeListError(f"{p}, item {i + 1}: expected a pair of two tokens such as [\"e\", \"s\"], "
                                 f"got {str(item)[:40]}")
        pairs.append((item[0], item[1]))
    return MergeList(p, "list of pairs", pairs=pairs)


def _checked_strings(strings: list[str], p: str) -> list[str]:
    for i, s in enumerate(strings):
        if len(s) < 2:
            raise MergeListError(f"{p}, item {i + 1}: '{s}' is one symbol, which no merge makes")
    return strings


def _lines(text: str, p: str, settings: Settings) -> MergeList:
    """merges.txt by another name (two tokens a line), or one merged token a line."""
    rows = [(n, line.removesuffix("\r")) for n, line in enumerate(text.split("\n"), start=1)]
    rows = [(n, line) for n, line in rows if line and not (n == 1 and line.startswith("#version"))]
    if not rows:
        raise MergeListError(f"{p}: the file holds no merges")
    if " " in rows[0][1]:
        return MergeList(p, "merges.txt", pairs=_merges_txt(text, p))
    for n, line in rows:
        if " " in line:
            raise MergeListError(f"{p}, line {n}: expected one merged token a line (as line {rows[0][0]}), got '{line[:40]}'")
    return MergeList(p, "list of tokens", strings=_checked_strings([line for _, line in rows], p))


def pairs_of(merges: MergeList, base: list[str]) -> list[Pair]:
    """The list's merges as pairs; merged tokens are split, by replay, into the two tokens known by then."""
    if merges.pairs is not None:
        return merges.pairs
    known = set(base)
    pairs: list[Pair] = []
    for i, token in enumerate(merges.strings or []):
        splits = tuple((token[:cut], token[cut:]) for cut in range(1, len(token))
                       if token[:cut] in known and token[cut:] in known)
        if not splits:
            raise MergeListError(
                f"{merges.source}, merge {i + 1}: no two tokens known by then spell '{token}' (neither the lesson's "
                "symbols nor a token made before it): check the corpus and settings it was trained with"
            )
        if len(splits) > 1:
            shown = " or ".join(f"{a} + {b}" for a, b in splits)
            raise AmbiguousMergeError(
                f"{merges.source}, merge {i + 1}: '{token}' could be {shown}, and the list does not say which: "
                "give the merges as pairs", splits)
        pairs.append(splits[0])
        known.add(token)
    return pairs
