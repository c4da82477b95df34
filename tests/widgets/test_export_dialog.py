"""File > Export vocabulary…: each format written from the window and proven with BPE Lab's reader
and the library it targets; refusals before anything is written, naming the formats that can."""

import json

import pytest

from app.session import Session
from engine.formats.load import load_any
from engine.formats.proof import Proof
from engine.lesson import Lesson
from engine.settings import Settings
from tests.engine.formats.samples import TEXTS, TRAINING
from widgets.export_dialog import ExportDialog, format_names
from widgets.worker import wait_for_workers

HELD_OUT = " ".join(TEXTS[:4])


def dialog_for(qtbot, step=None, **settings):
    session = Session(Lesson(TRAINING, settings=Settings(**settings), held_out=HELD_OUT))
    session.request_step(session.last_step // 2 if step is None else step)
    dialog = ExportDialog(session)
    qtbot.addWidget(dialog)
    return dialog


def run_export(qtbot, dialog, path):
    with qtbot.waitSignal(dialog.proved, timeout=60_000) as proved:
        assert dialog.export_to(path) is not None
    wait_for_workers()
    return proved.args[0]


def out_path(tmp_path, fmt):
    return tmp_path / {"gpt2": "gpt2-folder", "tiktoken": "lesson.tiktoken"}.get(fmt, f"out-{fmt}.json")


@pytest.mark.parametrize("fmt, units, library", [
    ("hf", "chars", "tokenizers"), ("gpt2", "chars", "tokenizers"), ("hf", "bytes", "tokenizers"),
    ("tiktoken", "bytes", "tiktoken"), ("csv", "chars", None), ("bpelab", "bytes", None),
])
def test_each_format_is_written_and_proven_by_every_reader_on_both_texts(qtbot, tmp_path, fmt, units, library):
    split = {"split": "gpt4"} if units == "bytes" else {}
    dialog = dialog_for(qtbot, units=units, **split)
    dialog.choose_format(fmt)
    assert dialog.export_button.isEnabled(), dialog.verdict.text()
    path = out_path(tmp_path, fmt)
    report = run_export(qtbot, dialog, path)
    readers = {p.reader for p in report.proofs}
    assert readers == ({"BPE Lab's reader", library} if library else {"BPE Lab's reader"})
    assert {p.text_name for p in report.proofs} == {"your text", "the held-out text"}
    assert report.proven and report.missing is None
    # the file holds the step the lesson is at, and the ids counted are the lesson's own on its text
    session = dialog.session
    tokenizer = session.lesson.tokenizer_at(session.step)
    expected = len(tokenizer.encode_ids(TRAINING, allow_special=True))
    assert any(p.ids == expected and p.text_name == "your text" for p in report.proofs)
    assert load_any(path).encode_ids(HELD_OUT) == tokenizer.encode_ids(HELD_OUT)
    shown = dialog.report.text()
    assert f"gives the same {expected:,} ids on your text" in shown
    if library:
        assert f"{library} gives the same" in shown


def test_the_end_exports_every_merge(qtbot, tmp_path):
    dialog = dialog_for(qtbot, step=1)
    dialog.end_button.setChecked(True)
    run_export(qtbot, dialog, tmp_path / "tokenizer.json")
    merges = json.loads((tmp_path / "tokenizer.json").read_text(encoding="utf-8"))["model"]["merges"]
    assert len(merges) == dialog.session.last_step > 1


@pytest.mark.parametrize("fmt, settings, reason, can", [
    ("tiktoken", {}, "holds byte tokens", ["Hugging Face tokenizer.json", "BPE Lab tokenizer file"]),
    ("hf", {"lowercase": True}, "lowercase", ["BPE Lab tokenizer file"]),
    ("gpt2", {"split": "none", "end_of_word": None}, "merges.txt cannot write", ["Hugging Face tokenizer.json"]),
])
def test_a_format_that_cannot_hold_the_lesson_is_refused_before_writing(qtbot, tmp_path, fmt, settings, reason, can):
    dialog = dialog_for(qtbot, step=0 if fmt != "gpt2" else None, **settings)
    if fmt == "gpt2":
        dialog.end_button.setChecked(True)
    dialog.choose_format(fmt)
    verdict = dialog.verdict.text()
    assert not dialog.export_button.isEnabled()
    assert reason in verdict and "cannot hold this lesson" in verdict
    assert all(name in verdict for name in can), verdict
    assert "--format" not in verdict  # the window names formats as its own buttons do
    path = out_path(tmp_path, fmt)
    assert dialog.export_to(path) is None
    assert not path.exists()


def test_a_library_that_gives_other_ids_is_reported_with_the_first_difference(qtbot, tmp_path, monkeypatch):
    import engine.formats.proof as proof

    real = proof._library_encode

    def off_by_one_at_five(fmt, path):
        encode = real(fmt, path)
        return lambda text: [i + (k == 5) for k, i in enumerate(encode(text))]

    monkeypatch.setattr(proof, "_library_encode", off_by_one_at_five)
    dialog = dialog_for(qtbot)
    report = run_export(qtbot, dialog, tmp_path / "tokenizer.json")
    assert not report.proven
    wrong = [p for p in report.proofs if p.reader == "tokenizers"]
    assert wrong and all(p.position == 5 and p.got[0] == p.expected[0] + 1 for p in wrong)
    assert "Not proven" in dialog.report.text()
    assert "tokenizers differs on your text from token 5 on: expected [" in dialog.report.text()


def test_without_the_library_the_report_says_so(qtbot, tmp_path, monkeypatch):
    import engine.formats.proof as proof

    def not_installed(fmt, path):
        raise ImportError("tokenizers")

    monkeypatch.setattr(proof, "_library_encode", not_installed)
    dialog = dialog_for(qtbot)
    report = run_export(qtbot, dialog, tmp_path / "tokenizer.json")
    assert report.missing == "tokenizers" and {p.reader for p in report.proofs} == {"BPE Lab's reader"}
    assert "tokenizers is not installed here" in dialog.report.text()


def test_a_failed_write_is_reported_and_the_dialog_is_usable_again(qtbot, tmp_path):
    dialog = dialog_for(qtbot)
    with qtbot.waitSignal(dialog.failed, timeout=60_000) as failed:
        dialog.export_to(tmp_path / "no-such-folder" / "tokenizer.json")
    wait_for_workers()
    qtbot.waitUntil(lambda: dialog.worker is None)
    assert failed.args[0].startswith("Nothing was written")
    assert dialog.export_button.isEnabled() and dialog.progress.isHidden()


def test_refusals_name_formats_as_the_dialog_does():
    assert format_names("export with --format hf or gpt2, which keep the merge list") == (
        "export with Hugging Face tokenizer.json or GPT-2 vocab.json + merges.txt, which keep the merge list")
    assert format_names("export with --format bpelab") == "export with BPE Lab tokenizer file"


def test_the_proof_sentence_counts_in_words_people_read():
    assert Proof("tiktoken", "your text", 1234).sentence() == "tiktoken gives the same 1,234 ids on your text"
    assert Proof("tokenizers", "your text", 1, 0, (7,), ()).sentence() == (
        "tokenizers differs on your text from token 0 on: expected [7], got []")
