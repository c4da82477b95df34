"""The quiz panel: one question at a time, large, answered with mouse or keyboard alone.

Questions come from a pack (the bundled one, or a file a teacher opens) or are generated from the
lesson on screen. The panel never moves the lesson itself: to show a generated question's answer on
the tiles it emits ``step_requested(step)``, and whoever owns the lesson decides. The lesson comes
in through ``set_lesson`` and ``set_current_step``; progress goes out through ``progress()`` (a
JSON-ready dict the lesson file keeps under "quiz") and comes back through ``restore_progress``.

Keys: Return checks the answer, then moves on; Ctrl+H hint; Ctrl+Return check; Ctrl+N next;
Ctrl+R reveal (teacher mode); Ctrl+T show on the tiles; F11 full screen, Esc to leave it.
"""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
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

from engine.errors import BpeLabError
from engine.quiz.grading import Result, grade
from engine.quiz.questions import Pack, Question
from widgets.quiz.answers import AnswerEditor, editor_for
from widgets.quiz.example_view import ExampleView
from widgets.quiz.feedback import FeedbackBox, points
from widgets.quiz.lesson_questions import LessonQuestions
from widgets.quiz.style import style_sheet
from widgets.quiz.text import markdown_text

PROGRESS_VERSION = 1
BUNDLED, LESSON = "bundled", "lesson"



