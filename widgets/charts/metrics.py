"""The metrics chart: how good the vocabulary is, by one chosen measure, after every merge.

The corpus's and the held-out text's curves of one measure of ``engine.readable.metrics``
(characters per token, Rényi efficiency, ...), against merges or the vocabulary size as the growth
chart's x axis is. The curves come from a worker when a lesson (or a held-out text) arrives; a step
only moves the line, which, dragged or clicked, asks the session to go there. The read-out says
the values at the current step, or at the step under the mouse while it is over the plot. Under it,
one sentence keeps "fewer tokens" from being read as "a better model".
"""

from __future__ import annotations

from bisect import bisect_left

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from widgets.charts.axes import CountAxis, GridLines, short_number
from widgets.charts.growth import MERGES, VOCAB
from widgets.charts.metric_data import BY_KEY, METRICS, MetricSeries, metric_series
from widgets.charts.step_line import StepLine
from widgets.charts.theme import ChartTheme
from widgets.session_view import SessionView
from widgets.worker import Worker, abort_if_requested

# Zouhar et al., "Tokenization and the Noiseless Channel", ACL 2023
WARNING = ("Fewer tokens is not the same as a better model: Zouhar et al. (ACL 2023) found Rényi efficiency "
           "correlated better with translation quality than compressed length did.")
HEADROOM = 1.15
PLOT_LINES = 11


class MeasureAxis(CountAxis):
    """Fractions as short as they can be ("0.5", not "0.50"): an efficiency's ticks at a projector's
    type were wide enough to run into the axis's title."""

    def __init__(self, orientation: str):
        super().__init__(orientation, fractions=True)

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph's name)
        return [short_number(v * scale) if abs(v * scale) >= 1 else f"{v * scale:.2f}".rstrip("0").rstrip(".")
                for v in values]


