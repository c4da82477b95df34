"""``.tiktoken`` files (one ``base64-bytes rank`` per line) and what tiktoken needs beside them.

tiktoken keeps no merge list: it splits a piece by repeatedly joining the neighbours whose joined
bytes have the lowest rank (and takes a piece that is a token whole). That equals replaying
BPE Lab's merges only when every token, split by that rule using the tokens ranked before it,
falls apart into exactly the two parents its merge joined. ``check_rank_rule`` tests each token
so, and the export refuses a vocabulary where the two would disagree.

Beside ``NAME.tiktoken`` the export writes ``NAME.tiktoken.json``: the split pattern
(``pat_str``), the special tokens with their ids, and BPE Lab's settings, which is what
``tiktoken.Encoding(name, pat_str=..., mergeable_ranks=..., special_tokens=...)`` needs.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
from pathlib import Path

import regex

from engine.algorithm.bytelevel import bytes_to_symbols, symbols_to_bytes
from engine.algorithm.encoder import Encoder
from engine.errors import BpeLabError
from engine.files.reading import path_status, read_json, read_text
from engine.files.writing import write_files
from engine.formats.rebuilt_tokenizer import tokenizer_from_vocab
from engine.formats.rank_merges import byte_pair_split, recover_merges
from engine.formats.refusal import ExportRefused, Retrain
from engine.formats.schema import MAX_COUNT, Fields, SchemaError, shown, text_map
from engine.formats.settings_data import settings_from_data
from engine.formats.table import TokenTable, refuse_lowercase
from engine.formats.verify import check_tiktoken_files
from engine.algorithm.pretokenize import GPT2_PATTERN, GPT4_PATTERN
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import RankTokenizer, Tokenizer
from engine.algorithm.unicode_table import WHITESPACE_CHARS

SIDECAR_FORMAT = "bpe-lab-tiktoken-settings"
# split patterns are a few hundred characters; a far longer one only costs time to compile
MAX_PATTERN_CHARS = 10_000
# how Rust's regex (tiktoken's) writes a code point, which Python's regex spells \U0000XXXX
_RUST_CODE_POINT = re.compile(r"\\x\{([0-9A-Fa-f]{1,6})\}")


def _rust_class(chars: str) -> str:
    return "".join(f"\\x{{{ord(c):X}}}" for c in chars)


# tiktoken finds the words with its regex; these patterns find exactly BPE Lab's words
PATTERNS = {
    "gpt2": GPT2_PATTERN,
    "gpt4": GPT4_PATTERN,
    "whitespace": f"[^{_rust_class(WHITESPACE_CHARS)}]+",
    "none": r"[\s\S]+",
}


def sidecar_path(path: str | os.PathLike[str]) -> Path:
    return Path(str(path) + ".json")


def check_rank_rule(tokenizer: Tokenizer) -> None:
    """Refuse a merge list that tiktoken's lowest-rank rule would not reproduce, naming the first such merge."""
    table = TokenTable.of(tokenizer)
    seen: dict[int, int] = {}
    for m in table.merges:
        if m.token in seen:
            raise BpeLabError(
                f"merges {seen[m.token] + 1} and {m.rank + 1} both make '{table.tokens[m.token]}', but a .tiktoken "
                "file has one rank per token, so tiktoken would split some text differently: export with "
                "--format hf or gpt2, which keep the merge list"
            )
        seen[m.token] = m.rank
    ranks = {symbols_to_bytes(table.tokens[i]): i for i in list(table.base_ids) + [m.token for m in table.merges]}
    for m in table.merges:
        token = table.tokens[m.token]
        parts = byte_pair_split(symbols_to_bytes(token), ranks, below=m.token)
        expected = [symbols_to_bytes(table.tokens[m.left]), symbols_to_bytes(table.tokens[m.right])]
        if parts != expected or tokenizer.merge_symbols(list(token)) != [token]:
            shown = " + ".join(repr(p.decode("utf-8", "replace")) for p in parts)
            raise BpeLabError(
                f"merge {m.rank + 1} joins '{table.tokens[m.left]}' + '{table.tokens[m.right]}', but tiktoken's "
                f"lowest-rank rule would split that token as {shown}, so tiktoken would give other ids: "
                "export with --format hf or gpt2, which keep the merge list"
            )