class QuizPanel(QWidget):
    # ask the lesson to go to a step (to show a generated question's answer on the tiles)
    step_requested = Signal(int)
    # the score or position changed: the lesson file has something new to save
    progress_changed = Signal()

    def __init__(self, pack: Pack | None = None, parent: QWidget | None = None, scale: float = 1.0):
        super().__init__(parent)
        if pack is None:
            from resources.quiz import bundled_pack

            pack = bundled_pack()
        self._packs: dict[str, Pack] = {BUNDLED: pack}
        self._source = BUNDLED
        self._questions: list[Question] = list(pack.questions)
        self._index = 0
        self._answers: dict[str, dict] = {}
        self._result: Result | None = None
        self._revealed = False
        self._hinted = False
        self._teacher = False
        self.lesson_questions = LessonQuestions(self)
        self.lesson_questions.ready.connect(self._on_lesson_question)
        self.lesson_questions.exhausted.connect(self._on_lesson_exhausted)
        self.lesson_questions.failed.connect(self._say)
        self._editor: AnswerEditor | None = None
        self._scale = scale
        self._full = False
        self._build()
        self.set_scale(scale)
        self._show_question()

    # -- building -----------------------------------------------------------------------------

    def _build(self) -> None:
        self.source_box = QComboBox()
        self.source_box.setAccessibleName("Questions from")
        self.source_box.addItem(f"Pack: {self._packs[BUNDLED].title or 'bundled'}", BUNDLED)
        self.source_box.addItem("From this lesson", LESSON)
        self.source_box.activated.connect(lambda i: self.set_source(self.source_box.itemData(i)))
        # a long pack title must not widen the whole window: the box shows what fits
        self.source_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.source_box.setMinimumContentsLength(12)
        open_button = QPushButton("Open pack…")
        open_button.clicked.connect(self._ask_pack_file)
        self.examples_button = QPushButton("Worked examples")
        self.examples_button.clicked.connect(self.show_examples)
        self.teacher_box = QCheckBox("Teacher mode")
        self.teacher_box.setToolTip("Hide the answer feedback until you reveal it (Ctrl+R)")
        self.teacher_box.toggled.connect(self.set_teacher_mode)
        self.full_button = QPushButton("Full screen")
        self.full_button.setToolTip("Show this question full screen (F11; Esc to leave)")
        self.full_button.clicked.connect(lambda: self.set_full_screen(not self.is_full_screen()))
        self.chrome = QWidget()
        self.chrome.setObjectName("chrome")
        top = QHBoxLayout(self.chrome)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(QLabel("Questions:"))
        top.addWidget(self.source_box, 1)
        top.addWidget(open_button)
        top.addWidget(self.examples_button)
        top.addStretch(1)
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
        self.feedback = FeedbackBox()
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
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(page)
        self.message = QLabel()
        self.message.setObjectName("prompt")
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.example_view = ExampleView()
        self.example_view.closed.connect(self._close_examples)
        self.stack = QStackedWidget()
        self.stack.addWidget(scroll)
        self.stack.addWidget(self.message)
        self.stack.addWidget(self.example_view)

        self.hint_button = QPushButton("Hint")
        self.hint_button.setToolTip("Ctrl+H")
        self.hint_button.clicked.connect(self.show_hint)
        self.check_button = QPushButton("Check")
        self.check_button.setToolTip("Return or Ctrl+Return")
        self.check_button.clicked.connect(self.check)
        self.reveal_button = QPushButton("Reveal answer")
        self.reveal_button.setToolTip("Ctrl+R: show the class whether it was right")
        self.reveal_button.clicked.connect(self.reveal)
        self.tiles_button = QPushButton("Show on the tiles")
        self.tiles_button.setToolTip("Ctrl+T: step the lesson to where the answer shows")
        self.tiles_button.clicked.connect(self.show_on_tiles)
        self.next_button = QPushButton("Next question")
        self.next_button.setToolTip("Ctrl+N")
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

        keys = {
            "Ctrl+Return": self.check, "Ctrl+Enter": self.check, "Ctrl+H": self.show_hint,
            "Ctrl+N": self.next_question, "Ctrl+R": self.reveal, "Ctrl+T": self.show_on_tiles,
            "F11": lambda: self.set_full_screen(not self.is_full_screen()),
        }
        for key, slot in keys.items():
            QShortcut(QKeySequence(key), self, context=Qt.ShortcutContext.WidgetWithChildrenShortcut).activated.connect(slot)

    def set_scale(self, scale: float) -> None:
        """Type size: 1 is already large (read from the back of a class); the projector may go higher."""
        self._scale = scale
        self.setStyleSheet(style_sheet(scale))

    # -- sources ------------------------------------------------------------------------------

    @property
    def pack(self) -> Pack:
        """The pack whose questions are shown (for the lesson: its generated misconceptions)."""
        if self._source == LESSON:
            from engine.quiz.generated import MISCONCEPTIONS

            return Pack("From this lesson", tuple(self._questions), dict(MISCONCEPTIONS))
        return self._packs[self._source]

    def add_pack(self, pack: Pack, key: str | None = None) -> None:
        """Offer a pack and switch to it. Its problems, if any, show above the question."""
        key = key or f"file:{pack.source}"
        if key not in self._packs:
            self.source_box.addItem(f"Pack: {pack.title or Path(pack.source).name}", key)
        self._packs[key] = pack
        self.set_source(key)
        if pack.errors:
            shown = "\n".join(pack.errors[:4]) + (f"\n… and {len(pack.errors) - 4} more" if len(pack.errors) > 4 else "")
            self._say(f"{len(pack.questions)} questions loaded; {len(pack.errors)} problem"
                      f"{'s' if len(pack.errors) != 1 else ''}:\n{shown}")

    def open_pack(self, path: str) -> bool:
        """Load a pack file (JSON or Markdown); a file with no good question is refused with the reason."""
        from engine.quiz.packs import load_pack

        try:
            pack = load_pack(path)
        except BpeLabError as exc:
            self._say(str(exc))
            return False
        if not pack.questions:
            self._say(f"{path}: no question could be loaded. " + " ".join(pack.errors[:3]))
            return False
        self.add_pack(pack, f"file:{path}")
        return True

    def _ask_pack_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open a quiz pack", "", "Quiz packs (*.json *.md);;All files (*)")
        if path:
            self.open_pack(path)

    def set_source(self, key: str) -> None:
        if key not in self._packs and key != LESSON:
            return
        self._source = key
        self.source_box.setCurrentIndex(self.source_box.findData(key))
        self._say("")
        self._questions = [] if key == LESSON else list(self._packs[key].questions)
        self._index = 0
        self.examples_button.setVisible(bool(self.pack.examples))
        self._show_question()
        if key == LESSON:
            self._ask_lesson()
        self.progress_changed.emit()

    @property
    def source(self) -> str:
        return self._source

    # -- the lesson ---------------------------------------------------------------------------

    def set_lesson(self, history, current_step: int = 0) -> None:
        """The lesson on screen: its history index (``engine.history.History``, or None), and where it is."""
        self.lesson_questions.set_lesson(history, current_step)
        if self._source == LESSON:
            # questions about the old corpus would now be wrong
            self._questions = []
            self._index = 0
            self._ask_lesson()

    def set_current_step(self, k: int) -> None:
        questions = self.lesson_questions
        questions.set_step(k)
        if self._source != LESSON:
            return
        # a question not answered yet about another step would contradict the tiles: ask anew
        stale = questions.asked_step != k and (questions.pending or self._result is None)
        if stale or (not self._questions and not questions.pending):
            self._ask_lesson()

    def _ask_lesson(self) -> None:
        self.lesson_questions.ask()
        self._refresh_lesson_view()

    def _on_lesson_question(self, question: Question) -> None:
        if self._source != LESSON:
            return
        self._questions.append(question)
        self._index = len(self._questions) - 1
        self._show_question()
        self.progress_changed.emit()

    def _on_lesson_exhausted(self) -> None:
        if self._source == LESSON:
            self._refresh_lesson_view()

    def _refresh_lesson_view(self) -> None:
        """With no question yet, say why (no lesson, building, nothing to ask); else keep the one shown."""
        if not self._questions:
            self._show_question()
        else:
            self._update_buttons()

    # -- showing a question -------------------------------------------------------------------

    def current_question(self) -> Question | None:
        return self._questions[self._index] if 0 <= self._index < len(self._questions) else None

    @property
    def editor(self) -> AnswerEditor | None:
        return self._editor

    def _show_question(self) -> None:
        if self._editor is not None:
            self._editor.setParent(None)
            self._editor.deleteLater()
            self._editor = None
        self._result = None
        self._revealed = False
        self._hinted = False
        self.hint.hide()
        self.feedback.hide()
        question = self.current_question()
        if question is None:
            if self._source == LESSON:
                if self.lesson_questions.live is None:
                    self.message.setText("Open or train a lesson first: the questions are built from its corpus and merges.")
                elif self.lesson_questions.pending:
                    self.message.setText("Building a question from the lesson…")
                else:
                    self.message.setText("No question can be asked at this step.")
            else:
                self.message.setText("This pack has no questions.")
            self.stack.setCurrentWidget(self.message)
            self._update_buttons()
            self._update_status()
            return
        self.stack.setCurrentIndex(0)
        self.title.setText(question.title or "Question")
        self.prompt.setText(markdown_text(question.prompt))
        self.prompt.setVisible(bool(question.prompt))
        self._editor = editor_for(question, seed=self._index)
        self._editor.submitted.connect(self._on_submitted)
        self.editor_holder.addWidget(self._editor)
        # shown now, not on the next event-loop turn: its keys and focus must work at once
        self._editor.show()
        self._update_buttons()
        self._update_status()
        self._editor.focus_first()

    def _update_status(self) -> None:
        question = self.current_question()
        if question is None:
            position = ""
        elif self._source == LESSON:
            position = f"Lesson question {self._index + 1}"
        else:
            position = f"Question {self._index + 1} of {len(self._questions)}"
        if question is not None and question.id in self._answers and self._result is None:
            # a second try is welcome, but the score keeps the first
            position += " · answered before"
        self.position_label.setText(position)
        score, answered = self.score()
        self.score_label.setText(f"Score: {points(score)} of {answered}" if answered else "Score: nothing answered yet")

    def _update_buttons(self) -> None:
        question = self.current_question()
        checked = self._result is not None
        self.hint_button.setEnabled(question is not None and bool(question.hint) and not self._hinted)
        self.check_button.setEnabled(question is not None and not checked)
        self.reveal_button.setVisible(self._teacher)
        self.reveal_button.setEnabled(checked and not self._revealed)
        on_tiles = question is not None and question.reveal_step is not None
        self.tiles_button.setVisible(on_tiles)
        self.tiles_button.setEnabled(on_tiles and checked and self._revealed)
        more = self._source == LESSON or self._index + 1 < len(self._questions)
        self.next_button.setEnabled(question is not None and more and not self.lesson_questions.pending)
        self.next_button.setText("Next question" if self._source == LESSON or more else "Last question")

    def _say(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    # -- answering ----------------------------------------------------------------------------

    @Slot()
    def _on_submitted(self) -> None:
        if self._result is None:
            self.check()
        elif self._teacher and not self._revealed:
            self.reveal()
        else:
            self.next_question()

    def check(self) -> Result | None:
        question = self.current_question()
        if question is None or self._editor is None or self._result is not None:
            return None
        result = grade(question, self._editor.answer(), self.pack.misconceptions)
        if not result.valid:
            self._show_feedback(result, hidden=False)
            return result
        self._result = result
        self._answers.setdefault(question.id, {"score": result.score, "correct": result.correct})
        self._editor.set_locked(True)
        self._revealed = not self._teacher
        self._show_feedback(result, hidden=self._teacher)
        self._update_buttons()
        self._update_status()
        (self.reveal_button if self._teacher else self.next_button).setFocus()
        self.progress_changed.emit()
        return result

    def _show_feedback(self, result: Result, hidden: bool) -> None:
        if not result.valid:
            self.feedback.show_note(result.message)
        elif hidden:
            self.feedback.show_note("Answer checked.", "Press Reveal answer (Ctrl+R) to show the class.")
        else:
            self.feedback.show_result(result, self.current_question())
            if self._editor is not None and result.parts:
                self._editor.show_parts(result.parts)

    def show_hint(self) -> None:
        question = self.current_question()
        if question is None or not question.hint:
            return
        self._hinted = True
        self.hint.setText(f"Hint: {question.hint}")
        self.hint.show()
        self._update_buttons()

    def reveal(self) -> None:
        if self._result is None or self._revealed:
            return
        self._revealed = True
        self._show_feedback(self._result, hidden=False)
        self._update_buttons()
        self.next_button.setFocus()

    def show_on_tiles(self) -> None:
        question = self.current_question()
        if question is None or question.reveal_step is None or self._result is None or not self._revealed:
            return
        self.step_requested.emit(question.reveal_step)

    def next_question(self) -> None:
        if self._source == LESSON:
            if not self.lesson_questions.pending:
                self._ask_lesson()
            return
        if self._index + 1 < len(self._questions):
            self._index += 1
        else:
            return
        self._show_question()
        self.progress_changed.emit()

    def go_to(self, index: int) -> None:
        if self._source != LESSON and 0 <= index < len(self._questions):
            self._index = index
            self._show_question()

    def score(self) -> tuple[float, int]:
        """(points, questions answered): each question counts its first checked answer, 0 to 1."""
        return sum(a["score"] for a in self._answers.values()), len(self._answers)

    # -- teacher mode and full screen ---------------------------------------------------------

    def set_teacher_mode(self, on: bool) -> None:
        self._teacher = bool(on)
        if self.teacher_box.isChecked() != self._teacher:
            self.teacher_box.setChecked(self._teacher)
        if not self._teacher and self._result is not None and not self._revealed:
            self.reveal()
        self._update_buttons()

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

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape and self.is_full_screen():
            self.set_full_screen(False)
            return
        super().keyPressEvent(event)

    # -- worked examples ----------------------------------------------------------------------

    def show_examples(self) -> None:
        examples = self.pack.examples
        if not examples:
            return
        self.example_view.set_examples(examples)
        self.stack.setCurrentWidget(self.example_view)
        self.buttons.hide()
        self.example_view.setFocus()

    def _close_examples(self) -> None:
        self.buttons.show()
        self._show_question()

    # -- progress -----------------------------------------------------------------------------

    def progress(self) -> dict:
        """What the lesson file keeps under "quiz": source, position, each answered question's score."""
        return {
            "version": PROGRESS_VERSION,
            "source": self._source,
            "position": self._index if self._source != LESSON else 0,
            "answers": {k: dict(v) for k, v in self._answers.items()},
            "teacher_mode": self._teacher,
        }

    def restore_progress(self, data: dict) -> None:
        """Take back what ``progress()`` gave; anything malformed is left out, never an error."""
        if not isinstance(data, dict) or not data:
            return
        answers = {}
        raw = data.get("answers")
        if isinstance(raw, dict):
            for key, entry in raw.items():
                if not isinstance(key, str) or not isinstance(entry, dict):
                    continue
                score = entry.get("score")
                if isinstance(score, (int, float)) and not isinstance(score, bool) and math.isfinite(score):
                    answers[key] = {"score": min(1.0, max(0.0, float(score))), "correct": bool(entry.get("correct"))}
        self._answers = answers
        self.set_teacher_mode(bool(data.get("teacher_mode", False)))
        source = data.get("source", BUNDLED)
        if isinstance(source, str) and source.startswith("file:") and source not in self._packs:
            if not self.open_pack(source[len("file:"):]):
                source = BUNDLED
        if source not in self._packs and source != LESSON:
            source = BUNDLED
        self.set_source(source)
        position = data.get("position", 0)
        if source != LESSON and isinstance(position, int) and not isinstance(position, bool):
            self.go_to(position)
        self._update_status()

