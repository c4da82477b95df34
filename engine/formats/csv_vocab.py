"""The vocabulary as CSV: one row per token, for spreadsheets and for reading back.

    # BPE Lab vocabulary; settings: {"split": "whitespace", ...}
    id,token,bytes_hex,kind,step,left,right,left_id,right_id,count
    0,</w>,3c2f773e,marker,,,,,,
    27,es,6573,merge,1,e,s,4,18,9

``token`` is for people (a space shown as ␣); ``bytes_hex`` is exact (the token's bytes, or its
UTF-8 for chars units). ``kind`` is base, marker, merge, special or unknown. ``step`` is the merge
that made the token and ``left``/``right`` its parents; a base or marker row has them too when a
later merge spells its string again (letters that spell ``</w>``). ``count`` is how often the pair
occurred when it was merged: it comes from the training history, so it is blank when the source
has none (a tokenizer file, an imported tokenizer); a lesson file or ``bpe-lab train`` fills it.
Ids with gaps (cl100k_base leaves some unused) read back as tiktoken-style ranks. A cell that a
spreadsheet would run as a formula (a token ``=HYPERLINK(...)``) is written with a leading quote,
which the reader takes off again (``engine.formats.spreadsheet``).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path

from engine.algorithm.bytelevel import BYTE_TO_CHAR, bytes_to_symbols, symbols_to_bytes
from engine.readable.display import for_tokenizer
from engine.algorithm.encoder import Encoder
from engine.errors import BpeLabError
from engine.files.reading import parse_json, read_text
from engine.files.writing import write_files
from engine.formats.rebuilt_tokenizer import tokenizer_from_vocab
from engine.formats.listing import merges_of, vocab_of
from engine.formats.schema import MAX_COUNT, SchemaError
from engine.formats.spreadsheet import read_cell, safe_cell
from engine.formats.settings_data import settings_from_data
from engine.formats.tiktoken_file import check_single_bytes, rank_pattern
from engine.algorithm.settings import UNKNOWN
from engine.algorithm.tokenizer import RankTokenizer, Tokenizer
from engine.algorithm.trainer import MergeStep

COLUMNS = ["id", "token", "bytes_hex", "kind", "step", "left", "right", "left_id", "right_id", "count"]
COMMENT = "# BPE Lab vocabulary; settings: "
KINDS = ("base", "marker", "merge", "special", "unknown")


def _token_bytes(tokenizer: Encoder, token: str, kind: str) -> bytes | None:
    if kind == "unknown":
        return None
    if tokenizer.settings.units == "bytes" and kind != "special":
        return symbols_to_bytes(token)
    return token.encode("utf-8")


def vocab_csv(tokenizer: Encoder, steps: Sequence[MergeStep] | None = None) -> str:
    """The CSV text; ``steps`` (the training's MergeSteps) fills the count column."""
    merges = merges_of(tokenizer)
    made: dict[str, int] = {}
    for rank, (a, b) in enumerate(merges):
        if a + b in made:
            raise BpeLabError(
                f"merges {made[a + b] + 1} and {rank + 1} both make '{a + b}'; the CSV has one row per token: "
                "export with --format bpelab or hf"
            )
        made[a + b] = rank
    find = tokenizer.token_to_id
    specials = set(tokenizer.special_ids.values())
    marker = tokenizer.settings.marker
    base = set(getattr(tokenizer, "base", BYTE_TO_CHAR))
    # people read the token column; it shows control characters as <U+0007>, so no editor takes the file for binary
    shown = for_tokenizer(tokenizer).token
    out = io.StringIO()
    out.write(COMMENT + json.dumps(tokenizer.settings.to_dict(), ensure_ascii=False) + "\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for i, token in vocab_of(tokenizer):
        if i in specials:
            kind = "special"
        elif i == getattr(tokenizer, "unknown_id", None):
            kind = "unknown"
        elif token in base:
            kind = "marker" if token == marker else "base"
        else:
            kind = "merge"
        data = _token_bytes(tokenizer, token, kind)
        row = [i, shown(token), "" if data is None else data.hex(), kind]
        # a merge may make a base token's string again (letters that spell the marker): its row says both
        if kind not in ("special", "unknown") and token in made and find(token) == i:
            rank = made[token]
            a, b = merges[rank]
            count = steps[rank].count if steps is not None and rank < len(steps) else ""
            row += [rank + 1, shown(a), shown(b), find(a), find(b), count]
        else:
            row += [""] * 6
        writer.writerow([safe_cell(c) if isinstance(c, str) else c for c in row])
    return out.getvalue()


def save_csv(tokenizer: Encoder, path: str | os.PathLike[str], steps: Sequence[MergeStep] | None = None) -> None:
    write_files({path: vocab_csv(tokenizer, steps)})


def _whole(text: str, what: str, where: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 10) or int(text) > MAX_COUNT:
        raise SchemaError(f"{where}: {what} '{text[:20]}' must be a whole number from 0 to {MAX_COUNT:,}")
    return int(text)


def _rows(text: str, source: str) -> list[tuple[int, list[str]]]:
    """The data rows with their line numbers, after the settings line and the header; each cell
    as it was before a spreadsheet's formula start was escaped."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
        if header != COLUMNS:
            raise SchemaError(f"{source}, line 2: the header must be {','.join(COLUMNS)}")
        out = []
        for row in reader:
            if row:
                out.append((reader.line_num + 1, [read_cell(c) for c in row]))
    except csv.Error as exc:
        raise SchemaError(f"{source}, line {reader.line_num + 1}: not a CSV row BPE Lab can read ({exc})") from None
    return out


def load_csv(path: str | os.PathLike[str]) -> Tokenizer | RankTokenizer:
    source = str(path)
    text = read_text(path)
    first, _, rest = text.partition("\n")
    if not first.startswith(COMMENT):
        raise SchemaError(f"{source}, line 1: not a BPE Lab vocabulary CSV (it starts with '{COMMENT.strip()}')")
    settings = settings_from_data(parse_json(first[len(COMMENT):], f"{source}, line 1"), f"{source}, line 1")
    spelling: dict[int, str] = {}
    base: list[str] = []
    merges: dict[int, tuple[int, int, int]] = {}
    specials: dict[str, int] = {}
    unknown = None
    for number, row in _rows(rest, source):
        where = f"{source}, line {number}"
        if len(row) != len(COLUMNS):
            raise SchemaError(f"{where}: {len(row)} fields, expected {len(COLUMNS)}")
        cell = dict(zip(COLUMNS, row))
        i = _whole(cell["id"], "id", where)
        if i in spelling:
            raise SchemaError(f"{where}: id {i} is used twice; each id must be used once")
        kind = cell["kind"]
        if kind not in KINDS:
            raise SchemaError(f"{where}: kind '{kind[:20]}' is not {', '.join(KINDS[:-1])} or {KINDS[-1]}")
        if kind == "unknown":
            spelling[i] = unknown = UNKNOWN
            continue
        try:
            data = bytes.fromhex(cell["bytes_hex"])
        except ValueError:
            raise SchemaError(f"{where}: bytes_hex '{cell['bytes_hex'][:20]}' is not hexadecimal") from None
        if not data:
            raise SchemaError(f"{where}: bytes_hex is empty; every token but the unknown one has bytes")
        try:
            token = bytes_to_symbols(data) if settings.units == "bytes" and kind != "special" else data.decode("utf-8")
        except UnicodeDecodeError:
            raise SchemaError(f"{where}: bytes_hex is not UTF-8 text, which chars units need") from None
        spelling[i] = token
        if kind == "special":
            specials[token] = i
        elif kind in ("base", "marker"):
            base.append(token)
        if cell["step"] and kind in ("base", "marker", "merge"):
            step = _whole(cell["step"], "step", where)
            merges[step] = (_whole(cell["left_id"], "left_id", where), _whole(cell["right_id"], "right_id", where), number)
        elif kind == "merge":
            raise SchemaError(f"{where}: a merge row needs its step, left_id and right_id")
    if sorted(merges) != list(range(1, len(merges) + 1)):
        raise SchemaError(f"{source}: the merge steps must run 1, 2, 3, ... without gaps or repeats")
    pairs = []
    lines = []
    for step in sorted(merges):
        left, right, number = merges[step]
        if left not in spelling or right not in spelling:
            raise SchemaError(f"{source}, line {number}: a parent id ({left} or {right}) has no row")
        pairs.append((spelling[left], spelling[right]))
        lines.append(number)
    vocab = {t: i for i, t in spelling.items()}
    if len(vocab) != len(spelling):
        raise SchemaError(f"{source}: two rows hold the same token")
    if settings.units == "bytes" and sorted(spelling) != list(range(len(spelling))):
        # ranks with gaps (cl100k_base leaves some ids unused) are tiktoken's form, not a merge list
        ranks = {symbols_to_bytes(t): i for t, i in vocab.items() if t not in specials}
        check_single_bytes(ranks, source)
        return RankTokenizer(Path(source).name, ranks, rank_pattern(settings.split), specials)
    return tokenizer_from_vocab(settings, vocab, pairs, specials, unknown, source,
                                where=lambda k: f"line {lines[k]}", base=base)
