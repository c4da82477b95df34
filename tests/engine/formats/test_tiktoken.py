""".tiktoken: tiktoken.Encoding built from the export gives BPE Lab's ids, or the export refuses."""

import json
import random

import pytest
import tiktoken
from tiktoken.load import load_tiktoken_bpe

import base64

import engine.formats.rank_merges as rank_merges
from engine.algorithm.bytelevel import BASE_ORDER, bytes_to_symbols, symbols_to_bytes
from engine.errors import BpeLabError
from engine.lesson_io.loading import load_any
from engine.formats.tiktoken_file import check_rank_rule, load_tiktoken, save_tiktoken, tiktoken_files
from engine.algorithm.settings import Settings
from engine.algorithm.tokenizer import RankTokenizer, Tokenizer
from tests.engine.formats.samples import BYTE_MODES, MODES, TEXT, TEXTS, trained

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow


def encoding_from(path):
    """What a user builds from the two files."""
    side = json.loads(open(str(path) + ".json", encoding="utf-8").read())
    return tiktoken.Encoding(
        name=side["name"], pat_str=side["pat_str"], mergeable_ranks=load_tiktoken_bpe(str(path)),
        special_tokens=side["special_tokens"], explicit_n_vocab=side["explicit_n_vocab"],
    )


@pytest.mark.parametrize("mode", BYTE_MODES)
def test_tiktoken_gives_bpe_labs_ids(mode, tmp_path):
    tok, _ = trained(**MODES[mode])
    path = tmp_path / "mine.tiktoken"
    save_tiktoken(tok, path)
    enc = encoding_from(path)
    for text in TEXTS + [TEXT]:
        assert enc.encode(text, allowed_special="all") == list(tok.encode(text, allow_special=True).ids), text


@pytest.mark.parametrize("mode", BYTE_MODES)
def test_round_trip_gives_the_same_merges(mode, tmp_path):
    tok, _ = trained(**MODES[mode])
    path = tmp_path / "mine.tiktoken"
    save_tiktoken(tok, path)
    back = load_any(path)
    assert isinstance(back, Tokenizer)
    assert back.merges == tok.merges and back.vocab == tok.vocab
    assert back.settings.split == tok.settings.split
    assert back.encode(TEXT) == tok.encode(TEXT)


@pytest.mark.parametrize("seed", range(6))
def test_trained_vocabularies_agree_with_tiktoken_on_random_text(seed, tmp_path):
    rng = random.Random(seed)
    alphabet = "aab cde  éü日本🙂\n\t"
    corpus = "".join(rng.choice(alphabet) for _ in range(3000))
    tok, _ = trained(corpus, merges=300, specials=(), units="bytes", split=rng.choice(["gpt2", "gpt4", "none"]))
    save_tiktoken(tok, tmp_path / "r.tiktoken")
    enc = encoding_from(tmp_path / "r.tiktoken")
    for _ in range(20):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 200)))
        assert enc.encode(text) == list(tok.encode(text).ids), text


def _bytes_tokenizer(merges):
    return Tokenizer(Settings(units="bytes", split="gpt2"), BASE_ORDER, merges)


def test_two_merges_making_the_same_token_are_refused(tmp_path):
    tok = _bytes_tokenizer([("a", "b"), ("ab", "c"), ("b", "c"), ("a", "bc")])
    with pytest.raises(BpeLabError, match="merges 2 and 4 both make 'abc'.*--format hf"):
        save_tiktoken(tok, tmp_path / "x.tiktoken")
    assert not list(tmp_path.iterdir())


def test_a_token_tiktoken_would_split_otherwise_is_refused_and_would_differ(tmp_path):
    # "abc" is made as ab + c, but by rank tiktoken joins b + c first
    tok = _bytes_tokenizer([("b", "c"), ("a", "b"), ("ab", "c")])
    with pytest.raises(BpeLabError, match="merge 3 joins 'ab' \\+ 'c'.*'a' \\+ 'bc'"):
        check_rank_rule(tok)
    # the refusal is not overcautious: tiktoken really would give other ids for "abcabc"
    ranks = {symbols_to_bytes(t): i for i, t in enumerate(tok.vocab)}
    enc = tiktoken.Encoding("x", pat_str=r"\S+", mergeable_ranks=ranks, special_tokens={})
    assert enc.encode("xabcab") != list(tok.encode("xabcab").ids)


def test_chars_units_are_refused(tmp_path):
    tok, _ = trained()
    with pytest.raises(BpeLabError, match="--units bytes"):
        tiktoken_files(tok, tmp_path / "x.tiktoken")


def test_cl100k_exports_as_the_published_ranks(tmp_path):
    cl100k = load_any("cl100k")
    path = tmp_path / "cl100k.tiktoken"
    save_tiktoken(cl100k, path)
    enc = encoding_from(path)
    for text in TEXTS:
        assert enc.encode(text, allowed_special="all") == list(cl100k.encode(text, allow_special=True).ids)


def test_cl100k_lists_its_merges(tmp_path, monkeypatch):
    from engine.formats.listing import merges_of, vocab_of

    cl100k = load_any("cl100k")
    merges = merges_of(cl100k)
    assert len(merges) == len(cl100k.ranks) - 256
    # split through earlier tokens' trees from 9 bytes on (20,000 tokens), not only from 33, the
    # merges are the same
    monkeypatch.setattr(rank_merges, "SHORT", 8)
    through_trees = rank_merges.recover_merges(cl100k.ranks)
    assert [(bytes_to_symbols(a), bytes_to_symbols(b)) for a, b in through_trees] == merges
    # replaying the listed merges gives tiktoken's ids
    replay = Tokenizer(Settings(units="bytes", split="gpt4"), [t for _, t in vocab_of(cl100k)[:256]], merges)
    for text in TEXTS[:6]:
        assert replay.encode(text).ids == cl100k.encode(text).ids


