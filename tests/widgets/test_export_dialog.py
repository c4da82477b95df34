"""File > Export vocabulary…: each format written from the window and proven with BPE Lab's reader
and the library it targets; refusals before anything is written, naming the formats that can."""

import json
import threading

import pytest

from app.session import Session
from engine.lesson_io.loading import load_any
from engine.formats.proof import Proof
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from tests.engine.formats.samples import TEXTS, TRAINING
from widgets.export_dialog import ExportDialog, format_names
from widgets.worker import Worker, wait_for_workers

HELD_OUT = " ".join(TEXTS[:4])


def dialog_for(qtbot, step=None, **settings):
    session = Session(Lesson(TRAINING, settings=Settings(**settings), held_out=HELD_OUT))
    session.request_step(session.last_step // 2 if step is None else step)
    dialog = ExportDialog(session)
    qtbot.addWidget(dialog)
    return checked(qtbot, dialog)


def checked(qtbot, dialog):
    """The dialog once every format has been checked for the chosen step (off the GUI thread)."""
    qtbot.waitUntil(lambda: not dialog.checking, timeout=60_000)
    return dialog


def run_export(qtbot, dialog, path):
    checked(qtbot, dialog)
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
    assert f"gives the same {expected:,} ids on your text with special tokens matched whole" in shown
    assert {p.allow_special for p in report.proofs} == {False, True}
    if library:
        assert f"{library} gives the same" in shown
    assert ("set tokenizer.encode_special_tokens = True" in shown) == (fmt == "hf")


def test_the_end_exports_every_merge(qtbot, tmp_path):
    dialog = dialog_for(qtbot, step=1)
    dialog.end_button.setChecked(True)
    run_export(qtbot, dialog, tmp_path / "tokenizer.json")
    merges = json.loads((tmp_path / "tokenizer.json").read_text(encoding="utf-8"))["model"]["merges"]
    assert len(merges) == dialog.session.last_step > 1


@pytest.mark.parametrize("fmt, settings, reason, can", [
    ("tiktoken", {}, "holds byte tokens: set Units to Bytes under Settings in the Corpus panel",
     ["Hugging Face tokenizer.json", "BPE Lab tokenizer file"]),
    ("gpt2", {"lowercase": True}, "lowercasing: untick “lowercase first” under Settings in the Corpus panel",
     ["Hugging Face tokenizer.json", "BPE Lab tokenizer file"]),
    ("hf", {"split": "gpt2", "end_of_word": "</w>"},
     "marker after each gpt2 piece: set End of word to none or set Split to Spaces under Settings in the Corpus panel",
     ["BPE Lab tokenizer file"]),
    ("gpt2", {"split": "none", "end_of_word": None},
     "merges.txt cannot write: export with Hugging Face tokenizer.json, or set Units to Bytes under Settings in "
     "the Corpus panel",
     ["Hugging Face tokenizer.json"]),
])
def test_a_format_that_cannot_hold_the_lesson_is_refused_before_writing(qtbot, tmp_path, fmt, settings, reason, can):
    dialog = dialog_for(qtbot, step=0 if fmt != "gpt2" else None, **settings)
    if fmt == "gpt2":
        dialog.end_button.setChecked(True)
    dialog.choose_format(fmt)
    checked(qtbot, dialog)
    verdict = dialog.verdict.text()
    assert not dialog.export_button.isEnabled()
    assert reason in verdict and "cannot hold this lesson" in verdict
    assert all(name in verdict for name in can), verdict
    # the window names formats as its own buttons do, and settings as the Corpus panel's Settings do
    assert "--" not in verdict
    path = out_path(tmp_path, fmt)
    assert dialog.export_to(path) is None
    assert not path.exists()


def test_a_library_that_gives_other_ids_is_reported_with_the_first_difference(qtbot, tmp_path, monkeypatch):
    import engine.formats.proof as proof

    real = proof._library_encoders

    def off_by_one_at_five(fmt, path):
        encoders = real(fmt, path)
        return {allow: (lambda text, encode=encode: [i + (k == 5) for k, i in enumerate(encode(text))])
                for allow, encode in encoders.items()}

    monkeypatch.setattr(proof, "_library_encoders", off_by_one_at_five)
    dialog = dialog_for(qtbot)
    report = run_export(qtbot, dialog, tmp_path / "tokenizer.json")
    assert not report.proven
    wrong = [p for p in report.proofs if p.reader == "tokenizers"]
    assert wrong and all(p.position == 5 and p.got[0] == p.expected[0] + 1 for p in wrong)
    assert {p.allow_special for p in wrong} == {False, True}
    assert "Not proven" in dialog.report.text()
    assert "tokenizers differs on your text with special tokens matched whole from token 5 on: expected [" in (
        dialog.report.text())


def test_without_the_library_the_report_says_so(qtbot, tmp_path, monkeypatch):
    import engine.formats.proof as proof

    def not_installed(fmt, path):
        raise ImportError("tokenizers")

    monkeypatch.setattr(proof, "_library_encoders", not_installed)
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


def test_a_read_only_file_is_not_replaced_and_the_dialog_says_what_to_do(qtbot, tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text("kept")
    path.chmod(0o444)
    dialog = dialog_for(qtbot)
    dialog.choose_format("hf")
    with qtbot.waitSignal(dialog.failed, timeout=60_000) as failed:
        dialog.export_to(path)
    wait_for_workers()
    assert failed.args[0] == (f"Nothing was written: {path} is read-only, so it was not replaced: "
                              "make it writable, or save under another name")
    assert path.read_text() == "kept"


def test_refusals_name_formats_as_the_dialog_does():
    assert format_names("export with --format hf or gpt2, which keep the merge list") == (
        "export with Hugging Face tokenizer.json or GPT-2 vocab.json + merges.txt, which keep the merge list")
    assert format_names("export with --format bpelab") == "export with BPE Lab tokenizer file"


def test_the_proof_sentence_counts_in_words_people_read():
    assert Proof("tiktoken", "your text", 1234).sentence() == (
        "tiktoken gives the same 1,234 ids on your text with special-token text as ordinary text")
    assert Proof("tokenizers", "your text", 1, 0, (7,), (), allow_special=True).sentence() == (
        "tokenizers differs on your text with special tokens matched whole from token 0 on: expected [7], got []")


def test_formats_are_checked_off_the_gui_thread_showing_checking_until_known(qtbot, monkeypatch):
    import engine.formats.proof as proof

    real, threads = proof.check_export, []

    def recorded(source, fmt):
        threads.append(threading.current_thread())
        return real(source, fmt)

    monkeypatch.setattr(proof, "check_export", recorded)
    session = Session(Lesson(TRAINING, settings=Settings(), held_out=HELD_OUT))
    session.request_step(session.last_step)
    dialog = ExportDialog(session)
    qtbot.addWidget(dialog)
    # nothing is known before the worker's answers arrive (they come as the event loop turns)
    assert dialog.checking and not dialog.export_button.isEnabled()
    assert dialog.verdict.text().startswith("Checking whether Hugging Face tokenizer.json can hold")
    assert all(b.text().endswith("(checking…)") for b in dialog.format_buttons.buttons())
    checked(qtbot, dialog)
    assert len(threads) == 5 and threading.main_thread() not in threads
    assert dialog.export_button.isEnabled() and "holds this lesson" in dialog.verdict.text()
    marks = {b.objectName(): b.text() for b in dialog.format_buttons.buttons()}
    assert marks["tiktoken"].endswith("(cannot hold this lesson)")  # a char-level lesson
    assert marks["hf"] == "Hugging Face tokenizer.json"
    # a step already checked is not checked again
    dialog.choose_format("csv")
    dialog.choose_format("hf")
    assert not dialog.checking and len(threads) == 5


def held(monkeypatch, name):
    """Replace ``engine.formats.proof.<name>`` with one that waits, once called, until released."""
    import engine.formats.proof as proof

    real = getattr(proof, name)
    called, release = threading.Event(), threading.Event()

    def waiting(*args):
        called.set()
        assert release.wait(60)
        return real(*args)

    monkeypatch.setattr(proof, name, waiting)
    return called, release


@pytest.mark.parametrize("during", ["export", "_library_encoders"])
def test_cancel_while_writing_or_proving_leaves_a_whole_file_or_none_and_an_idle_dialog(qtbot, tmp_path, monkeypatch, during):
    called, release = held(monkeypatch, during)
    dialog = dialog_for(qtbot)
    path = tmp_path / "tokenizer.json"
    dialog.export_to(path)
    assert called.wait(60)
    assert dialog.cancel_button.isVisible() or not dialog.isVisible()
    dialog.cancel_button.click()
    release.set()
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=60_000)
    # the write was under way when Cancel came: it ends whole (a file never stops half written)
    assert [p.name for p in tmp_path.iterdir()] == ["tokenizer.json"]
    tokenizer = dialog.session.lesson.tokenizer_at(dialog.session.step)
    assert load_any(path).encode_ids(HELD_OUT) == tokenizer.encode_ids(HELD_OUT)
    assert dialog.report.text() == f"Cancelled after writing: {path} is whole but was not proven."
    assert dialog.progress.isHidden() and dialog.cancel_button.isHidden() and dialog.export_button.isEnabled()


def test_cancel_before_writing_writes_nothing(qtbot, tmp_path, monkeypatch):
    import engine.formats.proof as proof

    dialog = dialog_for(qtbot)
    written = []
    monkeypatch.setattr(proof, "export", lambda *args: written.append(args))
    import widgets.export_dialog as export_dialog

    class StoppedFirst(Worker):
        def start(self):
            self.quit()  # Cancel before the thread runs: the work stops at its first report, before writing
            super().start()

    monkeypatch.setattr(export_dialog, "Worker", StoppedFirst)
    dialog.export_to(tmp_path / "tokenizer.json")
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=60_000)
    assert written == [] and list(tmp_path.iterdir()) == []
    assert dialog.report.text() == "Cancelled before writing: nothing was written."
    assert dialog.progress.isHidden() and dialog.export_button.isEnabled()


