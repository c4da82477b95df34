"""Recovering merges from ranks: each token's split through earlier tokens' trees is tiktoken's split."""

import base64
import random

import pytest
import tiktoken

import engine.formats.rank_merges as rank_merges
from engine.errors import BpeLabError
from engine.lesson_io.loading import load_any
from engine.formats.rank_merges import byte_pair_split, recover_merges
from engine.algorithm.pretokenize import GPT4_PATTERN
from engine.algorithm.tokenizer import Tokenizer


def from_bytes(ranks):
    """The merges as tiktoken's rule gives them from each token's bytes, or the rank where it fails."""
    merges = []
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(token) > 1:
            parts = byte_pair_split(token, ranks, below=rank)
            if len(parts) != 2:
                return rank
            merges.append(tuple(parts))
    return merges


def through_trees(ranks):
    try:
        return recover_merges(ranks)
    except BpeLabError as exc:
        return int(str(exc).split("rank ")[1].split()[0])


def bytes_ranked(rng):
    ranks = {bytes([b]): b for b in range(256)}
    if rng.random() < 0.3:
        # a byte's rank plays no part in a split: bytes are where every split starts
        order = rng.sample(range(256), 256)
        ranks = {bytes([b]): order[b] + 2000 * (rng.random() < 0.05) for b in range(256)}
    return ranks


def random_ranks(rng):
    """Joins of earlier tokens over a few letters (equal joins side by side abound), mostly ones that
    tiktoken's rule makes of two earlier tokens, now and then a string that it does not."""
    ranks = bytes_ranked(rng)
    tokens = [bytes([c]) for c in b"abc"[: rng.randint(1, 3)]]
    rank = 1000
    for _ in range(rng.randint(1, 80)):
        token = rng.choice(tokens) + rng.choice(tokens)
        if rng.random() < 0.05:
            token = bytes(rng.choice(b"ab") for _ in range(rng.randint(2, 9)))
        if token in ranks or len(token) > 40:
            continue
        ranks[token] = rank
        if len(byte_pair_split(token, ranks, below=rank)) != 2 and rng.random() < 0.97:
            del ranks[token]
            continue
        rank += rng.randint(1, 3)
        tokens.append(token)
    return ranks


@pytest.fixture
def trees_for_all(monkeypatch):
    # every token goes through the trees, however short
    monkeypatch.setattr(rank_merges, "SHORT", 1)


@pytest.mark.parametrize("seed", range(4))
def test_splits_through_trees_are_tiktokens_splits(seed, trees_for_all):
    rng = random.Random(seed)
    recovered = failed = 0
    for _ in range(400):
        ranks = random_ranks(rng)
        expected = from_bytes(ranks)
        assert through_trees(ranks) == expected, ranks
        recovered += isinstance(expected, list) and len(expected) > 20
        failed += isinstance(expected, int)
    assert recovered > 40 and failed > 40


def chain(length):
    ranks = {bytes([b]): b for b in range(256)}
    for n in range(2, length + 1):
        ranks[b"a" * n] = 254 + n
    return ranks


def test_a_chain_splits_as_from_its_bytes(trees_for_all):
    ranks = chain(300)
    merges = recover_merges(ranks)
    assert merges == from_bytes(ranks)
    # tiktoken's rule pairs the bytes off, then the pairs, ...: 70 bytes fall apart as 32 + 38
    assert tuple(map(len, merges[70 - 2])) == (32, 38)


def test_the_work_grows_with_the_tokens_not_with_their_bytes():
    # from 250 to 1,000 links the chain's bytes grow 16 times; splitting each token from its bytes
    # (or replaying its merges) grows at least as much, and grew 64 times once
    work = []
    recover_merges(chain(250), work=work)
    recover_merges(chain(1000), work=work)
    assert work[1] / work[0] < 8


def test_a_chained_file_loads_to_tiktokens_ids(tmp_path):
    ranks = chain(1000)
    path = tmp_path / "chain.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()))
    tok = load_any(path)
    assert isinstance(tok, Tokenizer)
    assert len(tok.merges) == 999
    enc = tiktoken.Encoding("chain", pat_str=GPT4_PATTERN, mergeable_ranks=ranks, special_tokens={})
    for text in ["a" * 1000, "a" * 2501, "b" + "a" * 333 + " aaaa", "aaa"]:
        assert tok.encode_ids(text) == enc.encode(text), text[:20]
