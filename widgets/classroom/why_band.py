"""The band under every view in classroom mode: the merge just made, its count, and the tie rule
in words when it was tied, in the sentence the timeline says (``describe_position``).

It never names the next merge, so it can stay up while the class predicts it; on the tiles it adds
the pair counts the next merge is chosen from, unless the class is predicting it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from engine.readable.describe import describe_position, show_pair
from widgets.session_view import SessionView

COUNTS_SHOWN = 5


class WhyBand(QLabel):
    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.setObjectName("whyBand")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.session = session
        self.pair_counts = False
        self.notice = ""
        session.step_changed.connect(lambda _change: self.refresh())
        session.lesson_changed.connect(lambda _lesson: self.refresh())

    def set_pair_counts(self, on: bool) -> None:
        """Add the counts of the top pairs (the tiles, when the class is not predicting the winner)."""
        if on != self.pair_counts:
            self.pair_counts = on
            self.refresh()

    def set_notice(self, text: str) -> None:
        """A line above the merge's (a class vote that could not start says why here); "" removes it."""
        if text != self.notice:
            self.notice = text
            self.refresh()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        self.refresh()  # hidden, it let the steps go by unsaid
        super().showEvent(event)

    def refresh(self) -> None:
        if self.isHidden():
            return
        session, lesson = self.session, self.session.lesson
        notice = [self.notice] if self.notice else []
        if session.state is None:
            self.setText("\n".join(notice + ([describe_position(lesson, 0)] if lesson.is_empty else [])))
            return
        step = session.step
        # a word joiner after each slash keeps a marker such as </w> on one line
        lines = [f"Step {step}: {describe_position(lesson, step)}".replace("/", "/\u2060")]
        if self.pair_counts and lesson.corpus is not None:
            ranked = session.state.ranked_pairs(COUNTS_SHOWN)
            if ranked:
                counts = ",  ".join(f"{show_pair(lesson.settings, pair)}: {count:,}" for pair, count in ranked)
                lines.append(f"Pair counts now: {counts}".replace("/", "/\u2060"))
        self.setText("\n".join(notice + lines))
