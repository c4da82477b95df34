"""Lesson > Compare algorithms: BPE, WordPiece and Unigram trained on the lesson's corpus, side by side.

The dialog asks ``engine.readable.algorithms.comparing`` for the comparison in a worker (training
takes seconds on a large corpus), says which algorithm is training, and stops at Cancel or on closing:
the library's training, which runs in a child process, ends within a fraction of a second. Then one
column per algorithm: the held-out text (the corpus when the lesson has none) as coloured pieces, the
measures of ``METRIC_ROWS``, the pieces only that vocabulary has, and how it learns, in the sentences
the command line prints.

Left out: training with the lesson's own settings (the engine compares BPE Lab's defaults, cut at
whitespace, so the three differ only in how they learn).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QGridLayout, QLabel, QMenu, QProgressBar,
                               QPushButton, QScrollArea, QVBoxLayout, QWidget)

from engine.errors import BpeLabError
from engine.lesson.lesson import Lesson
from engine.readable.algorithms import ALGORITHMS, HOW_EACH_LEARNS, METRIC_ROWS, Trained, comparing
from widgets.worker import Worker, abort_if_requested

# the most tokens a column spells out; the count says how many more there are
TOKENS_SHOWN = 300
# two light fills that part neighbouring pieces; the text on them is black (contrast above 15:1)
PIECE_FILLS = ("#D6E6F5", "#FBE0C3")


def corpus_text(lesson: Lesson) -> str:
    """The lesson's training text as running text: a word-count table is spelt out, each word as often
    as it occurs, since the other trainers read text, not counts."""
    if lesson.corpus is None:
        raise BpeLabError("this lesson is an imported tokenizer with no training corpus: comparing algorithms "
                          "trains each one on a corpus, so open or type a training text first")
    if not lesson.word_counts:
        return lesson.text
    corpus = lesson.corpus
    return " ".join(" ".join([word] * count) for word, count in zip(corpus.words, corpus.counts))


def metric_cells(trained: Trained) -> list[tuple[str, str]]:
    """(label, value) for each measure, as the command line prints them."""
    return [(label, fmt.format(getattr(trained.metrics, attr))) for label, attr, fmt in METRIC_ROWS]


def pieces_html(tokens: tuple[str, ...]) -> str:
    """The tokens as coloured pieces, in order, the fills alternating so each boundary shows."""
    # a word joiner between a piece's characters: a line may break between pieces, never inside one
    spans = [f'<span style="background:{PIECE_FILLS[i % 2]}; color:#000000">{html.escape(chr(0x2060).join(t))}</span>'
             for i, t in enumerate(tokens[:TOKENS_SHOWN])]
    more = len(tokens) - TOKENS_SHOWN
    # a space between pieces, since a fill alone does not part two pieces in a grey print
    return " ".join(spans) + (f" <i>… and {more:,} more</i>" if more > 0 else "")


class AlgorithmsDialog(QDialog):
    """Trains the three on ``lesson``'s corpus to its vocabulary size once ``start()`` is called."""

    def __init__(self, lesson: Lesson, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Compare algorithms")
        self.text = corpus_text(lesson)
        self.held_out = lesson.held_out or None
        self.vocab_size = lesson.history.vocab_size(lesson.last_step)
        self.results: list[Trained] | None = None
        self.columns: list[str] = []  # the algorithms shown, left to right
        self.cells: dict[tuple[str, str], QLabel] = {}  # (algorithm, part or Metrics attribute): its cell
        self._worker: Worker | None = None

        layout = QVBoxLayout(self)
        measured = "the held-out text" if self.held_out else "the corpus (the lesson has no held-out text)"
        self.intro = QLabel(f"BPE, WordPiece and Unigram, each trained on the lesson's corpus to "
                            f"{self.vocab_size:,} tokens, then measured on {measured}.")
        self.intro.setWordWrap(True)
        layout.addWidget(self.intro)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.progress = QProgressBar()
        self.progress.setRange(0, len(ALGORITHMS))
        self.progress.setFormat("%v of %m trained")
        layout.addWidget(self.progress)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        self.scroll_area.setWidget(self.grid_host)
        layout.addWidget(self.scroll_area, 1)
        buttons = QDialogButtonBox()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.clicked.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(1100, 700)

    @property
    def running(self) -> bool:
        return self._worker is not None

    def start(self) -> None:
        worker = Worker(comparing, self.text, self.vocab_size, self.held_out, check=abort_if_requested)
        worker.yielded.connect(self._on_yielded)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        worker.aborted.connect(self._on_aborted)
        worker.finished.connect(self._on_finished)
        self._worker = worker
        self.cancel_button.setEnabled(True)
        self.status.setText("Starting…")
        worker.start()

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.quit()
            self.status.setText("Stopping…")

    def reject(self) -> None:
        self.cancel()
        super().reject()

    def _on_yielded(self, name: object) -> None:
        self.progress.setValue(ALGORITHMS.index(str(name)))
        self.status.setText(f"Training {name}…")

    def _on_returned(self, results: object) -> None:
        assert isinstance(results, list)
        self.results = results
        self.progress.hide()
        self.status.setText("Trained. Each column is one algorithm on the same text; compare the pieces and the "
                            "measures: fewer tokens alone is not a better tokenizer.")
        self._show(results)

    def _on_errored(self, exc: object) -> None:
        if isinstance(exc, BpeLabError):
            self.status.setText(f"Could not compare: {exc}.")
        else:
            self.status.setText(f"Could not compare: the training failed ({type(exc).__name__}: {exc}).")

    def _on_aborted(self) -> None:
        self.status.setText("Stopped. Choose Lesson > Compare algorithms… to train the three again.")

    def _on_finished(self) -> None:
        self._worker = None
        self.cancel_button.setEnabled(False)

    def _show(self, results: list[Trained]) -> None:
        # one row per part and one column per algorithm, the measures' names said once at the left:
        # three columns that each repeated them would not fit a projector's width at classroom type
        grid = self.grid
        rows: list[tuple[str, str]] = [("", "name"), ("The text in pieces", "pieces"),
                                       *((label, attr) for label, attr, _ in METRIC_ROWS),
                                       ("Only it has", "only"), ("How it learns", "how")]
        for row, (label, _) in enumerate(rows):
            if label:
                head = QLabel(label)
                head.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
                grid.addWidget(head, row, 0)
        for col, trained in enumerate(results, start=1):
            values = dict(zip((attr for _, attr, _ in METRIC_ROWS), (v for _, v in metric_cells(trained))))
            texts = {"name": f"<b>{html.escape(trained.name)}</b>", "pieces": pieces_html(trained.tokens),
                     "only": html.escape(", ".join(trained.only_here) if trained.only_here else "(none)"),
                     "how": html.escape(HOW_EACH_LEARNS[trained.name]),
                     **{attr: f"<b>{value}</b>" for attr, value in values.items()}}
            for row, (_, part) in enumerate(rows):
                cell = QLabel(texts[part])
                cell.setTextFormat(Qt.TextFormat.RichText)
                cell.setWordWrap(part in ("pieces", "only", "how"))
                cell.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
                grid.addWidget(cell, row, col)
                self.cells[(trained.name, part)] = cell
            grid.setColumnStretch(col, 1)
        grid.setRowStretch(len(rows), 1)
        self.columns = [r.name for r in results]


def compare_algorithms_in(window) -> AlgorithmsDialog | None:
    """Open the dialog on the window's lesson and start training; None (after saying why) without a corpus."""
    lesson = window.session.lesson
    if not lesson.trained or lesson.is_empty:
        window.tell("The lesson has no trained vocabulary to compare yet: type or open a training text first.")
        return None
    try:
        dialog = AlgorithmsDialog(lesson, window)
    except BpeLabError as exc:
        window.tell(f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
        return None
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    dialog.start()
    return dialog


def add_compare_algorithms_action(window, menu: QMenu) -> QAction:
    """Lesson > Compare algorithms…, at the end of ``menu``."""
    action = QAction("Compare &algorithms…", window)
    action.setStatusTip("BPE beside WordPiece and Unigram trained on the same corpus to the same size")
    action.triggered.connect(lambda _checked=False: compare_algorithms_in(window))
    menu.addSeparator()
    menu.addAction(action)
    return action
