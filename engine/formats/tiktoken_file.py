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
from pathlib import Path

from engine.bytelevel import bytes_to_symbols, symbols_to_bytes
from engine.encoder import Encoder
from engine.errors import BpeLabError
from engine.files import read_json, read_text, write_files
from engine.formats.imported import tokenizer_from_vocab
from engine.formats.table import TokenTable, refuse_lowercase
from engine.formats.verify import check_tiktoken_files
from engine.pretokenize import GPT2_PATTERN, GPT4_PATTERN
from engine.settings import Settings
from engine.tokenizer import RankTokenizer, Tokenizer
from engine.unicode_table import WHITESPACE_CHARS

SIDECAR_FORMAT = "bpe-lab-tiktoken-settings"


def _rust_class(chars: str) -> str:
    return "".join(f"\\x{{{ord(c):X}}}" for c in chars)


# tiktoken finds the words with its regex; these patterns find exactly BPE Lab's words
PATTERNS = {
    "gpt2": GPT2_PATTERN,
    "gpt4": GPT4_PATTERN,
    "whitespace": f"[^{_rust_class(WHITESPACE_CHARS)}]+",
    "none": r"[\s\S]+",
}


def sidecar_path(path: str | os.PathLike) -> Path:
    return Path(str(path) + ".json")


def byte_pair_split(piece: bytes, ranks: dict[bytes, int], below: int | None = None) -> list[bytes]:
    """tiktoken's rule: join the neighbours whose bytes rank lowest, using only ranks under ``below``."""
    parts = [piece[i : i + 1] for i in range(len(piece))]
    while len(parts) > 1:
        best = None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and (below is None or r < below) and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            break
        i = best[1]
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return parts


def recover_merges(ranks: dict[bytes, int], source: str = "ranks") -> list[tuple[bytes, bytes]]:
    """The merge list, in rank order, that ranked tokens stand for."""
    merges = []
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(token) < 2:
            continue
        parts = byte_pair_split(token, ranks, below=rank)
        if len(parts) != 2:
            raise BpeLabError(
                f"{source}: the token of rank {rank} is not the join of two earlier tokens, so it is not a "
                "byte pair encoding vocabulary"
            )
        merges.append((parts[0], parts[1]))
    return merges


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


def tiktoken_files(tokenizer: Encoder, path: str | os.PathLike) -> dict:
    settings = tokenizer.settings
    if settings.units != "bytes":
        raise BpeLabError(
            "a .tiktoken file holds byte tokens: train with --units bytes, or export with --format hf or gpt2"
        )
    refuse_lowercase(settings, "tiktoken")
    if isinstance(tokenizer, RankTokenizer):
        ranks = tokenizer.ranks
        specials = dict(tokenizer.special_ids)
        pattern = tokenizer.pattern
    else:
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


def save_tiktoken(tokenizer: Encoder, path: str | os.PathLike) -> None:
    """Write the two files once tiktoken, given them, gives BPE Lab's ids."""
    files = tiktoken_files(tokenizer, path)
    check_tiktoken_files(tokenizer, files[path], files[sidecar_path(path)])
    write_files(files)


def read_ranks(text: str, source: str) -> dict[bytes, int]:
    ranks: dict[bytes, int] = {}
    owner: dict[int, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) != 2:
            raise BpeLabError(f"{source}, line {number}: expected 'base64-token rank', got '{line[:60]}'")
        try:
            token = base64.b64decode(fields[0], validate=True)
        except (binascii.Error, ValueError):
            raise BpeLabError(f"{source}, line {number}: '{fields[0][:40]}' is not valid base64") from None
        try:
            rank = int(fields[1])
        except ValueError:
            raise BpeLabError(f"{source}, line {number}: the rank '{fields[1]}' is not a whole number") from None
        if token in ranks:
            raise BpeLabError(f"{source}, line {number}: this token already has rank {ranks[token]} (line {owner[ranks[token]]})")
        if rank in owner:
            raise BpeLabError(f"{source}, line {number}: rank {rank} is already used on line {owner[rank]}")
        ranks[token] = rank
        owner[rank] = number
    if not ranks:
        raise BpeLabError(f"{source} holds no tokens")
    return ranks


def load_tiktoken(path: str | os.PathLike):
    """A .tiktoken file, with its .tiktoken.json beside it when there is one (else cl100k's split)."""
    source = str(path)
    ranks = read_ranks(read_text(path), source)
    side_path = sidecar_path(path)
    settings = Settings(split="gpt4", units="bytes")
    specials: dict[str, int] = {}
    pattern = GPT4_PATTERN
    if side_path.is_file():
        side = read_json(side_path)
        if not isinstance(side, dict) or side.get("format") != SIDECAR_FORMAT:
            raise BpeLabError(f"{side_path} is not BPE Lab's settings file for a .tiktoken")
        try:
            settings = Settings.from_dict(side.get("settings", {}))
        except BpeLabError as exc:
            raise BpeLabError(f"{side_path}: {exc}") from None
        specials = side.get("special_tokens") or {}
        pattern = side.get("pat_str", PATTERNS[settings.split])
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise BpeLabError(f"{source}: the single byte {missing[0]:#04x} has no rank; every byte needs one")
    vocab = {bytes_to_symbols(t): r for t, r in ranks.items()}
    for t, i in specials.items():
        vocab[t] = i
    try:
        pairs = [(bytes_to_symbols(a), bytes_to_symbols(b)) for a, b in recover_merges(ranks, source)]
        tokenizer = tokenizer_from_vocab(settings, vocab, pairs, specials, None, source, where=lambda i: f"rank of merge {i + 1}")
        check_rank_rule(tokenizer)
        return tokenizer
    except BpeLabError:
        # ranks that a merge list cannot replay exactly stay ranks: tiktoken's own rule
        return RankTokenizer(Path(path).name, ranks, pattern, specials)

