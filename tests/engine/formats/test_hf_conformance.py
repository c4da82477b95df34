"""Every shape of tokenizer.json that `tokenizers` writes from these parts: accepted with the
library's ids on a text of every script and character class, or refused with its one-line reason.

The shapes are listed here, each with what BPE Lab does with it, so that a shape the reader starts
or stops accepting shows up as a failing case. The texts hold code points of every age, unassigned
ones and the newest emoji among them, alone, between letters and before combining marks.
"""

import json

import pytest
from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from engine.errors import BpeLabError
from engine.lesson_io.loading import load_any
from engine.algorithm.pretokenize import GPT2_PATTERN, GPT4_PATTERN
from engine.formats.hf_steps import LLAMA3_PATTERN
from tests.engine.formats.test_hf_imports import HELD_OUT, TRAIN

# among the heaviest files of the suite: run by .ci/run, left out of the quick part (-m "not slow")
pytestmark = pytest.mark.slow


def _every_age_of_code_point(step: int = 251) -> str:
    """Code points spread over the whole range, assigned or not, each alone and between letters."""
    return "".join(f"a{chr(c)}b {chr(c)} " for c in range(0, 0x110000, step) if not 0xD800 <= c < 0xE000)


# emoji and letters newer than some Unicode tables, code points no version assigns yet, and
# sequences that normalizing composes or reorders
NEWEST = ("\U0001FABF\U0001FAE8\U0001FAE9\U0001FACE \U0001F6DC \u0c5c\u0c5d \U0002B820\U0002B91F\U0002B920 "
          "\U00031350\U000323B0 \u0378 \U000E0001 \U0010FFFD \uFFFF e\u0301 a\u0323\u0302 \u1100\u1161\u11a8 "
          "\uac00\u11a8 \u32ff \ufb01 \u2460 \u00bd \u0344 \u0f73 \u1e0b\u0323 q\u0307\u0323 \u212b \u0958 A\u030a")
SCRIPTS = ("Latin ÀÉÎõü Ελληνικά Кириллица Հայերեն עברית العربية देवनागरी বাংলা ਗੁਰਮੁਖੀ ગુજરાતી தமிழ் "
           "తెలుగు ಕನ್ನಡ മലയാളം සිංහල ไทย ລາວ ་བོད ქართული ᎠᏍᎦ ᐃᓄᒃᑎᑐᑦ ខ្មែរ ᠮᠣᠩᠭᠣᠯ 한국어 ひらがな カタカナ "
           "漢字中文 ㄅㄆㄇ ꀀꀁ ＡＢＣ１２３ ①②③ ½ ² ™ ﬁ ℌ ㎏ 😀🎸👩‍👩‍👧🇫🇷 𝔘𝔫𝔦 𐍈 \u200b\u200d\ufeff \u00ad")
