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
import stat
from pathlib import Path

from engine.algorithm.encoder import Encoder
from engine.errors import BpeLabError
from engine.files.reading import path_status, read_json, read_text
from engine.formats.hf import (char_bpe_folder_data, is_char_bpe_folder, pipeline, spelled_table,
                               tokenizer_from_hf_data)
from engine.formats.rebuilt_tokenizer import check_ids, tokenizer_from_vocab
from engine.formats.merges_txt import HEADER, read_merges
from engine.formats.refusal import ExportRefused, Retrain
from engine.formats.schema import Fields, SchemaError, shown, text_map
from engine.formats.settings_data import settings_from_data
from engine.formats.verify import check_gpt2_files
from engine.algorithm.settings import UNKNOWN, Settings
from engine.algorithm.tokenizer import Tokenizer
from engine.files.writing import write_files

VOCAB = "vocab.json"
MERGES = "merges.txt"
SIDECAR = "bpe-lab.json"
SIDECAR_FORMAT = "bpe-lab-gpt2-settings"


def folder_files(tokenizer: Encoder, folder: str | os.PathLike[str]) -> dict[Path, str]:
    table, spelt, mark, stray = spelled_table(tokenizer, "merges.txt")
    lines = [HEADER]
    for m in table.merges:
        a, b = spelt[m.left], spelt[m.right]
        for part in (a, b):
            if any(c in part for c in " \n\r"):
                raise ExportRefused(
                    f"merge {m.rank + 1} has the token {part!r}, which holds a space or a line break that "
                    "merges.txt cannot write: export with --format hf, or ", Retrain("units", "bytes")
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


def checked_files(tokenizer: Encoder, folder: str | os.PathLike[str]) -> dict[Path, str]:
    """The three files for ``folder``, once checked in `tokenizers`."""
    files = folder_files(tokenizer, folder)
    check_gpt2_files(tokenizer, *(files[Path(folder) / name] for name in (VOCAB, MERGES, SIDECAR)))
    return files


def save_gpt2(tokenizer: Encoder, folder: str | os.PathLike[str]) -> None:
    """Write the three files into ``folder`` (made if missing), all or none."""
    write_files(checked_files(tokenizer, folder), make_folder=folder)


def _sidecar(path: Path) -> tuple[Settings, dict[str, int], str | None, str | None]:
    """(settings, special tokens and ids, unknown token, how the marker is spelt) from bpe-lab.json."""
    source = str(path)
    f = Fields.of(read_json(path), source)
    if f.get("format", None) != SIDECAR_FORMAT:
        raise SchemaError(f"{path} is not BPE Lab's settings file for a gpt2 folder")
    version = f.get("version", None)
    if version != 1 or isinstance(version, bool):
        raise SchemaError(f"{path}: version {shown(version)} is not one this BPE Lab reads; update BPE Lab")
    settings = settings_from_data(f.get("settings", {}), source)
    specials = text_map(f.get("special_tokens", {}) or {}, "special_tokens", source)
    unknown = f.text("unk_token", None, optional=True, nonempty=True)
    mark = f.text("end_of_word_as", None, optional=True, nonempty=True)
    # the pipeline objects are for `tokenizers`; BPE Lab's settings say the same
    for part in ("normalizer", "pre_tokenizer", "decoder"):
        f.get(part, None)
    f.done()
    return settings, specials, unknown, mark


def load_gpt2(path: str | os.PathLike[str]) -> Tokenizer:
    """A folder holding vocab.json and merges.txt, or either of the two files."""
    p = Path(path)
    status = path_status(p)
    folder = p if status is not None and stat.S_ISDIR(status.st_mode) else p.parent
    vocab_path, merges_path = folder / VOCAB, folder / MERGES
    for needed in (vocab_path, merges_path):
        if path_status(needed) is None:
            raise BpeLabError(f"{needed}: missing; the gpt2 format needs both {VOCAB} and {MERGES} in one folder")
    raw = read_json(vocab_path)
    if not isinstance(raw, dict):
        raise SchemaError(f"{vocab_path}: expected an object of token: id (it is {shown(raw)})")
    vocab = check_ids(raw.items(), str(vocab_path), "vocab.json")
    merges, numbers = read_merges(read_text(merges_path), str(merges_path))
    sidecar_path = folder / SIDECAR
    if path_status(sidecar_path) is not None:
        settings, specials, unknown, mark = _sidecar(sidecar_path)
        for token, i in specials.items():
            if vocab.get(token) != i:
                raise SchemaError(f"{sidecar_path}: special_tokens gives '{token}' id {i}, but {VOCAB} gives "
                                  f"{shown(vocab.get(token))}")
    elif is_char_bpe_folder(vocab):
        # a folder CharBPETokenizer saved: the library reads it back with that recipe's pipeline
        return tokenizer_from_hf_data(char_bpe_folder_data(vocab, merges), str(folder))
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
