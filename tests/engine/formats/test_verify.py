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