# the special tokens spelt in the text, which allow_special matches as the library matches them, and
# an added token that starts the text (Metaspace's "first" then puts no space before what follows)
SPELT_SPECIALS = "a[UNK]b [CLS] [UNK] x[UNK]"
SPELT_ADDED = "<s>lower <s> x<s>"
TEXTS = HELD_OUT + [SPELT_SPECIALS, SPELT_ADDED, SCRIPTS, NEWEST, _every_age_of_code_point(),
                    SCRIPTS + " " + NEWEST + " " + " ".join(HELD_OUT)]


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
    "split_space": (dict(pre=pre_tokenizers.Split(" ", "isolated")), None),
    "split_string_removed": (dict(pre=pre_tokenizers.Split(" ", "removed")), None),
    "split_string_merged_previous": (dict(pre=pre_tokenizers.Split("e", "merged_with_previous")), None),
    "split_string_merged_next": (dict(pre=pre_tokenizers.Split("e", "merged_with_next")), None),
    "split_string_contiguous": (dict(pre=pre_tokenizers.Split("e", "contiguous")), None),
    "split_string_inverted": (dict(pre=pre_tokenizers.Split("es", "removed", invert=True)), None),
    "split_llama3_byte_level": (BYTE_LEVEL | dict(pre=pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(LLAMA3_PATTERN), "isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])), None),
    "split_gpt4_as_published": (dict(pre=pre_tokenizers.Split(Regex(GPT4_PATTERN), "removed", invert=True)), None),
    "split_regex_other": (dict(pre=pre_tokenizers.Split(Regex(r"\d+"), "isolated")), "Split with a regex other"),
    "punctuation": (dict(pre=pre_tokenizers.Punctuation()), None),
    "punctuation_merged_previous": (dict(pre=pre_tokenizers.Punctuation("merged_with_previous")), None),
    "digits": (dict(pre=pre_tokenizers.Digits()), None),
    "digits_individual": (dict(pre=pre_tokenizers.Digits(individual_digits=True)), None),
    "char_delimiter": (dict(pre=pre_tokenizers.CharDelimiterSplit(" ")), None),
    "unicode_scripts": (dict(pre=pre_tokenizers.UnicodeScripts()), None),
    "sequence": (dict(pre=pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.Digits()])), None),
    "sequence_split_punctuation_digits": (dict(pre=pre_tokenizers.Sequence([
        pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation(), pre_tokenizers.Digits(True)])), None),
    "sequence_digits_byte_level": (BYTE_LEVEL | dict(pre=pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False)])), None),
    "byte_level": (BYTE_LEVEL, None),
    "byte_level_no_regex": (BYTE_LEVEL | dict(pre=pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)),
                            None),
    "byte_level_prefix_space": (BYTE_LEVEL | dict(pre=pre_tokenizers.ByteLevel(add_prefix_space=True)), None),
    "byte_level_prefix_space_no_regex": (BYTE_LEVEL | dict(
        pre=pre_tokenizers.ByteLevel(add_prefix_space=True, use_regex=False)), None),
    "byte_level_without_all_bytes": (BYTE_LEVEL | dict(alphabet=()),
                                     "lacks \\d+ of them, which tokenizers would silently leave out"),
    "metaspace": (dict(pre=pre_tokenizers.Metaspace(), decoder=decoders.Metaspace()), None),
    "metaspace_first": (dict(pre=pre_tokenizers.Metaspace(prepend_scheme="first")), None),
    "metaspace_first_added": (dict(pre=pre_tokenizers.Metaspace(prepend_scheme="first"), added=[
        AddedToken("<s>", special=True)]), None),
    "metaspace_never": (dict(pre=pre_tokenizers.Metaspace(prepend_scheme="never")), None),
    "metaspace_no_split": (dict(pre=pre_tokenizers.Metaspace(split=False)), None),
    "prepend_replace": (dict(norm=normalizers.Sequence([normalizers.Prepend("\u2581"), normalizers.Replace(" ", "\u2581")]),
                             model={"unk_token": "[UNK]", "byte_fallback": True}, special=BYTE_TOKENS,
                             trainer={"vocab_size": 700}), None),
    # normalizers
    "nfkc_metaspace": (dict(pre=pre_tokenizers.Metaspace(), norm=normalizers.NFKC()), None),
    "nfc_metaspace": (dict(pre=pre_tokenizers.Metaspace(), norm=normalizers.NFC()), None),
    "nfd_whitespace_split": (dict(pre=pre_tokenizers.WhitespaceSplit(), norm=normalizers.NFD()), None),
    "nfkd_whitespace": (dict(pre=pre_tokenizers.Whitespace(), norm=normalizers.NFKD()), None),
    "nfkc_whitespace": (dict(pre=pre_tokenizers.Whitespace(), norm=normalizers.NFKC()), None),
    "lowercase": (dict(pre=pre_tokenizers.Whitespace(), norm=normalizers.Lowercase()), None),
    "lowercase_no_pre_tokenizer": (dict(norm=normalizers.Lowercase()), None),
    "strip_accents": (dict(pre=pre_tokenizers.WhitespaceSplit(), norm=normalizers.Sequence(
        [normalizers.NFD(), normalizers.StripAccents()])), None),
    "strip_accents_alone": (dict(pre=pre_tokenizers.Whitespace(), norm=normalizers.StripAccents()), None),
    "strip_whitespace_split": (dict(pre=pre_tokenizers.WhitespaceSplit(), norm=normalizers.Sequence([
        normalizers.Strip(), normalizers.Replace(" ", "_")])), None),
    "strip_left_only": (dict(norm=normalizers.Strip(left=True, right=False)), None),
    "byte_level_normalizer": (BYTE_LEVEL | dict(pre=None, norm=normalizers.ByteLevel()), None),
    "replace_regex": (dict(pre=pre_tokenizers.Whitespace(), norm=normalizers.Replace(Regex("[0-9]"), "0")),
                      "normalizer Replace"),
    "bert_lowercase": (dict(pre=pre_tokenizers.BertPreTokenizer(), norm=normalizers.BertNormalizer(), **SUFFIX), None),
    "bert_strip_accents": (dict(pre=pre_tokenizers.BertPreTokenizer(), norm=normalizers.BertNormalizer(
        lowercase=False, strip_accents=True, handle_chinese_chars=False), **SUFFIX), None),
    "bert_no_clean": (dict(pre=pre_tokenizers.BertPreTokenizer(), norm=normalizers.BertNormalizer(
        clean_text=False, lowercase=False), **SUFFIX), None),
    "byte_level_nfc": (BYTE_LEVEL | dict(norm=normalizers.NFC()), None),
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
                                            trainer={"end_of_word_suffix": "</w>"}), "end_of_word_suffix is set with a ByteLevel"),
    # model options
    "dropout": (dict(pre=pre_tokenizers.Whitespace(), model={"dropout": 0.1}), "dropout"),
    "fuse_unk": (dict(pre=pre_tokenizers.Whitespace(), model={"fuse_unk": True}), None),
    "fuse_unk_metaspace_byte_fallback": (dict(pre=pre_tokenizers.Metaspace(), model={
        "unk_token": "[UNK]", "byte_fallback": True, "fuse_unk": True}, special=BYTE_TOKENS[:200],
        trainer={"vocab_size": 700}), None),
    "ignore_merges": (dict(pre=pre_tokenizers.Whitespace(), model={"ignore_merges": True}), None),
    "llama3_style": (BYTE_LEVEL | dict(pre=pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(LLAMA3_PATTERN), "isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]),
        model={"unk_token": None, "ignore_merges": True}), None),
    "ignore_merges_byte_level": (BYTE_LEVEL | dict(model={"unk_token": None, "ignore_merges": True}), None),
    "no_unk_token": (dict(pre=pre_tokenizers.Whitespace(), model={"unk_token": None}), "needs an unknown token"),
    "byte_fallback_metaspace": (dict(pre=pre_tokenizers.Metaspace(), decoder=decoders.Sequence(
        [decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]),
        model={"unk_token": "[UNK]", "byte_fallback": True}, special=BYTE_TOKENS, trainer={"vocab_size": 700}), None),
    "byte_fallback_whitespace": (dict(pre=pre_tokenizers.Whitespace(), model={"byte_fallback": True},
                                      special=BYTE_TOKENS, trainer={"vocab_size": 700}), None),
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
