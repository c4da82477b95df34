"""GPT-2 style ``vocab.json`` + ``merges.txt`` in a folder, with BPE Lab's settings beside them.

    vocab.json    {"token": id, ...}
    merges.txt    "#version: 0.2", then one merge per line: "left right"
    bpe-lab.json  the settings and the pipeline objects (normalizer, pre-tokenizer, decoder) that
                  `tokenizers` needs with ``models.BPE.from_file`` to give BPE Lab's ids

Tokens are spelt as in tokenizer.json (see ``engine.formats.hf``). A token holding a space or a
line break cannot be written in merges.txt, so such vocabularies are refused (tokenizer.json holds
them). A folder without bpe-lab.json, such as GPT-2's own, is read as GPT-2 reads it: bytes, the
gpt2 split, and every vocabulary entry longer than one character that no merge makes is special.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from engine.encoder import Encoder
from engine.errors import BpeLabError
from engine.files import read_json, read_text, write_files
from engine.formats.hf import pipeline, spelled_table
from engine.formats.imported import check_ids, tokenizer_from_vocab
from engine.formats.merges_txt import HEADER, read_merges
from engine.formats.verify import check_gpt2_files
from engine.settings import Settings
from engine.tokenizer import UNKNOWN

VOCAB = "vocab.json"
MERGES = "merges.txt"
SIDECAR = "bpe-lab.json"
SIDECAR_FORMAT = "bpe-lab-gpt2-settings"


def folder_files(tokenizer: Encoder, folder: str | os.PathLike) -> dict:
    table, spelt, mark, stray = spelled_table(tokenizer, "merges.txt")
    lines = [HEADER]
    for m in table.merges:
        a, b = spelt[m.left], spelt[m.right]
        for part in (a, b):
            if any(c in part for c in " \n\r"):
                raise BpeLabError(
                    f"merge {m.rank + 1} has the token {part!r}, which holds a space or a line break that "
                    "merges.txt cannot write: export with --format hf, or train with bytes units"
                )
        lines.append(f"{a} {b}")
    sidecar = {
        "format": SIDECAR_FORMAT,
        "version": 1,
        "settings": table.settings.to_dict(),
        "unk_token": UNKNOWN if table.unknown_id is not None else None,
        "special_tokens": dict(sorted(table.special_ids.items(), key=lambda kv: kv[1])),
        "end_of_word_as": mark,
        **pipeline(table.settings, mark, stray),
    }
    folder = Path(folder)
    vocab = {t: i for i, t in enumerate(spelt)}
    return {
        folder / VOCAB: json.dumps(vocab, ensure_ascii=False, indent=1) + "\n",
        folder / MERGES: "\n".join(lines) + "\n",
        folder / SIDECAR: json.dumps(sidecar, ensure_ascii=False, indent=1) + "\n",
    }


def save_gpt2(tokenizer: Encoder, folder: str | os.PathLike) -> None:
    """Write the three files into ``folder`` (made if missing), all or none, once checked in `tokenizers`."""
    files = folder_files(tokenizer, folder)
    check_gpt2_files(tokenizer, *(files[Path(folder) / name] for name in (VOCAB, MERGES, SIDECAR)))
    p = Path(folder)
    if p.exists() and not p.is_dir():
        raise BpeLabError(f"{p} is a file; the gpt2 format writes a folder: give a folder name")
    made = False
    if not p.exists():
        try:
            p.mkdir(parents=False)
            made = True
        except FileNotFoundError:
            raise BpeLabError(f"{p}: the folder {p.parent} does not exist; create it first") from None
        except OSError as exc:
            raise BpeLabError(f"{p}: cannot make the folder ({exc.strerror}); choose another place") from None
    try:
        write_files(files)
    except BpeLabError:
        if made:
            try:
                p.rmdir()
            except OSError:
                pass
        raise


def load_gpt2(path: str | os.PathLike):
    """A folder holding vocab.json and merges.txt, or either of the two files."""
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    vocab_path, merges_path = folder / VOCAB, folder / MERGES
    for needed in (vocab_path, merges_path):
        if not needed.is_file():
            raise BpeLabError(f"{needed}: missing; the gpt2 format needs both {VOCAB} and {MERGES} in one folder")
    raw = read_json(vocab_path)
    if not isinstance(raw, dict):
        raise BpeLabError(f"{vocab_path}: expected an object of token: id")
    vocab = check_ids(raw.items(), str(vocab_path), "vocab.json")
    merges, numbers = read_merges(read_text(merges_path), str(merges_path))
    sidecar_path = folder / SIDECAR
    if sidecar_path.is_file():
        side = read_json(sidecar_path)
        if not isinstance(side, dict) or side.get("format") != SIDECAR_FORMAT:
            raise BpeLabError(f"{sidecar_path} is not BPE Lab's settings file for a gpt2 folder")
        if side.get("version") != 1:
            raise BpeLabError(f"{sidecar_path}: version {side.get('version')} is not one this BPE Lab reads; update BPE Lab")
        try:
            settings = Settings.from_dict(side.get("settings", {}))
        except BpeLabError as exc:
            raise BpeLabError(f"{sidecar_path}: {exc}") from None
        specials = side.get("special_tokens") or {}
        unknown = side.get("unk_token")
        mark = side.get("end_of_word_as")
    else:
        made = {a + b for a, b in merges}
        specials = {t: i for t, i in vocab.items() if len(t) > 1 and t not in made}
        settings = Settings(split="gpt2", units="bytes")
        unknown = None
        mark = None
    return tokenizer_from_vocab(
        settings, vocab, merges, specials, unknown, str(merges_path),
        where=lambda i: f"line {numbers[i]}", marker_as=mark,
    )