def test_cl100k_read_from_its_tiktoken_file_is_its_merge_list(tmp_path):
    from importlib import resources

    from engine.formats.listing import merges_of

    cl100k = load_any("cl100k")
    path = tmp_path / "cl100k_base.tiktoken"
    path.write_bytes(resources.files("tiktoken_ext").joinpath("data/cl100k_base.tiktoken").read_bytes())
    tok = load_any(path)
    assert isinstance(tok, Tokenizer)
    assert tok.merges == merges_of(cl100k)
    for text in TEXTS:
        assert tok.encode(text).ids == cl100k.encode(text).ids, text


def test_a_foreign_file_without_settings_is_read_with_the_gpt4_split(tmp_path):
    tok, _ = trained(units="bytes", split="gpt4", specials=())
    save_tiktoken(tok, tmp_path / "a.tiktoken")
    (tmp_path / "a.tiktoken.json").unlink()
    back = load_tiktoken(tmp_path / "a.tiktoken")
    assert back.settings.split == "gpt4"
    assert back.encode(TEXT).ids == tok.encode(TEXT).ids


def test_ranks_a_merge_list_cannot_replay_stay_ranks(tmp_path):
    # "abc" is ranked with neither "ab" nor "bc": no merge makes it, yet tiktoken takes the word whole
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    lines.append(f"{base64.b64encode(b'abc').decode()} 256")
    path = tmp_path / "odd.tiktoken"
    path.write_text("\n".join(lines) + "\n")
    tok = load_tiktoken(path)
    assert isinstance(tok, RankTokenizer)
    assert tok.encode_ids("abc abcd") == [256, 32, 97, 98, 99, 100]


def test_bad_base64_names_the_line(tmp_path):
    path = tmp_path / "bad.tiktoken"
    path.write_text("IQ== 0\nIg== 1\n!!notbase64 2\n")
    with pytest.raises(BpeLabError, match=r"bad\.tiktoken, line 3: '!!notbase64' is not valid base64"):
        load_tiktoken(path)


def test_a_rank_used_twice_names_both_lines(tmp_path):
    path = tmp_path / "dup.tiktoken"
    path.write_text("IQ== 0\nIg== 0\n")
    with pytest.raises(BpeLabError, match="line 2: rank 0 is already used on line 1"):
        load_tiktoken(path)


def _random_merge_lists(seed, count, longest=6):
    """Merge lists over a, b, c built at random (not trained), with tokens of at most ``longest`` bytes."""
    rng = random.Random(seed)
    while count:
        tokens, merges = list("abc"), []
        for _ in range(rng.randint(1, 8)):
            a, b = rng.choice(tokens), rng.choice(tokens)
            # a token made twice is refused on its own account (one rank cannot carry two merges)
            if len(a + b) <= longest and a + b not in tokens:
                merges.append((a, b))
                tokens.append(a + b)
        count -= 1
        yield Tokenizer(Settings(units="bytes", split="none"), BASE_ORDER, merges)


def _rank_encoding(tok):
    ranks = {symbols_to_bytes(t): i for i, t in enumerate(tok.vocab)}
    return tiktoken.Encoding("check", pat_str=r"[\s\S]+", mergeable_ranks=ranks, special_tokens={})


def test_the_rank_check_is_exact_on_random_merge_lists():
    """Lists the check passes agree with tiktoken on every string; lists it refuses disagree on one.

    Each token is made once here; two merges making one token are refused outright (tested above).
    """
    import itertools

    texts = ["".join(p) for n in range(1, 7) for p in itertools.product("abc", repeat=n)]
    passed = refused = 0
    for tok in _random_merge_lists(seed=11, count=150):
        try:
            check_rank_rule(tok)
            ok = True
        except BpeLabError:
            ok = False
        enc = _rank_encoding(tok)
        agree = all(enc.encode(t) == list(tok.encode(t).ids) for t in texts)
        assert agree == ok, tok.merges
        passed += ok
        refused += not ok
    assert passed > 20 and refused > 20


class CountingRanks(dict):
    """Ranks that count their lookups: the work a split does, whatever the machine's speed."""

    lookups = 0

    def get(self, key, default=None):
        CountingRanks.lookups += 1
        return super().get(key, default)


@pytest.mark.parametrize("length", [1000, 4000])
def test_splitting_a_long_token_takes_n_log_n_lookups_not_n_squared(length):
    from engine.formats.tiktoken_file import byte_pair_split

    # ranks 0-255, then "aa", then one long "a…a" token: the file that took 32 s to load
    ranks = CountingRanks({bytes([b]): b for b in range(256)})
    ranks[b"aa"] = 256
    ranks[b"a" * length] = 257
    CountingRanks.lookups = 0
    parts = byte_pair_split(b"a" * length, ranks, below=257)
    assert parts == [b"aa"] * (length // 2)
    # each join offers at most two new pairs: a linear number of lookups
    assert CountingRanks.lookups <= 3 * length


def test_a_long_token_file_loads_as_its_ranks(tmp_path):
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    lines += [f"{base64.b64encode(b'aa').decode()} 256", f"{base64.b64encode(b'a' * 29_000).decode()} 257"]
    path = tmp_path / "long.tiktoken"
    path.write_text("\n".join(lines) + "\n")
    tok = load_any(path)
    # the long token is no join of two earlier ones, so the file stays ranks; tiktoken takes it whole
    assert isinstance(tok, RankTokenizer)
    assert tok.encode("a" * 29_000).ids == (257,)
    assert tok.encode("aaaaa").ids == (256, 256, 97)
