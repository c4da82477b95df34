"""The Charts tab: the growth chart and the pair-count bars, their switches, the held-out text box.

The held-out text is the lesson's: the box asks the session for a new one (``held_out_requested``)
and shows whatever the session announces, saying whose text it is (a preset's, or the user's own)
and, when it could not be counted, why its curve is missing.
"""

from __future__ import annotations

from dataclasses import replace

import os

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine.readable.describe import WHY_NOT_LARGER
from engine.errors import BpeLabError
from engine.lesson.lesson import Lesson
from widgets.charts.export import export_image, export_rows
from widgets.charts.growth import MERGES, PERCENT, TOKENS, VOCAB, GrowthChart
from widgets.charts.metric_data import METRICS
from widgets.charts.metrics import MetricsChart
from widgets.charts.pairs import PairCountChart
from widgets.charts.theme import ChartTheme
from widgets.flow import FlowLayout, group
from widgets.scrolling import scrolling
from widgets.models.history_model import HistoryModel
from widgets.session_view import SessionView

GROWTH, PAIRS = "growth", "pairs"


def held_out_caption(text: str, preset: str | None) -> str:
    """The line above the held-out box: whose text it is, so a curve is never read as the wrong one's."""
    if not text.strip():
        return "Held-out text (not used for training):"
    if preset is not None:
        return f"Held-out text of the preset “{preset}” (not used for training; a corpus of your own clears it):"
    return "Held-out text: your own (not used for training; kept when you change the corpus):"


