"""Encoding and decoding with learned merges."""

from hypothesis import given, settings as hyp_settings, strategies as st

from engine import Corpus, Settings, Tokenizer, train
from engine.tokenizer import UNKNOWN

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def classic_tokenizer(**kw) -> Tokenizer:
    trainer, _ = train(Corpus.from_word_counts(CLASSIC, Settings(**kw)))
    return Tokenizer.from_trainer(trainer)


def test_replay_in_order_equals_lowest_rank_first():
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


def test_unseen_characters_become_visible_unknown_tokens():
    tokenizer = classic_tokenizer(merges=5)
    encoding = tokenizer.encode("lowéstQ")
    assert encoding.tokens == ("low", UNKNOWN, "s", "t", UNKNOWN, "</w>")
    assert encoding.ids.count(tokenizer.unknown_id) == 2
    # each unknown token points at the character it replaced
    assert [encoding.offsets[i] for i, t in enumerate(encoding.tokens) if t == UNKNOWN] == [(3, 4), (6, 7)]
    assert tokenizer.unknown_id == tokenizer.get_vocab_size() - 1


def test_special_tokens_are_matched_before_splitting():
    corpus = Corpus.from_text("low low<|endoftext|>lower", Settings(special_tokens=("<|endoftext|>",)))
    trainer, _ = train(corpus)
    # the special token never entered training: no merge spells it
    assert all("|" not in t for t in trainer.vocab)
    tokenizer = Tokenizer.from_trainer(trainer)
    encoding = tokenizer.encode("low<|endoftext|>low")
    special = tokenizer.special_ids["<|endoftext|>"]
    assert special in encoding.ids
    assert encoding.tokens[encoding.ids.index(special)] == "<|endoftext|>"


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
        assert cut.encode_ids(text) == built.encode_ids(text)
        assert cut.encode(text).offsets == built.encode(text).offsets
        assert cut.decode(cut.encode_ids(text)) == built.decode(built.encode_ids(text))
        assert cut.truncated(max(0, k - 1)).vocab == full.truncated(max(0, k - 1)).vocab
