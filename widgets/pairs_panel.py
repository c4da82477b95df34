"""The pairs panel: every pair of neighbours at this step, most frequent first, ties marked; the
pair that merges next, or, at the end of the history, why training stopped there."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from engine.readable.describe import describe_stop, plural, tie_rule_sentence, tie_size, times
from widgets.answer_cover import AnswerCover
from widgets.models import PairsModel
from widgets.models.pairs import COUNT, PAIR, RANK, SOURCES, TIE
from widgets.session_view import SessionView
from widgets.tables import make_table
from widgets.steady import steady


@dataclass(frozen=True)
class PairsShown:
    """What the pairs panel shows: its heading lines and the listed rows' cells (#, pair, count, tie mark)."""

    heading: str
    count_line: str
    rows: tuple[tuple[str, str, str, str], ...]


class PairsPanel(QWidget):
    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        self.model = PairsModel(session, parent=self)
        self.heading = QLabel()
        self.heading.setObjectName("panelHeading")
        self.heading.setWordWrap(True)
        self.count_label = QLabel()
        self.count_label.setObjectName("hint")
        self.count_label.setWordWrap(True)
        self.table = make_table(self.model, stretch_column=SOURCES)
        self.details = QLabel()
        self.details.setObjectName("details")
        self.details.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(steady(self.heading))
        layout.addWidget(steady(self.count_label))
        layout.addWidget(self.table, 1)
        layout.addWidget(steady(self.details))
        self.answer_cover = AnswerCover(layout, "The pairs are hidden while the quiz asks about this step: they "
                                                "would give its answer away. Answer it, or leave the Quiz tab, to see them.")
        self.table.selectionModel().currentRowChanged.connect(self._on_row_picked)
        session.lesson_changed.connect(self._refresh)
        session.step_changed.connect(self._refresh)
        self._refresh()

    def set_answer_hidden(self, hidden: bool) -> None:
        """Hide the counts and the next merge while a quiz question about this step awaits its answer."""
        self.answer_cover.set_covering(hidden)

    def shown(self, rows: int | None = None) -> PairsShown:
        """The heading lines and the first ``rows`` rows (all without a limit), as the table displays them."""
        model = self.model
        n = model.rowCount() if rows is None else min(rows, model.rowCount())
        def cell(r: int, c: int) -> str:
            return str(model.index(r, c).data())

        cells = tuple((cell(r, RANK), cell(r, PAIR), cell(r, COUNT), cell(r, TIE)) for r in range(n))
        return PairsShown(self.heading.text(), self.count_label.text(), cells)

    def _refresh(self, *_args) -> None:
        session = self.session
        state = session.state
        if state is None:
            self.heading.setText(f"No pairs: {session.why_untrained}.")
            self.count_label.setText("")
            self.details.setText("")
            return
        n = state.distinct_pairs
        following = state.next_step()
        if session.lesson.corpus is None:
            self._show_without_counts(following)
            return
        if following is None:
            # training stopped here: no pair merges next, whatever the counts say
            settings = session.lesson.settings
            self.heading.setText(describe_stop(session.lesson.stop_reason, settings.min_frequency))
            self.count_label.setText(f"{plural(n, 'different pair')} now; none of them merges." if n else "No pairs left.")
        elif self.model.rowCount():
            pair, count = following.pair, following.count
            # every pair at the winning count, as training met them (the table lists the top ones only)
            tied = tie_size(following)
            text = f"Next: {session.show(pair[0])} + {session.show(pair[1])}, {times(count)}"
            if tied > 1:
                text += f" (tie of {tied:,})"
            self.heading.setText(text)
            rule = " " + tie_rule_sentence(session.lesson.settings) if tied > 1 else ""
            self.count_label.setText(f"{plural(n, 'different pair')} now.{rule}")
        else:
            self.heading.setText("No pairs left: every word is one token.")
            self.count_label.setText("")
        # every step brings other pairs: the columns fit them, so no pair or tie mark is cut
        self.table.fit_columns()
        self._show_details(self.table.currentIndex().row())

    def _show_without_counts(self, following) -> None:
        """An imported tokenizer: the merge that comes next, and why no pair has a count."""
        session = self.session
        if following is None:
            self.heading.setText(f"The file's merges end here ({session.lesson.last_step:,} merges).")
        else:
            a, b = following.pair
            self.heading.setText(f"Next: {session.show(a)} + {session.show(b)} (merge {following.step:,} of the "
                                 "file; how often it occurred is not known)")
        self.count_label.setText(session.lesson.origin())
        self.details.setText("")

    def _on_row_picked(self, current, _previous) -> None:
        self._show_details(current.row())

    def _show_details(self, row: int) -> None:
        if row < 0 or row >= self.model.rowCount():
            self.details.setText("Pick a pair to see which words its count comes from.")
            return
        session = self.session
        pair = self.model.pair_at(row)
        corpus = session.lesson.corpus
        state = session.state
        if state is None or corpus is None:
            # only a trained lesson with a corpus lists pairs: nothing to detail, as for an imported tokenizer
            self.details.setText("")
            return
        sources = state.pair_sources(pair)
        parts = [f"{occ}×{corpus.counts[w]} ({session.show(corpus.words[w])})" for w, occ in sources[:8]]
        if len(sources) > 8:
            parts.append(f"… {len(sources) - 8:,} more words")
        total = state.pair_count(pair)
        self.details.setText(f"{self.model.index(row, PAIR).data()} = " + " + ".join(parts) + f" = {total:,}")
