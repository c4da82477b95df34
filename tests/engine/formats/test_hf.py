"""tokenizer.json: the `tokenizers` library gives BPE Lab's ids in every mode; imports round-trip."""

import json

import pytest
from tokenizers import Tokenizer as HFTokenizer

from engine.errors import BpeLabError
from engine.formats.hf import load_hf, save_hf, tokenizer_json_data
from engine.formats.rebuilt_tokenizer import RenumberedTokenizer
from engine.lesson_io.loading import load_any
from tests.engine.formats.samples import MODES, TEXT, TEXTS, TRAINING, trained


@pytest.mark.parametrize("mode", list(MODES))
def test_library_gives_bpe_labs_ids(mode, tmp_path):
    tok, _ = trained(**MODES[mode])
    path = tmp_path / "tokenizer.json"
    save_hf(tok, path)
    hf = HFTokenizer.from_file(str(path))
    for text in TEXTS + [TEXT]:
        assert hf.encode(text).ids == list(tok.encode(text, allow_special=True).ids), text
    assert hf.get_vocab_size() == tok.get_vocab_size()


@pytest.mark.parametrize("mode", list(MODES))
def test_round_trip_gives_the_same_merges(mode, tmp_path):
    tok, _ = trained(**MODES[mode])
    path = tmp_path / "tokenizer.json"
    save_hf(tok, path)
    back = load_hf(path)
    assert back.merges == tok.merges
    assert back.base == tok.base
    assert back.vocab == tok.vocab
    for key in ("split", "units", "marker", "special_tokens"):
        assert getattr(back.settings, key) == getattr(tok.settings, key)
    assert back.encode(TEXT) == tok.encode(TEXT)


def test_byte_level_decodes_to_the_text(tmp_path):
    tok, _ = trained(units="bytes", split="gpt4")
    path = tmp_path / "t.json"
    save_hf(tok, path)
    hf = HFTokenizer.from_file(str(path))
    text = TEXTS[4] + TEXTS[5]
    assert hf.decode(hf.encode(text).ids) == text == tok.decode(tok.encode(text).ids)


def test_long_marker_is_spelt_as_one_character_and_decoded_back(tmp_path):
    tok, _ = trained()  # marker </w>
    data = tokenizer_json_data(tok)
    vocab = data["model"]["vocab"]
    assert not any("</w>" in t for t in vocab)
    marker_ids = [i for i, t in enumerate(tok.vocab) if t.endswith("</w>")]
    spelt = {i: t for t, i in vocab.items()}
    assert marker_ids and all(len(spelt[i]) == len(tok.vocab[i]) - 3 for i in marker_ids)
    path = tmp_path / "t.json"
    save_hf(tok, path)
    hf = HFTokenizer.from_file(str(path))
    assert hf.decode(hf.encode("lowest newer").ids) == "lowest newer"


def test_unseen_characters_give_one_unknown_each(tmp_path):
    tok, _ = trained()
    path = tmp_path / "t.json"
    save_hf(tok, path)
    hf = HFTokenizer.from_file(str(path))
    ids = hf.encode("ζζ\ue000").ids
    assert ids == list(tok.encode("ζζ\ue000").ids)
    assert ids.count(tok.unknown_id) == 3


@pytest.mark.parametrize(
    "settings, needle",
    [
        (dict(split="gpt2", end_of_word="</w>"), "--no-end-of-word"),
    ],
)
def test_modes_the_file_cannot_express_are_refused(settings, needle, tmp_path):
    tok, _ = trained(**settings)
    with pytest.raises(BpeLabError, match=needle):
        save_hf(tok, tmp_path / "t.json")
    assert not list(tmp_path.iterdir())


def test_a_special_token_spelt_like_a_learned_token_is_refused(tmp_path):
    from engine.algorithm.settings import Settings
    from engine.algorithm.tokenizer import Tokenizer

    tok = Tokenizer(Settings(end_of_word=None, special_tokens=("ab",)), ["a", "b"], [("a", "b")])
    with pytest.raises(BpeLabError, match="rename the special token"):
        save_hf(tok, tmp_path / "t.json")


# -- a tokenizer.json made elsewhere ------------------------------------------------------------


