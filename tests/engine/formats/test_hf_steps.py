"""Each pre-tokenizer step cuts as `tokenizers` cuts, on every code point and with every behaviour."""

import json
import random
import time

import pytest
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from engine.errors import BpeLabError
from engine.formats.hf_steps import behave, pre_tokenizer_steps, run_pre_tokenizers
from engine.lesson_io.loading import load_any

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

CODES = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
# each code point between two letters, and all of them in order
BETWEEN_LETTERS = "a".join(map(chr, CODES))
IN_ORDER = "".join(map(chr, CODES))
SHORT = ["", " ", "a", "12 3,,4 ab", ",,a,,", "  lead and trail  ", "x=42; y=3.14!", "e\u0301 \u2581a \u2581\u2581b",
         "10\u00bd \u0663\u0664 \u2460", "co-op's \"quote\" (x)"]


def _ours(node: dict, text: str, at_start: bool = True) -> list[str]:
    return [piece for _, _, piece in run_pre_tokenizers(pre_tokenizer_steps(node, "test"), text, at_start)]


def _theirs(pre_tokenizer, text: str) -> list[str]:
    return [piece for piece, _ in pre_tokenizer.pre_tokenize_str(text)]


EVERY_CODE_POINT = {
    "Whitespace": pre_tokenizers.Whitespace(),
    "WhitespaceSplit": pre_tokenizers.WhitespaceSplit(),
    "BertPreTokenizer": pre_tokenizers.BertPreTokenizer(),
    "Punctuation": pre_tokenizers.Punctuation(),
    "Digits": pre_tokenizers.Digits(individual_digits=True),
    "UnicodeScripts": pre_tokenizers.UnicodeScripts(),
}


@pytest.mark.parametrize("name", EVERY_CODE_POINT)
def test_each_pre_tokenizer_cuts_the_code_points_in_order_where_the_library_does(name):
    # every code point once, in order: a cut wherever the class changes, a few thousand pieces
    library = EVERY_CODE_POINT[name]
    node = {"type": name, "individual_digits": True} if name == "Digits" else {"type": name}
    assert _ours(node, IN_ORDER) == _theirs(library, IN_ORDER)


@pytest.mark.slow
@pytest.mark.parametrize("name", EVERY_CODE_POINT)
def test_each_class_of_a_pre_tokenizer_is_the_librarys_on_every_code_point(name):
    # a million pieces where most code points stand alone: seconds of tuples on both sides
    library = EVERY_CODE_POINT[name]
    node = {"type": name, "individual_digits": True} if name == "Digits" else {"type": name}
    assert _ours(node, BETWEEN_LETTERS) == _theirs(library, BETWEEN_LETTERS)


STEPS = {
    "digits_contiguous": ({"type": "Digits", "individual_digits": False}, pre_tokenizers.Digits(False)),
    "char_delimiter": ({"type": "CharDelimiterSplit", "delimiter": ","}, pre_tokenizers.CharDelimiterSplit(",")),
    "metaspace_always": ({"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True},
                         pre_tokenizers.Metaspace()),
    "metaspace_first": ({"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": True},
                        pre_tokenizers.Metaspace(prepend_scheme="first")),
    "metaspace_never_whole": ({"type": "Metaspace", "replacement": "_", "prepend_scheme": "never", "split": False},
                              pre_tokenizers.Metaspace("_", prepend_scheme="never", split=False)),
    "byte_level": ({"type": "ByteLevel", "add_prefix_space": True, "use_regex": True},
                   pre_tokenizers.ByteLevel(add_prefix_space=True)),
    "byte_level_no_regex": ({"type": "ByteLevel", "add_prefix_space": True, "use_regex": False},
                            pre_tokenizers.ByteLevel(add_prefix_space=True, use_regex=False)),
    "sequence": ({"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, {"type": "Punctuation"},
                                                        {"type": "Digits", "individual_digits": True}]},
                 pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation(),
                                          pre_tokenizers.Digits(True)])),
}
for behavior in ("removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"):
    json_name = "".join(part.capitalize() for part in behavior.split("_"))
    for invert in (False, True):
        for pattern in (",", " ", "ab"):
            STEPS[f"split_{pattern!r}_{behavior}_{invert}"] = (
                {"type": "Split", "pattern": {"String": pattern}, "behavior": json_name, "invert": invert},
                pre_tokenizers.Split(pattern, behavior, invert=invert))
    STEPS[f"punctuation_{behavior}"] = ({"type": "Punctuation", "behavior": json_name},
                                        pre_tokenizers.Punctuation(behavior))


@pytest.mark.parametrize("name", STEPS)
def test_each_step_and_behaviour_cuts_as_the_library_does(name):
    node, library = STEPS[name]
    for text in SHORT + [BETWEEN_LETTERS[:20000]]:
        assert _ours(node, text) == _theirs(library, text), text[:40]


def test_unicode_scripts_cuts_short_texts_where_the_library_does():
    for short in SHORT + ["  lead", "\U0001FABF", "日本語とカタカナー漢字 abc"]:
        assert _ours({"type": "UnicodeScripts"}, short) == _theirs(pre_tokenizers.UnicodeScripts(), short), short


