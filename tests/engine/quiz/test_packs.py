"""The JSON pack format, the bundled pack, and `bpe-lab quiz check`."""

import json

import pytest

from app.cli import main
from engine.errors import BpeLabError
from engine.quiz import grade, load_pack, pack_from_data, pack_to_data
from engine.quiz.packs import FORMAT
from engine.quiz.questions import ChooseQuestion, FillQuestion, NumberQuestion, OrderQuestion
from resources.quiz import bundled_pack


def small_pack(questions, misconceptions=()):
    return {"format": FORMAT, "version": 1, "title": "t", "misconceptions": list(misconceptions), "questions": questions}


def test_json_pack_reads_every_kind_and_keeps_the_good_ones():
    data = small_pack(
        [
            {"id": "n", "kind": "number", "prompt": "How many?", "answer": 9, "wrong": [{"answer": 2, "misconception": "w"}]},
            {"id": "c", "kind": "choose", "prompt": "Which?", "options": [{"text": "a", "correct": True}, {"text": "b"}]},
            {"id": "f", "kind": "fill", "text": "x [[1]]", "blanks": [["y"]]},
            {"id": "o", "kind": "order", "prompt": "Order", "items": ["1", "2"]},
            {"id": "bad", "kind": "choose", "prompt": "Which?", "options": [{"text": "a"}, {"text": "b"}]},
            {"id": "two", "kind": "choose", "prompt": "Which?",
             "options": [{"text": "a", "correct": True}, {"text": "b", "correct": True}]},
            {"id": "odd", "kind": "essay", "prompt": "Write"},
        ],
        [{"id": "w", "title": "Each word counts once", "text": "why", "fix": "how"}],
    )
    pack = pack_from_data(data, "class.json")
    assert [q.id for q in pack.questions] == ["n", "c", "f", "o"]
    assert [type(q) for q in pack.questions] == [NumberQuestion, ChooseQuestion, FillQuestion, OrderQuestion]
    assert len(pack.errors) == 3
    assert all(e.startswith("class.json: question '") for e in pack.errors)
    assert "'bad'" in pack.errors[0] and "correct" in pack.errors[0]
    assert "'two'" in pack.errors[1] and "multiple" in pack.errors[1]
    assert "'odd'" in pack.errors[2]
    assert grade(pack.questions[0], "2", pack.misconceptions).misconception.title == "Each word counts once"


def test_unknown_misconception_reference_is_reported():
    data = small_pack([{"id": "n", "kind": "number", "prompt": "?", "answer": 1,
                        "wrong": [{"answer": 2, "misconception": "nowhere"}]}])
    pack = pack_from_data(data, "p.json")
    assert len(pack.questions) == 1
    assert any("nowhere" in e for e in pack.errors)


def test_envelope_errors_are_refused_with_a_reason():
    with pytest.raises(BpeLabError, match="format"):
        pack_from_data({"questions": []}, "x.json")
    with pytest.raises(BpeLabError, match="newer"):
        pack_from_data({"format": FORMAT, "version": 99}, "x.json")


def test_pack_round_trips_through_its_json_form():
    pack = bundled_pack()
    again = pack_from_data(json.loads(json.dumps(pack_to_data(pack))), pack.source)
    assert again.questions == pack.questions
    assert again.misconceptions == pack.misconceptions
    assert again.examples == pack.examples


def test_bundled_pack_is_complete():
    pack = bundled_pack()
    assert pack.errors == ()
    assert len(pack.questions) >= 24
    kinds = {(q.kind, getattr(q, "multiple", None)) for q in pack.questions}
    assert kinds == {("number", None), ("choose", False), ("choose", True), ("fill", None), ("order", None)}
    assert {"token-is-word", "same-tokens-every-language"} <= set(pack.misconceptions)
    for q in pack.questions:
        assert q.hint and q.explanation, q.id
    # every misconception is reachable from some wrong answer
    used = {w.misconception for q in pack.questions for w in getattr(q, "wrong", ())}
    used |= {o.misconception for q in pack.questions for o in getattr(q, "options", ()) if o.misconception}
    assert used == set(pack.misconceptions)
    topics = {label for q in pack.questions for label in q.labels}
    assert {"subwords", "counting", "next merge", "ties", "encoding", "marker", "bytes", "special tokens",
            "limits", "languages", "code", "letters"} <= topics


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_quiz_check_json_contract(tmp_path, capsys):
    data = small_pack([
        {"id": "n", "kind": "number", "prompt": "?", "answer": 9},
        {"id": "c", "kind": "choose", "prompt": "?", "multiple": True,
         "options": [{"text": "a", "correct": True}, {"text": "b", "correct": True}]},
        {"id": "f", "kind": "fill", "text": "[[1]] and [[2]]", "blanks": [["a"], ["b"]]},
        {"id": "o", "kind": "order", "prompt": "?", "items": ["1", "2", "3"]},
        {"id": "broken", "kind": "number", "prompt": "?"},
    ], [{"id": "m", "title": "M"}])
    path = write(tmp_path, "p.json", json.dumps(data))
    assert main(["quiz", "check", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [q["kind"] for q in out["questions"]] == ["number", "choose", "fill", "order"]
    assert out["questions"][0]["answer"] == 9
    assert out["questions"][1]["multiple"] is True
    assert out["questions"][2]["blanks"] == 2
    assert out["questions"][3]["items"] == 3
    assert out["misconceptions"] == ["m"]
    assert len(out["errors"]) == 1 and "broken" in out["errors"][0] and str(path) in out["errors"][0]


def test_quiz_check_text_lists_problems_and_fails_when_nothing_loads(tmp_path, capsys):
    path = write(tmp_path, "empty.json", json.dumps(small_pack([{"id": "x", "kind": "order", "prompt": "?", "items": ["1"]}])))
    assert main(["quiz", "check", str(path)]) == 2
    out = capsys.readouterr().out
    assert "0 questions" in out and "problem:" in out and "'x'" in out


@pytest.mark.parametrize("json_out", [False, True])
def test_quiz_check_of_a_pack_without_questions_says_so_on_stderr(tmp_path, capsys, json_out):
    path = write(tmp_path, "none.json", json.dumps(small_pack([])))
    assert main(["quiz", "check", str(path), *(["--json"] if json_out else [])]) == 2
    out, err = capsys.readouterr()
    assert err == f"bpe-lab: {path}: no question loaded\n"
    assert "no question loaded" not in out
    if json_out:
        assert json.loads(out)["questions"] == []


def test_quiz_check_bad_file_is_one_line(tmp_path, capsys):
    assert main(["quiz", "check", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err
    path = write(tmp_path, "bad.json", "{not json")
    assert main(["quiz", "check", str(path), "--json"]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_quiz_check_reads_markdown(capsys):
    from pathlib import Path

    path = Path(__file__).parent / "data" / "concepts.md"
    assert main(["quiz", "check", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["questions"]) == 5 and out["misconceptions"] == ["token-is-word"]
    assert len(load_pack(path).errors) == len(out["errors"]) == 5