class MetricsChart(QWidget):
    """One measure of the vocabulary over the whole history, corpus and held-out, with the step on it."""

    def __init__(self, session: SessionView, theme: ChartTheme | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.theme = theme or ChartTheme.light()
        self.metric_key = METRICS[0].key
        self.x_mode = MERGES
        self.series: MetricSeries | None = None
        self._worker: Worker | None = None
        self._behind = False  # a lesson arrived while hidden: measured when shown

        self.plot = pg.PlotWidget(axisItems={"bottom": CountAxis("bottom"), "left": MeasureAxis("left")})
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.setMouseEnabled(False, False)
        self.grid = GridLines()
        item.addItem(self.grid, ignoreBounds=True)
        self.legend = pg.LegendItem(offset=None)
        self.legend.setParentItem(item)
        self.legend.anchor(itemPos=(0.5, 0), parentPos=(0.5, 0), offset=(0, 2))
        self.legend.setColumnCount(2)
        self.corpus_curve = pg.PlotDataItem(name="Training text")
        self.held_out_curve = pg.PlotDataItem(name="Held-out text")
        for curve in (self.corpus_curve, self.held_out_curve):
            item.addItem(curve)
            curve.setClipToView(True)
            curve.opts["autoDownsampleFactor"] = 1.0
            curve.setDownsampling(auto=True, method="peak")
        self.scrub = StepLine(self.plot, session, self.x_of, self.step_at, lambda: self.series is not None,
                              self._show_readout)
        self.step_line, self.markers = self.scrub.line, self.scrub.markers
        item.vb.sigResized.connect(self._place_grid)

        self.readout = QLabel(" ")
        self.readout.setWordWrap(True)
        self.warning = QLabel(WARNING)
        self.warning.setObjectName("hint")
        self.warning.setWordWrap(True)
        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.readout)
        layout.addWidget(self.warning)

        session.lesson_changed.connect(lambda _lesson: self.measure())
        session.held_out_changed.connect(lambda _text: self.measure())
        session.step_changed.connect(self._on_step_changed)
        self.apply_theme(self.theme)
        self.measure()  # the chart may be built after the lesson arrived

    # -- the curves, from a worker --------------------------------------------------------------

    def measure(self) -> None:
        """Compute the session's lesson's curves off the GUI thread; until they come, none is drawn.
        A hidden chart (the Charts tab behind another) waits until it is shown: the cores are shared."""
        if self._worker is not None:
            self._worker.quit()
            self._worker = None
        self.series = None
        self.replot()
        lesson = self.session.lesson
        self._behind = not self.isVisible()
        if self.session.state is None or self._behind:
            return
        worker = self._worker = Worker(metric_series, lesson, lesson.held_out, check=abort_if_requested)
        worker.returned.connect(self._on_measured)
        worker.errored.connect(self._on_measure_failed)
        worker.start()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._behind:
            self.measure()

    def _on_measured(self, series: MetricSeries) -> None:
        # a result for a lesson or a held-out text no longer shown is not this chart's any more
        if series.lesson is not self.session.lesson or series.held_out != self.session.lesson.held_out:
            return
        self._worker = None
        self.series = series
        self.replot()

    def _on_measure_failed(self, exc: object) -> None:
        if self.sender() is not self._worker:
            return  # a run for a lesson already replaced
        self._worker = None
        self.readout.setText(f"The measures could not be computed ({exc}). Train the lesson again to retry.")

    @property
    def hover_step(self) -> int | None:
        """The step under the mouse while it is over the plot, else None."""
        return self.scrub.hover_step

    @property
    def measuring(self) -> bool:
        return self._worker is not None

    # -- switches -------------------------------------------------------------------------------

    def set_metric(self, key: str) -> None:
        if key not in BY_KEY:
            raise ValueError(f"no measure '{key}': choose one of {', '.join(BY_KEY)}")
        self.metric_key = key
        self.replot()

    def set_x_mode(self, mode: str) -> None:
        if mode not in (MERGES, VOCAB):
            raise ValueError(f"x axis is '{MERGES}' or '{VOCAB}', not '{mode}'")
        self.x_mode = mode
        self.replot()

    # -- what is plotted ------------------------------------------------------------------------

    def x_values(self) -> list[int]:
        if self.series is None:
            return []
        return list(self.series.vocab if self.x_mode == VOCAB else self.series.merges)

    def x_of(self, step: int) -> float:
        x = self.x_values()
        return float(x[max(0, min(step, len(x) - 1))]) if x else 0.0

    def step_at(self, x: float) -> int:
        series = self.series
        if series is None:
            return 0
        if self.x_mode == VOCAB:
            return min(bisect_left(series.vocab, x), series.last_step)
        return max(0, min(int(round(x)), series.last_step))

    def values(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The corpus's and the held-out text's values of the chosen measure at every step."""
        if self.series is None:
            return (), ()
        return self.series.corpus[self.metric_key], self.series.held[self.metric_key]

    def replot(self) -> None:
        kind = BY_KEY[self.metric_key]
        item = self.plot.getPlotItem()
        x = self.x_values()
        corpus, held = self.values()
        self.corpus_curve.setData(x if corpus else [], list(corpus))
        self.held_out_curve.setData(x if held else [], list(held))
        self.corpus_curve.setVisible(bool(corpus))
        self.held_out_curve.setVisible(bool(held))
        self.legend.clear()
        for curve, shown in ((self.corpus_curve, corpus), (self.held_out_curve, held)):
            if shown:
                self.legend.addItem(curve, curve.name())
        self.legend.updateSize()
        item.layout.setRowFixedHeight(0, self.legend.boundingRect().height() + 4)
        theme = self.theme
        item.setLabel("bottom", "Vocabulary size" if self.x_mode == VOCAB else "Merges", color=theme.foreground)
        item.setLabel("left", kind.axis_title, color=theme.foreground)
        if x:
            hi = x[-1] if x[-1] > x[0] else x[0] + 1
            item.setXRange(x[0], hi, padding=0.02)
        top = max([*corpus, *held, 100.0 if kind.percent else 1.0])
        item.setYRange(0, top * HEADROOM, padding=0)
        self.step_line.setVisible(bool(x))
        self.scrub.place(self.session.step)
        self._show_readout(self.hover_step if self.hover_step is not None else self.session.step)
        self._place_grid()

    def _place_grid(self) -> None:
        item = self.plot.getPlotItem()
        self.grid.place(item.vb, item.getAxis("bottom"), item.getAxis("left"))

    def readout_text(self, step: int) -> str:
        series = self.series
        if self.session.state is None:
            return "Train a lesson to measure its vocabulary."
        if series is None:
            return "Measuring the vocabulary at every step…"
        if not series.merges:
            return "No text to measure: paste a held-out text below to see how the vocabulary does on it."
        kind = BY_KEY[self.metric_key]
        k = max(0, min(step, series.last_step))
        corpus, held = self.values()
        parts = [f"Step {k} of {series.last_step}", f"vocabulary {series.vocab[k]:,}"]
        if corpus:
            parts.append(f"training text {kind.reads(corpus[k])}")
        if held:
            parts.append(f"held-out {kind.reads(held[k])}")
        if not corpus and not held:
            parts.append("not counted for this split" if kind.whole_words else "no text to measure")
        return "  ·  ".join(parts)

    def _show_readout(self, step: int) -> None:
        self.readout.setText(self.readout_text(step))
        series = self.series
        if series is None:
            self.scrub.mark([])
            return
        k = max(0, min(step, series.last_step))
        x = self.x_of(k)
        corpus, held = self.values()
        self.scrub.mark([(x, values[k], colour)
                         for values, colour in ((corpus, self.theme.training), (held, self.theme.held_out)) if values])

    # -- following the session ------------------------------------------------------------------

    def _on_step_changed(self, change) -> None:
        self.scrub.place(change.step)
        self.scrub.end_hover()

    # -- theme ----------------------------------------------------------------------------------

    def apply_theme(self, theme: ChartTheme) -> None:
        self.theme = theme
        self.plot.setBackground(theme.background)
        item = self.plot.getPlotItem()
        for axis in (item.getAxis("left"), item.getAxis("bottom")):
            axis.setPen(pg.mkPen(theme.muted))
            axis.setTextPen(pg.mkPen(theme.foreground))
            axis.setStyle(tickFont=theme.font(), tickTextOffset=6)
        # room for the widest tick any measure has ("0.25", "100") and the title beside it: the width
        # pyqtgraph works out from the ticks drawn so far let them run into the title at a projector's type
        metrics = QFontMetricsF(theme.font())
        for axis in (item.getAxis("left"), item.getAxis("bottom")):
            axis.label.setFont(theme.font())
        item.getAxis("left").setWidth(int(metrics.horizontalAdvance("0.25") + 12 + metrics.height() * 1.3))
        grid = pg.mkColor(theme.foreground)
        grid.setAlphaF(theme.grid)
        self.grid.setPen(pg.mkPen(grid, width=1))
        width = theme.line_width
        self.corpus_curve.setPen(theme.pen(theme.training, width * 1.3))
        self.held_out_curve.setPen(theme.pen(theme.held_out, width * 1.3, Qt.PenStyle.DashLine))
        self.scrub.apply_theme(theme)
        self.legend.setLabelTextColor(theme.foreground)
        self.legend.setLabelTextSize(f"{theme.font_size}pt")
        self.legend.setBrush(pg.mkBrush(None))
        self.legend.setPen(pg.mkPen(None))
        text = f"color: {theme.foreground}; font-size: {theme.font_size}pt;"
        self.readout.setStyleSheet(text)
        self.warning.setStyleSheet(f"color: {theme.muted}; font-size: {theme.font_size}pt; font-style: italic;")
        lines = QFontMetricsF(theme.font()).lineSpacing()
        # two lines always: moving the step never changes the layout around the plot
        self.readout.setFixedHeight(int(lines * 2 + 6))
        self.plot.setMinimumHeight(int(lines * PLOT_LINES))
        self.replot()
        self.refit()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.refit(event.size().width())

    def refit(self, width: int | None = None) -> None:
        """At least as tall as the plot, the read-out and the wrapped warning need at ``width``: the
        page's column asks only for a minimum, which leaves out the warning's lines, and a squeezed
        chart drew its read-out over the plot's axis."""
        width = self.width() if width is None else width
        spacing = self._layout.spacing()
        need = (self.plot.minimumHeight() + self.readout.height() + max(self.warning.heightForWidth(width), 0)
                + 2 * spacing)
        if need != self.minimumHeight():
            self.setMinimumHeight(need)


__all__ = ["MetricsChart", "WARNING"]
