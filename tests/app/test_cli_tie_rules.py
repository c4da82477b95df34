"""``--tie-break`` takes every rule the engine ranks by, and ``train --where-rules-part`` says where they part."""

import json

import pytest

import app.commands.train
from engine import Corpus, Settings, train
from engine.algorithm.ranking import TIE_BREAKS
from tests.app.cli_run import run

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


@pytest.fixture
def classic_file(tmp_path):
    path = tmp_path / "classic.txt"
    path.write_text(CLASSIC, encoding="utf-8")
    return path


def test_the_parser_names_the_engines_rules():
    assert app.commands.train.TIE_BREAKS == TIE_BREAKS


@pytest.mark.parametrize("rule", TIE_BREAKS)
def test_training_under_each_rule_gives_the_engines_merges(rule, classic_file, tmp_path, capsys):
    history = tmp_path / "history.json"
    status, _, err = run(capsys, "train", classic_file, "--word-counts", "--tie-break", rule, "--merges", 8,
                         "--out", tmp_path / "t.json", "--history", history)
    assert status == 0, err
    _, steps = train(Corpus.from_word_counts(CLASSIC, Settings(tie_break=rule, merges=8)))
    assert [tuple(s["pair"]) for s in json.loads(history.read_text())["steps"]] == [s.pair for s in steps]


def test_an_unknown_rule_is_refused_naming_every_rule(classic_file, tmp_path, capsys):
    status, _, err = run(capsys, "train", classic_file, "--tie-break", "largest", "--out", tmp_path / "t.json")
    assert status == 2 and all(rule in err for rule in TIE_BREAKS)


def test_where_rules_part_prints_a_line_for_each_two_rules(classic_file, capsys):
    status, out, err = run(capsys, "train", classic_file, "--word-counts", "--where-rules-part")
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == len(TIE_BREAKS) * (len(TIE_BREAKS) - 1) // 2
    assert lines[0] == ("first and hf: part at step 2, where 2 pairs tie at 9 (es + t, t + </w>): "
                        "first merges es + t, hf merges t + </w>")


def test_where_rules_part_says_when_rules_never_part(tmp_path, capsys):
    path = tmp_path / "c.txt"
    path.write_text("aab 3\nab 1\n", encoding="utf-8")
    status, out, _ = run(capsys, "train", path, "--word-counts", "--no-end-of-word", "--where-rules-part")
    assert status == 0 and out.splitlines()[0] == "first and hf: never part"


def test_train_needs_a_tokenizer_file_or_where_the_rules_part(classic_file, capsys):
    status, _, err = run(capsys, "train", classic_file)
    assert status == 2 and "--out" in err and "--where-rules-part" in err
    status, _, err = run(capsys, "train", classic_file, "--where-rules-part", "--history", "h.json")
    assert status == 2 and "--history" in err


def test_where_rules_part_as_json_holds_the_engines_facts(classic_file, capsys):
    from engine.lesson.rules_part import where_rules_part

    status, out, err = run(capsys, "train", classic_file, "--word-counts", "--where-rules-part", "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    expected = where_rules_part(Corpus.from_word_counts(CLASSIC, Settings()))
    assert [tuple(d["rules"]) for d in data] == list(expected)
    first_hf = data[0]
    assert first_hf == {"rules": ["first", "hf"], "step": 2, "count": 9, "tied": [["es", "t"], ["t", "</w>"]],
                        "merges": {"first": ["es", "t"], "hf": ["t", "</w>"]}}
    for d, parting in zip(data, expected.values()):
        assert d["step"] == parting.step and [tuple(p) for p in d["tied"]] == list(parting.tied)


def test_where_rules_part_as_json_says_null_where_rules_never_part(tmp_path, capsys):
    path = tmp_path / "c.txt"
    path.write_text("aab 3\nab 1\n", encoding="utf-8")
    status, out, _ = run(capsys, "train", path, "--word-counts", "--no-end-of-word", "--where-rules-part", "--json")
    assert status == 0
    assert json.loads(out)[0] == {"rules": ["first", "hf"], "step": None, "count": None, "tied": [], "merges": None}


def test_json_without_where_rules_part_says_to_give_it(classic_file, tmp_path, capsys):
    status, out, err = run(capsys, "train", classic_file, "--out", tmp_path / "t.json", "--json")
    assert status == 2 and out == "" and "--where-rules-part" in err
    assert not (tmp_path / "t.json").exists()
