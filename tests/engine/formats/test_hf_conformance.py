"""Every shape of tokenizer.json that `tokenizers` writes from these parts: accepted with the
library's ids on a text of every script and character class, or refused with its one-line reason.

The shapes are listed here, each with what BPE Lab does with it, so that a shape the reader starts
or stops accepting shows up as a failing case. Left out: code points newer than either side's
Unicode tables (unassigned ones among them), whose tables other tests hold to the library.
"""

import json
import unicodedata

import pytest
from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from engine.errors import BpeLabError
from engine.lesson_io.loading import load_any
from engine.algorithm.pretokenize import GPT2_PATTERN
from tests.engine.formats.test_hf_imports import HELD_OUT, TRAIN


def _one_of_each_category(limit: int = 0x3000) -> str:
    """The first few characters of each general category below ``limit`` (old enough for every table)."""
    found: dict[str, list[str]] = {}
    for code in range(limit):
        ch = chr(code)
        cat = unicodedata.category(ch)
        if cat not in ("Cs", "Cn") and len(found.setdefault(cat, [])) < 3:
            found[cat].append(ch)
    return "".join(f"a{ch}b {ch} " for chars in found.values() for ch in chars)


SCRIPTS = ("Latin ÀÉÎõü Ελληνικά Кириллица Հայերեն עברית العربية देवनागरी বাংলা ਗੁਰਮੁਖੀ ગુજરાતી தமிழ் "
           "తెలుగు ಕನ್ನಡ മലയാളം සිංහල ไทย ລາວ ་བོད ქართული ᎠᏍᎦ ᐃᓄᒃᑎᑐᑦ ខ្មែរ ᠮᠣᠩᠭᠣᠯ 한국어 ひらがな カタカナ "
           "漢字中文 ㄅㄆㄇ ꀀꀁ ＡＢＣ１２３ ①②③ ½ ² ™ ﬁ ℌ ㎏ 😀🎸👩‍👩‍👧🇫🇷 𝔘𝔫𝔦 𐍈 \u200b\u200d\ufeff \u00ad")
TEXTS = HELD_OUT + [SCRIPTS, _one_of_each_category(), SCRIPTS + " " + " ".join(HELD_OUT)]


