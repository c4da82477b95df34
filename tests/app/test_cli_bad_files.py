"""Each bad input the hardening sweep found gives exit 2 and one line saying what is wrong, never a
traceback; through the Python API the same problem is a ``BpeLabError``."""

import json
import os

import pytest

from app.cli import main
from tests.app.cli_run import run
from engine.errors import BpeLabError
from engine.lesson_io.loading import load_any
from engine.quiz import load_pack

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"



def one_line(status, err, *words):
    assert status == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bpe-lab: "), err
    for word in words:
        assert word in lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Well-formed files of each kind, written by the CLI."""
    root = tmp_path_factory.mktemp("good")
    (root / "c.txt").write_text(CLASSIC)
    for name, extra in (("chars.json", []), ("bytes.json", ["--units", "bytes"])):
        assert main(["train", str(root / "c.txt"), "--word-counts", "--merges", "5", "--out", str(root / name), *extra]) == 0
    assert main(["export", str(root / "chars.json"), "--format", "hf", "--out", str(root / "hf.json")]) == 0
    assert main(["train", str(root / "c.txt"), "--word-counts", "--merges", "5", "--units", "bytes",
                 "--format", "tiktoken", "--out", str(root / "t.tiktoken")]) == 0
    return root


def edited(files, tmp_path, name, change, new_name=None):
    """A copy of one of ``files`` with ``change`` applied to its JSON."""
    data = json.loads((files / name).read_text(encoding="utf-8"))
    change(data)
    out = tmp_path / (new_name or name)
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def settings(**values):
    return lambda d: d["settings"].update(values)


TOKENIZER_FILES = {
    "special_tokens a number": ("chars.json", settings(special_tokens=5), "settings.special_tokens must be a list"),
    "special_tokens of numbers": ("chars.json", settings(special_tokens=[1, 2]), "settings.special_tokens must be a list"),
    "end_of_word a number": ("chars.json", settings(end_of_word=5), "settings.end_of_word must be a marker text"),
    "end_of_word a list": ("chars.json", settings(end_of_word=["x"]), "settings.end_of_word must be a marker text"),
    "lowercase a word": ("chars.json", settings(lowercase="yes"), "settings.lowercase must be true or false"),
    "vocab_size past the limit": ("chars.json", settings(vocab_size=3_000_000_000), "settings.vocab_size must be"),
    "settings a list": ("chars.json", lambda d: d.update(settings=[1]), "settings must be a JSON object"),
    "misspelt setting": ("chars.json", settings(lowercasse=True), "unknown key(s) in settings"),
    "marker not in base": ("chars.json", lambda d: d["base_vocabulary"].remove("</w>"),
                           "the end-of-word marker '</w>' is not in the base vocabulary"),
    "bytes with a 2-token base": ("bytes.json", lambda d: d.update(base_vocabulary=d["base_vocabulary"][:2], merges=[]),
                                  "lacks 254 of them"),
    "merge not a pair": ("chars.json", lambda d: d["merges"].append(["a"]), "merge 6 must be a pair of tokens"),
    "Replace normalizer, decoder a text": (
        "hf.json", lambda d: d.update(decoder="x"), "decoder must be a JSON object"),
    "decoders a text": ("hf.json", lambda d: d.update(decoder={"type": "Sequence", "decoders": "abc"}),
                        "decoder.decoders must be a list"),
    "unk_token a list": ("hf.json", lambda d: d["model"].update(unk_token=["<unk>"]), "model.unk_token must be a text"),
    "added token id a text": ("hf.json", lambda d: d["added_tokens"].append({"id": "7", "content": "<s>"}),
                              "added_tokens[0].id must be a whole number"),
}


@pytest.mark.parametrize("case", sorted(TOKENIZER_FILES))
def test_a_tokenizer_file_with_a_wrong_value(case, files, tmp_path, capsys):
    name, change, words = TOKENIZER_FILES[case]
    path = edited(files, tmp_path, name, change)
    line = one_line(*run(capsys, "encode", "--tokenizer", path, "low")[::2], words)
    assert str(path) in line
    with pytest.raises(BpeLabError, match="^" + str(path)):
        load_any(path)


SIDECARS = {
    "special_tokens a text": (lambda d: d.update(special_tokens="abc"), "special_tokens must be an object of token: id"),
    "special_tokens a list": (lambda d: d.update(special_tokens=["<s>"]), "special_tokens must be an object"),
    "special id a text": (lambda d: d.update(special_tokens={"<s>": "300"}), 'special_tokens["<s>"] must be a whole number'),
    "special id on a rank": (lambda d: d.update(special_tokens={"<s>": 5}), "has id 5, which is the rank of"),
    "pat_str not a pattern": (lambda d: d.update(pat_str="(("), "pat_str is not a regular expression"),
    "settings a number": (lambda d: d.update(settings=5), "settings must be a JSON object"),
    "settings in chars": (lambda d: d["settings"].update(units="chars"), "settings.units must be bytes"),
}


@pytest.mark.parametrize("case", sorted(SIDECARS))
def test_a_tiktoken_sidecar_with_a_wrong_value(case, files, tmp_path, capsys):
    change, words = SIDECARS[case]
    (tmp_path / "t.tiktoken").write_bytes((files / "t.tiktoken").read_bytes())
    edited(files, tmp_path, "t.tiktoken.json", change)
    one_line(*run(capsys, "encode", "--tokenizer", tmp_path / "t.tiktoken", "low")[::2], "t.tiktoken.json", words)


def test_a_special_id_on_a_rank_is_refused_not_given_two_meanings(files, tmp_path):
    (tmp_path / "t.tiktoken").write_bytes((files / "t.tiktoken").read_bytes())
    edited(files, tmp_path, "t.tiktoken.json", lambda d: d.update(special_tokens={"<s>": 5}))
    with pytest.raises(BpeLabError, match="give it an id of its own"):
        load_any(tmp_path / "t.tiktoken")


def test_a_csv_field_past_the_csv_limit(files, tmp_path, capsys):
    out = tmp_path / "v.csv"
    assert main(["export", str(files / "chars.json"), "--format", "csv", "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace(",base,", "," + "a" * 140_000 + ",", 1)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one_line(*run(capsys, "encode", "--tokenizer", out, "low")[::2], "v.csv, line 4", "field larger than field limit")


@pytest.mark.parametrize("settings_line, words", [
    ("5", "settings must be a JSON object"),
    ("[1]", "settings must be a JSON object"),
    ('{"special_tokens": [1]}', "settings.special_tokens must be a list"),
    ('{"min_frequency": ' + "9" * 5000 + "}", "a number of 5,000 digits"),
    ("[" * 100_000, "nested too deep"),
])
def test_a_csv_settings_line_with_a_wrong_value(tmp_path, capsys, settings_line, words):
    out = tmp_path / "v.csv"
    out.write_text("# BPE Lab vocabulary; settings: " + settings_line + "\nid,token\n", encoding="utf-8")
    one_line(*run(capsys, "encode", "--tokenizer", out, "low")[::2], "v.csv, line 1", words)


def quiz(questions):
    return {"format": "bpe-lab-quiz", "version": 1, "questions": questions}


NUMBER = {"id": "n", "kind": "number", "prompt": "How many?", "answer": 9}


@pytest.mark.parametrize("text, words", [
    (json.dumps(quiz([dict(NUMBER, wrong=5)])), '"wrong" must be a list'),
    (json.dumps(quiz([dict(NUMBER, answer=10**400)])), '"answer" must be a number from'),
    (json.dumps(quiz([NUMBER])).replace("9}", "NaN}"), "NaN is not a number JSON allows"),
    (json.dumps(quiz([NUMBER])).replace('"answer": 9', '"answer": 9, "answer": 2'), 'the key "answer" appears twice'),
    (json.dumps(quiz([{"id": "f", "kind": "fill", "prompt": "?", "text": "[[" + "9" * 4301 + "]]", "blanks": ["x"]}])),
     "the text has gaps [[999999999...]]"),
    (json.dumps(quiz([dict(NUMBER, prompt="![tiles](tiles%00.png)")])), "holds a NUL character"),
])
def test_a_quiz_pack_with_a_wrong_value(tmp_path, capsys, text, words):
    path = tmp_path / "pack.json"
    path.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "quiz", "check", path)
    line = one_line(status, err, "pack.json: ")
    assert words in out or words in line


def test_a_worked_example_that_is_not_an_object_is_a_problem_not_a_crash(tmp_path):
    path = tmp_path / "pack.json"
    path.write_text(json.dumps(dict(quiz([NUMBER]), examples=[5])), encoding="utf-8")
    pack = load_pack(path)
    assert [q.id for q in pack.questions] == ["n"]
    assert pack.errors == (f"{path}: worked example 'example-1': a worked example must be a JSON object (it is 5)",)


def test_a_markdown_block_with_a_huge_number_is_a_problem_of_that_question(tmp_path):
    path = tmp_path / "pack.md"
    block = '{"type": "number", "answer": ' + "9" * 5000 + "}"
    path.write_text(f'---\nkind: "question"\nid: "q"\nlabels: [[[[1e400]]]]\n---\nHow many?\n\n```json\n{block}\n```\n')
    pack = load_pack(path)
    assert pack.questions == ()
    assert "a number of 5,000 digits" in pack.errors[0]


@pytest.mark.parametrize("command", [
    ["encode", "--tokenizer", "{name}", "x"],
    ["export", "{name}", "--format", "csv", "--out", "-"],
    ["export", "{good}", "--format", "csv", "--out", "{name}"],
])
def test_a_name_longer_than_255_characters(files, tmp_path, capsys, command):
    name = str(tmp_path / ("a" * 300))
    argv = [a.format(name=name, good=files / "chars.json") for a in command]
    one_line(*run(capsys, *argv)[::2], "too long")


@pytest.mark.parametrize("tokenizer, extra", [("cl100k", []), ("bytes.json", []), ("chars.json", ["--trace"])])
def test_an_argument_that_is_not_utf8(files, capsys, tokenizer, extra):
    # how Python hands over the bytes b"caf\xe9" of a command line
    text = b"caf\xe9".decode("utf-8", "surrogateescape")
    name = tokenizer if tokenizer == "cl100k" else files / tokenizer
    one_line(*run(capsys, "encode", "--tokenizer", name, *extra, text)[::2], "not UTF-8 (byte 0xE9 at position 3)")


@pytest.mark.parametrize("command", [
    ["encode", "--tokenizer", "{special}", "x"],
    ["export", "{special}", "--format", "csv", "--out", "-"],
    ["train", "{special}", "--out", "{tmp}/t.json"],
    ["quiz", "check", "{special}"],
])
@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_special_files_are_refused_at_once(tmp_path, capsys, command, special):
    if special == "fifo":
        special = tmp_path / "pipe"
        os.mkfifo(special)
    argv = [a.format(special=special, tmp=tmp_path) for a in command]
    one_line(*run(capsys, *argv)[::2], "not a regular file")


def test_word_counts_past_64_bits(tmp_path, capsys):
    path = tmp_path / "counts.txt"
    path.write_text("low 99999999999999999999999\n")
    one_line(*run(capsys, "train", path, "--word-counts", "--out", tmp_path / "t.json")[::2], "line 1", "too large")


def test_a_line_break_a_file_puts_in_a_message_is_shown_escaped(files, tmp_path, capsys):
    path = edited(files, tmp_path, "chars.json", lambda d: d["base_vocabulary"].append("a\nb"))
    with pytest.raises(BpeLabError, match="holds 'a\nb'"):
        load_any(path)
    one_line(*run(capsys, "encode", "--tokenizer", path, "low")[::2], r"holds 'a\nb'")
