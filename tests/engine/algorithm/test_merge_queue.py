"""The heap of candidate merges gives exactly the ids of the scanning loops it replaces, for both
rules (replay in order, tiktoken's lowest rank), and its cost grows with a piece's length, not
with its square."""

import random
import time

from hypothesis import given, settings as hyp_settings, strategies as st

from engine import Corpus, Settings, Tokenizer, train
from engine.algorithm.cl100k import load_cl100k
from engine.formats.hf import load_hf, save_hf
from engine.algorithm.merge_queue import merge_ranked_bytes, replay_merges
from engine.algorithm.tokenizer import RankTokenizer


@st.composite
def merge_lists(draw):
    """Merges over a b c, each joining two tokens already there, often spelling again a token an
    earlier merge used (the case where replaying in order differs from lowest rank first)."""
    tokens = ["a", "b", "c"]
    merges: list[tuple[str, str]] = []
    for _ in range(draw(st.integers(0, 30))):
        used = {part for pair in merges for part in pair}
        rebuilds = [(t[:i], t[i:]) for t in sorted(used) for i in range(1, len(t))
                    if t[:i] in tokens and t[i:] in tokens and (t[:i], t[i:]) not in merges]
        if rebuilds and draw(st.booleans()):
            pair = draw(st.sampled_from(rebuilds))
        else:
            pair = (draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens)))
        merges.append(pair)
        if pair[0] + pair[1] not in tokens:
            tokens.append(pair[0] + pair[1])
    return merges, tokens


long_pieces = st.tuples(merge_lists(), st.integers(0, 2**32), st.integers(65, 600))


@hyp_settings(max_examples=200, deadline=None)
@given(long_pieces)
def test_a_long_piece_gets_the_ids_of_the_round_by_round_replay(case):
    (merges, tokens), seed, length = case
    rng = random.Random(seed)
    # a long piece spelt from the tokens, so rebuilt tokens meet the neighbours earlier merges joined
    word = ""
    while len(word) < length:
        word += rng.choice(tokens)
    tokenizer = Tokenizer(Settings(end_of_word=rng.choice([None, "_"]), split="none"), list("abc_"), merges)
    ids = tokenizer._symbols(word)
    for limit in (len(merges), rng.randint(0, len(merges))):
        # the scanning loop, kept for traces: every round over the whole word
        expected = tokenizer._bpe(list(ids), [], limit)
        assert tokenizer._bpe(list(ids), None, limit) == expected
        assert replay_merges(list(ids), tokenizer._ranks.get, tokenizer._later_merge, limit) == expected


def test_a_trained_tokenizer_merges_long_pieces_as_it_merges_words():
    rng = random.Random(5)
    compared = 0
    for _ in range(20):
        alphabet = rng.choice(["ab", "abc", "aab", "abcd"])
        text = "".join(rng.choice(alphabet + " ") for _ in range(3000))
        settings = Settings(split="none", merges=rng.randint(1, 200), units=rng.choice(["chars", "bytes"]))
        tokenizer = Tokenizer.from_trainer(train(Corpus.from_text(text, settings))[0])
        assert tokenizer._each_merge_new
        for length in (70, 500, 3000):
            piece = "".join(rng.choice(alphabet + " ") for _ in range(length))
            ids = tokenizer._symbols(piece)
            expected = tokenizer._bpe_lowest_first(list(ids), len(tokenizer.merges))
            assert tokenizer.encode_ids(piece) == expected == tokenizer._bpe(list(ids), [])
            compared += 1
    assert compared == 60


@hyp_settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abc", min_size=2, max_size=5).map(str.encode), max_size=40),
       st.text(alphabet="abc", min_size=65, max_size=400).map(str.encode))
def test_ranked_bytes_merge_as_tiktoken_s_loop(strings, piece):
    # a rank file need not be a merge list: any byte strings ranked in any order
    ranks = {bytes([b]): b for b in range(256)}
    for s in strings + [b"ab", b"bc", b"ca", b"aa"]:
        ranks.setdefault(s, len(ranks))
    tokenizer = RankTokenizer("test", ranks, r"[\s\S]+", {})
    assert merge_ranked_bytes(piece, ranks.get) == tokenizer._byte_pair_merge(piece, [])


def _cost(encode, piece: str) -> float:
    """The least CPU time of a few encodings of one piece, from cold caches."""
    best = float("inf")
    for _ in range(3):
        encode.__self__._cache.clear()
        t0 = time.process_time()
        encode(piece)
        best = min(best, time.process_time() - t0)
    return best


def test_encoding_grows_with_the_length_of_a_piece_not_its_square(tmp_path):
    # eight times the length: about eight times the work, where the square would be sixty-four
    rng = random.Random(2)
    text = "".join(rng.choice("abcd efg") for _ in range(40_000))
    chars = Tokenizer.from_trainer(train(Corpus.from_text(text[:5000], Settings(split="none", merges=300)))[0])
    rebuilt = Tokenizer(Settings(end_of_word=None, split="none"), list("abcd efg"),
                        [("a", "b"), ("b", "c"), ("a", "bc"), ("abc", "d"), ("ab", "c"), ("d", " ")])
    assert not rebuilt._each_merge_new
    save_hf(chars, tmp_path / "tokenizer.json")
    imported = load_hf(tmp_path / "tokenizer.json")
    cl100k = load_cl100k()
    letters = text.replace(" ", "")  # one pre-token of cl100k's split
    assert imported.encode_ids(text[:5000]) == chars.encode_ids(text[:5000])
    for tokenizer, piece in ((chars, text), (rebuilt, text), (imported, text), (cl100k, letters)):
        short, long = _cost(tokenizer.encode_ids, piece[:5000]), _cost(tokenizer.encode_ids, piece[:40_000])
        assert long < 24 * short, (tokenizer, short, long)
