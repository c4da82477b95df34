"""The same sentences in many languages, and what each costs in tokens under each tokenizer.

The bar chart answers "does every language cost the same?" on screen: under GPT-4's tokenizer a
Tamil or Hindi sentence takes several times the tokens of the same sentence in English.
"""

from __future__ import annotations

import PySide6  # noqa: F401  (pyqtgraph must find PySide6 first)
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.explorer import Sample, load_languages, token_counts
from widgets.explorer.theme import ExplorerTheme

# a dark blue and a light orange: apart in hue for every common colour blindness, and in grey
SERIES = ("#004488", "#EE9944")


class LanguagesView(QWidget):
    sample_chosen = Signal(str)  # the text of a sample the user picked to look at closely

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.samples: list[Sample] = load_languages()
        self.series: list[tuple[str, list[int] | None]] = []
        self.scale = 1.0
        self.theme = ExplorerTheme.light()
        self.title = QLabel("The same three sentences in each language: how many tokens?")
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.plot = pg.PlotWidget()
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.getPlotItem().invertY(True)
        self.table = QTableWidget(0, 6)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.cellDoubleClicked.connect(lambda row, _col: self.sample_chosen.emit(self.samples[row].text))
        self.table.setToolTip("Double-click a language to see its tokens side by side")
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.plot)
        splitter.addWidget(self.table)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([1200, 700])
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.caption)
        self.key = QLabel()
        layout.addWidget(self.key)
        layout.addWidget(splitter, 1)
        self._apply_fonts()

    def set_tokenizers(self, named: list[tuple[str, object | None]]) -> None:
        """(title, tokenizer or None while loading) for each bar of a language."""
        self.series = [(title, token_counts(tok, self.samples) if tok is not None else None) for title, tok in named]
        self._redraw()

    def counts(self, title: str) -> list[int] | None:
        for name, values in self.series:
            if name == title:
                return values
        return None

    # -- looks --------------------------------------------------------------------------------

    def set_scale(self, factor: float) -> None:
        self.scale = factor
        self._apply_fonts()
        self._redraw()

    def set_theme(self, theme: ExplorerTheme) -> None:
        self.theme = theme
        self._apply_fonts()
        self._redraw()

    def _font(self, points: float, bold: bool = False) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(points * self.scale)
        font.setBold(bold or self.theme.bold)
        return font

    def _apply_fonts(self) -> None:
        self.title.setFont(self._font(17, bold=True))
        self.caption.setFont(self._font(14))
        self.key.setFont(self._font(14, bold=True))
        self.table.setFont(self._font(11))
        self.table.horizontalHeader().setFont(self._font(11, bold=True))
        self.table.resizeRowsToContents()

    # -- drawing ------------------------------------------------------------------------------

    def _redraw(self) -> None:
        theme = self.theme
        plot = self.plot
        plot.clear()
        plot.setBackground(theme.background)
        item = plot.getPlotItem()
        n = len(self.samples)
        shown = [(t, v) for t, v in self.series if v is not None]
        height = 0.8 / max(len(shown), 1)
        top = 0.0
        legend_entries = []
        for k, (title, values) in enumerate(shown):
            offsets = [i - 0.4 + height * (k + 0.5) for i in range(n)]
            bars = pg.BarGraphItem(x0=0, y=offsets, height=height * 0.92, width=values,
                                   brush=QColor(SERIES[k % len(SERIES)]), pen=pg.mkPen(theme.text, width=1))
            plot.addItem(bars)
            legend_entries.append((title, bars))
            for y, v in zip(offsets, values):
                label = pg.TextItem(str(v), color=theme.text, anchor=(0, 0.5))
                label.setFont(self._font(11, bold=True))
                label.setPos(v, y)
                plot.addItem(label)
            top = max(top, max(values, default=0))
        legend_font = self._font(12)
        # the key sits above the chart, where no bar can run under it
        self.key.setText(
            "Tokens per language: "
            + " &nbsp; ".join(
                f"<span style='color:{SERIES[k % len(SERIES)]}'>■</span> {title}" for k, (title, _) in enumerate(legend_entries)
            )
        )
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            axis.setTextPen(theme.text)
            axis.setPen(theme.text)
            axis.setTickFont(legend_font)
        item.getAxis("left").setTicks([[(i, f"{s.name}  ") for i, s in enumerate(self.samples)]])
        item.setLabel("bottom", "tokens", color=theme.text, size=f"{12 * self.scale:.0f}pt")
        item.setXRange(0, max(top, 1) * 1.15, padding=0)
        item.setYRange(-0.6, n - 0.4, padding=0)
        self._fill_table(shown)
        self.caption.setText(self._caption(shown))

    def _caption(self, shown) -> str:
        if not shown:
            return "Loading the tokenizers…"
        title, values = shown[0]
        base = next((i for i, s in enumerate(self.samples) if s.code == "en"), 0)
        if not values[base]:
            return ""
        worst = max(range(len(values)), key=lambda i: values[i] if self.samples[i].script != "code" else -1)
        ratio = values[worst] / values[base]
        return (
            f"Under {title}, {self.samples[worst].name} costs {values[worst]} tokens where English costs "
            f"{values[base]}: ×{ratio:.1f} for the same meaning. Every language does <b>not</b> cost the same — "
            "a model's context window, speed and price all count tokens."
        )

    def _fill_table(self, shown) -> None:
        headers = ["Language", "Characters"] + [f"Tokens\n{_short(t)}" for t, _ in shown]
        if shown:
            headers.append(f"× English\n{_short(shown[0][0])}")
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setRowCount(len(self.samples))
        base = next((i for i, s in enumerate(self.samples) if s.code == "en"), 0)
        for row, sample in enumerate(self.samples):
            name = sample.name if sample.native in sample.name else f"{sample.name} · {sample.native}"
            cells = [name, str(len(sample.text))]
            cells += [str(values[row]) for _, values in shown]
            if shown and shown[0][1][base]:
                cells.append(f"{shown[0][1][row] / shown[0][1][base]:.1f}")
            for col, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                if col == 0:
                    cell.setToolTip(f"{sample.name}: {sample.script} script")
                if col >= 1:
                    cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, col, cell)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.resizeRowsToContents()


def _short(title: str) -> str:
    """A column heading from a tokenizer's title: "GPT-4 (cl100k_base)" -> "GPT-4"."""
    return title.split(" (")[0].split(",")[0]
