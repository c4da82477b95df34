"""BPE Lab's own tokenizer file: versioned JSON holding settings, base vocabulary and merges.

    {"format": "bpe-lab-tokenizer", "version": 1, "settings": {...},
     "base_vocabulary": ["a", ...], "merges": [["e", "s"], ...]}

Byte-level tokens are spelt in the GPT-2 byte alphabet. The vocabulary is derived from the merges.
"""

from __future__ import annotations

import json
import os

from engine.errors import BpeLabError
from engine.files import read_json, write_atomic
from engine.settings import Settings
from engine.tokenizer import Tokenizer

FORMAT = "bpe-lab-tokenizer"
VERSION = 1


def tokenizer_to_json(tokenizer: Tokenizer) -> str:
    data = {"format": FORMAT, "version": VERSION, **tokenizer.to_dict()}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def save_tokenizer(tokenizer: Tokenizer, path: str | os.PathLike) -> None:
    write_atomic(path, tokenizer_to_json(tokenizer))


def tokenizer_from_data(data, source: str) -> Tokenizer:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BpeLabError(f"{source} is not a BPE Lab tokenizer file (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if version != VERSION:
        raise BpeLabError(
            f"{source} is a version {version} tokenizer file; this BPE Lab reads version {VERSION}: "
            "update BPE Lab, or export the tokenizer again"
        )
    for key, kind in (("settings", dict), ("base_vocabulary", list), ("merges", list)):
        if not isinstance(data.get(key), kind):
            raise BpeLabError(f"{source}: key \"{key}\" is missing or not a {kind.__name__}")
    settings = Settings.from_dict(data["settings"])
    merges = []
    for i, m in enumerate(data["merges"], start=1):
        if not (isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m)):
            raise BpeLabError(f"{source}: merge {i} is not a pair of strings")
        merges.append((m[0], m[1]))
    if not all(isinstance(t, str) for t in data["base_vocabulary"]):
        raise BpeLabError(f"{source}: \"base_vocabulary\" must hold strings")
    try:
        return Tokenizer(settings, data["base_vocabulary"], merges)
    except BpeLabError as exc:
        raise BpeLabError(f"{source}: {exc}") from None


def load_tokenizer(path: str | os.PathLike) -> Tokenizer:
    return tokenizer_from_data(read_json(path), str(path))
