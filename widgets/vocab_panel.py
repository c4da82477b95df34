"""The vocabulary and merges panel: base symbols, then each learned token with its parents, and the
merge tree of the token chosen, drawn (``widgets.merge_tree``) and said as a formula."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from engine.readable.describe import describe_vocab
from engine.readable.display import for_settings
from engine.readable.tile_colours import colouring_of
from engine.lesson.lesson import Lesson
from widgets.merge_tree import MergeTreeArea, formula, merge_tree
from widgets.models import VocabModel
from widgets.models.common import KeyRole
from widgets.models.vocab import COUNT, EXTRA_TIPS, ID, MADE, PARENTS, TOKEN
from widgets.session_view import SessionView
from widgets.tables import make_table
from widgets.steady import steady


@dataclass(frozen=True)
class VocabShown:
    """What the vocabulary panel shows: its heading, how many rows it lists, and the last rows'
    cells (id, token, step, parents, count) as displayed."""

    heading: str
    rows: int
    last_rows: tuple[tuple[str, str, str, str, str], ...]


class VocabPanel(QWidget):
    # the user asks to write the vocabulary in a file format (the window opens the export dialog)
    export_requested = Signal()

    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        self.model = VocabModel(session, self)
        self.heading = QLabel()
        self.heading.setObjectName("panelHeading")
        self.heading.setWordWrap(True)
        self.table = make_table(self.model, stretch_column=PARENTS)
        # the chosen token's tree, drawn; the formula under it is its text, to copy or be read out
        self.tree_area = MergeTreeArea()
        self.tree_view = self.tree_area.view
        self.tree_view.token_clicked.connect(session.request_token_selection)
        self.tree = QLabel()
        self.tree.setObjectName("details")
        self.tree.setWordWrap(True)
        self.tree.setTextFormat(Qt.TextFormat.PlainText)  # it names </w>, which is no tag
        self.tree.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(steady(self.heading))
        layout.addWidget(self.table, 1)
        layout.addWidget(self.tree_area, 1)
        layout.addWidget(steady(self.tree))
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Export the vocabulary as tokenizer.json, vocab.json + merges.txt, .tiktoken, CSV "
                                      "or a BPE Lab tokenizer, and check it in the library it is for")
        self.export_button.clicked.connect(self.export_requested)
        self.export_button.setMinimumWidth(1)  # the button never makes a crushed dock wider than its table
        layout.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignRight)
        self.table.clicked.connect(self._on_clicked)
        session.lesson_changed.connect(self._on_lesson_changed)
        session.step_changed.connect(self._on_step_changed)
        session.token_selected.connect(self._on_token_selected)
        self._refresh()

    def shown(self, last: int = 4) -> VocabShown:
        """The heading, the row count and the ``last`` rows at the bottom of the table, as displayed."""
        model = self.model
        n = model.rowCount()
        def cell(r: int, c: int) -> str:
            return str(model.index(r, c).data())

        cells = tuple((cell(r, ID), cell(r, TOKEN), cell(r, MADE), cell(r, PARENTS), cell(r, COUNT))
                      for r in range(max(0, n - last), n))
        return VocabShown(self.heading.text(), n, cells)

    def _on_clicked(self, index) -> None:
        self.session.request_token_selection(index.data(KeyRole))

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        self._refresh()
        if self.session.step:
            # a lesson opened at a later step: its newest tokens matter more than the base symbols
            self.table.scrollToBottom()
            self.table.fit_columns()

    def _on_step_changed(self, change) -> None:
        new, previous = change.step, change.previous
        self._refresh()
        if new > previous:
            # the newest token is what the class is looking at
            self.table.scrollToBottom()
            self.table.fit_columns()  # longer tokens and ids arrive as the lesson goes on

    def _refresh(self, *_args) -> None:
        session = self.session
        if session.state is None:
            self.heading.setText(f"No vocabulary yet: {session.why_untrained}.")
        else:
            lesson = session.lesson
            self.heading.setText(describe_vocab(lesson.settings, lesson.history.vocab(session.step)))
        self._on_token_selected(self.session.selected_token)

    def _on_token_selected(self, token: str) -> None:
        session = self.session
        row = self.model.row_of(token) if token else None
        if row is None:
            self.tree.setText("Click a token to see how it was built.")
            self.tree_view.set_tree(None, self.tree_view.display, lambda t: None, None, "")
            self.tree_area.hide()
            return
        self.table.scrollTo(self.model.index(row, 0))
        lesson = session.lesson
        kind = self.model.kind_of(token)
        if kind is not None:
            self.tree.setText(f"{session.show(token)}: {EXTRA_TIPS[kind][0].lower()}{EXTRA_TIPS[kind][1:]}.")
            self.tree_view.set_tree(None, self.tree_view.display, lambda t: None, None, "")
            self.tree_area.hide()
            return
        tree = merge_tree(lesson.history, token, session.step)
        said = f"{session.show(token)} = " + formula(tree, session.show) if tree.parts else session.show(token)
        self.tree.setText(said if tree.parts else f"{said} is a base symbol: no merge made it.")
        tokenizer = lesson.tokenizer
        self.tree_view.set_tree(tree, for_settings(lesson.settings), tokenizer.token_to_id if tokenizer else lambda t: None,
                                colouring_of(lesson), said)
        self.tree_area.setVisible(bool(tree.parts))
        self.tree_area.show_top()
