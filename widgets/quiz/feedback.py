"""The feedback box: right, partly right or not, why, and the misconception a wrong answer fits.

Each verdict has a mark (✔ ◐ ✘) and a border style (solid, dotted, dashed) besides its colour, so
it reads on a grey projector and to colour-blind eyes.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout

from engine.quiz.grading import Result, points
from engine.quiz.questions import Question
from widgets.quiz.text import Markdown, markdown_text

LEADS = ("Right.", "Right:", "Not quite:", "Partly right:")


class FeedbackBox(QFrame):
    def __init__(self, parent=None, markdown: Markdown = markdown_text):
        super().__init__(parent)
        self.markdown = markdown
        self.setObjectName("feedback")
        self.verdict = QLabel()
        self.verdict.setObjectName("verdict")
        self.verdict.setWordWrap(True)
        self.why = QLabel()
        self.why.setWordWrap(True)
        self.why.setTextFormat(Qt.TextFormat.MarkdownText)
        self.misconception = QLabel()
        self.misconception.setWordWrap(True)
        self.misconception.setTextFormat(Qt.TextFormat.MarkdownText)
        box = QVBoxLayout(self)
        box.addWidget(self.verdict)
        box.addWidget(self.why)
        box.addWidget(self.misconception)
        self.hide()

    def show_result(self, result: Result, question: Question) -> None:
        if result.correct:
            verdict, mark = "right", "✔ Right!"
        elif result.score > 0:
            verdict, mark = "partly", f"◐ Partly right ({points(result.score)} of 1)"
        else:
            verdict, mark = "wrong", "✘ Not quite"
        message = result.message
        for lead in LEADS:
            if message.startswith(lead):
                # the mark already says it; keep the reason
                message = message[len(lead):].strip()
                message = message[:1].upper() + message[1:]
        why = "\n\n".join(t for t in (message, question.explanation) if t)
        mis = ""
        if result.misconception is not None and not result.correct:
            m = result.misconception
            mis = f"**This answer fits a common idea: “{m.title}”.** {m.text}"
            if m.fix:
                mis += f"\n\n**Try this:** {m.fix}"
        self._show(verdict, mark, self.markdown(why), self.markdown(mis))

    def show_note(self, title: str, text: str = "") -> None:
        """A neutral box: what to give before checking, or "checked" while teacher mode hides the verdict."""
        self._show("hidden", title, self.markdown(text), "")

    def _show(self, verdict: str, mark: str, why: str, mis: str) -> None:
        self.setProperty("verdict", verdict)
        # a dynamic property only restyles after a re-polish
        self.style().unpolish(self)
        self.style().polish(self)
        self.verdict.setText(mark)
        self.why.setText(why)
        self.why.setVisible(bool(why))
        self.misconception.setText(mis)
        self.misconception.setVisible(bool(mis))
        self.show()
