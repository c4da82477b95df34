"""BPE Lab's engine: byte pair encoding, with every step recorded for teaching.

Pure Python and free of Qt, so the command line, the tests and the window share it.

The names below are looked up when first asked for: importing one engine module (the command
line imports ``engine.errors`` first) must not import the corpus, tokenizer and trainer with it.
"""

from __future__ import annotations

import importlib

# public name -> the module that defines it
_HOMES = {
    "BpeLabError": "engine.errors",
    "Corpus": "engine.algorithm.corpus",
    "Encoding": "engine.algorithm.tokenizer",
    "MergeStep": "engine.algorithm.trainer",
    "RankTokenizer": "engine.algorithm.tokenizer",
    "Settings": "engine.algorithm.settings",
    "Tokenizer": "engine.algorithm.tokenizer",
    "Trainer": "engine.algorithm.trainer",
    "train": "engine.algorithm.trainer",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
