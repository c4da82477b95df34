"""Added tokens of a tokenizer.json give the library's ids, with each of their flags."""

import json

import pytest
from tokenizers import AddedToken, ByteLevelBPETokenizer, SentencePieceBPETokenizer, Tokenizer

from engine.errors import BpeLabError
from engine.formats.hf_added import AddedToken as Added, AddedTokens
from engine.lesson_io.loading import load_any
from tests.engine.formats.test_hf_imports import HELD_OUT, TRAIN

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow

TEXTS = HELD_OUT + ["lo ab lower abc lob <mask> x", "a<mask>b  <mask>  c<mask>", "lo<mask> lo  lower's lo.",
                    " <mask>", "<mask> ", "lolo lo lo-lo 2lo lo2"]


def _byte_level(path, *tokens, special=()):
    tok = ByteLevelBPETokenizer()
    tok.train_from_iterator(TRAIN, vocab_size=400)
    tok.add_tokens(list(tokens))
    tok.add_special_tokens(list(special))
    tok.save(str(path))
    return Tokenizer.from_file(str(path))


def _same_ids(path, theirs):
    ours = load_any(path)
    assert ours.get_vocab_size() == theirs.get_vocab_size()
    for text in TEXTS:
        assert ours.encode_ids(text, allow_special=True) == theirs.encode(text).ids, text
        assert list(ours.encode(text, allow_special=True).ids) == theirs.encode(text).ids, text
    return ours


def test_an_added_token_that_a_merge_makes_keeps_its_id(tmp_path):
    path = tmp_path / "tokenizer.json"
    theirs = _byte_level(path, "lo", "ab", special=["<mask>"])
    # "lo" is a merge's token: the added token is that token, with its id
    assert theirs.token_to_id("lo") in json.loads(path.read_text(encoding="utf-8"))["model"]["vocab"].values()
    ours = _same_ids(path, theirs)
    # an added token that is not special is vocabulary: matched even where special tokens are not
    assert ours.encode("lower").tokens[0] == "lo"
    assert ours.encode("<mask>").tokens != ("<mask>",)


FLAGS = {
    "lstrip": dict(lstrip=True),
    "rstrip": dict(rstrip=True),
    "single_word": dict(single_word=True),
    "normalized": dict(normalized=True),
    "roberta_mask": dict(lstrip=True, rstrip=False),
    "all": dict(lstrip=True, rstrip=True, single_word=True),
}


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("special", [True, False])
def test_each_added_token_flag_is_applied_as_the_library_applies_it(flag, special, tmp_path):
    path = tmp_path / "tokenizer.json"
    tok = ByteLevelBPETokenizer()
    tok.train_from_iterator(TRAIN, vocab_size=400)
    tokens = [AddedToken(t, special=special, **FLAGS[flag]) for t in ("<mask>", "lo")]
    (tok.add_special_tokens if special else tok.add_tokens)(tokens)
    tok.save(str(path))
    _same_ids(path, Tokenizer.from_file(str(path)))


def test_a_normalized_added_token_is_looked_for_in_the_normalized_text(tmp_path):
    path = tmp_path / "tokenizer.json"
    tok = SentencePieceBPETokenizer()
    tok.train_from_iterator(TRAIN, vocab_size=300)
    tok.add_tokens([AddedToken("fix", normalized=True), AddedToken("ＡＢ", normalized=False)])
    tok.save(str(path))
    theirs = Tokenizer.from_file(str(path))
    ours = _same_ids(path, theirs)
    # NFKC makes "ﬁx" of "fix"; "ＡＢ" is matched as typed, before NFKC would make it "AB"
    for text in ("a ﬁx b", "ＡＢ AB", "ﬁxﬁx ＡＢＡＢ"):
        assert ours.encode_ids(text) == theirs.encode(text).ids, text


def test_a_normalized_added_token_in_bpe_labs_marker_pipeline_is_refused_naming_the_flag(tmp_path):
    from engine.formats.hf import tokenizer_json_data
    from tests.engine.formats.samples import trained

    data = tokenizer_json_data(trained()[0])
    data["added_tokens"].append({"id": len(data["model"]["vocab"]), "content": "zz", "special": False,
                                 "single_word": False, "lstrip": False, "rstrip": False, "normalized": True})
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BpeLabError, match=r"added_tokens\[\d+\] \('zz'\) has \"normalized\": true"):
        load_any(path)


def test_a_cut_gives_each_added_token_the_cuts_id(tmp_path):
    path = tmp_path / "tokenizer.json"
    _byte_level(path, "lo", special=["<mask>"])
    ours = load_any(path)
    cut = ours.truncated(0)
    # before any merge "lo" is no token yet; <mask> still is one, with the cut's own id
    assert cut.encode("lo <mask>", allow_special=True).tokens == ("l", "o", "Ġ", "<mask>")


def test_lstrip_takes_the_whitespace_before_and_single_word_wants_no_letter_beside():
    added = AddedTokens([Added("<m>", 1, special=True, lstrip=True), Added("x", 2, special=False, single_word=True)])
    assert list(added.segments("a  <m>", True)) == [(0, 1, None), (1, 6, 1)]
    assert list(added.segments("a  <m>", False)) == [(0, 6, None)]
    assert list(added.segments("ax x", False)) == [(0, 3, None), (3, 4, 2)]


def test_the_pieces_a_trace_walks_through_make_the_encoding(tmp_path):
    path = tmp_path / "tokenizer.json"
    _byte_level(path, "lo", special=[AddedToken("<mask>", lstrip=True, special=True)])
    ours = load_any(path)
    text = "lo lower  <mask> lob"
    tokens = []
    for piece, special in ours.pieces(text, allow_special=True):
        if special:
            tokens.append(piece.strip())
            continue
        base, steps = ours.encode_steps(piece)
        tokens.extend(steps[-1].tokens if steps else base)
    assert tuple(tokens) == ours.encode(text, allow_special=True).tokens


def test_a_single_word_token_sees_its_neighbours_as_the_librarys_word_characters(tmp_path):
    path = tmp_path / "tokenizer.json"
    theirs = _byte_level(path, AddedToken("lo", single_word=True))
    ours = load_any(path)
    # every seventh code point on each side of the token: letters, marks, digits and unassigned
    # ones alike, whose \w the library takes from its own Unicode tables
    codes = [c for c in range(0x20, 0x110000, 7) if not 0xD800 <= c < 0xE000]
    text = " ".join(f"{chr(c)}lo lo{chr(c)}" for c in codes)
    assert ours.encode_ids(text) == theirs.encode(text).ids