def test_choosing_another_step_while_checking_gives_that_step_its_answer(qtbot):
    session = Session(Lesson(TRAINING, settings=Settings(), held_out=HELD_OUT))
    session.request_step(1)
    dialog = ExportDialog(session)
    qtbot.addWidget(dialog)
    assert dialog.checking
    dialog.end_button.setChecked(True)  # before any answer for step 1 has arrived
    checked(qtbot, dialog)
    assert dialog.verdict.text() == f"Hugging Face tokenizer.json holds this lesson at step {session.last_step:,}."
    assert not any(b.text().endswith("(checking…)") for b in dialog.format_buttons.buttons())
    dialog.current_button.setChecked(True)
    checked(qtbot, dialog)
    assert dialog.verdict.text() == "Hugging Face tokenizer.json holds this lesson at step 1."


def test_a_check_that_breaks_refuses_the_formats_it_left_and_is_not_run_again(qtbot, monkeypatch):
    import engine.formats.proof as proof

    calls = []

    def broken(source, fmt):
        calls.append(fmt)
        raise TypeError("a bug")

    monkeypatch.setattr(proof, "check_export", broken)
    dialog = dialog_for(qtbot)
    assert calls == ["hf"]
    assert not dialog.export_button.isEnabled()
    assert "the check failed (TypeError: a bug); please report this" in dialog.verdict.text()


