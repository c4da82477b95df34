"""Normalization and BertNormalizer follow the installed `tokenizers` on every code point.

The table (engine/algorithm/unicode_hf_data.py) was made from one version of the library; a
version that normalizes any code point otherwise fails here, and tools/unicode_hf.py remakes it.
"""

import pytest
from tokenizers import normalizers

from engine.algorithm.pretokenize import lowercase
from engine.algorithm.unicode_hf import bert_normalize, normalize, strip_accents
from engine.algorithm.unicode_hf_data import TOKENIZERS_VERSION

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

CODES = [c for c in range(1, 0x110000) if not 0xD800 <= c < 0xE000]
FORMS = ("NFC", "NFD", "NFKC", "NFKD")


def _differences(ours: str, theirs: str, texts: list[str]) -> list[str]:
    """The texts (joined by NUL, which every step keeps) whose results differ, for the message."""
    mine, library = ours.split("\0"), theirs.split("\0")
    if len(mine) != len(library):
        return ["the results hold another number of texts"]
    return [f"{t!r}: {a!r} against {b!r}" for t, a, b in zip(texts, mine, library) if a != b][:5]


def _check(ours, theirs, texts: list[str]) -> None:
    joined = "\0".join(texts)
    mine, library = ours(joined), theirs(joined)
    assert mine == library, (f"tokenizers {TOKENIZERS_VERSION} made the table", _differences(mine, library, texts))


@pytest.mark.parametrize("form", FORMS)
def test_each_form_normalizes_every_code_point_as_the_library_does(form):
    _check(lambda t: normalize(form, t), getattr(normalizers, form)().normalize_str, [chr(c) for c in CODES])


@pytest.mark.slow
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("before, after", [("a", "\u0301"), ("\u1100", "\u0323\u0301"), ("\u00e9", "\u0334")])
def test_each_code_point_between_a_base_and_marks_composes_and_orders_as_the_library_does(form, before, after):
    # a base letter before and combining marks after: what composes, what blocks, how marks sort
    _check(lambda t: normalize(form, t), getattr(normalizers, form)().normalize_str,
           [before + chr(c) + after for c in CODES])


def test_composition_and_mark_order_hold_in_worked_examples():
    assert normalize("NFC", "e\u0301") == "\u00e9"
    # marks sort by class: dot below (220) before acute (230), then the pair composes
    assert normalize("NFC", "a\u0301\u0323") == "\u1ea1\u0301"
    assert normalize("NFKC", "\ufb01 \u2460 \u00bd") == "fi 1 1\u20442"
    assert normalize("NFD", "\uac01") == "\u1100\u1161\u11a8"
    assert normalize("NFC", "\u1100\u1161\u11a8") == "\uac01"


@pytest.mark.parametrize("flags", [
    dict(clean_text=True), dict(handle_chinese_chars=True), dict(strip_accents=True), dict(lowercase=True),
    dict(clean_text=True, handle_chinese_chars=True, strip_accents=True, lowercase=True),
])
def test_the_bert_normalizer_treats_every_code_point_as_the_library_does(flags):
    options = {"clean_text": False, "handle_chinese_chars": False, "strip_accents": False, "lowercase": False} | flags
    library = normalizers.BertNormalizer(**options).normalize_str
    # "a" separates the characters: every flag keeps it or lowercases it to itself
    codes = [c for c in CODES if c != ord("a")]
    ours = bert_normalize("a".join(map(chr, codes)), options["clean_text"], options["handle_chinese_chars"],
                          options["strip_accents"], lowercase if options["lowercase"] else None)
    assert ours == library("a".join(map(chr, codes)))


def test_the_bert_normalizer_keeps_unassigned_code_points_and_spaces_only_the_librarys_cjk():
    goose, new_cjk, old_cjk = "\U0001FABF", "\U0002B820", "\u4e2d"
    assert bert_normalize(goose + new_cjk + old_cjk + "\x00\u200b", True, True, False, None) == \
        f"{goose}{new_cjk} {old_cjk} "


def test_strip_accents_drops_every_combining_mark_the_library_drops():
    _check(strip_accents, normalizers.StripAccents().normalize_str, [chr(c) for c in CODES])
