"""What any loaded tokenizer can show: its merges in order and its vocabulary by id.

Merge-list tokenizers carry their merges; ranked ones (cl100k_base, a foreign .tiktoken) have them
recovered from the ranks, which takes a few seconds for 100,000 tokens, so the result is kept.
"""

from __future__ import annotations

from engine.algorithm.bytelevel import BYTE_TO_CHAR, bytes_to_symbols
from engine.algorithm.encoder import Encoder
from engine.algorithm.tokenizer import RankTokenizer, Tokenizer

_RECOVERED: dict[int, list[tuple[str, str]]] = {}


def merges_of(tokenizer: Encoder) -> list[tuple[str, str]]:
    """The merges in the order they apply, as pairs of tokens (bytes spelt in the GPT-2 alphabet)."""
    if isinstance(tokenizer, RankTokenizer):
        key = id(tokenizer.ranks)
        if key not in _RECOVERED:
            from engine.formats.rank_merges import recover_merges  # the regex engine: only for rank files

            pairs = recover_merges(tokenizer.ranks, tokenizer.name)
            _RECOVERED[key] = [(bytes_to_symbols(a), bytes_to_symbols(b)) for a, b in pairs]
        return list(_RECOVERED[key])
    assert isinstance(tokenizer, Tokenizer), "an encoder is a merge list or a ranked vocabulary"
    return list(tokenizer.merges)


def vocab_of(tokenizer: Encoder) -> list[tuple[int, str]]:
    """(id, token) for every token, by id; ranked tokenizers may skip ids."""
    if isinstance(tokenizer, RankTokenizer):
        out = [(r, "".join(BYTE_TO_CHAR[b] for b in t)) for t, r in tokenizer.ranks.items()]
        out += [(i, t) for t, i in tokenizer.special_ids.items()]
        return sorted(out)
    assert isinstance(tokenizer, Tokenizer), "an encoder is a merge list or a ranked vocabulary"
    return list(enumerate(tokenizer.vocab))
