"""A worked example, one Markdown step at a time, with ← / → (or the buttons) to step through.

The same picker offers the reading a pack brings (a concept page's explanation sections): one
text, no steps.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QVBoxLayout, QWidget

from widgets.flow import FlowLayout

from engine.quiz.questions import Reading, WorkedExample
from widgets.quiz.text import Markdown, markdown_text


class ExampleView(QWidget):
    closed = Signal()

    def __init__(self, parent=None, markdown: Markdown = markdown_text):
        super().__init__(parent)
        self.markdown = markdown
        self.examples: list[WorkedExample] = []
        self.readings: list[Reading] = []
        self.index = 0
        self.step = 0
        self.picker = QComboBox()
        self.picker.setAccessibleName("Worked example")
        self.picker.currentIndexChanged.connect(self._pick)
        # a long example title is shortened in the closed box (the list shows it whole), not the view widened
        self.picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.picker.setMinimumContentsLength(12)
        self.body = QLabel()
        self.body.setTextFormat(Qt.TextFormat.MarkdownText)
        self.body.setWordWrap(True)
        self.body.setObjectName("prompt")
        self.counter = QLabel()
        self.counter.setObjectName("score")
        self.text = QLabel()
        self.text.setTextFormat(Qt.TextFormat.MarkdownText)
        self.text.setWordWrap(True)
        self.text.setObjectName("exampleStep")
        self.previous = QPushButton("← Previous step")
        self.next = QPushButton("Next step →")
        back = QPushButton("Back to the questions")
        self.previous.clicked.connect(lambda: self.go(self.step - 1))
        self.next.clicked.connect(lambda: self.go(self.step + 1))
        back.clicked.connect(self.closed)
        # the buttons take a second row on a narrow window or at a large zoom rather than widen it
        buttons = FlowLayout()
        for button in (self.previous, self.next, back):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.picker)
        layout.addWidget(self.body)
        layout.addWidget(self.counter)
        layout.addWidget(self.text, 1, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(buttons)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def set_examples(self, examples, readings=()) -> None:
        self.examples = list(examples)
        self.readings = list(readings)
        self.picker.blockSignals(True)
        self.picker.clear()
        self.picker.addItems([e.title for e in self.examples] + [f"Reading: {r.title}" for r in self.readings])
        self.picker.blockSignals(False)
        self._pick(0)

    def _pick(self, index: int) -> None:
        self.index = max(0, index)
        self.go(0)

    def go(self, step: int) -> None:
        if self.index >= len(self.examples):
            self._read(self.index - len(self.examples))
            return
        example = self.examples[self.index]
        self.step = max(0, min(step, len(example.steps) - 1))
        self.body.setText(self.markdown(example.body))
        self.body.setVisible(bool(example.body))
        self.counter.setText(f"Step {self.step + 1} of {len(example.steps)}")
        # show the steps so far, so the class keeps the thread
        self.text.setText(self.markdown("\n\n".join(f"{i + 1}. {s}" for i, s in enumerate(example.steps[: self.step + 1]))))
        self.previous.setEnabled(self.step > 0)
        self.next.setEnabled(self.step < len(example.steps) - 1)
        self.counter.show()

    def _read(self, index: int) -> None:
        self.step = 0
        self.body.hide()
        self.counter.hide()
        self.previous.setEnabled(False)
        self.next.setEnabled(False)
        if index >= len(self.readings):
            self.text.setText("This pack has no worked examples.")
            return
        self.text.setText(self.markdown(self.readings[index].text))

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Right:
            self.go(self.step + 1)
        elif event.key() == Qt.Key.Key_Left:
            self.go(self.step - 1)
        elif event.key() == Qt.Key.Key_Escape:
            self.closed.emit()
        else:
            super().keyPressEvent(event)
