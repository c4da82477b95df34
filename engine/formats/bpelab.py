"""BPE Lab's own tokenizer file: versioned JSON holding settings, base vocabulary and merges.

    {"format": "bpe-lab-tokenizer", "version": 1, "settings": {...},
     "base_vocabulary": ["a", ...], "merges": [["e", "s"], ...]}

Byte-level tokens are spelt in the GPT-2 byte alphabet. The vocabulary is derived from the merges.
"""

from __future__ import annotations

import json
import os

from engine.errors import BpeLabError
from engine.files.reading import read_json
from engine.files.writing import write_atomic
from engine.formats.schema import Fields, SchemaError, shown
from engine.algorithm.tokenizer import Tokenizer

FORMAT = "bpe-lab-tokenizer"
VERSION = 1


def tokenizer_to_json(tokenizer: Tokenizer) -> str:
    """The file's text: a key a line, the base vocabulary on one line, then one merge a line.

    Written by hand from compact pieces: ``json.dumps(indent=...)`` takes the pure-Python encoder,
    which spends longer on a large vocabulary than the training did.
    """
    data = {"format": FORMAT, "version": VERSION, "settings": tokenizer.settings.to_dict(),
            "base_vocabulary": tokenizer.base}
    merges = tokenizer.merges
    fields = [f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in data.items()]
    # the whole list in one call of the C encoder (a pair is written as a list), then a line break
    # before each merge: '["' starts a merge and never stands inside a token's string, where a
    # quote is always escaped
    lines = json.dumps(merges, ensure_ascii=False)[1:-1].replace('], ["', '],\n  ["')
    fields.append(f'"merges": [\n  {lines}\n ]' if merges else '"merges": []')
    return "{\n " + ",\n ".join(fields) + "\n}\n"


def save_tokenizer(tokenizer: Tokenizer, path: str | os.PathLike[str]) -> None:
    write_atomic(path, tokenizer_to_json(tokenizer))


def tokenizer_from_data(data: object, source: str) -> Tokenizer:
    """The tokenizer a parsed file describes, every key checked against the format."""
    # imported for reading only: the train command writes this format without them
    from engine.formats.rebuilt_tokenizer import check_base
    from engine.formats.settings_data import settings_from_data

    f = Fields.of(data, source)
    if f.get("format", None) != FORMAT:
        raise SchemaError(f"{source} is not a BPE Lab tokenizer file (no \"format\": \"{FORMAT}\")")
    version = f.get("version", None)
    if version != VERSION or isinstance(version, bool):
        raise SchemaError(
            f"{source} is a version {shown(version)} tokenizer file; this BPE Lab reads version {VERSION}: "
            "update BPE Lab, or export the tokenizer again"
        )
    settings = settings_from_data(f.get("settings"), source)
    base = f.strings("base_vocabulary", nonempty=True, must="must be a list of tokens, each a non-empty text")
    merges = []
    for i, m in enumerate(f.items("merges") or [], start=1):
        if not (isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) and x for x in m)):
            raise SchemaError(f"{source}: merge {i} must be a pair of tokens such as [\"e\", \"s\"] (it is {shown(m)})")
        merges.append((m[0], m[1]))
    f.done()
    check_base(settings, base, source)
    try:
        return Tokenizer(settings, base, merges)
    except BpeLabError as exc:
        raise SchemaError(f"{source}: {exc}") from None


def load_tokenizer(path: str | os.PathLike[str]) -> Tokenizer:
    return tokenizer_from_data(read_json(path), str(path))