def test_metaspace_first_puts_a_space_only_before_the_texts_start():
    node = STEPS["metaspace_first"][0]
    assert _ours(node, "a b") == ["\u2581a", "\u2581b"]
    # a piece after an added token does not begin the text
    assert _ours(node, "a b", at_start=False) == ["a", "\u2581b"]


def test_a_behaviour_keeps_delimiters_as_the_library_documents():
    segments = [(0, 1, False), (1, 2, True), (2, 3, True), (3, 4, False)]
    assert behave(segments, "MergedWithPrevious") == [(0, 2), (2, 3), (3, 4)]
    assert behave(segments, "MergedWithNext") == [(0, 1), (1, 2), (2, 4)]
    assert behave(segments, "Contiguous") == [(0, 1), (1, 3), (3, 4)]
    assert behave(segments, "Removed") == [(0, 1), (3, 4)]


@pytest.mark.parametrize("node, reason", [
    ({"type": "Split", "pattern": {"Regex": "\\d+"}, "behavior": "Isolated", "invert": False}, "regex other than"),
    ({"type": "Punctuation", "behavior": "Sideways"}, "behavior Sideways"),
    ({"type": "FixedLength", "length": 5}, "pre_tokenizer FixedLength"),
])
def test_a_step_it_cannot_reproduce_is_refused_by_name(node, reason):
    with pytest.raises(BpeLabError, match=reason) as caught:
        pre_tokenizer_steps(node, "tokenizer.json")
    assert "\n" not in str(caught.value)


def _cost(tokenizer, piece: str) -> float:
    """The least CPU time of a few encodings of one piece, from cold caches."""
    best = float("inf")
    for _ in range(3):
        tokenizer._cache.clear()
        t0 = time.process_time()
        tokenizer.encode_ids(piece)
        best = min(best, time.process_time() - t0)
    return best


@pytest.mark.parametrize("norm, pre", [
    (normalizers.Lowercase(), None),
    (normalizers.NFKC(), pre_tokenizers.Metaspace(split=False)),
    (None, pre_tokenizers.Sequence([pre_tokenizers.Digits(), pre_tokenizers.ByteLevel(use_regex=False)])),
])
def test_an_imported_front_end_encodes_a_long_piece_in_time_near_linear_in_its_length(norm, pre, tmp_path):
    # eight times the length: about eight times the work, where the square would be sixty-four
    rng = random.Random(3)
    text = "".join(rng.choice("abcd efg\u00e9") for _ in range(40_000))
    hf = Tokenizer(models.BPE(unk_token="[UNK]"))
    if norm is not None:
        hf.normalizer = norm
    if pre is not None:
        hf.pre_tokenizer = pre
    alphabet = pre_tokenizers.ByteLevel.alphabet() if pre is not None and "ByteLevel" in repr(pre) else []
    hf.train_from_iterator([text[:5000]], trainers.BpeTrainer(vocab_size=300, special_tokens=["[UNK]"],
                                                              initial_alphabet=alphabet))
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))
    ours = load_any(path)
    assert ours.encode_ids(text[:5000], allow_special=True) == hf.encode(text[:5000]).ids
    short, long = _cost(ours, text[:5000]), _cost(ours, text)
    assert long < 24 * short, (short, long)


def test_an_old_metaspace_without_a_prefix_space_loads_only_where_the_library_loads_it():
    from tokenizers import Tokenizer as Library

    def file(**metaspace):
        return {"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
                "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581", **metaspace}}

    with pytest.raises(Exception, match="add_prefix_space does not match"):
        Library.from_str(json.dumps(file(add_prefix_space=False)))
    with pytest.raises(BpeLabError, match="add_prefix_space false"):
        pre_tokenizer_steps(file(add_prefix_space=False)["pre_tokenizer"], "tokenizer.json")
    library = Library.from_str(json.dumps(file(add_prefix_space=False, prepend_scheme="never")))
    node = file(add_prefix_space=False, prepend_scheme="never")["pre_tokenizer"]
    assert _ours(node, "a b") == _theirs(library.pre_tokenizer, "a b")


@pytest.mark.parametrize("shape", ["metaspace_never", "metaspace_first", "prepend_replace", "byte_level_prefix_space",
                                   "digits", "unicode_scripts"])
def test_an_imported_front_end_decodes_its_ids_as_the_library_decodes_them(shape, tmp_path):
    from tests.engine.formats.test_hf_conformance import SHAPES, _build

    path = tmp_path / "tokenizer.json"
    build = dict(SHAPES[shape][0])
    if shape in ("metaspace_never", "metaspace_first"):
        prepend = "never" if shape == "metaspace_never" else "first"
        build["decoder"] = decoders.Metaspace(prepend_scheme=prepend)
    elif shape == "prepend_replace":
        build["decoder"] = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(),
                                              decoders.Fuse(), decoders.Strip(" ", 1, 0)])
    _build(path, **build)
    theirs, ours = Tokenizer.from_file(str(path)), load_any(path)
    text = "lower  newest é 42"
    ids = theirs.encode(text).ids
    assert ours.decode(ids) == theirs.decode(ids)