def _library_trained(text, specials, vocab_size=400):
    from tokenizers import models, pre_tokenizers, trainers

    hf = HFTokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=2, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=specials,
    )
    hf.train_from_iterator([text], trainer)
    return json.loads(hf.to_str())


@pytest.fixture
def gpt2_style_file(tmp_path):
    """A small tokenizer.json laid out like GPT-2's: 256 bytes, merges in order, <|endoftext|> last."""
    from tests.engine.formats.samples import TRAINING

    learned = _library_trained(TRAINING, [])
    merges = learned["model"]["merges"]
    vocab = learned["model"]["vocab"]
    vocab["<|endoftext|>"] = len(vocab)
    data = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": len(vocab) - 1, "content": "<|endoftext|>", "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": True, "special": True}],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                  "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False,
                  # GPT-2's own file writes each merge as one string
                  "vocab": vocab, "merges": [" ".join(m) if isinstance(m, list) else m for m in merges]},
    }
    path = tmp_path / "gpt2-tokenizer.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_gpt2_style_file_made_elsewhere_encodes_like_the_library(gpt2_style_file):
    hf = HFTokenizer.from_file(str(gpt2_style_file))
    tok = load_any(gpt2_style_file)
    assert tok.settings.units == "bytes" and tok.settings.split == "gpt2"
    for text in TEXTS + [TEXT]:
        assert list(tok.encode(text, allow_special=True).ids) == hf.encode(text).ids, text


def test_an_imported_file_lists_its_merges_and_vocab(gpt2_style_file):
    from engine.formats.listing import merges_of, vocab_of

    data = json.loads(gpt2_style_file.read_text(encoding="utf-8"))
    tok = load_any(gpt2_style_file)
    assert [" ".join(m) for m in merges_of(tok)] == data["model"]["merges"]
    assert dict((t, i) for i, t in vocab_of(tok)) == data["model"]["vocab"]


def test_a_file_with_special_tokens_first_keeps_its_ids(tmp_path):
    from tests.engine.formats.samples import TRAINING

    data = _library_trained(TRAINING, ["<s>", "</s>", "<|endoftext|>"])
    data["pre_tokenizer"]["add_prefix_space"] = False
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    hf = HFTokenizer.from_file(str(path))
    tok = load_any(path)
    assert isinstance(tok, RenumberedTokenizer)
    assert tok.special_ids == {"<s>": 0, "</s>": 1, "<|endoftext|>": 2}
    for text in TEXTS + ["<s>hello</s>"]:
        assert list(tok.encode(text, allow_special=True).ids) == hf.encode(text).ids, text
        assert tok.decode(tok.encode(text, allow_special=True).ids) == text


@pytest.mark.parametrize(
    "change, needle",
    [
        (lambda d: d.update(normalizer={"type": "Precompiled", "precompiled_charsmap": ""}), "normalizer Precompiled"),
        (lambda d: d["pre_tokenizer"].update(add_prefix_space="yes"), "add_prefix_space"),
        (lambda d: d["model"].update(type="WordPiece"), "BPE models only"),
        (lambda d: d["model"].update(dropout=0.1), "dropout"),
        (lambda d: d.update(post_processor={"type": "TemplateProcessing"}), "TemplateProcessing"),
        (lambda d: d["model"]["merges"].insert(3, "Ġzz qq"), r"model\.merges\[3\].*'Ġzz'"),
        (lambda d: d["model"]["vocab"].update({"extra": 5}), "id 5 to both"),
        (lambda d: d["model"]["merges"].__setitem__(0, "abc"), r"model\.merges\[0\] must be two tokens"),
    ],
)
def test_files_it_cannot_reproduce_are_refused_naming_the_key(gpt2_style_file, change, needle):
    data = json.loads(gpt2_style_file.read_text(encoding="utf-8"))
    change(data)
    gpt2_style_file.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BpeLabError, match=needle) as err:
        load_any(gpt2_style_file)
    assert str(gpt2_style_file) in str(err.value)


def test_truncated_json_names_the_line(gpt2_style_file):
    text = gpt2_style_file.read_text(encoding="utf-8")
    gpt2_style_file.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(BpeLabError, match=r"not valid JSON \(line 1, column \d+\)"):
        load_hf(gpt2_style_file)


