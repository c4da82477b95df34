"""Bars of the most frequent pairs at the current step: the ties lit, the winner marked.

A step forward or back glides from the old bars to the new ones: each pair keeps its bar, so a pair
that climbs the ranking slides up, the merged pair shrinks away and a new pair grows in.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QEasingCurve, Qt, QTimer, QVariantAnimation, Signal
from PySide6.QtGui import QColor, QFontMetricsF
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from engine.lesson.lesson import Lesson
from widgets.charts.axes import CountAxis, GridLines
from widgets.charts.pair_data import PairBar, pair_label, sources_text, step_caption, top_pairs
from widgets.charts.theme import ChartTheme
from widgets.session_view import SessionView

BAR_HEIGHT = 0.72
# room right of the longest bar for its count and mark
LABEL_ROOM = 1.45
AXIS_TITLE = "How often the pair occurs"
# the bars redraw at most this often while steps arrive faster (a dragged step line)
THROTTLE_MS = 40


@dataclass(frozen=True)
class PairBarsShown:
    """What the pair chart shows: the caption under the bars, and each bar from the top as its
    axis label and the text beside it (the count, and "◀ next" or "tie")."""

    caption: str
    bars: tuple[tuple[str, str], ...]


class PairCountChart(QWidget):
    """Horizontal bars, one per pair, the pair that merges next on top."""

    # the bars reached the step (animation over): tests and exports wait for it
    settled = Signal()

    def __init__(self, session: SessionView, theme: ChartTheme | None = None, limit: int = 10, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.theme = theme or ChartTheme.light()
        self.limit = limit
        self.bars: list[PairBar] = []
        # pair -> (slot, count) where the animation starts and ends
        self._from: dict[tuple[str, str], tuple[float, float]] = {}
        self._to: dict[tuple[str, str], tuple[float, float]] = {}
        self._shown: dict[tuple[str, str], tuple[float, float]] = {}
        self._x_from = self._x_to = 1.0
        self._kinds: dict[tuple[str, str], PairBar] = {}

        self.plot = pg.PlotWidget(axisItems={"bottom": CountAxis("bottom"), "left": pg.AxisItem("left")})
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.setMouseEnabled(False, False)
        item.vb.invertY(True)
        item.setLabel("bottom", AXIS_TITLE)
        self.bar_item = pg.BarGraphItem(x0=[], y=[], height=BAR_HEIGHT, width=[])
        item.addItem(self.bar_item)
        self.grid = GridLines()
        item.addItem(self.grid, ignoreBounds=True)
        self._labels: list[pg.TextItem] = []
        self._ticks: list[tuple[float, str]] = []  # the pair labels on the left axis, as last drawn
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.readout = QLabel(" ")
        self.readout.setWordWrap(True)
        self.readout.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.readout.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.caption)
        layout.addWidget(self.readout)

        self.animation = QVariantAnimation(self)
        self.animation.setStartValue(0.0)
        self.animation.setEndValue(1.0)
        self.animation.setDuration(220)
        self.animation.setEasingCurve(QEasingCurve.Type.OutCubic)
        self.animation.valueChanged.connect(self._draw)
        self.animation.finished.connect(self._on_animation_finished)
        self._last_refresh = 0.0
        self._shown_step = 0
        self._catch_up = QTimer(self)
        self._catch_up.setSingleShot(True)
        self._catch_up.timeout.connect(self._refresh_to_step)

        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.plot.getPlotItem().vb.sigResized.connect(self._on_resized)
        session.step_changed.connect(self._on_step_changed)
        session.lesson_changed.connect(self._on_lesson_changed)
        self.apply_theme(self.theme)
        self.refresh(animate=False)

    def shown(self) -> PairBarsShown:
        """The caption and the bars as drawn now, top first (for tests and accessibility)."""
        by_slot = {round(slot): text for slot, text in self._ticks}
        beside = sorted((label.pos().y(), label.toPlainText()) for label in self._labels if label.isVisible())
        bars = tuple((by_slot.get(round(y), ""), text) for y, text in beside)
        return PairBarsShown(self.caption.text(), bars)

    # -- following the session ------------------------------------------------------------------

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if getattr(self, "_lesson_behind", False):
            self._on_lesson_changed(self.session.lesson)
        elif self._shown_step != self.session.step:
            self.refresh(animate=False)

    def _on_step_changed(self, _change) -> None:
        if not self.isVisible():
            return  # ranked again when shown: a hidden tab costs nothing per step
        # Ranking the pairs and redrawing every bar costs several milliseconds on a large corpus;
        # a dragged step line moves many times a frame. So the bars follow at most every
        # THROTTLE_MS, always ending on the session's latest step.
        if self._catch_up.isActive():
            return
        wait = self._last_refresh + THROTTLE_MS / 1000 - time.monotonic()
        if wait > 0:
            self._catch_up.start(max(1, int(wait * 1000)))
        else:
            self._refresh_to_step()

    def _refresh_to_step(self) -> None:
        step = self.session.step
        # one step glides; a jump shows the new bars at once, so they keep up with the step line
        self.refresh(animate=abs(step - self._shown_step) == 1)

    def _on_lesson_changed(self, _lesson: Lesson) -> None:
        self._catch_up.stop()
        self._shown = {}
        # a hidden tab ranks the new lesson's pairs when it is shown
        self._lesson_behind = not self.isVisible()
        if self._lesson_behind:
            return
        self.refresh(animate=False)
        self._fit_left_axis(shrink=True)

    def refresh(self, animate: bool = True) -> None:
        """Rank the pairs at the session's step and move the bars there."""
        state = self.session.state
        self._last_refresh = time.monotonic()
        self._shown_step = self.session.step
        self.bars = top_pairs(state, self.limit) if state is not None else []
        self.caption.setText(step_caption(state, self.bars) if state is not None else "Type or open some training text.")
        self._from = dict(self._shown)
        self._to = {b.pair: (float(slot), float(b.count)) for slot, b in enumerate(self.bars)}
        for pair, (slot, _) in self._to.items():
            self._from.setdefault(pair, (slot, 0.0))
        for pair, (slot, _) in self._from.items():
            self._to.setdefault(pair, (slot, 0.0))
        self._x_from = self._x_to if self._shown else self._x_range()
        self._x_to = self._x_range()
        self._kinds = {b.pair: b for b in self.bars}
        self._fit_left_axis()
        self._set_hover(None)
        self.animation.stop()
        if animate and self.animation.duration() > 0 and self.isVisible():
            self.animation.start()
        else:
            self._on_animation_finished()

    def _on_resized(self) -> None:
        self._fit_axis_label()
        if self.animation.state() != QVariantAnimation.State.Running:
            self._x_from = self._x_to = self._x_range()
            self._draw(1.0)

    def _fit_axis_label(self) -> None:
        """The x axis's title on one line where the plot is as wide, else on two (large type, a
        narrow column): centred under the plot, a longer line would run off the chart's edge."""
        width = self.plot.getPlotItem().vb.width()
        one_line = QFontMetricsF(self.theme.font()).horizontalAdvance(AXIS_TITLE) <= width
        title = AXIS_TITLE if one_line or width <= 0 else AXIS_TITLE.replace("the pair", "<br>the pair")
        axis = self.plot.getPlotItem().getAxis("bottom")
        if axis.labelText != title:
            axis.setLabel(title, color=self.theme.foreground)

    def finish_animation(self) -> None:
        """Show the session's step now: no pending update, no glide under way."""
        if self._catch_up.isActive():
            self._catch_up.stop()
            self.refresh(animate=False)
        if self.animation.state() == QVariantAnimation.State.Running:
            self.animation.stop()
            self._on_animation_finished()

    def _x_range(self) -> float:
        """Right end of the x axis: the longest bar plus room, in pixels, for its count and mark."""
        top = max(max((b.count for b in self.bars), default=1), 1)
        width = self.plot.getPlotItem().vb.width()
        metrics = QFontMetricsF(self.theme.font())
        # the text item adds a few pixels of margin on each side
        room = metrics.horizontalAdvance(f"{top:,}  ◀ next") + 24
        if width <= room:
            return top * LABEL_ROOM * 1.4  # not laid out yet, or no room at all
        # large type in a narrow column (a projector): shorter bars rather than a count or mark cut off
        return top * width / max(width - room, width / 4)

    def _fit_left_axis(self, shrink: bool = False) -> None:
        """Make the pair labels fit. While stepping the axis only grows: a narrower one would resize
        the plot, and with it redraw everything, on every step."""
        settings = self.session.lesson.settings
        metrics = QFontMetricsF(self.theme.font())
        widest = max((metrics.horizontalAdvance(pair_label(settings, b.pair)) for b in self.bars), default=40)
        axis = self.plot.getPlotItem().getAxis("left")
        width = int(widest) + 24
        if shrink or width > axis.width():
            axis.setWidth(width)

    def _on_animation_finished(self) -> None:
        # pairs that left the top are gone for good once their bars have shrunk away
        self._from = {p: v for p, v in self._to.items() if p in self._kinds}
        self._to = dict(self._from)
        self._x_from = self._x_to
        self._draw(1.0)
        self.settled.emit()

    # -- drawing --------------------------------------------------------------------------------

    def _draw(self, t) -> None:
        t = float(t)
        theme = self.theme
        ys, widths, brushes, pens, ticks = [], [], [], [], []
        shown = {}
        for pair, (slot0, count0) in self._from.items():
            slot1, count1 = self._to[pair]
            slot = slot0 + (slot1 - slot0) * t
            count = count0 + (count1 - count0) * t
            shown[pair] = (slot, count)
            bar = self._kinds.get(pair)
            ys.append(slot)
            widths.append(count)
            if bar is not None and bar.winner:
                colour, outline = theme.bar_winner, theme.foreground
            elif bar is not None and bar.tied:
                colour, outline = theme.bar_tied, theme.foreground
            else:
                colour, outline = theme.bar, theme.muted
            brushes.append(pg.mkBrush(colour))
            pens.append(pg.mkPen(outline, width=2))
            # a pair on its way out gives up its label halfway, so two labels never share a slot
            if bar is not None and (count0 > 0 or t >= 0.5):
                ticks.append((slot, pair_label(self.session.lesson.settings, pair)))
            elif bar is None and t < 0.5:
                ticks.append((slot, pair_label(self.session.lesson.settings, pair)))
        self._shown = shown
        if ys:
            self.bar_item.setOpts(x0=[0.0] * len(ys), y=ys, width=widths, height=BAR_HEIGHT, brushes=brushes, pens=pens)
        else:
            # pyqtgraph 0.14 fails on an empty list of pens: no bars, no per-bar styles
            self.bar_item.setOpts(x0=[], y=[], width=[], height=BAR_HEIGHT, brushes=None, pens=None, pen=None)
        self._ticks = ticks
        self.plot.getPlotItem().getAxis("left").setTicks([ticks, []])
        self._draw_count_labels(shown)
        item = self.plot.getPlotItem()
        item.setYRange(-0.6, max(self.limit, len(self.bars)) - 0.4, padding=0)
        item.setXRange(0, self._x_from + (self._x_to - self._x_from) * t, padding=0)
        self.grid.place(item.vb, item.getAxis("bottom"), None)

    def _draw_count_labels(self, shown: dict) -> None:
        theme = self.theme
        plot_item = self.plot.getPlotItem()
        while len(self._labels) < len(self.bars):
            label = pg.TextItem(anchor=(0, 0.5))
            label.setFont(theme.font())
            plot_item.addItem(label, ignoreBounds=True)
            self._labels.append(label)
        for label, bar in zip(self._labels, self.bars):
            slot, count = shown[bar.pair]
            text = f"{bar.count:,}"
            if bar.winner:
                text += "  ◀ next"
            elif bar.tied:
                text += "  tie"
            if label.toPlainText() != text:
                label.setText(text, color=QColor(theme.foreground))
            label.setPos(count, slot)
            label.setVisible(True)
        for label in self._labels[len(self.bars):]:
            label.setVisible(False)

    # -- hover ----------------------------------------------------------------------------------

    def _on_mouse_moved(self, pos) -> None:
        vb = self.plot.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(pos):
            self._set_hover(None)
            return
        y = vb.mapSceneToView(pos).y()
        slot = int(round(y))
        self._set_hover(self.bars[slot] if 0 <= slot < len(self.bars) else None)

    def hover_slot(self, slot: int) -> str:
        """Show the read-out of the bar in ``slot`` (0 = top), as the mouse does; returns its text."""
        self._set_hover(self.bars[slot] if 0 <= slot < len(self.bars) else None)
        return self.readout.text()

    def _set_hover(self, bar: PairBar | None) -> None:
        state = self.session.state
        if bar is None or state is None:
            self.readout.setText("Point at a bar to see where its count comes from.")
            self.plot.setToolTip("")
            return
        settings = self.session.lesson.settings
        label = pair_label(settings, bar.pair)
        # two lines hold a few words; the tooltip lists more
        self.readout.setText(f"{label}:  {sources_text(state, bar.pair, most=3)}")
        self.plot.setToolTip(f"{label}:\n{sources_text(state, bar.pair, most=12).replace(' + ', chr(10) + '+ ')}")

    # -- theme and export -----------------------------------------------------------------------

    def apply_theme(self, theme: ChartTheme) -> None:
        self.theme = theme
        self.plot.setBackground(theme.background)
        item = self.plot.getPlotItem()
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setPen(pg.mkPen(theme.muted))
            axis.setTextPen(pg.mkPen(theme.foreground))
            axis.setStyle(tickFont=theme.font(), tickTextOffset=6)
            axis.label.setFont(theme.font())
        item.getAxis("bottom").setLabel(AXIS_TITLE, color=theme.foreground)
        self._fit_axis_label()
        grid = QColor(theme.foreground)
        grid.setAlphaF(theme.grid)
        self.grid.setPen(pg.mkPen(grid, width=1))
        for label in self._labels:
            label.setFont(theme.font())
            label.setColor(QColor(theme.foreground))
        self._fit_left_axis(shrink=True)
        if self.animation.state() != QVariantAnimation.State.Running:
            self._x_from = self._x_to = self._x_range()
        style = f"color: {theme.foreground}; font-size: {theme.font_size}pt;"
        self.caption.setStyleSheet(style + " font-weight: bold;")
        self.readout.setStyleSheet(style)
        # room for three lines, whatever the text: a step that changes the text never re-lays out the charts
        lines = QFontMetricsF(theme.font(bold=True)).lineSpacing()
        self.caption.setFixedHeight(int(lines * 3 + 6))
        self.readout.setFixedHeight(int(lines * 3 + 6))
        self._draw(1.0 if self.animation.state() != QVariantAnimation.State.Running else self.animation.currentValue())

    def rows(self) -> list[dict]:
        """The bars as rows for a CSV file."""
        state = self.session.state
        if state is None:
            return []  # untrained: no bars
        settings = self.session.lesson.settings
        return [
            {
                "rank": rank,
                "left": bar.pair[0],
                "right": bar.pair[1],
                "pair": pair_label(settings, bar.pair),
                "count": bar.count,
                "tied": int(bar.tied),
                "merges_next": int(bar.winner),
                "sources": sources_text(state, bar.pair, most=50),
            }
            for rank, bar in enumerate(self.bars, start=1)
        ]
