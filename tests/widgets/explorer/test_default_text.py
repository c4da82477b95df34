"""The explorer's first text says how many GPT-4 tokens some words take: each claim holds in cl100k."""

import pytest

from engine.algorithm.cl100k import load_cl100k
from widgets.explorer.view import DEFAULT_TEXT, ONE_TOKEN, SEVERAL_TOKENS


@pytest.fixture(scope="module")
def cl100k():
    return load_cl100k()


def tokens_over(tokenizer, text: str, word: str) -> int:
    """How many of the text's tokens hold a byte of ``word`` (its first occurrence), in context."""
    data = text.encode("utf-8")
    start = data.index(word.encode("utf-8"))
    end = start + len(word.encode("utf-8"))
    at, n = 0, 0
    for token_id in tokenizer.encode_ids(text):
        size = len(tokenizer.decode_bytes([token_id]))
        if at < end and at + size > start:
            n += 1
        at += size
    return n


def test_every_count_the_default_text_claims_holds_in_cl100k(cl100k):
    for word in SEVERAL_TOKENS:
        assert tokens_over(cl100k, DEFAULT_TEXT, word) > 1, word
    for word in ONE_TOKEN:
        assert tokens_over(cl100k, DEFAULT_TEXT, word) == 1, word
    assert "take several tokens" in DEFAULT_TEXT and "take one each" in DEFAULT_TEXT
    assert "cost more" not in DEFAULT_TEXT