def tiktoken_files(tokenizer: Encoder, path: str | os.PathLike[str]) -> dict[str | os.PathLike[str], str]:
    settings = tokenizer.settings
    if settings.units != "bytes":
        raise ExportRefused(
            "a .tiktoken file holds byte tokens: ", Retrain("units", "bytes"), ", or export with --format hf or gpt2"
        )
    refuse_lowercase(settings, "tiktoken")
    if isinstance(tokenizer, RankTokenizer):
        ranks = tokenizer.ranks
        specials = dict(tokenizer.special_ids)
        pattern = tokenizer.pattern
    else:
        assert isinstance(tokenizer, Tokenizer), "an encoder is a merge list or a ranked vocabulary"
        check_rank_rule(tokenizer)
        table = TokenTable.of(tokenizer)
        ids = list(table.base_ids) + [m.token for m in table.merges]
        ranks = {symbols_to_bytes(table.tokens[i]): i for i in ids}
        specials = dict(table.special_ids)
        pattern = PATTERNS[settings.split]
    lines = [f"{base64.b64encode(token).decode('ascii')} {rank}" for token, rank in sorted(ranks.items(), key=lambda kv: kv[1])]
    name = Path(path).name.removesuffix(".tiktoken")
    n_vocab = len(ranks) + len(specials)
    sidecar = {
        "format": SIDECAR_FORMAT,
        "version": 1,
        "name": name,
        "pat_str": pattern,
        "special_tokens": specials,
        # tiktoken checks this only where the ids run without gaps (cl100k_base's do not)
        "explicit_n_vocab": n_vocab if n_vocab == 1 + max([*ranks.values(), *specials.values()]) else None,
        "settings": settings.to_dict(),
    }
    return {path: "\n".join(lines) + "\n", sidecar_path(path): json.dumps(sidecar, ensure_ascii=False, indent=1) + "\n"}


def checked_files(tokenizer: Encoder, path: str | os.PathLike[str]) -> dict[str | os.PathLike[str], str]:
    """The two files, once tiktoken, given them, gives BPE Lab's ids."""
    files = tiktoken_files(tokenizer, path)
    check_tiktoken_files(tokenizer, files[path], files[sidecar_path(path)])
    return files


def save_tiktoken(tokenizer: Encoder, path: str | os.PathLike[str]) -> None:
    write_files(checked_files(tokenizer, path))


def read_ranks(text: str, source: str) -> dict[bytes, int]:
    ranks: dict[bytes, int] = {}
    owner: dict[int, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) != 2:
            raise SchemaError(f"{source}, line {number}: expected 'base64-token rank', got '{line[:60]}'")
        try:
            token = base64.b64decode(fields[0], validate=True)
        except (binascii.Error, ValueError):
            raise SchemaError(f"{source}, line {number}: '{fields[0][:40]}' is not valid base64") from None
        rank = int(fields[1]) if fields[1].isascii() and fields[1].isdigit() and len(fields[1]) <= 10 else -1
        if not token or not 0 <= rank <= MAX_COUNT:
            raise SchemaError(f"{source}, line {number}: expected a token and a rank from 0 to {MAX_COUNT:,}, "
                              f"got '{line[:60]}'")
        if token in ranks:
            raise SchemaError(f"{source}, line {number}: this token already has rank {ranks[token]} (line {owner[ranks[token]]})")
        if rank in owner:
            raise SchemaError(f"{source}, line {number}: rank {rank} is already used on line {owner[rank]}")
        ranks[token] = rank
        owner[rank] = number
    if not ranks:
        raise SchemaError(f"{source} holds no tokens")
    return ranks


def check_single_bytes(ranks: dict[bytes, int], source: str) -> None:
    """Every byte must have a rank of its own, or some text could not be encoded."""
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise SchemaError(f"{source}: the single byte {missing[0]:#04x} has no rank; every byte needs one")


