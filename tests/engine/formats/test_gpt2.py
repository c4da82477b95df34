"""vocab.json + merges.txt: `tokenizers.models.BPE.from_file` with the matching pipeline gives BPE Lab's ids."""

import json

import pytest
from tokenizers import Regex, Tokenizer as HFTokenizer, decoders, models, normalizers, pre_tokenizers

from engine.errors import BpeLabError
from engine.formats.gpt2 import HEADER, load_gpt2, save_gpt2
from engine.lesson_io.loading import load_any
from tests.engine.formats.samples import MODES, TEXT, TEXTS, trained

# merges.txt cannot hold a token with a space in it, which these modes make
WITH_SPACES = {"chars-none-split", "chars-none-split-marker", "chars-gpt2-split", "chars-gpt4-split"}


def _pattern(node):
    return Regex(node["Regex"]) if "Regex" in node else node["String"]


def _pre_tokenizer(node):
    if node is None:
        return None
    if node["type"] == "Sequence":
        return pre_tokenizers.Sequence([_pre_tokenizer(n) for n in node["pretokenizers"]])
    if node["type"] == "WhitespaceSplit":
        return pre_tokenizers.WhitespaceSplit()
    if node["type"] == "Split":
        return pre_tokenizers.Split(_pattern(node["pattern"]), behavior=node["behavior"].lower(), invert=node["invert"])
    return pre_tokenizers.ByteLevel(add_prefix_space=node["add_prefix_space"], use_regex=node["use_regex"])


def _normalizer(node):
    if node is None:
        return None
    return normalizers.Sequence([normalizers.Replace(_pattern(n["pattern"]), n["content"]) for n in node["normalizers"]])


def library_tokenizer(folder):
    """What a user builds from the folder: BPE.from_file, then the pipeline bpe-lab.json describes."""
    side = json.loads((folder / "bpe-lab.json").read_text(encoding="utf-8"))
    model = models.BPE.from_file(str(folder / "vocab.json"), str(folder / "merges.txt"), unk_token=side["unk_token"])
    hf = HFTokenizer(model)
    normalizer = _normalizer(side["normalizer"])
    if normalizer is not None:
        hf.normalizer = normalizer
    pre = _pre_tokenizer(side["pre_tokenizer"])
    if pre is not None:
        hf.pre_tokenizer = pre
    if side["settings"]["units"] == "bytes":
        hf.decoder = decoders.ByteLevel()
    hf.add_special_tokens(list(side["special_tokens"]))
    return hf


@pytest.mark.parametrize("mode", [m for m in MODES if m not in WITH_SPACES])
def test_library_gives_bpe_labs_ids(mode, tmp_path):
    tok, _ = trained(**MODES[mode])
    save_gpt2(tok, tmp_path / "out")
    assert (tmp_path / "out" / "merges.txt").read_text(encoding="utf-8").startswith(HEADER + "\n")
    hf = library_tokenizer(tmp_path / "out")
    for text in TEXTS + [TEXT]:
        assert hf.encode(text).ids == list(tok.encode(text, allow_special=True).ids), text


@pytest.mark.parametrize("mode", [m for m in MODES if m not in WITH_SPACES])
def test_round_trip_gives_the_same_merges(mode, tmp_path):
    tok, _ = trained(**MODES[mode])
    save_gpt2(tok, tmp_path / "out")
    for path in ("out", "out/vocab.json", "out/merges.txt"):
        back = load_any(tmp_path / path)
        assert back.merges == tok.merges and back.vocab == tok.vocab
        assert back.encode(TEXT) == tok.encode(TEXT)


@pytest.mark.parametrize("mode", sorted(WITH_SPACES))
def test_tokens_with_spaces_are_refused_naming_tokenizer_json(mode, tmp_path):
    tok, _ = trained(**MODES[mode])
    with pytest.raises(BpeLabError, match="--format hf"):
        save_gpt2(tok, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_folder_without_settings_is_read_as_gpt2(tmp_path):
    tok, _ = trained(units="bytes", split="gpt2", specials=("<|endoftext|>",))
    save_gpt2(tok, tmp_path / "out")
    (tmp_path / "out" / "bpe-lab.json").unlink()
    back = load_gpt2(tmp_path / "out")
    assert back.special_ids == tok.special_ids
    assert back.encode(TEXT).ids == tok.encode(TEXT).ids


@pytest.fixture
def folder(tmp_path):
    tok, _ = trained(units="bytes", split="gpt2")
    save_gpt2(tok, tmp_path / "out")
    return tmp_path / "out"


def test_a_merge_naming_an_absent_token_names_the_line(folder):
    merges = folder / "merges.txt"
    lines = merges.read_text(encoding="utf-8").split("\n")
    lines.insert(5, "Ġzq xv")
    merges.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(BpeLabError, match=r"merges\.txt, line 6: the merge 'Ġzq xv' names 'Ġzq'"):
        load_gpt2(folder)


def test_a_malformed_merge_line_is_named(folder):
    merges = folder / "merges.txt"
    merges.write_text(merges.read_text(encoding="utf-8").replace("\n", "\nx y z\n", 1), encoding="utf-8")
    with pytest.raises(BpeLabError, match=r"line 2: expected two tokens"):
        load_gpt2(folder)


def test_duplicate_ids_are_named(folder):
    path = folder / "vocab.json"
    vocab = json.loads(path.read_text(encoding="utf-8"))
    vocab["Ġ"] = vocab["!"]
    path.write_text(json.dumps(vocab), encoding="utf-8")
    with pytest.raises(BpeLabError, match=r"vocab\.json gives id 0 to both '!' and 'Ġ'"):
        load_gpt2(folder)


def test_truncated_vocab_is_named(folder):
    path = folder / "vocab.json"
    path.write_text(path.read_text(encoding="utf-8")[:500], encoding="utf-8")
    with pytest.raises(BpeLabError, match=r"vocab\.json: not valid JSON \(line \d+"):
        load_gpt2(folder)


def test_a_missing_merges_file_is_named(folder):
    (folder / "merges.txt").unlink()
    with pytest.raises(BpeLabError, match="merges.txt: missing"):
        load_gpt2(folder)
