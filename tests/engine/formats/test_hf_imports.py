"""tokenizer.json files trained by `tokenizers`' own recipes load with the library's ids."""

import json

import pytest
from tokenizers import (ByteLevelBPETokenizer, CharBPETokenizer, Regex, SentencePieceBPETokenizer, Tokenizer,
                        models, pre_tokenizers, trainers)

from engine.errors import BpeLabError
from engine.lesson_io.loading import load_any
from engine.algorithm.pretokenize import GPT2_PATTERN
from tests.engine.formats.samples import TEXTS, TRAINING

TRAIN = [TRAINING, "low lower newest widest " * 20, "Größe straße café 日本語 Привет мир"]
# held out: unseen characters, emoji, several scripts, whitespace runs, compatibility characters
HELD_OUT = TEXTS + ["ﬃ\u00a0nbsp \u2003 em\x00null\ufeffbom 中文字 ＡＢＣ", "tab\t\tend  \n\n  x",
                    # a typed ▁ (Metaspace puts none before it), and the unknown token's own text
                    "\u2581low \u2581\u2581x a\u2581b", "<unk> [UNK]<unk>[CLS] x"]


def _bpe(pre_tokenizer, path):
    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizer
    tok.train_from_iterator(TRAIN, trainers.BpeTrainer(vocab_size=300, special_tokens=["[UNK]", "[CLS]"]))
    tok.save(str(path))


def _char_bpe(path):
    tok = CharBPETokenizer()
    tok.train_from_iterator(TRAIN, vocab_size=300)
    tok.save(str(path))


def _sentencepiece(path):
    tok = SentencePieceBPETokenizer()
    tok.train_from_iterator(TRAIN, vocab_size=300)
    tok.save(str(path))


def _sentencepiece_bytes(path):
    tok = SentencePieceBPETokenizer()
    byte_tokens = [f"<0x{b:02X}>" for b in range(256)]
    tok.train_from_iterator(TRAIN, vocab_size=600, special_tokens=["<unk>"] + byte_tokens)
    data = json.loads(tok.to_str())
    data["model"]["byte_fallback"] = True
    path.write_text(json.dumps(data), encoding="utf-8")


def _byte_level(path):
    tok = ByteLevelBPETokenizer()
    tok.train_from_iterator(TRAIN, vocab_size=400)
    tok.save(str(path))