def python_pattern(pat_str: str) -> str:
    """tiktoken's pattern as Python's ``regex`` reads it (it has no ``\\x{...}``)."""
    return _RUST_CODE_POINT.sub(lambda m: f"\\U{int(m.group(1), 16):08X}", pat_str)


def rank_pattern(split: str) -> str:
    """The pattern a RankTokenizer uses for BPE Lab's ``split``."""
    return python_pattern(PATTERNS[split])


def _compiled(pat_str: str, where: str) -> str:
    if len(pat_str) > MAX_PATTERN_CHARS:
        raise SchemaError(f"{where}: pat_str is {len(pat_str):,} characters long; a split pattern has at most "
                          f"{MAX_PATTERN_CHARS:,}")
    pattern = python_pattern(pat_str)
    try:
        regex.compile(pattern)
    except (regex.error, ValueError, OverflowError) as exc:
        raise SchemaError(f"{where}: pat_str is not a regular expression BPE Lab can use ({exc})") from None
    return pattern


def _sidecar(path: Path, ranks: dict[bytes, int]) -> tuple[Settings, dict[str, int], str]:
    """(settings, special tokens and ids, split pattern) from NAME.tiktoken.json."""
    source = str(path)
    f = Fields.of(read_json(path), source)
    if f.get("format", None) != SIDECAR_FORMAT:
        raise SchemaError(f"{path} is not BPE Lab's settings file for a .tiktoken")
    version = f.get("version", 1)
    if version != 1 or isinstance(version, bool):
        raise SchemaError(f"{path}: version {shown(version)} is not one this BPE Lab reads; update BPE Lab")
    settings = settings_from_data(f.get("settings", {}), source)
    if settings.units != "bytes":
        raise SchemaError(f"{path}: settings.units must be bytes: a .tiktoken file holds byte tokens")
    specials = text_map(f.get("special_tokens", {}), "special_tokens", source)
    taken = {r: t for t, r in ranks.items()}
    for token, i in specials.items():
        if i in taken:
            raise SchemaError(f"{path}: the special token '{token[:40]}' has id {i}, which is the rank of "
                              f"{taken[i]!r} in the .tiktoken file: give it an id of its own")
    if len(set(specials.values())) != len(specials):
        raise SchemaError(f"{path}: two special tokens share an id")
    pattern = _compiled(f.text("pat_str", PATTERNS[settings.split], nonempty=True), source)
    f.text("name", "")
    f.whole("explicit_n_vocab", None, optional=True)
    f.done()
    return settings, specials, pattern


def load_tiktoken(path: str | os.PathLike[str]) -> Tokenizer | RankTokenizer:
    """A .tiktoken file, with its .tiktoken.json beside it when there is one (else cl100k's split)."""
    source = str(path)
    ranks = read_ranks(read_text(path), source)
    side_path = sidecar_path(path)
    settings = Settings(split="gpt4", units="bytes")
    specials: dict[str, int] = {}
    pattern = GPT4_PATTERN
    if path_status(side_path) is not None:
        settings, specials, pattern = _sidecar(side_path, ranks)
    check_single_bytes(ranks, source)
    spelt = {bytes_to_symbols(t): r for t, r in ranks.items()}
    vocab = {**spelt, **specials}
    try:
        pairs = [(bytes_to_symbols(a), bytes_to_symbols(b)) for a, b in recover_merges(ranks, source)]
        tokenizer = tokenizer_from_vocab(settings, vocab, pairs, specials, None, source, where=lambda i: f"rank of merge {i + 1}")
        # each merge is the split tiktoken's rule makes of its token, so replaying the merges in rank
        # order is that rule (check_rank_rule would split every token again to find so); what is left
        # to hold is that the merge list and the ids came through as the file has them
        if tokenizer.merges != pairs or any(tokenizer.token_to_id(t) != r for t, r in spelt.items()):
            raise BpeLabError(f"{source}: the ranks do not come through a merge list unchanged")
        return tokenizer
    except BpeLabError:
        # ranks that a merge list cannot replay exactly stay ranks: tiktoken's own rule
        return RankTokenizer(Path(path).name, ranks, pattern, specials)
