"""An export written and proven: each reader, on each text, in both of BPE Lab's modes."""

import json

import pytest

from engine.drain import drain
from engine.formats import proof
from engine.formats.load import Source
from tests.child_processes import forkserver_children, gone
from tests.engine.formats.samples import trained

TEXTS = {"your text": "low lower newest<|endoftext|>widest", "the held-out text": "lowest <|endoftext|> newer"}


def test_tokenizer_json_is_proven_in_tokenizers_as_ordinary_text_and_with_special_tokens_whole(tmp_path):
    tok, steps = trained(specials=("<|endoftext|>",))
    report = drain(proof.export_and_prove(Source(tok, steps, "lesson"), "hf", tmp_path / "t.json", TEXTS))
    assert report.proven and report.missing is None
    assert {(p.reader, p.text_name, p.allow_special) for p in report.proofs} == {
        (reader, name, allow) for reader in ("BPE Lab's reader", "tokenizers") for name in TEXTS for allow in (False, True)
    }
    ordinary = next(p for p in report.proofs if p.reader == "tokenizers" and not p.allow_special)
    assert ordinary.sentence().endswith("on your text with special-token text as ordinary text")
    assert ordinary.ids == len(tok.encode_ids(TEXTS["your text"]))


def test_a_file_whose_special_tokens_match_inside_ordinary_text_is_not_proven(tmp_path):
    tok, steps = trained(specials=("<|endoftext|>",))
    path = tmp_path / "t.json"
    drain(proof.export_and_prove(Source(tok, steps, "lesson"), "hf", path, TEXTS))
    data = json.loads(path.read_text(encoding="utf-8"))
    for added in data["added_tokens"]:
        added["special"] = False  # a file from elsewhere: tokenizers then matches it in any text
    path.write_text(json.dumps(data), encoding="utf-8")
    report = drain(proof.prove(tok, "hf", path, TEXTS))
    failed = {(p.reader, p.allow_special) for p in report.proofs if not p.same}
    # BPE Lab's reader matches an added token that is not special as the library does: in any text
    assert not report.proven and failed == {("tokenizers", False), ("BPE Lab's reader", False)}


def test_a_long_text_is_read_in_a_child_process_with_the_same_report(tmp_path, monkeypatch):
    tok, steps = trained(specials=("<|endoftext|>",))
    source = Source(tok, steps, "lesson")
    here = drain(proof.export_and_prove(source, "hf", tmp_path / "here.json", TEXTS))
    monkeypatch.setattr(proof, "IN_CHILD_FROM", 1)  # every text counts as long
    seen = set()
    there = drain(proof.export_and_prove(source, "hf", tmp_path / "there.json", TEXTS,
                                       check=lambda: seen.update(forkserver_children())))
    assert seen  # the readings ran in children
    assert there == here


class Stop(Exception):
    pass


def test_a_stop_while_a_child_reads_ends_the_child(tmp_path, monkeypatch):
    tok, steps = trained(specials=("<|endoftext|>",))
    monkeypatch.setattr(proof, "IN_CHILD_FROM", 1)
    reading = set()

    def check():
        reading.update(forkserver_children())
        if reading:
            raise Stop

    with pytest.raises(Stop):
        drain(proof.export_and_prove(Source(tok, steps, "lesson"), "hf", tmp_path / "t.json", TEXTS, check=check))
    assert all(gone(pid) for pid in reading)
    assert json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))["model"]["type"] == "BPE"  # written whole
