"""The growth chart: the corpus gets shorter in tokens while the vocabulary grows.

Tokens (training text, and a held-out text) on the left axis, the vocabulary size on the right
one, characters per token on an optional third axis. The x axis counts merges or, switched, the
vocabulary size. A vertical line marks the current step: dragging it (or clicking the chart)
asks the session to go there, and every step moves it. A dashed line marks where training
stopped and why.

The read-out under the plot says the numbers at the current step, in the timeline's and the tiles' words
("Step 3 of 15"); only while the mouse is over the plot does it say those of the step under it.
Any step move, and the mouse leaving, bring it back to the current step.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from engine.readable.describe import plural
from engine.algorithm.trainer import TARGET_REACHED
from widgets.charts.axes import CountAxis, GridLines, short_number
from widgets.charts.step_line import StepLine
from widgets.charts.theme import ChartTheme
from widgets.models.history_model import COLUMNS, HistoryModel
from widgets.session_view import SessionView

MERGES, VOCAB = "merges", "vocabulary"
TOKENS, PERCENT = "tokens", "percent"
# headroom above the highest curve for the stop label, which hangs from the top of its line
HEADROOM = 1.35
# the plot is never shorter than this many lines of its type: squeezed under the text beside it
# (1280x720), it was 90 pixels of curves under its own labels; the Charts page scrolls instead
PLOT_LINES = 13


@dataclass(frozen=True)
class GrowthShown:
    """What the growth chart says in words: the read-out under the plot, the step line's label and
    the x value the line stands at."""

    readout: str
    step_label: str
    step_x: float


class GrowthChart(QWidget):
    """Token totals and vocabulary size over the whole history, with the current step on it."""

    def __init__(self, session: SessionView, model: HistoryModel, theme: ChartTheme | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.model = model
        self.theme = theme or ChartTheme.light()
        self.x_mode = MERGES
        self.y_mode = TOKENS
        self.show_per_token = False

        self.plot = pg.PlotWidget(
            axisItems={"bottom": CountAxis("bottom"), "left": CountAxis("left"), "right": CountAxis("right")}
        )
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.setMouseEnabled(False, False)
        item.showAxis("right")
        # the vocabulary and characters-per-token curves need scales of their own: two more views
        # laid over the main one, sharing its x axis
        # below the main view (pyqtgraph puts it at z -100), so the step and stop lines and their labels
        # stay on top of every curve and the step line keeps the mouse
        self.vocab_view = pg.ViewBox(enableMouse=False)
        self.vocab_view.setZValue(-200)
        item.scene().addItem(self.vocab_view)
        item.getAxis("right").linkToView(self.vocab_view)
        self.vocab_view.setXLink(item.vb)
        self.per_token_axis = CountAxis("right", fractions=True)
        item.layout.addItem(self.per_token_axis, 2, 3)
        self.per_token_view = pg.ViewBox(enableMouse=False)
        self.per_token_view.setZValue(-200)
        item.scene().addItem(self.per_token_view)
        self.per_token_axis.linkToView(self.per_token_view)
        self.per_token_view.setXLink(item.vb)
        item.vb.sigResized.connect(self._sync_views)
        self.grid = GridLines()
        item.addItem(self.grid, ignoreBounds=True)

        # the legend sits above the plot, in the row a title would take, so it never hides a curve
        self.legend = pg.LegendItem(offset=None)
        self.legend.setParentItem(item)
        self.legend.anchor(itemPos=(0.5, 0), parentPos=(0.5, 0), offset=(0, 2))
        self.legend.setColumnCount(3)

        self.training_curve = pg.PlotDataItem(name="Training tokens")
        self.held_out_curve = pg.PlotDataItem(name="Held-out tokens")
        self.vocab_curve = pg.PlotDataItem(name="Vocabulary size")
        self.per_token_curve = pg.PlotDataItem(name="Characters/token")
        self.held_out_per_token_curve = pg.PlotDataItem(name="Held-out characters/token")
        for curve in (self.training_curve, self.held_out_curve):
            item.addItem(curve)
        self.vocab_view.addItem(self.vocab_curve)
        self.per_token_view.addItem(self.per_token_curve)
        self.per_token_view.addItem(self.held_out_per_token_curve)
        for curve in self._curves():
            curve.setClipToView(True)
            # about one point per pixel: 10,000 steps on a 700-pixel chart draw as 1,400 points
            curve.opts["autoDownsampleFactor"] = 1.0
            curve.setDownsampling(auto=True, method="peak")

        # the stop label hangs from the top of its line, left of it, in the headroom kept above the
        # curves (at mid-height it lay over both curves)
        self.stop_line = pg.InfiniteLine(angle=90, movable=False, label="", labelOpts={"position": 1.0, "anchors": [(1, 0), (1, 0)]})
        item.addItem(self.stop_line, ignoreBounds=True)
        item.vb.sigResized.connect(lambda *_: self._fit_stop_label())
        # the step label stands at the foot of its line, clear of the stop label above (early in a
        # run the curves are high there, late in it the step is at the stop)
        self.scrub = StepLine(self.plot, session, self.x_of, self.step_at, lambda: bool(self.model.merges),
                              self._show_readout, labelled=True)
        self.step_line, self.markers = self.scrub.line, self.scrub.markers

        self.readout = QLabel(" ")
        self.readout.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.readout)

        session.step_changed.connect(self._on_step_changed)
        model.modelReset.connect(self._on_model_changed)
        model.held_out_changed.connect(self._on_model_changed)
        self.apply_theme(self.theme)

    def _curves(self):
        return (self.training_curve, self.held_out_curve, self.vocab_curve, self.per_token_curve,
                self.held_out_per_token_curve)

    def _sync_views(self) -> None:
        item = self.plot.getPlotItem()
        vb = item.vb
        for view in (self.vocab_view, self.per_token_view):
            view.setGeometry(vb.sceneBoundingRect())
            view.linkedViewChanged(vb, view.XAxis)
        self.grid.place(vb, item.getAxis("bottom"), item.getAxis("left"))

    @property
    def hover_step(self) -> int | None:
        """The step under the mouse while it is over the plot, else None."""
        return self.scrub.hover_step

    def shown(self) -> GrowthShown:
        """The read-out and the step line as drawn now (for tests and accessibility)."""
        line = self.step_line
        return GrowthShown(self.readout.text(), line.label.toPlainText(), float(line.value()))

    # -- switches -------------------------------------------------------------------------------

    def set_x_mode(self, mode: str) -> None:
        """MERGES or VOCAB: what the x axis counts."""
        if mode not in (MERGES, VOCAB):
            raise ValueError(f"x axis is '{MERGES}' or '{VOCAB}', not '{mode}'")
        self.x_mode = mode
        self.replot()

    def set_y_mode(self, mode: str) -> None:
        """TOKENS (counts) or PERCENT (of each text's tokens before any merge)."""
        if mode not in (TOKENS, PERCENT):
            raise ValueError(f"y axis is '{TOKENS}' or '{PERCENT}', not '{mode}'")
        self.y_mode = mode
        self.replot()

    def set_per_token_visible(self, visible: bool) -> None:
        self.show_per_token = visible
        self.replot()

    # -- what is plotted ------------------------------------------------------------------------

    def x_values(self) -> list[int]:
        return list(self.model.vocab if self.x_mode == VOCAB else self.model.merges)

    def x_of(self, step: int) -> float:
        values = self.model.vocab if self.x_mode == VOCAB else self.model.merges
        if not values:
            return 0.0
        return float(values[max(0, min(step, len(values) - 1))])

    def step_at(self, x: float) -> int:
        """The step a point on the x axis stands for."""
        model = self.model
        if self.x_mode == VOCAB:
            return model.step_at_vocab(x)
        return max(0, min(int(round(x)), model.last_step))

    def _scaled(self, tokens) -> list[float]:
        if self.y_mode == PERCENT and tokens and tokens[0]:
            start = tokens[0]
            return [100.0 * t / start for t in tokens]
        return list(tokens)

    def replot(self) -> None:
        model = self.model
        item = self.plot.getPlotItem()
        x = self.x_values()
        held = list(model.held_out.tokens) if model.held_out is not None else []
        self.training_curve.setData(x, self._scaled(model.tokens))
        # an imported tokenizer has no corpus: its curve would be a false line at zero
        self.training_curve.setVisible(self.session.lesson.corpus is not None)
        self.held_out_curve.setData(x if held else [], self._scaled(held))
        self.held_out_curve.setVisible(bool(held))
        by_vocab = self.x_mode == VOCAB
        self.vocab_curve.setData([] if by_vocab else x, [] if by_vocab else model.vocab)
        self.vocab_curve.setVisible(not by_vocab)
        item.getAxis("right").setVisible(not by_vocab)
        per_token = model.characters_per_token() if self.show_per_token else []
        held_per_token = model.held_out_characters_per_token() if self.show_per_token else []
        self.per_token_curve.setData(x if per_token else [], per_token)
        self.held_out_per_token_curve.setData(x if held_per_token else [], held_per_token)
        self.per_token_curve.setVisible(bool(per_token))
        self.held_out_per_token_curve.setVisible(bool(held_per_token))
        self.per_token_axis.setVisible(self.show_per_token)
        self._fill_legend(bool(held), not by_vocab, self.show_per_token)

        theme = self.theme
        item.setLabel("bottom", "Vocabulary size" if by_vocab else "Merges", color=theme.foreground)
        item.setLabel("left", "Tokens (% of the start)" if self.y_mode == PERCENT else "Tokens", color=theme.foreground)
        item.getAxis("right").setLabel("Vocabulary size", color=theme.vocab)
        self.per_token_axis.setLabel("Characters per token", color=theme.per_token)

        # ranges: the whole history, from zero tokens up, room above for the legend
        if x:
            lo, hi = x[0], x[-1]
            if hi <= lo:
                hi = lo + 1
            item.setXRange(lo, hi, padding=0.02)
        top = max(self._scaled(model.tokens) + self._scaled(held) + [1])
        item.setYRange(0, top * HEADROOM, padding=0)
        self.vocab_view.setYRange(0, max(model.vocab + [1]) * HEADROOM, padding=0)
        self.per_token_view.setYRange(0, max(per_token + held_per_token + [1.0]) * HEADROOM, padding=0)
        self._place_stop_line()
        self.scrub.place(self.session.step)
        self._show_readout(self.hover_step if self.hover_step is not None else self.session.step)
        self._sync_views()

    def _fill_legend(self, held: bool, vocab: bool, per_token: bool) -> None:
        self.legend.clear()
        self.legend.addItem(self.training_curve, self.training_curve.name())
        if held:
            self.legend.addItem(self.held_out_curve, self.held_out_curve.name())
        if vocab:
            self.legend.addItem(self.vocab_curve, self.vocab_curve.name())
        if per_token:
            self.legend.addItem(self.per_token_curve, self.per_token_curve.name())
            if held:
                self.legend.addItem(self.held_out_per_token_curve, self.held_out_per_token_curve.name())
        self._fit_legend()

    def _fit_legend(self) -> None:
        """As many legend columns as fit the chart's width: a wide legend centred above a narrow
        chart would lose both its ends ("aining tokens")."""
        room = self.plot.width() - 16
        for columns in (3, 2, 1):
            self.legend.setColumnCount(columns)
            self.legend.updateSize()
            if self.legend.boundingRect().width() <= room:
                break
        self.plot.getPlotItem().layout.setRowFixedHeight(0, self.legend.boundingRect().height() + 4)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_legend()
        self._fit_readout()
        self._fit_stop_label()

    def stop_label(self) -> str:
        lesson = self.session.lesson
        if self.session.state is None:
            return ""
        settings = lesson.settings
        if lesson.stop_reason == TARGET_REACHED:
            if settings.vocab_size is not None and settings.merges is None:
                return f"stop: vocabulary {settings.vocab_size:,}"
            return f"stop: {plural(lesson.last_step, 'merge')}"
        text = f"stop: {lesson.stop_reason or 'end'}"
        target = lesson.target_merges()
        if target is not None and target > lesson.last_step:
            text += f" (target {target:,} merges not reached)"
        return text

    def _place_stop_line(self) -> None:
        self.stop_line.setValue(self.x_of(self.model.last_step))
        self.stop_line.label.setFormat(self.stop_label())
        self.stop_line.setVisible(self.session.state is not None)
        self._fit_stop_label()

    def _fit_stop_label(self) -> None:
        """The stop label wraps to the room left of its line: in a narrow chart at a large type
        "Nothing left to merge" would run off the plot's left edge ("thing left to merge")."""
        label, vb = self.stop_line.label, self.plot.getPlotItem().getViewBox()
        left = vb.sceneBoundingRect().left()
        room = vb.mapViewToScene(QPointF(self.stop_line.value(), 0)).x() - left - 8
        label.setTextWidth(-1)
        if 0 < room < label.textItem.boundingRect().width():
            label.setTextWidth(max(room, 4 * QFontMetricsF(label.textItem.font()).horizontalAdvance("m")))

    # -- following the session and the mouse ----------------------------------------------------

    # a hidden chart (a tab behind another) costs nothing per step or per lesson: it catches up
    # when it is shown
    def _on_model_changed(self) -> None:
        if self.isVisible():
            self.replot()
        else:
            self._behind_plot = True

    def _on_step_changed(self, change) -> None:
        if not self.isVisible():
            self._behind_step = True
            return
        self.scrub.place(change.step)
        # the lesson moved: the read-out says where it is now (the next mouse move hovers again)
        self.scrub.end_hover()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if getattr(self, "_behind_plot", False):
            self._behind_plot = False
            self.replot()
        if getattr(self, "_behind_step", False):
            self._behind_step = False
            self.scrub.place(self.session.step)
            self.scrub.end_hover()

    def readout_text(self, step: int) -> str:
        model = self.model
        if not model.merges:
            return "Type or open some training text to see the chart."
        k = max(0, min(step, model.last_step))
        tokens = model.tokens[k]
        saved = 100.0 * (1 - tokens / model.tokens[0]) if model.tokens[0] else 0.0
        parts = [f"Step {k} of {model.last_step}", f"vocabulary {model.vocab[k]:,}", f"tokens {tokens:,}" + _saved(k, saved)]
        if self.session.lesson.corpus is None:
            parts[2] = "corpus tokens not known (no training corpus)"
        if model.held_out is not None:
            held = model.held_out.tokens
            held_saved = 100.0 * (1 - held[k] / held[0]) if held[0] else 0.0
            parts.append(f"held-out {held[k]:,}" + _saved(k, held_saved))
        if self.show_per_token and self.session.lesson.corpus is not None:
            parts.append(f"{model.characters / tokens if tokens else 0:.2f} characters per token")
        return "  ·  ".join(parts)

    def _show_readout(self, step: int) -> None:
        self.readout.setText(self.readout_text(step))
        self._fit_readout()
        model = self.model
        if not model.merges:
            self.scrub.mark([])
            return
        k = max(0, min(step, model.last_step))
        x = self.x_of(k)
        points = [] if self.session.lesson.corpus is None else [(x, self._scaled(model.tokens)[k], self.theme.training)]
        if model.held_out is not None:
            points.append((x, self._scaled(model.held_out.tokens)[k], self.theme.held_out))
        self.scrub.mark(points)

    # -- theme ----------------------------------------------------------------------------------

    def apply_theme(self, theme: ChartTheme) -> None:
        self.theme = theme
        self.plot.setBackground(theme.background)
        item = self.plot.getPlotItem()
        for axis in (item.getAxis("left"), item.getAxis("bottom"), item.getAxis("right"), self.per_token_axis):
            axis.setPen(pg.mkPen(theme.muted))
            axis.setTextPen(pg.mkPen(theme.foreground))
            axis.setStyle(tickFont=theme.font(), tickTextOffset=6)
            axis.label.setFont(theme.font())
        item.getAxis("right").setTextPen(pg.mkPen(theme.vocab))
        self.per_token_axis.setTextPen(pg.mkPen(theme.per_token))
        grid = QColor(theme.foreground)
        grid.setAlphaF(theme.grid)
        self.grid.setPen(pg.mkPen(grid, width=1))
        width = theme.line_width
        self.training_curve.setPen(theme.pen(theme.training, width * 1.3))
        self.held_out_curve.setPen(theme.pen(theme.held_out, width * 1.3, Qt.PenStyle.DashLine))
        self.vocab_curve.setPen(theme.pen(theme.vocab, width, Qt.PenStyle.DotLine))
        self.per_token_curve.setPen(theme.pen(theme.per_token, width, Qt.PenStyle.DashDotLine))
        self.held_out_per_token_curve.setPen(theme.pen(theme.per_token, width * 0.8, Qt.PenStyle.DashDotDotLine))
        self.scrub.apply_theme(theme)
        self.stop_line.setPen(theme.pen(theme.target, width, Qt.PenStyle.DashLine))
        self.stop_line.label.setColor(theme.target)
        self.stop_line.label.setFont(theme.font(bold=True))
        self.stop_line.label.fill = pg.mkBrush(theme.background)
        self.legend.setLabelTextColor(theme.foreground)
        self.legend.setLabelTextSize(f"{theme.font_size}pt")
        self.legend.setBrush(pg.mkBrush(None))
        self.legend.setPen(pg.mkPen(None))
        self.readout.setStyleSheet(f"color: {theme.foreground}; font-size: {theme.font_size}pt;")
        self._fit_readout()
        self.plot.setMinimumHeight(int(QFontMetricsF(theme.font()).lineSpacing() * PLOT_LINES))
        self.replot()

    def _fit_readout(self) -> None:
        """Two lines, or as many as the longest read-out of the run needs at the chart's width
        (a narrow chart at a large type): moving the step never changes the layout around the plot."""
        metrics = QFontMetricsF(self.theme.font())
        width = max(self.readout.contentsRect().width(), 1)
        texts = {self.readout.text(), self.readout_text(self.model.last_step)}
        lines = max(metrics.boundingRect(QRectF(0, 0, width, 1e6), int(Qt.TextFlag.TextWordWrap), t).height()
                    for t in texts)
        height = int(max(metrics.lineSpacing() * 2, lines + metrics.lineSpacing() * 0.25) + 6)
        if height != self.readout.height() or self.readout.minimumHeight() != height:
            self.readout.setFixedHeight(height)

    def rows(self) -> list[dict]:
        """The plotted history as rows for a CSV file."""
        keys = [c.replace(" ", "_").replace("-", "_") for c in COLUMNS]
        return [
            {key: self.model.value(row, col) for col, key in enumerate(keys)}
            for row in range(self.model.rowCount())
        ]


def _saved(step: int, percent: float) -> str:
    return "" if step == 0 else f" (−{percent:.0f}%)"


__all__ = ["GrowthChart", "MERGES", "VOCAB", "TOKENS", "PERCENT", "short_number"]
