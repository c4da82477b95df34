"""``bpe-lab train --format``, ``bpe-lab export`` and ``--tokenizer`` in every format, from the command line."""

import json

import pytest

from tests.app.cli_run import run
from engine.formats.lesson_file import LessonFile, save_lesson
from tests.engine.formats.samples import TEXTS, TRAINING

SAMPLE = " ".join(TEXTS[:8])



def ids(capsys, tokenizer, text=SAMPLE):
    code, out, err = run(capsys, "encode", "--tokenizer", tokenizer, "--json", text)
    assert code == 0, err
    return json.loads(out)["ids"]


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text(TRAINING, encoding="utf-8")
    return path


TRAIN_OPTIONS = ["--merges", "120", "--special", "<|endoftext|>", "--special", "<|im_start|>", "--special", "<|im_end|>"]


@pytest.mark.parametrize("units, formats", [("chars", ["hf", "gpt2", "csv"]), ("bytes", ["hf", "gpt2", "tiktoken", "csv"])])
def test_train_writes_each_format_and_encode_reads_it(units, formats, corpus, tmp_path, capsys):
    split = ["--split", "gpt4"] if units == "bytes" else []
    own = tmp_path / "own.json"
    assert run(capsys, "train", corpus, "--out", own, "--units", units, *split, *TRAIN_OPTIONS)[0] == 0
    expected = ids(capsys, own)
    assert expected
    for fmt in formats:
        out = tmp_path / f"out-{fmt}"
        if fmt == "tiktoken":
            out = tmp_path / "out.tiktoken"
        code, _, err = run(capsys, "train", corpus, "--out", out, "--format", fmt, "--units", units, *split, *TRAIN_OPTIONS)
        assert code == 0, err
        assert ids(capsys, out) == expected, fmt


def test_decode_reads_a_tokenizer_json(corpus, tmp_path, capsys):
    out = tmp_path / "tokenizer.json"
    run(capsys, "train", corpus, "--out", out, "--format", "hf", "--units", "bytes", "--split", "gpt2")
    encoded = ids(capsys, out, "héllo wörld 🙂")
    code, text, _ = run(capsys, "decode", "--tokenizer", out, *encoded)
    assert code == 0 and text == "héllo wörld 🙂\n"


def test_export_a_lesson_at_its_step_with_counts(tmp_path, capsys):
    lesson = tmp_path / "class.bpelab"
    save_lesson(LessonFile("low 5\nlower 2\nnewest 6\nwidest 3\n", word_counts=True, step=5), lesson)
    code, _, err = run(capsys, "export", lesson, "--format", "csv", "--out", tmp_path / "v.csv")
    assert code == 0, err
    lines = (tmp_path / "v.csv").read_text(encoding="utf-8").splitlines()
    merges = [line.split(",") for line in lines[2:] if ",merge," in line]
    assert [(m[1], m[-1]) for m in merges] == [("es", "9"), ("est", "9"), ("est</w>", "9"), ("lo", "7"), ("low", "7")]
    assert run(capsys, "export", lesson, "--format", "hf", "--out", tmp_path / "t.json")[0] == 0
    code, out, _ = run(capsys, "encode", "--tokenizer", tmp_path / "t.json", "lowest")
    assert out.startswith("low | est</w>")


@pytest.mark.slow
def test_export_between_formats_and_from_cl100k(corpus, tmp_path, capsys):
    run(capsys, "train", corpus, "--out", tmp_path / "t.json", "--format", "hf", "--units", "bytes", "--split", "gpt2")
    assert run(capsys, "export", tmp_path / "t.json", "--format", "gpt2", "--out", tmp_path / "folder")[0] == 0
    assert ids(capsys, tmp_path / "folder") == ids(capsys, tmp_path / "t.json")
    assert run(capsys, "export", "cl100k", "--format", "tiktoken", "--out", tmp_path / "cl.tiktoken")[0] == 0
    assert ids(capsys, tmp_path / "cl.tiktoken") == ids(capsys, "cl100k")


def one_line_error(code, out, err, *needles):
    assert code == 2
    assert out == ""
    assert err.startswith("bpe-lab: ") and err.count("\n") == 1, err
    for needle in needles:
        assert needle in err, err


@pytest.fixture
def hf_file(corpus, tmp_path, capsys):
    path = tmp_path / "tokenizer.json"
    run(capsys, "train", corpus, "--out", path, "--format", "hf", "--units", "bytes", "--split", "gpt2", "--merges", "50")
    return path


