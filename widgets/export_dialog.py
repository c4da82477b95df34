"""File > Export vocabulary…: choose a format, the step and where, then watch the file proven.

The dialog asks the engine whether the lesson fits each format before anything is written
(``engine.formats.proof.check_formats``, the refusals of ``bpe-lab export``), and names the formats
that can hold it when the chosen one does not. Each check builds the whole file in memory, so the
checks run in a ``Worker``, the chosen format first; a format shows "checking…" until its answer
comes, and each answer is kept for the lesson and step it was made for. Writing and the proof
(``engine.formats.proof``: read back with BPE Lab's reader and the format's library, the lesson's
texts encoded by each) run in a ``Worker`` with a progress bar and Cancel; each reader's verdict is
one line in the dialog. Cancel stops the proof; a file being written is finished whole first.

``choose_path`` asks with a file dialog; tests replace it.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup, QDialog, QFileDialog, QHBoxLayout, QLabel, QProgressBar, QPushButton, QRadioButton, QVBoxLayout,
)

from engine.errors import BpeLabError
from engine.formats.load import FORMATS, Source
from engine.formats.proof import FormatCheck, ProofProgress, ProofReport, check_formats, export_and_prove
from engine.formats.refusal import Retrain, parts_of, said
from widgets.folder_dialog import choose_folder
from widgets.session_view import SessionView
from widgets.settings_form import MARKERS, SPLITS, UNITS
from widgets.worker import Worker, abort_if_requested

# what each format is called, and in one line what it keeps and what it cannot hold
FORMAT_NAMES = {
    "hf": "Hugging Face tokenizer.json",
    "gpt2": "GPT-2 vocab.json + merges.txt",
    "tiktoken": ".tiktoken",
    "csv": "CSV of the vocabulary",
    "bpelab": "BPE Lab tokenizer file",
}
FORMAT_LINES = {
    "hf": "Merges, split, marker and special tokens for tokenizers; no lowercasing, no rebuilt token.",
    "gpt2": "vocab.json, merges.txt and BPE Lab's settings in a folder; no token holding a space.",
    "tiktoken": "Byte tokens ranked for tiktoken: bytes units only, merges its lowest-rank rule replays.",
    "csv": "One row per token with its parents and counts, for spreadsheets; not read by libraries.",
    "bpelab": "Everything BPE Lab trained, read back exactly; only BPE Lab reads it.",
}
# tokenizers matches special-token text anywhere by default; BPE Lab reads user text as ordinary text
ORDINARY_IN_TOKENIZERS = ("To read user text as BPE Lab does, with special-token text as ordinary text, "
                          "set tokenizer.encode_special_tokens = True after loading it in tokenizers.")
SUFFIXES = {"hf": "tokenizer.json", "bpelab": "tokenizer.bpelab.json", "tiktoken": "vocab.tiktoken", "csv": "vocab.csv"}
FILTERS = {"hf": "tokenizer.json (*.json)", "bpelab": "BPE Lab tokenizer (*.json)",
           "tiktoken": "tiktoken ranks (*.tiktoken)", "csv": "CSV (*.csv)"}


# "--format hf or gpt2", as the engine's refusals name formats for the command line
_FORMAT_OPTION = re.compile(r"--format (\w+)(?: or (\w+))?")


def format_names(text: str) -> str:
    """An engine refusal as people using the window read it: the formats named as the dialog names them."""
    def named(match: re.Match) -> str:
        return " or ".join(FORMAT_NAMES.get(f, f) for f in match.groups() if f)

    return _FORMAT_OPTION.sub(named, text)


# each training setting a refusal may advise, as the Settings box of the Corpus panel names it
PANEL_ROWS = {"split": ("Split", SPLITS), "units": ("Units", UNITS), "end_of_word": ("End of word", MARKERS)}
LOWERCASE_BOX = "lowercase first"


def in_window(parts: tuple[str | Retrain, ...]) -> str:
    """An engine refusal as people using the window read it: settings named as the Corpus panel's
    Settings name them, formats as the dialog does, never an option to type."""
    return format_names(said(parts, in_corpus_panel))


def in_corpus_panel(advice: Retrain) -> str:
    """"set Units to Bytes under Settings in the Corpus panel": the lesson trains again on a change."""
    return " or ".join(_panel_choice(c) for c in advice.choices()) + " under Settings in the Corpus panel"


def _panel_choice(choice: Retrain) -> str:
    if choice.setting == "lowercase":
        return f"{'tick' if choice.value else 'untick'} “{LOWERCASE_BOX}”"
    row, choices = PANEL_ROWS[choice.setting]
    label = next(item[1] for item in choices if item[0] == choice.value)
    return f"set {row} to {label}"


def file_state(path: Path) -> tuple | None:
    """What a file is now (None: absent), to tell whether it was written since."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size, stat.st_ino