def test_a_key_given_twice_is_refused(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"model": {"type": "BPE", "vocab": {"a": 0, "a": 1}, "merges": []}}', encoding="utf-8")
    with pytest.raises(BpeLabError, match='key "a" appears twice'):
        load_hf(path)


@pytest.mark.parametrize("mode", list(MODES))
def test_random_text_gives_the_same_ids(mode, tmp_path):
    import random

    tok, _ = trained(**MODES[mode])
    save_hf(tok, tmp_path / "t.json")
    hf = HFTokenizer.from_file(str(tmp_path / "t.json"))
    rng = random.Random(mode)
    pieces = list("lowestrainé日本мир🙂_<>/'0123456789.,;") + [" ", "  ", "\n", "\t", "\r\n", "\u3000", "\x85", "\xa0",
                                                          "'ll", "<|endoftext|>", "<|im_end|>", "\ue000", "ζ"]
    for _ in range(60):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 80)))
        assert hf.encode(text).ids == list(tok.encode(text, allow_special=True).ids), repr(text)


def test_two_merges_making_the_same_token_share_its_id(tmp_path):
    from engine.algorithm.settings import Settings
    from engine.algorithm.tokenizer import Tokenizer

    # "abc" is made as ab + c and again as a + bc; BPE Lab keeps one id for it, and so does the file
    tok = Tokenizer(Settings(end_of_word=None), list("abcd"), [("a", "b"), ("ab", "c"), ("b", "c"), ("a", "bc"), ("d", "a")])
    save_hf(tok, tmp_path / "t.json")
    hf = HFTokenizer.from_file(str(tmp_path / "t.json"))
    for text in ["abc", "dabc", "bcabc dabcc", "aabcbc", "dbca"]:
        assert hf.encode(text).ids == list(tok.encode(text, allow_special=True).ids), text
    assert load_hf(tmp_path / "t.json").merges == tok.merges


@pytest.mark.parametrize("text", [
    "see </w> here", "a</w>b </w></w>", "lowest </w>", "</w>", "x </w>w w</w>", TEXTS[8],
])
def test_a_typed_marker_decodes_back_as_in_the_exported_file(text, tmp_path):
    # marker </w>; the training text has its letters but never spells it, so no merge joins them
    tok, _ = trained(TRAINING + " a/b 3/4 w/o wow >_<" * 3)
    path = tmp_path / "t.json"
    save_hf(tok, path)
    hf = HFTokenizer.from_file(str(path))
    ids = list(tok.encode(text).ids)
    assert hf.encode(text).ids == ids
    assert tok.decode(ids) == hf.decode(ids)
    assert "</w>" in tok.decode(ids)



_UNDERSCORED = ["__init__", "_", "__", "a_b", "x_", "_y", "self._x", "__main__", " ", "ab"]


@pytest.mark.parametrize("split", ["whitespace", "none"])
def test_a_one_character_marker_in_the_text_decodes_as_the_exported_file_decodes(split, tmp_path):
    # "_" marks a word's end and is also a character of the text: only a token's last "_" ends a word
    import random

    from engine import Corpus, Settings, Tokenizer, train

    rng = random.Random(4)
    training = " ".join(rng.choice(_UNDERSCORED) for _ in range(300))
    tok = Tokenizer.from_trainer(train(Corpus.from_text(training, Settings(end_of_word="_", split=split)))[0])
    assert any("_" in token[:-1] for token in tok.vocab)  # a token holds the text's "_" before its last
    path = tmp_path / "tokenizer.json"
    save_hf(tok, path)
    hf, back = HFTokenizer.from_file(str(path)), load_hf(path)
    texts = ["__init__", "a_b _ __ x_ _y", "__main__ __init__"]
    texts += ["".join(rng.choice(_UNDERSCORED) for _ in range(rng.randint(1, 12))) for _ in range(200)]
    for text in texts:
        ids = tok.encode_ids(text)
        assert hf.encode(text).ids == ids == back.encode_ids(text), text
        assert tok.decode(ids) == hf.decode(ids) == back.decode(ids), text
    if split == "whitespace":
        assert tok.decode(tok.encode_ids("__init__")) == "__init__"