def _build(path, pre=None, norm=None, decoder=None, post=None, model=None, trainer=None, added=(), special=(),
           alphabet=(), edit=None):
    tok = Tokenizer(models.BPE(**({"unk_token": "[UNK]"} | (model or {}))))
    for name, part in (("pre_tokenizer", pre), ("normalizer", norm), ("decoder", decoder), ("post_processor", post)):
        if part is not None:
            setattr(tok, name, part)
    options = {"vocab_size": 400, "special_tokens": ["[UNK]", "[CLS]", *special], "initial_alphabet": list(alphabet)}
    tok.train_from_iterator(TRAIN + [SCRIPTS[: len(SCRIPTS) // 2]], trainers.BpeTrainer(**options | (trainer or {})))
    if added:
        tok.add_tokens(list(added))
    data = json.loads(tok.to_str())
    if edit is not None:
        edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")


BYTES = pre_tokenizers.ByteLevel.alphabet()
BYTE_LEVEL = dict(pre=pre_tokenizers.ByteLevel(add_prefix_space=False), decoder=decoders.ByteLevel(),
                  model={"unk_token": None}, alphabet=BYTES)
SUFFIX = dict(model={"end_of_word_suffix": "</w>"}, trainer={"end_of_word_suffix": "</w>"})
BERT = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=False)
BYTE_TOKENS = [f"<0x{b:02X}>" for b in range(256)]


def _set(part, **values):
    def edit(data):
        data[part].update(values)
    return edit


# name -> (how to build it, None where BPE Lab accepts it, else a pattern of its one-line refusal)
SHAPES = {
    # pre-tokenizers
    "no_pre_tokenizer": (dict(), None),
    "whitespace": (dict(pre=pre_tokenizers.Whitespace()), None),
    "whitespace_split": (dict(pre=pre_tokenizers.WhitespaceSplit()), None),
    "bert_pre_tokenizer": (dict(pre=pre_tokenizers.BertPreTokenizer()), None),
    "split_gpt2": (dict(pre=pre_tokenizers.Split(Regex(GPT2_PATTERN), "isolated")), None),
    "split_space": (dict(pre=pre_tokenizers.Split(" ", "isolated")), "pre_tokenizer .*Split"),
    "punctuation": (dict(pre=pre_tokenizers.Punctuation()), "pre_tokenizer Punctuation"),
    "digits": (dict(pre=pre_tokenizers.Digits()), "pre_tokenizer Digits"),
    "char_delimiter": (dict(pre=pre_tokenizers.CharDelimiterSplit(" ")), "pre_tokenizer CharDelimiterSplit"),
    "unicode_scripts": (dict(pre=pre_tokenizers.UnicodeScripts()), "pre_tokenizer UnicodeScripts"),
    "sequence": (dict(pre=pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.Digits()])),
                 "pre_tokenizer Sequence"),
    "byte_level": (BYTE_LEVEL, None),
    "byte_level_no_regex": (BYTE_LEVEL | dict(pre=pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)),
                            None),
    "byte_level_prefix_space": (BYTE_LEVEL | dict(pre=pre_tokenizers.ByteLevel(add_prefix_space=True)),
                                "ByteLevel with add_prefix_space on"),
    "byte_level_without_all_bytes": (BYTE_LEVEL | dict(alphabet=()),
                                     "lacks \\d+ of them, which tokenizers would silently leave out"),
    "metaspace": (dict(pre=pre_tokenizers.Metaspace(), decoder=decoders.Metaspace()), None),
    "metaspace_first": (dict(pre=pre_tokenizers.Metaspace(prepend_scheme="first")), "Metaspace reads only"),
    "metaspace_never": (dict(pre=pre_tokenizers.Metaspace(prepend_scheme="never")), "Metaspace reads only"),
    "metaspace_no_split": (dict(pre=pre_tokenizers.Metaspace(split=False)), "Metaspace reads only"),
    # normalizers
    "nfkc_metaspace": (dict(pre=pre_tokenizers.Metaspace(), norm=normalizers.NFKC()), None),
    "nfc_metaspace": (dict(pre=pre_tokenizers.Metaspace(), norm=normalizers.NFC()), "normalizer NFC"),
    "nfkc_whitespace": (dict(pre=pre_tokenizers.Whitespace(), norm=normalizers.NFKC()), "normalizer NFKC"),
    "lowercase": (dict(pre=pre_tokenizers.Whitespace(), norm=normalizers.Lowercase()), "normalizer Lowercase"),
    "strip_accents": (dict(pre=pre_tokenizers.WhitespaceSplit(), norm=normalizers.Sequence(
        [normalizers.NFD(), normalizers.StripAccents()])), "normalizer Sequence"),
    "bert_lowercase": (dict(pre=pre_tokenizers.BertPreTokenizer(), norm=normalizers.BertNormalizer(), **SUFFIX),
                       "normalizer BertNormalizer"),
    "byte_level_nfc": (BYTE_LEVEL | dict(norm=normalizers.NFC()), "normalizer NFC"),
    # suffix and prefix variants
    "bert_suffix": (dict(pre=pre_tokenizers.BertPreTokenizer(), norm=BERT, decoder=decoders.BPEDecoder(), **SUFFIX),
                    None),
    "bert_suffix_no_normalizer": (dict(pre=pre_tokenizers.BertPreTokenizer(), **SUFFIX), None),
    "whitespace_suffix": (dict(pre=pre_tokenizers.Whitespace(), **SUFFIX), None),
    "whitespace_split_suffix": (dict(pre=pre_tokenizers.WhitespaceSplit(), **SUFFIX), None),
    "other_suffix": (dict(pre=pre_tokenizers.WhitespaceSplit(), model={"end_of_word_suffix": "_"},
                          trainer={"end_of_word_suffix": "_"}), None),
    "continuing_prefix": (dict(pre=pre_tokenizers.Whitespace(), model={"continuing_subword_prefix": "##"},
                               trainer={"continuing_subword_prefix": "##"}), "continuing_subword_prefix"),
    "suffix_byte_level": (BYTE_LEVEL | dict(model={"unk_token": None, "end_of_word_suffix": "</w>"},
                                            trainer={"end_of_word_suffix": "</w>"}), "end_of_word_suffix"),
    # model options
    "dropout": (dict(pre=pre_tokenizers.Whitespace(), model={"dropout": 0.1}), "dropout"),
    "fuse_unk": (dict(pre=pre_tokenizers.Whitespace(), model={"fuse_unk": True}), "fuse_unk"),
    "ignore_merges": (dict(pre=pre_tokenizers.Whitespace(), model={"ignore_merges": True}), "ignore_merges"),
    "no_unk_token": (dict(pre=pre_tokenizers.Whitespace(), model={"unk_token": None}), "needs an unknown token"),
    "byte_fallback_metaspace": (dict(pre=pre_tokenizers.Metaspace(), decoder=decoders.Sequence(
        [decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]),
        model={"unk_token": "[UNK]", "byte_fallback": True}, special=BYTE_TOKENS, trainer={"vocab_size": 700}), None),
    "byte_fallback_whitespace": (dict(pre=pre_tokenizers.Whitespace(), model={"byte_fallback": True},
                                      special=BYTE_TOKENS, trainer={"vocab_size": 700}), "byte_fallback"),
    # decoders (BPE Lab decodes by the pre-tokenizer; these change no id)
    "whitespace_fuse_decoder": (dict(pre=pre_tokenizers.WhitespaceSplit(), decoder=decoders.Fuse()), None),
    # added tokens
    "added_tokens": (BYTE_LEVEL | dict(added=["lo", "ab", AddedToken("<mask>", lstrip=True, special=True)]), None),
    "added_single_word": (dict(pre=pre_tokenizers.Whitespace(), added=[AddedToken("er", single_word=True)]), None),
    "added_rstrip_metaspace": (dict(pre=pre_tokenizers.Metaspace(), added=[
        AddedToken("<sep>", rstrip=True, normalized=False, special=True)]), None),
    "added_normalized_nfkc": (dict(pre=pre_tokenizers.Metaspace(), norm=normalizers.NFKC(),
                                   added=["fix", "ﬃ", AddedToken("ＡＢ", normalized=False)]), None),
    "added_normalized_bert": (dict(pre=pre_tokenizers.BertPreTokenizer(), norm=BERT, **SUFFIX,
                                   added=["ab", "中文", AddedToken("<X>", lstrip=True, rstrip=True, special=True)]), None),
    # post-processors
    "post_byte_level": (BYTE_LEVEL | dict(edit=lambda d: d.update(post_processor={
        "type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": True})), None),
    "post_template": (dict(pre=pre_tokenizers.Whitespace(), edit=lambda d: d.update(post_processor={
        "type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                                                 {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [{"Sequence": {"id": "A", "type_id": 0}}], "special_tokens": {
            "[CLS]": {"id": "[CLS]", "ids": [1], "tokens": ["[CLS]"]}}})), "post_processor TemplateProcessing"),
    # fields the library's own code writes in one version and reads in the next
    "old_metaspace": (dict(pre=pre_tokenizers.Metaspace(), edit=lambda d: d.update(pre_tokenizer={
        "type": "Metaspace", "replacement": "\u2581", "add_prefix_space": True})), None),
    "truncation": (dict(pre=pre_tokenizers.Whitespace(), edit=lambda d: d.update(truncation={
        "direction": "Right", "max_length": 8, "strategy": "LongestFirst", "stride": 0})), '"truncation" is set'),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_each_shape_is_read_with_the_librarys_ids_or_refused_with_its_reason(shape, tmp_path):
    build, refusal = SHAPES[shape]
    path = tmp_path / "tokenizer.json"
    _build(path, **build)
    theirs = Tokenizer.from_file(str(path))
    if refusal is not None:
        with pytest.raises(BpeLabError, match=refusal) as caught:
            load_any(path)
        assert "\n" not in str(caught.value)
        return
    ours = load_any(path)
    assert ours.get_vocab_size() == theirs.get_vocab_size()
    for text in TEXTS:
        assert ours.encode_ids(text, allow_special=True) == theirs.encode(text).ids, text[:80]
