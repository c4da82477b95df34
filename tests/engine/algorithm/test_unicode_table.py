"""The Unicode table is the one tiktoken's and tokenizers' engines use; splits and lowercase follow it."""

import re

import pytest
import regex
import tiktoken
from tokenizers import Regex, normalizers, pre_tokenizers

from engine import Corpus, Settings, train
from engine.algorithm.pretokenize import lowercase, lowercase_with_map, split_on_whitespace
from engine.algorithm.tokenizer import Tokenizer
from engine.algorithm.unicode_table import LETTER, NUMBER, WHITE_SPACE, WHITESPACE_CHARS

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

EVERY = "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))
CLASSES = {r"\p{L}": LETTER, r"\p{N}": NUMBER, r"\s": WHITE_SPACE}


def tiktoken_members(pattern: str) -> str:
    # tiktoken drops text its pattern does not match, so the ids spell exactly the class's members
    probe = tiktoken.Encoding("probe", pat_str=pattern + "+",
                              mergeable_ranks={bytes([b]): b for b in range(256)}, special_tokens={})
    return bytes(probe.encode_ordinary(EVERY)).decode("utf-8")


def tokenizers_non_members(pattern: str) -> str:
    split = pre_tokenizers.Split(Regex(pattern + "+"), behavior="removed")
    return "".join(piece for piece, _ in split.pre_tokenize_str(EVERY))


@pytest.mark.parametrize("pattern", sorted(CLASSES))
def test_each_class_holds_what_tiktoken_and_tokenizers_match_on_every_code_point(pattern):
    table = CLASSES[pattern]
    # both in code point order, so the strings are equal exactly when the sets are
    assert tiktoken_members(pattern) == table.chars()
    assert tokenizers_non_members(pattern) == re.sub(f"[{table.regex_body()}]+", "", EVERY)


def test_the_installed_regex_may_know_newer_letters_than_the_table():
    # why the table exists: with regex 2026 (Unicode 17) U+0C5C is a letter, to tiktoken not yet
    assert "\u0c5c" not in LETTER and "\u0c5c" not in tiktoken_members(r"\p{L}")
    assert "a" in LETTER and "\u00e9" in LETTER and "\u0663" in NUMBER and "\u3000" in WHITE_SPACE


def test_the_whitespace_split_cuts_where_whitespace_split_cuts_on_every_code_point():
    reference = pre_tokenizers.WhitespaceSplit()
    assert split_on_whitespace(EVERY) == [p for p, _ in reference.pre_tokenize_str(EVERY)]
    for ch in WHITESPACE_CHARS + "\x1c\x1d\x1e\x1f\x85\u180e\u200b":
        text = f"a{ch}b {ch}c"
        assert split_on_whitespace(text) == [p for p, _ in reference.pre_tokenize_str(text)], hex(ord(ch))
    assert split_on_whitespace("a\x1cb c") == ["a\x1cb", "c"]


def test_str_split_cuts_at_the_table_and_the_four_separators_only():
    # split_on_whitespace takes str.split() when none of U+001C-U+001F is in the text
    cut = {ch for ch in EVERY if ch.isspace()}
    assert cut == set(WHITESPACE_CHARS) | set("\x1c\x1d\x1e\x1f")


def test_corpus_words_are_cut_at_whitespace_split_places_even_in_parts():
    text = ("low\x1clow lower\u2003newest\x1f " * 50_000)
    settings = Settings()
    whole = Corpus.from_text(text, settings)
    assert whole.words == ("low\x1clow", "lower", "newest\x1f")
    assert Corpus.from_text_in_parts(text, settings, part=1000) == whole
    assert Corpus.from_word_counts("a\x1cb 5\n", settings).words == ("a\x1cb",)


def test_lowercase_is_tokenizers_lowercase_on_every_code_point():
    text = EVERY[1:].replace("\u0130", "")  # without NUL (none is made) and İ, which grows
    assert lowercase(text) == normalizers.Lowercase().normalize_str(text)
    assert lowercase("\u0130") == normalizers.Lowercase().normalize_str("\u0130") == "i\u0307"


@pytest.mark.parametrize("text", [
    "ΣΣ ΟΔΥΣΣΕΥΣ. Σ Σ", "İstanbul DİYARBAKIR ıI", "STRASSE Straße ẞ", "ΣΑΣ İ ß \ua7ce",
])
def test_cased_scripts_lowercase_as_tokenizers_does(text):
    assert lowercase(text) == normalizers.Lowercase().normalize_str(text)


def test_a_words_lowercase_never_depends_on_the_rest_of_the_text():
    # str.lower() gives "σς" for ΣΣ alone (final sigma) but the neighbours decide
    assert lowercase("ΣΣ") == lowercase("ΣΣ İ")[:2] == "σσ"
    low, index = lowercase_with_map("İΣΣ")
    assert low == "i\u0307σσ" and index == [0, 0, 1, 2]
    settings = Settings(units="bytes", lowercase=True, merges=20, min_frequency=1)
    trainer, _ = train(Corpus.from_text("ΣΣ ΣΣ İİ σς", settings))
    tok = Tokenizer.from_trainer(trainer)
    alone = tok.encode("ΣΣ").tokens
    assert tok.encode("ΣΣ İ").tokens[: len(alone)] == alone
    assert Corpus.from_text("ΣΣ", settings).words == Corpus.from_text("ΣΣ İ", settings).words[:1]


def test_the_fast_paths_agree_with_the_table_on_ascii():
    ascii_text = "".join(map(chr, range(128)))
    for pattern, table in CLASSES.items():
        assert set(regex.findall(pattern, ascii_text)) == {c for c in ascii_text if c in table}
    assert ascii_text.lower() == ascii_text.translate({c: c + 32 for c in range(65, 91)})