def _char_level(pre_tokenizer, path):
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    if pre_tokenizer is not None:
        tok.pre_tokenizer = pre_tokenizer
    tok.train_from_iterator(TRAIN, trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>"]))
    tok.save(str(path))


def _sentencepiece_old_metaspace(path):
    # the Metaspace of files written before prepend_scheme, which the library still loads
    _sentencepiece(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    for part in ("pre_tokenizer", "decoder"):
        data[part] = {"type": "Metaspace", "replacement": "\u2581", "add_prefix_space": True, "str_rep": "\u2581"}
    path.write_text(json.dumps(data), encoding="utf-8")


SHAPES = {
    "split_gpt2_chars": lambda p: _char_level(pre_tokenizers.Split(Regex(GPT2_PATTERN), "isolated"), p),
    "no_pre_tokenizer_chars": lambda p: _char_level(None, p),
    "sentencepiece_old_metaspace": _sentencepiece_old_metaspace,
    "whitespace": lambda p: _bpe(pre_tokenizers.Whitespace(), p),
    "whitespace_split": lambda p: _bpe(pre_tokenizers.WhitespaceSplit(), p),
    "char_bpe": _char_bpe,
    "sentencepiece": _sentencepiece,
    "sentencepiece_byte_fallback": _sentencepiece_bytes,
    "byte_level": _byte_level,
}


@pytest.mark.parametrize("shape", SHAPES)
def test_each_shape_gives_the_librarys_ids_on_held_out_text(shape, tmp_path):
    path = tmp_path / "tokenizer.json"
    SHAPES[shape](path)
    ours, theirs = load_any(path), Tokenizer.from_file(str(path))
    assert ours.get_vocab_size() == theirs.get_vocab_size()
    for text in HELD_OUT + [" ".join(HELD_OUT)]:
        # the library always reads its added tokens' text (<unk>, [CLS]) as those tokens
        assert ours.encode_ids(text, allow_special=True) == theirs.encode(text).ids, text
        assert list(ours.encode(text, allow_special=True).ids) == theirs.encode(text).ids, text


@pytest.mark.parametrize("shape", ["char_bpe", "sentencepiece", "sentencepiece_byte_fallback", "byte_level"])
def test_each_shape_decodes_as_the_library_does(shape, tmp_path):
    path = tmp_path / "tokenizer.json"
    SHAPES[shape](path)
    ours, theirs = load_any(path), Tokenizer.from_file(str(path))
    text = "lowest newer, Größe 日本語 мир"
    ids = ours.encode_ids(text)
    assert ours.decode(ids) == theirs.decode(ids, skip_special_tokens=False)


def test_byte_fallback_spells_an_unseen_character_in_bytes(tmp_path):
    path = tmp_path / "tokenizer.json"
    _sentencepiece_bytes(path)
    ours = load_any(path)
    tokens = ours.encode("🦜").tokens
    assert tokens[-4:] == ("<0xF0>", "<0x9F>", "<0xA6>", "<0x9C>")
    assert ours.decode(ours.encode_ids("a 🦜")) == "a 🦜"


def test_metaspace_written_otherwise_is_refused_naming_it(tmp_path):
    path = tmp_path / "tokenizer.json"
    _sentencepiece(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["pre_tokenizer"]["prepend_scheme"] = "sometimes"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BpeLabError, match="Metaspace"):
        load_any(path)


def test_a_file_whose_merge_rebuilds_a_used_token_is_refused_with_the_reason(tmp_path):
    # abc is made at merge 1, used by merge 2, and made again at merge 4: the library would then
    # apply merge 2 again where replaying the merges in order does not
    merges = [["b", "c"], ["a", "bc"], ["abc", "d"], ["a", "b"], ["ab", "c"]]
    vocab = {t: i for i, t in enumerate(["<unk>", "a", "b", "c", "d", "bc", "abc", "abcd", "ab"])}
    data = {"model": {"type": "BPE", "unk_token": "<unk>", "vocab": vocab, "merges": merges},
            "pre_tokenizer": {"type": "Whitespace"}}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(BpeLabError, match=r"merges\[4\] rebuilds 'abc'.*merges\[2\].*lowest rank first"):
        load_any(path)


@pytest.mark.parametrize("fmt", ["hf", "bpelab", "gpt2", "csv"])
def test_an_imported_front_end_is_not_exported_in_a_format_that_would_lose_it(fmt, tmp_path):
    from engine.formats.load import export
    from engine.lesson_io.loading import load_source

    path = tmp_path / "tokenizer.json"
    _sentencepiece(path)
    with pytest.raises(BpeLabError, match="Metaspace|metaspace"):
        export(load_source(path), fmt, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_whitespace_pre_tokenizer_cuts_newer_letters_as_the_library_does():
    from tokenizers import pre_tokenizers

    from engine.formats.hf_pipeline import FrontEnd
    from engine.formats.hf_steps import ClassRuns

    front = FrontEnd((), (ClassRuns(),), "Whitespace pre-tokenizer")
    # letters and numbers newer than the library's Unicode (U+0558, U+0C5C, U+A7CE, U+18D80), and old ones
    for ch in "\u0558\u0c5c\ua7ce\U00018d80\u00e9\u0416\u65e5\u0661_-":
        text = f"a{ch}b {ch}{ch} x"
        ours = [word for _, _, word in front.words(text, True)]
        assert ours == [p for p, _ in pre_tokenizers.Whitespace().pre_tokenize_str(text)], hex(ord(ch))


@pytest.mark.parametrize("shape", ["whitespace", "char_bpe", "sentencepiece"])
def test_an_imported_unknown_token_reads_as_the_file_names_it(shape, tmp_path):
    path = tmp_path / "tokenizer.json"
    SHAPES[shape](path)
    ours, theirs = load_any(path), Tokenizer.from_file(str(path))
    text = "a \u2603 b"  # a character old enough for every Unicode table
    unknown = [t for t in theirs.encode(text).tokens if t in ("[UNK]", "<unk>")]
    assert unknown and [t for t in ours.encode(text).tokens if t in ("[UNK]", "<unk>")] == unknown
    assert ours.vocab[ours.unknown_id] == unknown[0]


def test_a_folder_char_bpe_saved_gives_the_ids_from_file_gives(tmp_path):
    tok = CharBPETokenizer()
    tok.train_from_iterator(TRAIN, vocab_size=300)
    tok.save_model(str(tmp_path))
    ours = load_any(tmp_path)
    theirs = CharBPETokenizer.from_file(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt"))
    assert ours.get_vocab_size() == theirs.get_vocab_size()
    for text in HELD_OUT:
        assert ours.encode_ids(text, allow_special=True) == theirs.encode(text).ids, text


def test_a_nul_in_a_tokenizer_json_string_loads_and_a_raw_one_is_refused_as_the_library_refuses_it(tmp_path):
    path = tmp_path / "tokenizer.json"
    _char_bpe(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["added_tokens"].append({"id": len(data["model"]["vocab"]), "content": "a\x00b", "special": True,
                                "single_word": False, "lstrip": False, "rstrip": False, "normalized": False})
    text = json.dumps(data)  # JSON spells the NUL \u0000
    path.write_text(text, encoding="utf-8")
    theirs = Tokenizer.from_file(str(path))
    assert load_any(path).encode_ids("xa\x00b", allow_special=True) == theirs.encode("xa\x00b").ids
    path.write_text(text.replace("\\u0000", "\x00"), encoding="utf-8")
    with pytest.raises(Exception, match="control character"):
        Tokenizer.from_file(str(path))
    with pytest.raises(BpeLabError):
        load_any(path)
