"""Exports are checked in their library before writing: a file that would disagree is never written."""

import pytest

from engine.errors import BpeLabError
from engine.formats import hf, tiktoken_file
from engine.formats.gpt2 import save_gpt2
from engine.formats.verify import check_text
from tests.engine.formats.samples import trained


def _wrong_split(settings, mark, stray):
    # the gpt2 pattern where gpt4's belongs: digits and contractions then split otherwise
    parts = REAL_PIPELINE(settings, mark, stray)
    parts["pre_tokenizer"]["pretokenizers"][0] = hf._split_node("gpt2")
    return parts


REAL_PIPELINE = hf.pipeline


@pytest.mark.parametrize("save, name", [(hf.save_hf, "t.json"), (save_gpt2, "folder")])
def test_a_pipeline_that_disagrees_is_caught_and_nothing_written(save, name, tmp_path, monkeypatch):
    tok, _ = trained("I'll pay 12345 dollars, they've 678 " * 3, units="bytes", split="gpt4")
    monkeypatch.setattr(hf, "pipeline", _wrong_split)
    import engine.formats.gpt2 as gpt2

    monkeypatch.setattr(gpt2, "pipeline", _wrong_split)
    with pytest.raises(BpeLabError, match="checked in tokenizers.*nothing was written"):
        save(tok, tmp_path / name)
    assert not list(tmp_path.iterdir())


def test_a_tiktoken_pattern_that_disagrees_is_caught(tmp_path, monkeypatch):
    tok, _ = trained("I'll pay 12345 dollars, they've 678 " * 3, units="bytes", split="gpt4")
    monkeypatch.setitem(tiktoken_file.PATTERNS, "gpt4", tiktoken_file.PATTERNS["gpt2"])
    with pytest.raises(BpeLabError, match="checked in tiktoken"):
        tiktoken_file.save_tiktoken(tok, tmp_path / "t.tiktoken")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("settings", [dict(), dict(units="bytes", split="gpt2")])
def test_the_check_text_reaches_every_learned_token(settings):
    tok, _ = trained("low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3, merges=12, **settings)
    text = check_text(tok)
    used = set(tok.encode(text).ids)
    learned = {tok.token_to_id(a + b) for a, b in tok.merges}
    assert learned <= used


def _added_tokens_not_special(real):
    def data(tokenizer):
        out = real(tokenizer)
        for added in out["added_tokens"]:
            added["special"] = False  # then even encode_special_tokens matches them whole
        return out
    return data


def test_tokenizers_matches_special_token_text_by_default_and_as_text_with_its_switch():
    from tokenizers import Tokenizer as Library

    tok, _ = trained(specials=("<|endoftext|>",))
    library = Library.from_str(hf.tokenizer_json(tok))
    text = "low<|endoftext|>er"
    special = tok.special_ids["<|endoftext|>"]
    assert special in library.encode(text).ids and library.encode(text).ids == tok.encode_ids(text, allow_special=True)
    assert special not in tok.encode_ids(text)
    library.encode_special_tokens = True
    assert library.encode(text).ids == tok.encode_ids(text)


def test_a_tokenizer_json_that_matches_special_tokens_in_ordinary_text_is_caught(tmp_path, monkeypatch):
    tok, _ = trained(specials=("<|endoftext|>",))
    monkeypatch.setattr(hf, "tokenizer_json_data", _added_tokens_not_special(hf.tokenizer_json_data))
    with pytest.raises(BpeLabError, match="checked in tokenizers with special-token text as ordinary text"):
        hf.save_hf(tok, tmp_path / "t.json")
    assert not list(tmp_path.iterdir())


def test_a_tiktoken_file_is_checked_in_both_modes(tmp_path, monkeypatch):
    import tiktoken

    tok, _ = trained("I'll pay 12345 dollars " * 3, units="bytes", split="gpt4", specials=("<|endoftext|>",))
    monkeypatch.setattr(tiktoken.Encoding, "encode_ordinary", lambda self, text: self.encode(text, allowed_special="all"))
    with pytest.raises(BpeLabError, match="checked in tiktoken with special-token text as ordinary text"):
        tiktoken_file.save_tiktoken(tok, tmp_path / "t.tiktoken")
    assert not list(tmp_path.iterdir())
