"""The corpus panel: the training text (or words with counts), its word table, presets, settings.

The panel never trains. It asks for what the user did (``corpus_requested``, ``settings_requested``,
``preset_requested``, ``large_text_requested``, ``open_requested``); the window hands the first four
to the session, which makes each an undoable change of lesson. The panel follows the session's
``source_changed`` (undo, open, preset) and shows its ``problem_reported``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from PySide6.QtCore import QEvent, QMargins, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup, QComboBox, QFrame, QScrollArea, QGroupBox, QLabel, QPlainTextEdit, QPushButton,
    QRadioButton, QSplitter, QVBoxLayout, QWidget,
)

from engine.formats.lesson_file import LessonFile
from engine.lesson.lesson import Lesson
from resources.presets import PRESETS
from widgets.flow import FlowLayout
from widgets.models import WordsModel
from widgets.models.words import COUNT, LENGTH, TOKENS, WORD
from widgets.session_view import SessionView
from widgets.settings_form import SettingsForm
from widgets.tables import make_table, title_room

# typing pauses this long before the lesson retrains
EDIT_DELAY_MS = 500
# a text longer than this reaches the editor a moment after its lesson is shown: laying it out takes
# the editor a while, and the window should answer between showing the lesson and showing its text
# (a zero delay would run it in the same turn of the event loop as the lesson's first paint)
LONG_TEXT = 100_000
EDITOR_DELAY_MS = 60
# past this size the editor shows the start of the text only: laying the text out takes about
# 40 ms a megabyte, all of it on the GUI thread
EDITOR_LIMIT = 500_000
PREVIEW = 100_000


@dataclass(frozen=True)
class CorpusShown:
    """What the corpus panel shows of the lesson: the line under the text, and word rows of the
    table as displayed (word index, then the cells: word, count, tokens now, how many tokens)."""

    hint: str
    rows: tuple[tuple[int, tuple[str, str, str, str]], ...]


def editor_text(editor: QPlainTextEdit) -> str:
    """What the editor holds, character for character: ``toPlainText`` would turn a no-break space
    into a space and a line separator into a line break, changing a text the user never touched."""
    return editor.document().toRawText().replace("\u2029", "\n")


class CorpusEditor(QPlainTextEdit):
    """A text box that hands a huge paste to the lesson instead of laying it out itself."""

    large_text_pasted = Signal(str)

    def insertFromMimeData(self, source) -> None:  # noqa: N802 (Qt's name)
        text = source.text() if source.hasText() else ""
        if len(text) > EDITOR_LIMIT:
            self.large_text_pasted.emit(text)
            return
        super().insertFromMimeData(source)


class WrappedLinesPart(QWidget):
    """A part of a splitter ending in a wrapped line of text: its minimum height counts the lines
    the text needs at the part's width, which a splitter does not ask (squeezed, the line would
    be drawn over the box above it)."""

    def __init__(self, wrapped: QLabel):
        super().__init__()
        self._wrapped = wrapped
        self._lines_height = 0

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = super().minimumSizeHint()
        return QSize(hint.width(), hint.height() + self._lines_height)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        label = self._wrapped
        extra = max(0, label.heightForWidth(label.width()) - label.minimumSizeHint().height())
        if extra != self._lines_height:
            self._lines_height = extra
            self.updateGeometry()


class CorpusPanel(QWidget):
    corpus_requested = Signal(str, bool)  # text, word_counts
    settings_requested = Signal(object)
    preset_requested = Signal(str)
    open_requested = Signal()
    large_text_requested = Signal(str)

    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        lesson = session.lesson

        self.presets = QComboBox()
        self.presets.setObjectName("presets")
        self.presets.addItem("Start from a preset…", "")
        for p in PRESETS:
            self.presets.addItem(p.title, p.key)
            self.presets.setItemData(self.presets.count() - 1, p.about, Qt.ItemDataRole.ToolTipRole)
        self.presets.activated.connect(self._on_preset_picked)
        # the long preset titles show in the open list; closed, the box may be narrow
        self.presets.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.presets.setMinimumContentsLength(16)  # "Start from a preset…" whole
        self.open_button = QPushButton("Open…")
        self.open_button.setToolTip("Open a lesson (.bpelab) or a UTF-8 text file; you can also drop a file here")
        self.open_button.clicked.connect(self.open_requested)

        self.running = QRadioButton("Running text")
        self.running.setToolTip("Any text: it is cut into words and each word counted")
        self.counted = QRadioButton("Words with counts")
        self.counted.setToolTip("One word per line with its count, like: low 5")
        self.mode = QButtonGroup(self)
        self.mode.addButton(self.running)
        self.mode.addButton(self.counted)
        self.mode.buttonToggled.connect(self._on_mode_toggled)

        self.editor = CorpusEditor()
        self.editor.setObjectName("corpusEditor")
        self.editor.setPlaceholderText("Type or paste training text here, or pick a preset above.")
        # one undo history for the whole lesson: the window's Edit > Undo, not the text box's own
        self.editor.setUndoRedoEnabled(False)
        self.editor.setAcceptDrops(False)
        self.editor.large_text_pasted.connect(self.large_text_requested)
        self.hint = QLabel()
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)

        self.words = WordsModel(session, self)
        self.table = make_table(self.words, stretch_column=TOKENS)
        # the least a column may be is the narrowest title's room, not "Tokens now"'s: each column
        # fits its own title (fit_columns) and the panel's minimum width leaves the stretching one its
        # title, while a floor of the longest title for all four made the panel scroll sideways at 1024 px
        self.table.least_section = lambda: min(title_room(self.table, self.words, c) for c in range(self.words.columnCount()))
        self.table.horizontalHeader().setMinimumSectionSize(self.table.least_section())

        self.settings_form = SettingsForm(lesson.settings)
        self.settings_form.settings_requested.connect(self.settings_requested)
        settings_box = QGroupBox("Settings")
        box_layout = QVBoxLayout(settings_box)
        # zoomed in, the form scrolls instead of squeezing its boxes
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.settings_form)
        box_layout.addWidget(scroll)

        # zoomed in, the preset row and the two modes take a second line rather than widen the panel
        top = QWidget()
        top_row = FlowLayout(top, gap=6)
        top_row.addWidget(self.presets)
        top_row.addWidget(self.open_button)
        modes = QWidget()
        modes_row = FlowLayout(modes, gap=6)
        modes_row.addWidget(self.running)
        modes_row.addWidget(self.counted)
        text_part = WrappedLinesPart(self.hint)
        text_layout = QVBoxLayout(text_part)
        text_layout.setContentsMargins(0, 0, 0, 0)
        text_layout.addWidget(modes)
        text_layout.addWidget(self.editor, 1)
        text_layout.addWidget(self.hint)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(text_part)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(settings_box)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setStretchFactor(2, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(top)
        layout.addWidget(self.splitter, 1)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(EDIT_DELAY_MS)
        self._timer.timeout.connect(self._on_typing_paused)
        self.editor.textChanged.connect(self._on_text_changed)
        self._full_text: str | None = None  # the whole text when the editor shows only its start
        self._shown_text: str | None = None  # the source's text the editor shows, until it is edited
        self._showing = False
        self._latest_source: LessonFile | None = None
        self._problem = ""  # the last problem reported, until a new source or lesson replaces it
        self.show_source(session.source)
        session.lesson_changed.connect(self._on_lesson_changed)
        session.source_changed.connect(self._on_source_changed)
        session.problem_reported.connect(self.show_problem)
        self._on_lesson_changed(session.lesson)
        self._keep_least_width()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """The panel's natural width, which the window's arrangement of the docks reads: wide
        enough for the word table's column titles whole in the table's type ("Tokens now" takes
        what the other columns leave). The panel's least width (``minimumWidth``, which its dock's
        scroll area keeps) is that of the titles in their least type: the table takes smaller
        titles where it is narrower (``Table.fit_titles``)."""
        hint = super().minimumSizeHint()
        return hint.expandedTo(QSize(self._with_margins(self.table.width_for_titles(
            self.table.title_font_at(self.table.points()))), 0))

    def _with_margins(self, width: int) -> int:
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else QMargins()  # none until it is built
        return width + margins.left() + margins.right()

    def _keep_least_width(self) -> None:
        # narrower than this the panel scrolls in its dock rather than cut a title
        least = max(super().minimumSizeHint().width(), self._with_margins(self.table.least_width()))
        if self.minimumWidth() != least:
            self.setMinimumWidth(least)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._keep_least_width()

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            QTimer.singleShot(0, self, self._keep_least_width)  # once the table has its new font

    # -- from the session ----------------------------------------------------------------------

    @Slot(object)
    def _on_source_changed(self, source: LessonFile) -> None:
        self._latest_source = source
        self._problem = ""  # a problem with an earlier source is no longer the news
        if len(source.text) > LONG_TEXT and source.text != self.text():
            def show_if_latest() -> None:
                if self._latest_source is source:
                    self.show_source(source)

            QTimer.singleShot(EDITOR_DELAY_MS, self, show_if_latest)
        else:
            self.show_source(source)

    def show_source(self, source: LessonFile) -> None:
        """Show a lesson's text, mode and settings without announcing an edit."""
        self._showing = True
        try:
            (self.counted if source.word_counts else self.running).setChecked(True)
            text = source.text
            if len(text) > EDITOR_LIMIT:
                self._full_text = text
                if self.editor.toPlainText()[:PREVIEW] != text[:PREVIEW] or not self.editor.isReadOnly():
                    self.editor.setPlainText(text[:PREVIEW])
                self.editor.setReadOnly(True)
            else:
                self._full_text = None
                self.editor.setReadOnly(False)
                if editor_text(self.editor) != text:
                    self.editor.setPlainText(text)
                # until the user types, the text is the source's own, every character as it came
                # (the editor keeps a carriage return only as a line break)
                self._shown_text = text
            self.settings_form.show_settings(source.settings)
        finally:
            self._showing = False
        self._timer.stop()
        if self._problem:
            # a long text reaches the editor late: a problem reported meanwhile stays on show
            self.show_problem(self._problem)
        else:
            self._show_lesson_summary()

    def shown(self, words: Iterable[int] | None = None) -> CorpusShown:
        """The hint line and the word table's rows: those in view, or the rows of ``words``."""
        model = self.words
        if words is None:
            table = self.table
            first, last = table.rowAt(0), table.rowAt(table.viewport().height() - 1)
            if last < 0:
                last = model.rowCount() - 1  # the table ends above the bottom of its view
            words = range(first, last + 1) if first >= 0 else ()
        def cell(r: int, c: int) -> str:
            return str(model.index(r, c).data())

        rows = tuple((w, (cell(w, WORD), cell(w, COUNT), cell(w, TOKENS), cell(w, LENGTH))) for w in words)
        return CorpusShown(self.hint.text(), rows)

    def text(self) -> str:
        if self._full_text is not None:
            return self._full_text
        if self._shown_text is not None:
            return self._shown_text
        return editor_text(self.editor)

    def show_problem(self, message: str) -> None:
        self._problem = message
        self.hint.setText(message)
        self.hint.setProperty("problem", True)
        self._repolish(self.hint)

    # -- from the user -------------------------------------------------------------------------

    def _on_text_changed(self) -> None:
        if not self._showing:
            self._shown_text = None  # edited: the text is what the editor holds now
            self._timer.start()

    def _on_typing_paused(self) -> None:
        self.corpus_requested.emit(self.text(), self.counted.isChecked())

    def flush(self) -> None:
        """Announce typing that is still waiting for its pause (before saving, for instance)."""
        if self._timer.isActive():
            self._timer.stop()
            self._on_typing_paused()

    def _on_mode_toggled(self, button, checked: bool) -> None:
        if checked and not self._showing:
            self._timer.stop()
            self.corpus_requested.emit(self.text(), self.counted.isChecked())

    def _on_preset_picked(self, index: int) -> None:
        key = self.presets.itemData(index)
        self.presets.setCurrentIndex(0)
        if key:
            self.preset_requested.emit(key)

    # -- following the session ----------------------------------------------------------------

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        self._problem = ""
        self._show_lesson_summary()

    def _show_lesson_summary(self) -> None:
        lesson = self.session.lesson
        problem = False
        if lesson.corpus is None:
            text = f"{lesson.origin()} Type or open a text to train a lesson of your own."
        elif lesson.is_empty:
            if lesson.text.strip():
                text = "No words found: the text holds only separators. Type some words."
            elif lesson.text:
                text = "The corpus is only spaces: type some words, or pick a preset above. Stepping is off until then."
            else:
                text = "The corpus is empty: type some words, or pick a preset above. Stepping is off until then."
            problem = True
        else:
            corpus = lesson.corpus
            text = f"{len(corpus):,} distinct words, {sum(corpus.counts):,} in all, {lesson.initial_tokens:,} symbols to start."
            if self._full_text is not None:
                text += f" The box shows the first {PREVIEW // 1000} KB of {len(self._full_text) / 1e6:.1f} MB; it is read-only."
            cautions = lesson.cautions()
            if cautions:
                text += " " + " ".join(cautions)
                problem = True
        self.hint.setText(text)
        self.hint.setProperty("problem", problem)
        self._repolish(self.hint)

    @staticmethod
    def _repolish(widget) -> None:
        widget.style().unpolish(widget)
        widget.style().polish(widget)