def test_every_setting_a_refusal_can_advise_is_named_as_the_corpus_panels_settings_name_it(qtbot):
    from PySide6.QtWidgets import QFormLayout, QGroupBox

    from engine.formats.refusal import Retrain
    from widgets.corpus_panel import CorpusPanel
    from widgets.export_dialog import LOWERCASE_BOX, PANEL_ROWS, in_corpus_panel, in_window
    from widgets.settings_form import SettingsForm

    panel = CorpusPanel(Session())
    qtbot.addWidget(panel)
    box = next(b for b in panel.findChildren(QGroupBox) if b.title() == "Settings")
    form = box.findChild(SettingsForm)
    assert form.lowercase.text() == LOWERCASE_BOX
    rows = form.findChild(QFormLayout)
    for setting, field in (("split", form.split), ("units", form.units), ("end_of_word", form.marker)):
        assert rows.labelForField(field).text() == PANEL_ROWS[setting][0]
    where = " under Settings in the Corpus panel"
    for setting, (row, choices) in PANEL_ROWS.items():
        for value, label, *_ in choices:
            assert in_corpus_panel(Retrain(setting, value)) == f"set {row} to {label}{where}"
    assert in_corpus_panel(Retrain("lowercase", False)) == f"untick “lowercase first”{where}"
    refusal = ("a .tiktoken file holds byte tokens: ", Retrain("units", "bytes"), ", or export with --format hf or gpt2")
    assert in_window(refusal) == (f"a .tiktoken file holds byte tokens: set Units to Bytes{where}, or export with "
                                  "Hugging Face tokenizer.json or GPT-2 vocab.json + merges.txt")