def lesson_texts(lesson) -> dict[str, str]:
    """The texts the proof encodes: the corpus (a word-count table as its words) and the held-out text."""
    corpus = " ".join(lesson.corpus.words) if lesson.word_counts else lesson.text
    return {"your text": corpus, "the held-out text": lesson.held_out}


# why a format cannot hold a lesson, in the engine's parts (engine.formats.refusal)
Refusal = tuple[str | Retrain, ...]


class ExportDialog(QDialog):
    # the proof's report once the files are written and read back; or why nothing was written
    proved = Signal(object)
    failed = Signal(str)

    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Export vocabulary")
        self.session = session
        self.worker: Worker | None = None
        self.checker: Worker | None = None
        self._checker_step: int | None = None
        self.path: Path | None = None
        # the file at ``path`` before the export, to tell whether a cancelled run wrote it
        self._before: tuple | None = None
        # why a format cannot hold the lesson at a step, in the engine's parts (None: it can), by
        # (lesson, format, step): each check builds the whole file in memory, so it is made once
        self._refusals: dict[tuple, Refusal | None] = {}
        self.format_buttons = QButtonGroup(self)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("<b>Format</b>"))
        for fmt in ("hf", "gpt2", "tiktoken", "csv", "bpelab"):
            button = QRadioButton(FORMAT_NAMES[fmt])
            button.setObjectName(fmt)
            line = QLabel(FORMAT_LINES[fmt])
            line.setIndent(24)
            line.setObjectName("details")
            self.format_buttons.addButton(button, FORMATS.index(fmt))
            layout.addWidget(button)
            layout.addWidget(line)
        self.format_buttons.button(FORMATS.index("hf")).setChecked(True)
        layout.addWidget(QLabel("<b>Step</b>"))
        self.current_button = QRadioButton()
        self.end_button = QRadioButton()
        steps = QButtonGroup(self)
        steps.addButton(self.current_button)
        steps.addButton(self.end_button)
        self.current_button.setChecked(True)
        layout.addWidget(self.current_button)
        layout.addWidget(self.end_button)
        self.verdict = QLabel()
        self.verdict.setObjectName("exportVerdict")
        self.verdict.setWordWrap(True)
        layout.addWidget(self.verdict)
        self.progress = QProgressBar()
        self.progress.hide()
        layout.addWidget(self.progress)
        self.report = QLabel()
        self.report.setObjectName("exportReport")
        self.report.setWordWrap(True)
        layout.addWidget(self.report)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.export_button = QPushButton("Export…")
        self.export_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.close_button = QPushButton("Close")
        for b in (self.export_button, self.cancel_button, self.close_button):
            buttons.addWidget(b)
        layout.addLayout(buttons)
        self.export_button.clicked.connect(lambda: self.export_to(self.choose_path()))
        self.cancel_button.clicked.connect(self._on_cancel_clicked)
        self.close_button.clicked.connect(self.reject)
        self.format_buttons.idToggled.connect(self._on_choice_toggled)
        steps.buttonToggled.connect(self._on_choice_toggled)
        self._on_choice_changed()

    def _on_choice_toggled(self, _button: object, on: bool) -> None:
        if on:  # the button left is toggled off too: one change, one verdict
            self._on_choice_changed()

    # -- what is chosen -------------------------------------------------------------------------

    @property
    def fmt(self) -> str:
        return FORMATS[self.format_buttons.checkedId()]

    def choose_format(self, fmt: str) -> None:
        self.format_buttons.button(FORMATS.index(fmt)).setChecked(True)

    def step(self) -> int:
        session = self.session
        return session.step if self.current_button.isChecked() else session.last_step

    def source(self) -> Source:
        lesson, k = self.session.lesson, self.step()
        return Source(lesson.tokenizer_at(k), lesson.steps[:k], "lesson")

    def choose_path(self) -> str:
        if self.fmt == "gpt2":
            return choose_folder(self, "Export vocabulary: choose a folder for vocab.json and merges.txt, or type a new one")
        return QFileDialog.getSaveFileName(self, "Export vocabulary", SUFFIXES[self.fmt], FILTERS[self.fmt])[0]

    # -- refusing before writing ----------------------------------------------------------------

    @property
    def checking(self) -> bool:
        """Whether formats are being checked for the lesson at the chosen step."""
        return self.checker is not None

    def _on_choice_changed(self) -> None:
        self.report.clear()
        self._show_verdict()

    def _show_verdict(self) -> None:
        """Say whether the chosen format holds the lesson at the chosen step; Export only if it does."""
        session = self.session
        self.current_button.setText(f"The current step ({session.step:,} of {session.last_step:,} merges)")
        self.end_button.setText(f"The end ({session.last_step:,} merges)")
        if not session.lesson.trained:
            self._refuse("Nothing to export yet: the corpus is empty.")
            return
        known = self._known()
        self._mark_formats(known)
        if len(known) < len(FORMATS):
            self._start_checking(known)
        name = FORMAT_NAMES[self.fmt]
        refusal = known.get(self.fmt)
        if self.fmt not in known:
            self._refuse(f"Checking whether {name} can hold this lesson at step {self.step():,}…")
        elif refusal is not None:
            others = [FORMAT_NAMES[f] for f in FORMATS if f in known and known[f] is None]
            can = f" This lesson can be exported as: {', '.join(others)}." if others else ""
            if len(known) < len(FORMATS):
                can += " Checking the other formats…"
            self._refuse(f"{name} cannot hold this lesson: {in_window(refusal)}.{can}")
        else:
            self.verdict.setText(f"{name} holds this lesson at step {self.step():,}.")
            self.export_button.setEnabled(self.worker is None)
        self._fit()

    def _known(self) -> dict[str, Refusal | None]:
        """The formats checked for the lesson at the chosen step: why each cannot hold it, or None."""
        lesson, step = self.session.lesson, self.step()
        return {f: self._refusals[(lesson, f, step)] for f in FORMATS if (lesson, f, step) in self._refusals}

    def _mark_formats(self, known: dict[str, Refusal | None]) -> None:
        for fmt in FORMATS:
            if fmt not in known:
                mark = " (checking…)"
            else:
                mark = "" if known[fmt] is None else " (cannot hold this lesson)"
            self.format_buttons.button(FORMATS.index(fmt)).setText(FORMAT_NAMES[fmt] + mark)

    def _start_checking(self, known: dict[str, Refusal | None]) -> None:
        """Check, off the GUI thread, the formats not yet known at the chosen step, the chosen one first."""
        step = self.step()
        if self.checker is not None:
            if self._checker_step == step:
                return
            self.checker.quit()  # its answers so far are kept; the rest are for a step no longer chosen
        unknown = [f for f in [self.fmt, *FORMATS] if f not in known]
        self.checker = Worker(check_formats, self.source(), list(dict.fromkeys(unknown)), step)
        self._checker_step = step
        self.checker.yielded.connect(self._on_format_checked)
        self.checker.errored.connect(self._on_check_failed)
        self.checker.finished.connect(self._on_checker_finished)
        self.checker.start()

    def _on_format_checked(self, check: FormatCheck) -> None:
        self._refusals[(self.session.lesson, check.fmt, check.step)] = check.refusal
        if check.step == self.step():
            self._show_verdict()

    def _on_check_failed(self, error: BaseException) -> None:
        """A check that broke (a bug, not a refusal) refuses the formats it left unknown, so that
        nothing is written unchecked and the check is not started again and again."""
        if self.sender() is not self.checker:
            return
        why = (f"the check failed ({type(error).__name__}: {error}); please report this",)
        for fmt in FORMATS:
            self._refusals.setdefault((self.session.lesson, fmt, self._checker_step), why)
        self._show_verdict()

    def _on_checker_finished(self) -> None:
        if self.sender() is self.checker:  # not one stopped when the step changed
            self.checker = None

    def _refuse(self, text: str) -> None:
        self.verdict.setText(text)
        self.export_button.setEnabled(False)

    def _fit(self) -> None:
        """Grow to show every wrapped line of the verdict and the report (a dialog does not by itself)."""
        layout = self.layout()
        if layout is None:
            return  # not built yet: nothing to show
        layout.activate()
        needed = layout.totalHeightForWidth(self.width())
        if needed > self.height():
            self.resize(self.width(), needed)

    # -- writing and proving --------------------------------------------------------------------

    def export_to(self, path: str | Path) -> Worker | None:
        """Write the chosen export at ``path`` and prove it in a worker; None if refused or no path."""
        if not path or not self.export_button.isEnabled():
            return None
        self.path = Path(path)
        self._before = file_state(self.path)
        self.report.setText(f"Writing {path}…")
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        self.export_button.setEnabled(False)
        self.worker = Worker(export_and_prove, self.source(), self.fmt, self.path, lesson_texts(self.session.lesson),
                             check=abort_if_requested)
        self.worker.yielded.connect(self._on_progress)
        self.worker.returned.connect(self._on_proved)
        self.worker.errored.connect(self._on_errored)
        self.worker.aborted.connect(self._on_aborted)
        self.worker.finished.connect(self._on_finished)
        self.worker.start()
        return self.worker

    def _on_progress(self, progress: ProofProgress) -> None:
        self.progress.setRange(0, max(1, progress.total))
        self.progress.setValue(progress.done)
        if progress.what != "done":
            self.progress.setFormat(f"{progress.what}… %p%")

    def _on_proved(self, report: ProofReport) -> None:
        verdict = "Proven:" if report.proven else "Not proven: it gives other ids than BPE Lab."
        lines = [f"Written to {self.path}. {verdict}"]
        lines += [f"• {p.sentence()}" for p in report.proofs]
        if report.missing:
            lines.append(f"{report.missing} is not installed here, so only BPE Lab's reader checked the file.")
        if self.fmt == "hf":
            lines.append(ORDINARY_IN_TOKENIZERS)
        self.report.setText("\n".join(lines))
        self._fit()
        self.proved.emit(report)

    def _on_errored(self, error: BaseException) -> None:
        if isinstance(error, BpeLabError):
            text = f"Nothing was written: {in_window(parts_of(error))}"
        else:
            text = f"The export failed ({type(error).__name__}: {error}); please report this."
        self.report.setText(text)
        self._fit()
        self.failed.emit(text)

    def _on_aborted(self) -> None:
        if self.path is None:
            return  # only an export under way is cancelled, and it has its path
        if file_state(self.path) == self._before:
            self.report.setText("Cancelled before writing: nothing was written.")
        else:
            self.report.setText(f"Cancelled after writing: {self.path} is whole but was not proven.")

    def _on_cancel_clicked(self) -> None:
        if self.worker is not None:
            self.worker.quit()

    def _on_finished(self) -> None:
        self.worker = None
        self.progress.hide()
        self.cancel_button.hide()
        self._show_verdict()  # the run's report stays until the choice changes

    def reject(self) -> None:
        for worker in (self.worker, self.checker):
            if worker is not None:
                worker.quit()  # the files are whole or absent; only the proof stops early
        super().reject()