def test_bad_inputs_exit_2_with_one_line(hf_file, tmp_path, capsys):
    text = hf_file.read_text(encoding="utf-8")
    truncated = tmp_path / "cut.json"
    truncated.write_text(text[:1000], encoding="utf-8")
    one_line_error(*run(capsys, "encode", "--tokenizer", truncated, "x"), "cut.json", "not valid JSON (line")

    data = json.loads(text)
    data["model"]["merges"].append(["Ġnope", "x"])
    absent = tmp_path / "absent.json"
    absent.write_text(json.dumps(data), encoding="utf-8")
    one_line_error(*run(capsys, "encode", "--tokenizer", absent, "x"), "absent.json", "model.merges[50]", "'Ġnope'")

    data = json.loads(text)
    data["model"]["vocab"]["Ġ"] = 0
    dup = tmp_path / "dup.json"
    dup.write_text(json.dumps(data), encoding="utf-8")
    one_line_error(*run(capsys, "export", dup, "--format", "csv", "--out", tmp_path / "x.csv"), "dup.json", "id 0")

    bad64 = tmp_path / "bad.tiktoken"
    bad64.write_text("IQ== 0\n@@@ 1\n")
    one_line_error(*run(capsys, "encode", "--tokenizer", bad64, "x"), "bad.tiktoken, line 2", "base64")

    lesson = tmp_path / "future.bpelab"
    lesson.write_text(json.dumps({"format": "bpe-lab-lesson", "version": 7, "corpus": {"text": "a"}}))
    one_line_error(*run(capsys, "export", lesson, "--format", "hf", "--out", tmp_path / "y.json"), "future.bpelab", "version 7")

    binary = tmp_path / "image.bin"
    binary.write_bytes(bytes(range(256)))
    one_line_error(*run(capsys, "encode", "--tokenizer", binary, "x"), "image.bin", "binary")
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "y.json").exists()


def test_a_refused_export_writes_nothing(corpus, tmp_path, capsys):
    code, out, err = run(capsys, "train", corpus, "--out", tmp_path / "t.tiktoken", "--format", "tiktoken", "--merges", "20")
    one_line_error(code, out, err, "--units bytes")
    assert [p.name for p in tmp_path.iterdir()] == ["corpus.txt"]


def test_a_read_only_folder_is_reported_and_the_old_file_kept(hf_file, tmp_path, capsys, monkeypatch):
    import engine.files.writing

    target = tmp_path / "keep.json"
    target.write_text("old contents")

    def read_only(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    # the tests run as a user who may write anywhere, so the folder's refusal is imitated
    monkeypatch.setattr(engine.files.writing, "_create_temp", read_only)
    for fmt, out in (("hf", target), ("gpt2", tmp_path), ("tiktoken", tmp_path / "keep.tiktoken")):
        code, stdout, err = run(capsys, "export", hf_file, "--format", fmt, "--out", out)
        one_line_error(code, stdout, err, "permission denied", "choose another folder")
    assert target.read_text() == "old contents"
    assert not (tmp_path / "keep.tiktoken").exists() and not (tmp_path / "vocab.json").exists()


def test_cl100k_cannot_become_a_merge_list_file_and_says_which_formats_can(tmp_path, capsys):
    code, out, err = run(capsys, "export", "cl100k", "--format", "hf", "--out", tmp_path / "t.json")
    one_line_error(code, out, err, "--format tiktoken or csv")
    assert not list(tmp_path.iterdir())


def test_one_file_formats_print_on_standard_output(hf_file, tmp_path, capsys):
    code, out, err = run(capsys, "export", hf_file, "--format", "csv", "--out", "-")
    assert code == 0, err
    run(capsys, "export", hf_file, "--format", "csv", "--out", tmp_path / "v.csv")
    assert out == (tmp_path / "v.csv").read_text(encoding="utf-8")
    one_line_error(*run(capsys, "export", hf_file, "--format", "gpt2", "--out", "-"), "more than one file")


@pytest.mark.slow
def test_every_csv_the_cli_writes_reads_back_with_the_same_ids(tmp_path, capsys):
    # the marker's string is also spelt by letters: a merge makes it again, and its row says so
    counts = tmp_path / "c.txt"
    counts.write_text("a 9\n</w> 2\n", encoding="utf-8")
    code, _, err = run(capsys, "train", counts, "--word-counts", "--merges", 4, "--format", "csv", "--out", tmp_path / "c.csv")
    assert code == 0, err
    run(capsys, "train", counts, "--word-counts", "--merges", 4, "--out", tmp_path / "c.json")
    for text in ("a", "a </w> </w>a"):
        assert ids(capsys, tmp_path / "c.csv", text) == ids(capsys, tmp_path / "c.json", text)
    # cl100k's ids have gaps where no token was published: they read back as ranks
    assert run(capsys, "export", "cl100k", "--format", "csv", "--out", tmp_path / "cl.csv")[0] == 0
    text = "hello wörld 🙂 <|endoftext|>  \n\t12345"
    assert ids(capsys, tmp_path / "cl.csv", text) == ids(capsys, "cl100k", text)
