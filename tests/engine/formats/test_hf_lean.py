"""tokenizer.json carries the fewest steps that give BPE Lab's ids, and those ids hold for every
setting on the conformance texts.

Each setting's steps are named here, so that a step creeping back (a Replace over every word, a
regex where a string or a pre-tokenizer does) shows up as a failing case.
"""

import pytest
from tokenizers import Tokenizer as Library

from engine.formats.hf import tokenizer_json, tokenizer_json_data
from engine.formats.verify import SAMPLE
from tests.engine.formats.samples import MODES, SPECIALS, TEXTS, trained
from tests.engine.formats.test_hf_conformance import NEWEST, SCRIPTS, _every_age_of_code_point


def _names(node, steps_key):
    """A pipeline part's steps by name, a Replace with the kind of its pattern."""
    if node is None:
        return []
    if node["type"] == "Sequence":
        return [name for step in node[steps_key] for name in _names(step, steps_key)]
    if node["type"] == "Replace":
        return [f"Replace {next(iter(node['pattern'])).lower()}"]
    return [node["type"]]


# setting -> (normalizer steps, pre-tokenizer steps)
STEPS = {
    # the marker is the space after each word: one match a gap that is not a space, not one a word;
    # the leading whitespace, whitespace beyond ASCII, ASCII gaps and the text's end each a Replace
    # whose regex the library finds quickly
    "chars-marker": (["Replace regex"] * 4, ["CharDelimiterSplit"]),
    "chars-marker-space": (["Replace regex"] * 4, ["CharDelimiterSplit"]),
    # "_" is also a character of the text: the marker is put after every word
    "chars-marker-underscore": (["Replace regex"], ["WhitespaceSplit"]),
    "chars-no-marker": ([], ["WhitespaceSplit"]),
    "chars-none-split": ([], []),
    # one match at the end of the text, and a stray copy of the marker's spelling kept unknown
    "chars-none-split-marker": (["Replace string", "Replace regex"], []),
    "chars-gpt2-split": ([], ["Split"]),
    "chars-gpt4-split": ([], ["Split"]),
    # ByteLevel's own regex is the gpt2 pattern
    "bytes-gpt2": ([], ["ByteLevel"]),
    "bytes-gpt4": ([], ["Split", "ByteLevel"]),
    "bytes-whitespace": ([], ["WhitespaceSplit", "ByteLevel"]),
    "bytes-none": ([], ["ByteLevel"]),
}


# lowercase: the library's Lowercase first, before the same steps
LOWERCASE_MODES = {f"{name}-lowercase": MODES[name] | {"lowercase": True}
                   for name in ("chars-marker", "chars-marker-underscore", "chars-no-marker", "bytes-gpt2")}
SETTINGS = MODES | LOWERCASE_MODES
STEPS |= {name: (["Lowercase", *STEPS[name.removesuffix("-lowercase")][0]],
                 STEPS[name.removesuffix("-lowercase")][1]) for name in LOWERCASE_MODES}


def test_every_setting_has_its_steps_named():
    assert set(STEPS) == set(SETTINGS)


@pytest.mark.parametrize("mode", list(SETTINGS))
def test_each_setting_exports_its_fewest_steps(mode):
    tok, _ = trained(**SETTINGS[mode])
    data = tokenizer_json_data(tok)
    steps = (_names(data["normalizer"], "normalizers"), _names(data["pre_tokenizer"], "pretokenizers"))
    assert steps == STEPS[mode]
    # the marker is a symbol of its own: never glued to a word's last character by the model
    assert data["model"]["end_of_word_suffix"] is None


