"""The vocabulary as CSV: one row per token, for spreadsheets and for reading back.

    # BPE Lab vocabulary; settings: {"split": "whitespace", ...}
    id,token,bytes_hex,kind,step,left,right,left_id,right_id,count
    0,</w>,3c2f773e,marker,,,,,,
    27,es,6573,merge,1,e,s,4,18,9

``token`` is for people (a space shown as ␣); ``bytes_hex`` is exact (the token's bytes, or its
UTF-8 for chars units). ``kind`` is base, marker, merge, special or unknown. ``step`` is the merge
that made the token and ``left``/``right`` its parents. ``count`` is how often the pair occurred
when it was merged: it comes from the training history, so it is blank when the source has none
(a tokenizer file, an imported tokenizer); a lesson file or ``bpe-lab train`` fills it.
"""

from __future__ import annotations

import csv
import io
import json
import os

from engine.bytelevel import bytes_to_symbols, symbols_to_bytes
from engine.display import for_tokenizer
from engine.encoder import Encoder
from engine.errors import BpeLabError
from engine.files import read_text, write_files
from engine.formats.imported import tokenizer_from_vocab
from engine.formats.listing import merges_of, vocabulary_of
from engine.settings import Settings

COLUMNS = ["id", "token", "bytes_hex", "kind", "step", "left", "right", "left_id", "right_id", "count"]
COMMENT = "# BPE Lab vocabulary; settings: "


def _token_bytes(tokenizer: Encoder, token: str, kind: str) -> bytes | None:
    if kind == "unknown":
        return None
    if tokenizer.settings.units == "bytes" and kind != "special":
        return symbols_to_bytes(token)
    return token.encode("utf-8")


def vocabulary_csv(tokenizer: Encoder, steps=None) -> str:
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
    # people read the token column; it shows control characters as <U+0007>, so no editor takes the file for binary
    shown = for_tokenizer(tokenizer).token
    out = io.StringIO()
    out.write(COMMENT + json.dumps(tokenizer.settings.to_dict(), ensure_ascii=False) + "\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for i, token in vocabulary_of(tokenizer):
        if i in specials:
            kind = "special"
        elif i == getattr(tokenizer, "unknown_id", None):
            kind = "unknown"
        elif token in made and find(token) == i:
            kind = "merge"
        elif token == marker:
            kind = "marker"
        else:
            kind = "base"
        data = _token_bytes(tokenizer, token, kind)
        row = [i, shown(token), "" if data is None else data.hex(), kind]
        if kind == "merge":
            rank = made[token]
            a, b = merges[rank]
            count = steps[rank].count if steps is not None and rank < len(steps) else ""
            row += [rank + 1, shown(a), shown(b), find(a), find(b), count]
        else:
            row += [""] * 6
        writer.writerow(row)
    return out.getvalue()


def save_csv(tokenizer: Encoder, path: str | os.PathLike, steps=None) -> None:
    write_files({path: vocabulary_csv(tokenizer, steps)})


def load_csv(path: str | os.PathLike):
    source = str(path)
    text = read_text(path)
    first, _, rest = text.partition("\n")
    if not first.startswith(COMMENT):
        raise BpeLabError(f"{source}, line 1: not a BPE Lab vocabulary CSV (it starts with '{COMMENT.strip()}')")
    try:
        settings = Settings.from_dict(json.loads(first[len(COMMENT):]))
    except (json.JSONDecodeError, TypeError, AttributeError):
        raise BpeLabError(f"{source}, line 1: the settings after '{COMMENT.strip()}' are not valid JSON") from None
    except BpeLabError as exc:
        raise BpeLabError(f"{source}, line 1: {exc}") from None
    rows = list(csv.reader(io.StringIO(rest)))
    if not rows or rows[0] != COLUMNS:
        raise BpeLabError(f"{source}, line 2: the header must be {','.join(COLUMNS)}")
    spelling: dict[int, str] = {}
    merges: dict[int, tuple[int, int, int]] = {}
    specials: dict[str, int] = {}
    unknown = None
    for number, row in enumerate(rows[1:], start=3):
        if not row:
            continue
        if len(row) != len(COLUMNS):
            raise BpeLabError(f"{source}, line {number}: {len(row)} fields, expected {len(COLUMNS)}")
        cell = dict(zip(COLUMNS, row))
        try:
            i = int(cell["id"])
        except ValueError:
            raise BpeLabError(f"{source}, line {number}: id '{cell['id']}' is not a whole number") from None
        if i in spelling:
            raise BpeLabError(f"{source}, line {number}: id {i} is used twice; each id must be used once")
        kind = cell["kind"]
        if kind == "unknown":
            spelling[i] = "<unk>"
            unknown = "<unk>"
            continue
        try:
            data = bytes.fromhex(cell["bytes_hex"])
        except ValueError:
            raise BpeLabError(f"{source}, line {number}: bytes_hex '{cell['bytes_hex']}' is not hexadecimal") from None
        try:
            token = bytes_to_symbols(data) if settings.units == "bytes" and kind != "special" else data.decode("utf-8")
        except UnicodeDecodeError:
            raise BpeLabError(f"{source}, line {number}: bytes_hex is not UTF-8 text, which chars units need") from None
        spelling[i] = token
        if kind == "special":
            specials[token] = i
        elif kind == "merge":
            try:
                merges[int(cell["step"])] = (int(cell["left_id"]), int(cell["right_id"]), number)
            except ValueError:
                raise BpeLabError(f"{source}, line {number}: step, left_id and right_id must be whole numbers") from None
        elif kind not in ("base", "marker"):
            raise BpeLabError(f"{source}, line {number}: kind '{kind}' is not base, marker, merge, special or unknown")
    pairs = []
    lines = []
    for step in sorted(merges):
        left, right, number = merges[step]
        if left not in spelling or right not in spelling:
            raise BpeLabError(f"{source}, line {number}: a parent id ({left} or {right}) has no row")
        pairs.append((spelling[left], spelling[right]))
        lines.append(number)
    if sorted(merges) != list(range(1, len(merges) + 1)):
        raise BpeLabError(f"{source}: the merge steps must run 1, 2, 3, ... without gaps or repeats")
    vocab = {t: i for i, t in spelling.items()}
    if len(vocab) != len(spelling):
        raise BpeLabError(f"{source}: two rows hold the same token")
    return tokenizer_from_vocab(settings, vocab, pairs, specials, unknown, source, where=lambda k: f"line {lines[k]}")

