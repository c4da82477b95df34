"""The main window (first cut): the default lesson's corpus and its merges, one per line."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QListWidget, QMainWindow, QMessageBox, QSplitter

from engine import BpeLabError, Corpus, Settings, train
from engine.files import read_text

DEFAULT_LESSON = "low 5\nlower 2\nnewest 6\nwidest 3\n"


class MainWindow(QMainWindow):
    def __init__(self, path: str | None = None):
        super().__init__()
        self.setWindowTitle("BPE Lab")
        self.resize(1100, 700)
        text, word_counts = DEFAULT_LESSON, True
        if path:
            try:
                text, word_counts = read_text(path), False
            except BpeLabError as exc:
                QMessageBox.warning(self, "BPE Lab", str(exc))
        settings = Settings()
        corpus = Corpus.from_word_counts(text, settings) if word_counts else Corpus.from_text(text, settings)
        self.corpus_view = QLabel(text)
        self.merges_view = QListWidget()
        if not corpus.is_empty:
            trainer, steps = train(corpus)
            for step in steps:
                self.merges_view.addItem(f"{step.step}. {step.pair[0]} + {step.pair[1]} → {step.token}  ({step.count})")
        splitter = QSplitter()
        splitter.addWidget(self.corpus_view)
        splitter.addWidget(self.merges_view)
        self.setCentralWidget(splitter)