# whitespace runs of every kind, CRLF, NUL, text that spells the special tokens, text around them
EDGES = [
    "a\r\nb\r\n\r\nc\r", "x\x00y \x00 \x00\x00", "\t\tindented\n\n\n  twice  \n", "   ", "\n", "end ", "end\n",
    "a\u3000\u3000b\u2028c\x85d\xa0e\x1c\x1df", "".join(SPECIALS), "<|endoftext|> lowest <|im_start|>\n low<|im_end|>x",
    " <|endoftext|>", "low<|endoftext|>", "\ue000\ue001 </w> _ __init__",
    "ΣΑΣ ὈΔΥΣΣΕΎΣ İstanbul ǅ ẞ <|ENDOFTEXT|> <|Im_Start|>",
]
CONFORMANCE = TEXTS + EDGES + [SAMPLE, SCRIPTS, NEWEST, _every_age_of_code_point()]


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(SETTINGS))
def test_the_library_gives_bpe_labs_ids_on_the_conformance_texts(mode):
    tok, _ = trained(**SETTINGS[mode])
    library = Library.from_str(tokenizer_json(tok))
    for allow in (False, True):
        library.encode_special_tokens = not allow
        for text in CONFORMANCE:
            assert library.encode(text).ids == tok.encode_ids(text, allow_special=allow), (allow, text[:60])
        # the texts one after another in one string, and each line on its own in one batch
        joined = "\n".join(CONFORMANCE)
        assert library.encode(joined).ids == tok.encode_ids(joined, allow_special=allow)
        lines = joined.splitlines(keepends=True)
        assert [e.ids for e in library.encode_batch(lines)] == [tok.encode_ids(t, allow_special=allow) for t in lines]


@pytest.mark.parametrize("mode", ["chars-marker", "chars-marker-space", "bytes-gpt2"])
def test_a_file_written_with_the_earlier_pipeline_still_loads_with_its_settings(mode, tmp_path):
    import json

    from engine.formats import hf

    tok, _ = trained(**MODES[mode])
    data = tokenizer_json_data(tok)
    # the earlier shape: the marker a private-use character put after every word by a regex Replace,
    # and the gpt2 byte split a Split before a ByteLevel without its regex
    table, spelt, mark, stray = hf.spelled_table(tok, hf.NAME)
    data.update(hf.pipeline(table.settings, mark, stray))
    if mode == "bytes-gpt2":
        data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [hf._split_node("gpt2"), hf._BYTE_LEVEL]}
    data["model"]["vocab"] = {t: i for i, t in enumerate(spelt)}
    data["model"]["merges"] = [[spelt[m.left], spelt[m.right]] for m in table.merges]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    back = hf.load_hf(path)
    assert (back.settings.split, back.settings.units, back.settings.marker) == (
        tok.settings.split, tok.settings.units, tok.settings.marker)
    assert back.merges == tok.merges
    assert back.encode_ids(" ".join(TEXTS)) == tok.encode_ids(" ".join(TEXTS))


@pytest.mark.parametrize("mode", ["chars-marker", "chars-marker-space"])
def test_a_file_with_the_gaps_in_one_replace_still_loads_with_its_marker(mode, tmp_path):
    import json

    from engine.formats import hf

    tok, _ = trained(**MODES[mode])
    data = tokenizer_json_data(tok)
    # the shape before the gaps took three Replace steps: one regex with the text's end among its choices
    data["normalizer"] = {"type": "Sequence", "normalizers": [
        {"type": "Strip", "strip_left": True, "strip_right": False},
        {"type": "Replace", "pattern": {"Regex": hf.GAPS}, "content": " \n"}]}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    back = hf.load_hf(path)
    assert (back.settings.split, back.settings.marker) == ("whitespace", tok.settings.marker)
    assert back.merges == tok.merges
    text = "\n".join(EDGES)
    assert back.encode_ids(text) == tok.encode_ids(text)
    library = Library.from_str(json.dumps(data))
    library.encode_special_tokens = True
    assert library.encode(text).ids == tok.encode_ids(text)


@pytest.mark.parametrize("mode", list(LOWERCASE_MODES))
def test_a_lowercased_lesson_reads_back_lowercased(mode, tmp_path):
    from engine.formats import hf

    tok, _ = trained(**LOWERCASE_MODES[mode])
    hf.save_hf(tok, tmp_path / "tokenizer.json")
    back = hf.load_hf(tmp_path / "tokenizer.json")
    assert back.settings.lowercase and back.merges == tok.merges
    text = "LOWEST Newer ΣΑΣ İstanbul <|endoftext|>"
    assert back.encode_ids(text, allow_special=True) == tok.encode_ids(text, allow_special=True)


def test_the_gpt2_folder_still_refuses_lowercase(tmp_path):
    from engine.errors import BpeLabError
    from engine.formats.gpt2 import save_gpt2

    tok, _ = trained(lowercase=True)
    with pytest.raises(BpeLabError, match="--lowercase"):
        save_gpt2(tok, tmp_path / "folder")
