"""The current step on a chart of the whole run: a line that scrubs the lesson, and the hover that
reads another step.

The growth chart and the metrics chart both draw curves against merges (or the vocabulary size)
and share this piece: a vertical line at the current step that, dragged, asks the session to go
where it is let go (and goes back to the current step when let go); a click on the plot asks for
the step under it; while the mouse is over the plot the chart reads out the step under it and
marks its curves there, and any step move or the mouse leaving ends that. What a step reads and
where its curves are is the chart's: it gives ``x_of``, ``step_at``, ``has_data`` and
``show(step)``, which reads ``hover_step`` to know whether it is hovering.
"""

from __future__ import annotations

from typing import Callable

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt

from widgets.charts.theme import ChartTheme
from widgets.session_view import SessionView


class StepLine(QObject):
    """The step line, the hover markers and the mouse of one chart's ``plot``."""

    def __init__(self, plot: pg.PlotWidget, session: SessionView, x_of: Callable[[int], float],
                 step_at: Callable[[float], int], has_data: Callable[[], bool], show: Callable[[int], None],
                 labelled: bool = False):
        super().__init__(plot)
        self.plot = plot
        self.session = session
        self._x_of, self._step_at, self._has_data, self._show = x_of, step_at, has_data, show
        self.labelled = labelled
        self.hover_step: int | None = None
        self._placing = False
        item = plot.getPlotItem()
        # a labelled line's label stands at the foot of the line, right of it (left past the middle)
        options = {"label": "", "labelOpts": {"position": 0.0, "anchors": [(0, 1), (0, 1)]}} if labelled else {}
        self.line = pg.InfiniteLine(angle=90, movable=True, **options)
        self.line.setZValue(20)
        item.addItem(self.line, ignoreBounds=True)
        self.markers = pg.ScatterPlotItem(size=12)
        self.markers.setZValue(15)
        item.addItem(self.markers, ignoreBounds=True)
        self.line.sigPositionChanged.connect(self._on_line_dragged)
        self.line.sigPositionChangeFinished.connect(lambda _: self.place(self.session.step))
        plot.scene().sigMouseMoved.connect(self.mouse_moved)
        plot.scene().sigMouseClicked.connect(self._on_mouse_clicked)
        # the scene reports no move once the mouse is outside the plot: its leaving ends the hover
        plot.installEventFilter(self)

    # -- the line -------------------------------------------------------------------------------

    def place(self, step: int) -> None:
        """The line at ``step`` (a move of the chart's, not a drag: it asks the session nothing)."""
        self._placing = True
        try:
            x = self._x_of(step)
            self.line.setValue(x)
            self._label(step, x)
        finally:
            self._placing = False

    def _label(self, step: int, x: float) -> None:
        if not self.labelled:
            return
        label = self.line.label
        label.setFormat(f"step {step:,}")
        # past the middle the label goes left of the line, so it is never cut off at the right edge
        (x0, x1), _ = self.plot.getPlotItem().vb.viewRange()
        side = 1 if x > (x0 + x1) / 2 else 0
        if label.anchors[0][0] != side:
            label.anchors = [(side, 0.5), (side, 0.5)]
            label.setAnchor(label.anchors[0])

    def _on_line_dragged(self, line) -> None:
        if self._placing or not self._has_data():
            return
        step = self._step_at(line.value())
        self._label(step, line.value())
        if step != self.session.step:
            self.session.request_step(step)

    # -- the mouse ------------------------------------------------------------------------------

    def _on_mouse_clicked(self, event) -> None:
        vb = self.plot.getPlotItem().vb
        if (not self._has_data() or event.button() != Qt.MouseButton.LeftButton
                or not vb.sceneBoundingRect().contains(event.scenePos())):
            return
        self.session.request_step(self._step_at(vb.mapSceneToView(event.scenePos()).x()))

    def mouse_moved(self, pos) -> None:
        """The mouse at scene point ``pos``: over the plot, the chart reads the step under it."""
        vb = self.plot.getPlotItem().vb
        if not self._has_data() or not vb.sceneBoundingRect().contains(pos):
            if self.hover_step is not None:
                self.end_hover()
            return
        self.hover_step = self._step_at(vb.mapSceneToView(pos).x())
        self._show(self.hover_step)

    def end_hover(self) -> None:
        """Back to the current step (the lesson moved, or the mouse left the plot)."""
        self.hover_step = None
        self._show(self.session.step)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.plot and event.type() == QEvent.Type.Leave and self.hover_step is not None:
            self.end_hover()
        return super().eventFilter(watched, event)

    # -- what the chart shows of a hovered step ------------------------------------------------

    def mark(self, points: list[tuple[float, float, str]]) -> None:
        """Mark the curves at a hovered step: (x, y, colour) each; none while not hovering."""
        if self.hover_step is None:
            points = []
        self.markers.setData([{"pos": (x, y), "brush": pg.mkBrush(colour)} for x, y, colour in points])

    def apply_theme(self, theme: ChartTheme) -> None:
        width = theme.line_width
        self.line.setPen(theme.pen(theme.step, width * 1.2))
        self.line.setHoverPen(theme.pen(theme.held_out, width * 1.8))
        if self.labelled:
            self.line.label.setColor(theme.step)
            self.line.label.setFont(theme.font(bold=True))
            self.line.label.fill = pg.mkBrush(theme.background)
