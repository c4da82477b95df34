"""The quiz panel: one question at a time, large, answered with mouse or keyboard alone.

The panel is a view of a ``QuizProgress`` (engine/quiz/progress.py), which holds the questions, the
score and every rule of the quiz: a click or key becomes a session call, then the panel shows the
session again. Questions come from a pack (the bundled one, or a file a teacher opens) or are
generated from the lesson on screen. The panel never moves the lesson itself: to show a generated
question's answer on the tiles it emits ``step_requested(step)``, and whoever owns the lesson
decides. The lesson comes in through ``set_lesson`` and ``set_current_step``; progress goes out
through ``progress()`` (a JSON-ready dict the lesson file keeps under "quiz") and comes back
through ``restore_progress``.

Keys: the digits pick an option wherever the focus is in the panel (the question's text too);
Return checks the answer, then moves on; Ctrl+H hint; Ctrl+Return check; Alt+Right next;
Ctrl+R reveal (teacher mode); Ctrl+T show on the tiles; F11 full screen, Esc to leave it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from engine.quiz.grading import Result
from engine.quiz.images import ImageFiles
from engine.quiz.questions import Pack, Question
from engine.quiz.progress import QuizProgress
from resources.quiz import bundled_pack
from widgets import shortcuts
from widgets.flow import FlowLayout, group
from widgets.quiz.answers import AnswerEditor, editor_for
from widgets.quiz.example_view import ExampleView
from widgets.quiz.feedback import FeedbackBox
from widgets.quiz.lesson_questions import LessonQuestions
from widgets.quiz.style import style_sheet
from widgets.quiz.text import markdown_text, pack_folder


@dataclass(frozen=True)
class QuizShown:
    """What the quiz panel shows: the question's title and prompt as plain text (empty with no
    question up), the line that stands in for a question (empty with one up), and the position."""

    title: str
    prompt: str
    message: str
    position: str


class QuizPanel(QWidget):
    # ask the lesson to go to a step (to show a generated question's answer on the tiles)
    step_requested = Signal(int)
    # ask whoever shows the views to show the tiles (after a step_requested, to see the answer there)
    tiles_requested = Signal()
    # the score or position changed: the lesson file has something new to save
    progress_changed = Signal()
    # True while a question about the lesson on screen awaits its answer, in sight: the lesson's
    # other views (the pairs and their counts) would give it away meanwhile; False once revealed
    answer_pending_changed = Signal(bool)
    # another question (or none) is up: a class vote follows what the quiz asks
    question_shown = Signal()

    def __init__(self, pack: Pack | None = None, parent: QWidget | None = None, scale: float = 1.0):
        super().__init__(parent)
        self.setObjectName("quiz")  # the window's theme colours the quiz's boxes by this name
        if pack is None:
            pack = bundled_pack()
        self.lesson_questions = LessonQuestions(self)
        self.lesson_questions.ready.connect(self._on_lesson_question)
        self.lesson_questions.exhausted.connect(self._on_lesson_exhausted)
        self.lesson_questions.failed.connect(self._on_lesson_failed)
        self.session = QuizProgress(pack, self.lesson_questions)
        self._editor: AnswerEditor | None = None
        self._shown_visit = -1  # the session's visit the editor belongs to
        self._images = ImageFiles()  # each image of a pack read once, however often it is shown
        self._examples_open = False
        self._saved_progress = self.session.progress()  # the last progress announced
        self._scale = scale
        self._least_px = 0
        self._full = False
        self._step_behind: int | None = None  # the lesson's step, while hidden and not yet asked about
        self._pending = False  # what answer_pending_changed last said
        self._build()
        self.set_scale(scale)
        self._render()

    # -- building -----------------------------------------------------------------------------

    def _build(self) -> None:
        self.source_box = QComboBox()
        self.source_box.setAccessibleName("Questions from")
        self.source_box.activated.connect(lambda i: self.set_source(self.source_box.itemData(i)))
        # a long pack title must not widen the whole window: the box shows what fits
        self.source_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.source_box.setMinimumContentsLength(20)
        open_button = QPushButton("Open pack…")
        open_button.clicked.connect(self._ask_pack_file)
        self.examples_button = QPushButton("Worked examples")
        self.examples_button.clicked.connect(self.show_examples)
        self.teacher_box = QCheckBox("Teacher mode")
        self.teacher_box.setToolTip("Hide the answer feedback until you reveal it (" + shortcuts.key_text("quiz reveal") + ")")
        self.teacher_box.toggled.connect(self.set_teacher_mode)
        self.full_button = QPushButton("Full screen")
        self.full_button.setToolTip("Show this question full screen (F11; Esc to leave)")
        self.full_button.clicked.connect(lambda: self.set_full_screen(not self.is_full_screen()))
        self.chrome = QWidget()
        self.chrome.setObjectName("chrome")
        # a row that wraps rather than clips at a projector's type on a small screen
        top = FlowLayout(self.chrome)
        top.addWidget(group(QLabel("Questions:"), self.source_box))
        top.addWidget(open_button)
        top.addWidget(self.examples_button)
        top.addWidget(self.teacher_box)
        top.addWidget(self.full_button)

        self.notice = QLabel()
        self.notice.setObjectName("notice")
        self.notice.setWordWrap(True)
        self.notice.hide()
        self.position_label = QLabel()
        self.position_label.setObjectName("score")
        self.score_label = QLabel()
        self.score_label.setObjectName("score")
        status = QHBoxLayout()
        status.addWidget(self.position_label)
        status.addStretch(1)
        status.addWidget(self.score_label)

        self.title = QLabel()
        self.title.setObjectName("title")
        self.title.setWordWrap(True)
        self.prompt = QLabel()
        self.prompt.setObjectName("prompt")
        self.prompt.setTextFormat(Qt.TextFormat.MarkdownText)
        self.prompt.setWordWrap(True)
        self.editor_holder = QVBoxLayout()
        self.hint = QLabel()
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        self.hint.hide()
        self.feedback = FeedbackBox(markdown=self._markdown)
        # the parts, for tests and for whoever reads the panel aloud
        self.verdict, self.why, self.misconception = self.feedback.verdict, self.feedback.why, self.feedback.misconception

        page = QWidget()
        body = QVBoxLayout(page)
        body.addWidget(self.title)
        body.addWidget(self.prompt)
        body.addSpacing(8)
        body.addLayout(self.editor_holder)
        body.addWidget(self.hint)
        body.addWidget(self.feedback)
        body.addStretch(1)
        self.question_page = QScrollArea()
        self.question_page.setWidgetResizable(True)
        self.question_page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.question_page.setFrameShape(QFrame.Shape.NoFrame)
        self.question_page.setWidget(page)
        # a click anywhere on the question (its text too) puts the focus in the panel, where the digits answer
        self.question_page.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.message = QLabel()
        self.message.setObjectName("prompt")
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.example_view = ExampleView(markdown=self._markdown)
        self.example_view.closed.connect(self._close_examples)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.question_page)
        self.stack.addWidget(self.message)
        self.stack.addWidget(self.example_view)

        self.hint_button = QPushButton("Hint")
        self.hint_button.setToolTip(shortcuts.key_text("quiz hint"))
        self.hint_button.clicked.connect(self.show_hint)
        self.check_button = QPushButton("Check")
        self.check_button.setToolTip("Return or " + shortcuts.key_text("quiz check"))
        self.check_button.clicked.connect(self.check)
        self.reveal_button = QPushButton("Reveal answer")
        self.reveal_button.setToolTip(shortcuts.key_text("quiz reveal") + ": show the class whether it was right")
        self.reveal_button.clicked.connect(self.reveal)
        self.tiles_button = QPushButton("Show on the tiles")
        self.tiles_button.setToolTip(shortcuts.key_text("quiz tiles") + ": step the lesson to where the answer shows")
        self.tiles_button.clicked.connect(self.show_on_tiles)
        self.next_button = QPushButton("Next question")
        self.next_button.setToolTip(shortcuts.key_text("quiz next"))
        self.next_button.clicked.connect(self.next_question)
        self.buttons = QWidget()
        row = QHBoxLayout(self.buttons)
        row.setContentsMargins(0, 0, 0, 0)
        for b in (self.hint_button, self.check_button, self.reveal_button, self.tiles_button, self.next_button):
            b.setAutoDefault(True)  # Return presses the focused button, as Space does
        for b in (self.hint_button, self.check_button, self.reveal_button, self.tiles_button):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(self.next_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.chrome)
        layout.addWidget(self.notice)
        layout.addLayout(status)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.buttons)

        for name, what, slot in (
            ("quiz check", "Check the answer", self.check), ("quiz hint", "Show a hint", self.show_hint),
            ("quiz next", "Next question", self.next_question),
            ("quiz reveal", "Reveal the answer (teacher mode)", self.reveal),
            ("quiz tiles", "Show the answer on the tiles", self.show_on_tiles),
            ("quiz full screen", "Full screen quiz (Esc leaves)", lambda: self.set_full_screen(not self.is_full_screen())),
        ):
            shortcuts.shortcut(self, name, what, slot)

    def set_scale(self, scale: float, least_px: int | None = None) -> None:
        """Type size: 1 is already large (read from the back of a class); the projector may go higher,
        and may ask that no text (the teacher's controls neither) be smaller than ``least_px``."""
        self._scale = scale
        if least_px is not None:
            self._least_px = least_px
        self.setStyleSheet(style_sheet(scale, self._least_px))

    @property
    def scale(self) -> float:
        return self._scale

    def shown(self) -> QuizShown:
        """The question on screen as the labels render it (for tests and accessibility)."""
        page = self.stack.currentWidget()
        if page is not self.question_page:
            message = self.message.text() if page is self.message else ""
            return QuizShown("", "", message, self.position_label.text())
        document = QTextDocument()
        document.setMarkdown(self.prompt.text())
        prompt = document.toPlainText().strip() if self.prompt.isVisibleTo(self) else ""
        return QuizShown(self.title.text(), prompt, "", self.position_label.text())

    # -- showing the session ------------------------------------------------------------------

    def _render(self) -> None:
        """Show what the session holds; a question put up since the last time gets a fresh editor."""
        s = self.session
        self._sync_sources()
        self._say(s.notice)
        if self.teacher_box.isChecked() != s.teacher_mode:
            self.teacher_box.blockSignals(True)
            self.teacher_box.setChecked(s.teacher_mode)
            self.teacher_box.blockSignals(False)
        self.examples_button.setVisible(bool(s.pack.examples or s.pack.readings))
        self.examples_button.setText("Examples and reading" if s.pack.readings else "Worked examples")
        fresh = s.visit != self._shown_visit
        if fresh:
            self._put_up(s.question)
        if not self._examples_open:
            self.stack.setCurrentWidget(self.question_page if s.question is not None else self.message)
        self.message.setText(s.empty_reason())
        self._render_answer()
        self._render_buttons()
        self._say_pending()
        self.position_label.setText(s.position_text())
        self.score_label.setText(s.score_text())
        if fresh and self._editor is not None and not self._examples_open:
            self._editor.focus_first()
        if fresh:
            self.question_shown.emit()
        progress = s.progress()
        if progress != self._saved_progress:
            self._saved_progress = progress
            self.progress_changed.emit()

    def _sync_sources(self) -> None:
        sources = self.session.sources()
        listed = [(self.source_box.itemData(i), self.source_box.itemText(i)) for i in range(self.source_box.count())]
        if listed != sources:
            self.source_box.clear()
            for key, label in sources:
                self.source_box.addItem(label, key)
        self.source_box.setCurrentIndex(self.source_box.findData(self.session.source))
        self.source_box.setToolTip(self.source_box.currentText())

    def _markdown(self, text: str) -> str:
        """Text of the pack on show for a label, its images read from the pack's own folder."""
        return markdown_text(text, pack_folder(self.session.pack.source), self._images)

    def _put_up(self, question: Question | None) -> None:
        self._shown_visit = self.session.visit
        if self._editor is not None:
            self._editor.setParent(None)
            self._editor.deleteLater()
            self._editor = None
        if question is None:
            return
        self.title.setText(question.title or "Question")
        self.prompt.setText(self._markdown(question.prompt))
        self.prompt.setVisible(bool(question.prompt))
        self._editor = editor_for(question, seed=self.session.index, markdown=self._markdown)
        self._editor.submitted.connect(self._on_submitted)
        self.editor_holder.addWidget(self._editor)
        # shown now, not on the next event-loop turn: its keys and focus must work at once
        self._editor.show()

    def _render_answer(self) -> None:
        s, question = self.session, self.session.question
        self.hint.setVisible(s.hinted)
        if s.hinted and question is not None:
            self.hint.setText(f"Hint: {question.hint}")
        result = s.result
        # with no question on screen nothing is answered: at most the session's refusal shows
        if result is None or question is None:
            if s.refusal:
                self.feedback.show_note(s.refusal)
            else:
                self.feedback.hide()
        elif not s.revealed:
            self.feedback.show_note("Answer checked.", "Press Reveal answer (" + shortcuts.key_text("quiz reveal") + ") to show the class.")
        else:
            self.feedback.show_result(result, question)
            if self._editor is not None and result.parts:
                self._editor.show_parts(result.parts)
        if self._editor is not None:
            self._editor.set_locked(result is not None)

    def _render_buttons(self) -> None:
        s, question = self.session, self.session.question
        self.hint_button.setEnabled(s.can_hint)
        self.check_button.setEnabled(s.can_check)
        self.reveal_button.setVisible(s.teacher_mode)
        self.reveal_button.setEnabled(s.can_reveal)
        on_tiles = question is not None and question.reveal_step is not None
        self.tiles_button.setVisible(on_tiles)
        self.tiles_button.setEnabled(s.tiles_step() is not None)
        self.next_button.setEnabled(s.can_go_next)
        self.next_button.setText("Next question" if s.has_more else "Last question")

    def _say(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    # -- sources ------------------------------------------------------------------------------

    @property
    def pack(self) -> Pack:
        """The pack whose questions are shown (for the lesson: its generated misconceptions)."""
        return self.session.pack

    @property
    def source(self) -> str:
        return self.session.source

    def add_pack(self, pack: Pack, key: str | None = None) -> None:
        """Offer a pack and switch to it. Its problems, if any, show above the question."""
        self.session.add_pack(pack, key)
        self._render()

    def open_pack(self, path: str) -> bool:
        """Load a pack file (JSON or Markdown); a file with no good question is refused with the reason."""
        opened = self.session.open_pack(path)
        self._render()
        return opened

    def _ask_pack_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a quiz pack", "", "Quiz packs (*.json *.md);;All files (*)")
        if path:
            self.open_pack(path)

    def set_source(self, key: str) -> None:
        self.session.set_source(key)
        self._render()

    # -- the lesson ---------------------------------------------------------------------------

    def set_lesson(self, history, current_step: int = 0) -> None:
        """The lesson on screen: its history index (``engine.lesson.history.History``, or None), and where it is."""
        self._step_behind = None
        self.lesson_questions.set_lesson(history, current_step)
        self.session.lesson_changed(current_step)
        self._render()

    def set_current_step(self, k: int) -> None:
        self.lesson_questions.set_step(k)
        if not self.isVisible():
            # a quiz behind another tab builds no question per step (on a large lesson each takes
            # a thread a good part of a second): it asks about the step on screen when shown
            self._step_behind = k
            return
        self._step_behind = None
        if self.session.step_changed(k):
            self._render()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._step_behind is not None:
            self.set_current_step(self._step_behind)
        self._say_pending()

    def hideEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().hideEvent(event)
        self._say_pending()

    def answer_pending(self) -> bool:
        """Whether a question about the live lesson is in sight and its answer not yet shown."""
        question = self.session.question
        return (self.isVisible() and question is not None and question.reveal_step is not None
                and not self.session.revealed)

    def _say_pending(self) -> None:
        pending = self.answer_pending()
        if pending != self._pending:
            self._pending = pending
            self.answer_pending_changed.emit(pending)

    def _on_lesson_question(self, question: Question) -> None:
        self.session.add_lesson_question(question)
        self._render()

    def _on_lesson_exhausted(self) -> None:
        self._render()

    def _on_lesson_failed(self, message: str) -> None:
        self.session.lesson_failed(message)
        self._render()

    # -- the question on screen ---------------------------------------------------------------

    def current_question(self) -> Question | None:
        return self.session.question

    @property
    def editor(self) -> AnswerEditor | None:
        return self._editor

    @Slot()
    def _on_submitted(self) -> None:
        action = self.session.return_action()
        if action == "check":
            self.check()
        elif action == "reveal":
            self.reveal()
        else:
            self.next_question()

    def check(self) -> Result | None:
        if self._editor is None:
            return None
        result = self.session.check(self._editor.answer())
        self._render()
        if result is not None and result.valid:
            (self.next_button if self.session.revealed else self.reveal_button).setFocus()
        self._scroll_to_feedback()
        return result

    def _scroll_to_feedback(self) -> None:
        self._scroll_to(self.feedback)

    def _scroll_to(self, widget: QWidget) -> None:
        # the verdict or the hint may sit below the fold on a small screen or in a projector's
        # large type, so it is brought into view once laid out
        QTimer.singleShot(0, self, lambda: self.question_page.ensureWidgetVisible(widget, 0, 0))

    def show_hint(self) -> None:
        if self.session.show_hint():
            self._render()
            self._scroll_to(self.hint)

    def reveal(self) -> None:
        if self.session.reveal():
            self._render()
            self.next_button.setFocus()
            self._scroll_to_feedback()

    def show_on_tiles(self) -> None:
        step = self.session.tiles_step()
        if step is not None:
            self.step_requested.emit(step)
            self.tiles_requested.emit()

    def next_question(self) -> None:
        self.session.next()
        self._render()

    def go_to(self, index: int) -> None:
        if self.session.go_to(index):
            self._render()

    def score(self) -> tuple[float, int]:
        """(points, questions answered): each question counts its first checked answer, 0 to 1."""
        return self.session.score()

    # -- teacher mode and full screen ---------------------------------------------------------

    @property
    def teacher_mode(self) -> bool:
        return self.session.teacher_mode

    def set_teacher_mode(self, on: bool) -> None:
        self.session.set_teacher_mode(on)
        self._render()

    def set_full_screen_offered(self, on: bool) -> None:
        """Whether the row offers the quiz full screen (classroom mode is full screen already)."""
        self.full_button.setVisible(on)

    @property
    def full_screen_offered(self) -> bool:
        return not self.full_button.isHidden()

    def is_full_screen(self) -> bool:
        return self._full

    def set_full_screen(self, on: bool) -> None:
        """The question alone on the whole screen, for the class; Esc (or F11) brings it back."""
        if on == self._full:
            return
        self._full = on
        self.chrome.setVisible(not on)
        if self.parent() is None:
            self.showFullScreen() if on else self.showNormal()
        else:
            # a child widget becomes its own window and back, keeping its place in the layout
            self.setWindowFlag(Qt.WindowType.Window, on)
            self.showFullScreen() if on else self.show()
        self.set_scale(self._scale * (1.4 if on else 1 / 1.4))

    def takes_digit(self, n: int) -> bool:
        """Whether the digit key ``n`` answers the question on screen (an open choice with n options)."""
        editor = self._editor
        return (editor is not None and not editor.locked and self.stack.currentWidget() is self.question_page
                and 1 <= n <= editor.numbered_options())

    def answer_digit(self, n: int) -> bool:
        """Pick option ``n`` of the question on screen, as the digit key does; False if it has none."""
        editor = self._editor
        return self.takes_digit(n) and editor is not None and editor.pick_number(n)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape and self.is_full_screen():
            self.set_full_screen(False)
            return
        # a digit that no child took (a text box types it) picks an option, whatever has the focus
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        digit = event.key() - Qt.Key.Key_0
        if mods == Qt.KeyboardModifier.NoModifier and self.answer_digit(digit):
            return
        super().keyPressEvent(event)

    # -- worked examples ----------------------------------------------------------------------

    def show_examples(self) -> None:
        examples, readings = self.session.pack.examples, self.session.pack.readings
        if not examples and not readings:
            return
        self._examples_open = True
        self.example_view.set_examples(examples, readings)
        self.stack.setCurrentWidget(self.example_view)
        self.buttons.hide()
        self.example_view.setFocus()

    def _close_examples(self) -> None:
        self._examples_open = False
        self.buttons.show()
        self._render()
        if self._editor is not None:
            self._editor.focus_first()

    # -- progress -----------------------------------------------------------------------------

    def progress(self) -> dict:
        """What the lesson file keeps under "quiz": source, position, each answered question's score."""
        return self.session.progress()

    def restore_progress(self, data: dict) -> None:
        """Take back what ``progress()`` gave; damaged parts are left out, unreadable data is refused
        with a notice, never an error."""
        self.session.restore_progress(data)
        self._render()