class ChartsView(QWidget):
    """Both charts of a lesson, fed by the session."""

    # the user pasted or typed a held-out text: the session keeps it in the lesson
    held_out_requested = Signal(str)

    def __init__(self, session: SessionView, theme: ChartTheme | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.theme = theme or ChartTheme.light()
        # the type size zooms make, unrounded (set_theme rounds it into the theme)
        self._points = float(self.theme.font_size)
        self.model = HistoryModel(session, self)
        self.growth = GrowthChart(session, self.model, self.theme)
        self.pairs = PairCountChart(session, self.theme)
        self.metrics = MetricsChart(session, self.theme)

        self.x_choice = QComboBox()
        self.x_choice.addItem("Merges", MERGES)
        self.x_choice.addItem("Vocabulary size", VOCAB)
        self.x_choice.setToolTip("What the x axis counts: merges made, or the size of the vocabulary")
        self.x_choice.currentIndexChanged.connect(self._on_x_chosen)
        self.y_choice = QComboBox()
        self.y_choice.addItem("Tokens", TOKENS)
        self.y_choice.addItem("% of starting tokens", PERCENT)
        self.y_choice.setToolTip("Percent puts texts of different lengths on one scale, to compare them")
        self.y_choice.currentIndexChanged.connect(lambda _: self.growth.set_y_mode(self.y_choice.currentData()))
        self.metric_choice = QComboBox()
        for kind in METRICS:
            self.metric_choice.addItem(kind.label, kind.key)
        self.metric_choice.setToolTip("What the metrics chart measures (docs/metrics.md defines each)")
        self.metric_choice.currentIndexChanged.connect(
            lambda _: self.metrics.set_metric(self.metric_choice.currentData()))
        for choice in (self.x_choice, self.y_choice, self.metric_choice):
            # the controls row must not set the window's minimum width
            choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            choice.setMinimumContentsLength(7)
        # "Rényi efficiency (α = 2.5)" whole, so the choice reads without opening it
        self.metric_choice.setMinimumContentsLength(16)
        self.per_token_box = QCheckBox("Characters per token")
        self.per_token_box.toggled.connect(self.growth.set_per_token_visible)

        # the controls in groups that wrap onto another line rather than clip at a large zoom
        self._control_labels = [QLabel("x axis:"), QLabel("y axis:"), QLabel("measure:")]
        self.export_button = self._export_button()
        controls = QWidget()
        row = FlowLayout(controls, gap=12)
        row.addWidget(group(self._control_labels[0], self.x_choice))
        row.addWidget(group(self._control_labels[1], self.y_choice))
        row.addWidget(self.per_token_box)
        row.addWidget(group(self._control_labels[2], self.metric_choice))
        row.addWidget(self.export_button)

        self.held_out_box = QPlainTextEdit()
        self.held_out_box.setPlaceholderText(
            "Held-out text: paste text the tokenizer was not trained on to see how well the vocabulary carries over"
        )
        self.held_out_box.setMaximumHeight(90)
        self._held_out_timer = QTimer(self)
        self._held_out_timer.setSingleShot(True)
        self._held_out_timer.setInterval(300)
        self._held_out_timer.timeout.connect(self._on_held_out_typed)
        self.held_out_box.textChanged.connect(self._held_out_timer.start)
        self.held_out_requested.connect(session.request_held_out)

        left = self._texts = TextColumn()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.growth, 1)
        # the chart shows what more tokens save; this says what they cost
        self.why_not_larger = QLabel(WHY_NOT_LARGER)
        self.why_not_larger.setObjectName("hint")
        self.why_not_larger.setWordWrap(True)
        self.why_not_larger.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        left_layout.addWidget(self.why_not_larger)
        # under the growth chart, on its x axis: what the shorter encoding is worth by other measures
        left_layout.addWidget(self.metrics, 1)
        self.held_out_label = QLabel()
        self.held_out_label.setWordWrap(True)
        left_layout.addWidget(self.held_out_label)
        # why the held-out curve is missing, while it is
        self.held_out_problem = QLabel()
        self.held_out_problem.setObjectName("heldOutProblem")
        self.held_out_problem.setWordWrap(True)
        self.held_out_problem.hide()
        left_layout.addWidget(self.held_out_problem)
        left_layout.addWidget(self.held_out_box)
        self._shares = (0, 0)
        splitter = self._splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(self.pairs)

        # what the charts cannot show of a lesson with no corpus (an imported tokenizer)
        self.notice = QLabel()
        self.notice.setObjectName("chartsNotice")
        self.notice.setWordWrap(True)
        self.notice.hide()
        page = QWidget()
        page_layout = QVBoxLayout(page)
        page_layout.addWidget(controls)
        page_layout.addWidget(self.notice)
        page_layout.addWidget(splitter, 1)
        # at a large zoom on a small screen the page scrolls, where a squeezed one would draw the
        # plots over each other and over the text under them
        scroll = scrolling(page)
        # the view's own ground shows through, in every theme (a scroll area fills the page it is
        # given with the application's colour, which is not the charts' own)
        page.setAutoFillBackground(False)
        scroll.viewport().setAutoFillBackground(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        self.set_theme(self.theme)
        session.lesson_changed.connect(self._on_lesson_changed)
        session.held_out_changed.connect(lambda _text: self._show_held_out())
        self.model.held_out_changed.connect(self._on_held_out_counted)
        self.model.held_out_failed.connect(self._on_held_out_failed)
        self._show_held_out()
        self._show_notice()  # the view may be built after the lesson arrived

    def _on_x_chosen(self, _index: int) -> None:
        mode = self.x_choice.currentData()
        self.growth.set_x_mode(mode)
        self.metrics.set_x_mode(mode)

    def notice_text(self) -> str:
        """The line above the charts, empty unless the lesson has no corpus."""
        return self.notice.text()

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        self._show_held_out()
        self._show_notice()

    def _show_notice(self) -> None:
        lesson = self.session.lesson
        if lesson.corpus is not None:
            self.notice.clear()
            self.notice.hide()
            return
        self.notice.setText(f"{lesson.origin()} No corpus curve and no pair counts: paste a held-out text below to "
                            "see how its tokens fall merge by merge.")
        self.notice.show()

    # -- held-out text --------------------------------------------------------------------------

    def set_held_out(self, text: str) -> None:
        """Ask for ``text`` as the held-out text now, without waiting for typing to pause."""
        self._held_out_timer.stop()
        self.held_out_requested.emit(text)

    def _on_held_out_typed(self) -> None:
        self.held_out_requested.emit(self.held_out_box.toPlainText())

    def _show_held_out(self) -> None:
        """The lesson's held-out text in the box, and whose it is above it."""
        text = self.session.lesson.held_out
        if self.held_out_box.toPlainText() != text and not self._held_out_timer.isActive():
            self.held_out_box.blockSignals(True)
            self.held_out_box.setPlainText(text)
            self.held_out_box.blockSignals(False)
        self.held_out_label.setText(held_out_caption(text, self.session.held_out_preset))
        self._texts.refit()

    def _on_held_out_counted(self) -> None:
        # a count that failed announces the cleared column first, then why
        self.held_out_problem.hide()
        self._texts.refit()

    def _on_held_out_failed(self, message: str) -> None:
        self.held_out_problem.setText(f"{message}. The chart shows no held-out curve.")
        self.held_out_problem.show()
        self._texts.refit()

    # -- export ---------------------------------------------------------------------------------

    def _export_button(self) -> QToolButton:
        # one button for both charts keeps the controls row narrow enough for a 1280-pixel screen
        button = QToolButton()
        button.setText("Save chart…")
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        for chart, name in ((GROWTH, "Growth chart"), (PAIRS, "Pair chart")):
            for kind, title in (("png", "picture (PNG)"), ("svg", "drawing (SVG)"), ("csv", "numbers (CSV)")):
                action = menu.addAction(f"{name} as {title}")
                action.triggered.connect(lambda _=False, c=chart, k=kind: self._ask_and_export(c, k))
            menu.addSeparator()
        button.setMenu(menu)
        return button

    def _ask_and_export(self, chart: str, kind: str) -> None:
        name = f"{chart}-step-{self.session.step}.{kind}"
        path, _ = QFileDialog.getSaveFileName(self, "Save chart", name, f"{kind.upper()} (*.{kind})")
        if not path:
            return
        try:
            self.export(chart, path)
        except BpeLabError as exc:
            QMessageBox.warning(self, "BPE Lab", str(exc))

    def export(self, chart: str, path: str) -> None:
        """Save the GROWTH or PAIRS chart: .png and .svg as drawn, .csv as its numbers."""
        if chart not in (GROWTH, PAIRS):
            raise BpeLabError(f"there is no '{chart}' chart: choose {GROWTH} or {PAIRS}")
        widget = self.growth if chart == GROWTH else self.pairs
        kind = os.path.splitext(path)[1].lower()
        if chart == PAIRS:
            self.pairs.finish_animation()
        if kind == ".csv":
            export_rows(widget.rows(), path)
        else:
            export_image(widget.plot, path)

    # -- theme ----------------------------------------------------------------------------------

    def follow_zoom(self, ratio: float) -> None:
        """The window's zoom changed by ``ratio``: the charts' type grows with it (kept unrounded
        between zooms, so zooming out and back returns to the same size)."""
        points = self._points * ratio
        self.set_theme(replace(self.theme, font_size=max(6, round(points))))
        self._points = points

    def set_theme(self, theme: ChartTheme) -> None:
        """Light, dark or projector (large type, high contrast): both charts and their controls."""
        self.theme = theme
        self._points = float(theme.font_size)
        self.growth.apply_theme(theme)
        self.pairs.apply_theme(theme)
        self.metrics.apply_theme(theme)
        # the pair labels, the counts and their marks take the theme's share of the width (half the
        # page at a projector's type, where the bars beside them need it); a share the user dragged
        # stays until the theme's changes
        shares = (100 - theme.pair_share, theme.pair_share)
        if shares != self._shares:
            self._shares = shares
            for i, share in enumerate(shares):
                self._splitter.setStretchFactor(i, share)
            total = sum(self._splitter.sizes())
            if total > 0:
                self._splitter.setSizes([total * share // 100 for share in shares])
        # room for a readable plot: about eleven lines of its type (the page scrolls below that)
        font = QFont(self.font())
        font.setPointSizeF(theme.font_size)
        for chart in (self.growth, self.pairs):
            chart.setMinimumHeight(round(11 * QFontMetrics(font).lineSpacing()))
        text = f"font-size: {theme.font_size}pt; color: {theme.foreground};"
        # every text on the page in the charts' own colours and type, on the charts' own ground
        for widget in (self.per_token_box, self.held_out_label, self.why_not_larger, self.notice,
                       *self._control_labels):
            widget.setStyleSheet(text)
        self.held_out_problem.setStyleSheet(f"font-size: {theme.font_size}pt; color: {theme.foreground}; "
                                            f"border: 2px dashed {theme.foreground}; padding: 2px 6px;")
        boxed = f"{text} background-color: {theme.panel}; border: 1px solid {theme.muted}; padding: 2px 6px;"
        for widget in (self.x_choice, self.y_choice, self.metric_choice, self.export_button, self.held_out_box):
            widget.setStyleSheet(boxed)
        self._texts.refit()
        self.setAutoFillBackground(True)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor(theme.background))
        palette.setColor(QPalette.ColorRole.WindowText, QColor(theme.foreground))
        palette.setColor(QPalette.ColorRole.Base, QColor(theme.panel))
        palette.setColor(QPalette.ColorRole.Text, QColor(theme.foreground))
        palette.setColor(QPalette.ColorRole.Button, QColor(theme.panel))
        palette.setColor(QPalette.ColorRole.ButtonText, QColor(theme.foreground))
        palette.setColor(QPalette.ColorRole.PlaceholderText, QColor(theme.muted))
        self.setPalette(palette)


class TextColumn(QWidget):
    """A column of a splitter holding wrapped texts: at least as tall as they need at its width.

    A splitter asks its columns only for their minimum size hints, which leave out how many lines a
    wrapped text takes; squeezed (a large zoom on a small screen) the texts would be drawn over the
    chart above them. The page scrolls instead."""

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.refit(event.size().width())

    def refit(self, width: int | None = None) -> None:
        """Room for every text at ``width`` (the column's own): after a resize, a new text or type."""
        need = self._needed(self.width() if width is None else width)
        if need != self.minimumHeight():
            self.setMinimumHeight(need)

    def _needed(self, width: int) -> int:
        layout = self.layout()
        if layout is None:
            return 0  # not built yet: nothing to make room for
        margins = layout.contentsMargins()
        heights = []
        for i in range(layout.count()):
            item = layout.itemAt(i)
            widget = item.widget() if item is not None else None
            if widget is None or widget.isHidden():
                continue
            # a wrapped text needs its lines; anything else (the chart, the text box) its minimum
            if isinstance(widget, QLabel) and widget.wordWrap():
                # held there: the column's layout would give the spare height to the chart instead
                # (asked with no minimum, which a label's height for a width never goes below)
                widget.setMinimumHeight(0)
                lines = max(widget.heightForWidth(width - margins.left() - margins.right()), 0)
                widget.setMinimumHeight(lines)
                heights.append(lines)
            else:
                heights.append(max(widget.minimumSizeHint().height(), widget.minimumHeight()))
        return margins.top() + margins.bottom() + sum(heights) + layout.spacing() * max(0, len(heights) - 1)
