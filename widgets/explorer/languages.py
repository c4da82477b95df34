"""The same sentences in many languages, and what each costs in tokens under each tokenizer.

The bar chart answers "does every language cost the same?" on screen: under GPT-4's tokenizer a
Tamil or Hindi sentence takes several times the tokens of the same sentence in English. Each
tokenizer's premium over English stands beside the others', and a count that holds unknown tokens
says so ("147 tokens, 129 unknown"): a tokenizer that never saw a script looks cheap on it only
because the text became <unk>.
"""

from __future__ import annotations

import PySide6  # noqa: F401  (pyqtgraph must find PySide6 first)
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontInfo, QFontMetricsF
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QFrame,
    QLabel,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.algorithm.encoder import Encoder
from engine.readable.explorer import LanguageCount, Sample, english_premiums, language_counts, load_languages
from widgets.classroom.look import LEAST_PX
from widgets.explorer.theme import ExplorerTheme
from widgets.scrolling import scrolling

# Two bars per language that must part on a black projector, on white paper and in a grey print:
# the first is a solid mid orange (enough contrast against black and white alike), the second a
# much lighter blue crossed by dark hatching, so they differ in lightness and texture, not only hue.
SERIES = ("#E06A20", "#99DDFF")
# marks a count that holds unknown tokens, in the table and the caption's key
FLAG = "⚠"
CAPTION_NAMES = 3
CHARS = 1  # the table's column of characters per sample
TOKENS = 2  # the first of the table's columns of tokens, one per tokenizer
# the least room the bars keep beside the names and counts, in ems of the chart's type
BAR_EMS = 2
# on the desktop the chart's type may shrink this far to give every language its line
LEAST_FIT = 0.6
# the title of a tokenizer's column of premiums, under its name
PREMIUM_TITLE = "× English"
HATCHED = (False, True)


def series_brushes(k: int) -> list[QBrush]:
    """The brushes the k-th series is painted with, bottom first: its fill, then any hatching."""
    brushes = [QBrush(QColor(SERIES[k % len(SERIES)]))]
    if HATCHED[k % len(HATCHED)]:
        brushes.append(QBrush(QColor("#000000"), Qt.BrushStyle.BDiagPattern))
    return brushes


class LanguageTable(QTableWidget):
    """The counts table: its names go onto two lines (English, then native) when room runs short,
    so the number columns are never cut."""

    NAMES = Qt.ItemDataRole.UserRole  # (one-line name, two-line name) of a row's language

    def __init__(self, rows: int, columns: int, parent: QWidget | None = None):
        super().__init__(rows, columns, parent)
        self.two_lines = False

    def set_two_lines(self, on: bool) -> None:
        self.two_lines = on
        for row in range(self.rowCount()):
            item = self.item(row, 0)
            if item is not None and item.data(self.NAMES):
                item.setText(item.data(self.NAMES)[1 if on else 0])
        self.resizeRowsToContents()

    def column_width(self, column: int) -> int:
        return max(self.sizeHintForColumn(column), self.horizontalHeader().sectionSizeHint(column))

    def chrome_width(self) -> int:
        """Frame, style-sheet padding and the scroll bar, measured rather than assumed."""
        chrome = self.width() - self.viewport().width()
        if not self.verticalScrollBar().isVisible():
            chrome += self.verticalScrollBar().sizeHint().width()
        return chrome + 2

    def needed_width(self) -> int:
        """The width that shows every column whole with the names as they are now."""
        shown = [c for c in range(self.columnCount()) if not self.isColumnHidden(c)]
        return sum(self.column_width(c) for c in shown) + self.chrome_width()


class _Page(QWidget):
    """The page's contents in its scroll area: as tall as the area shows, or its least height
    (``setMinimumHeight``) where that is more, never the height its wrapped texts would like
    (which a scroll area asks for with ``heightForWidth``, growing the page past what it shows)."""

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt's name)
        return -1


class LanguagesView(QWidget):
    sample_chosen = Signal(str)  # the text of a sample the user picked to look at closely

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.samples: list[Sample] = load_languages()
        self.series: list[tuple[str, list[int] | None]] = []
        # per tokenizer title, each sample's tokens with its unknown ones
        self.language_counts: dict[str, list[LanguageCount]] = {}
        self.scale = 1.0
        self.theme = ExplorerTheme.light()
        self.labels: list[pg.TextItem] = []  # the counts beside the bars, remade when the chart's height changes
        self.one_label_a_row = False  # whether a language's counts share one label (a bar is too thin for its own)
        self.fit = 1.0  # the chart's type against its theme's, less where the chart is too short for a line a language
        self.title = QLabel("The same three sentences in each language: how many tokens?")
        self.title.setWordWrap(True)  # at projector sizes the heading takes two lines rather than the page's width
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        # on a short page (720p at 150%) the paragraph scrolls rather than squeeze the chart and
        # table to nothing; where there is room it shows whole
        self.caption_area = QScrollArea()
        self.caption_area.setWidget(self.caption)
        self.caption_area.setWidgetResizable(True)
        self.caption_area.setFrameShape(QFrame.Shape.NoFrame)
        self.caption_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.caption_area.viewport().setAutoFillBackground(False)  # the page's ground, in every theme
        self.plot = pg.PlotWidget()
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.getPlotItem().invertY(True)
        self.plot.getPlotItem().getViewBox().sigResized.connect(lambda *_: self._fit_range())
        self.table = LanguageTable(0, 6)
        self.table.setWordWrap(True)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.cellDoubleClicked.connect(lambda row, _col: self.sample_chosen.emit(self.samples[row].text))
        self.table.setToolTip("Double-click a language to see its tokens side by side")
        self.splitter = splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.plot)
        splitter.addWidget(self.table)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([1200, 700])
        # the splitter shares out a new width by its stretch factors after the page's own resize,
        # so the table's width is fitted again once the splitter has done so
        splitter.installEventFilter(self)
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self._fit_table)
        self._stacked_rows = 0  # the table's height under the chart, when it stands there
        self._fitting = False
        # shorter than its title, key and a readable chart (200 % zoom on a small screen) the page
        # scrolls, where a squeezed one would draw its lines over each other
        self.content = _Page()
        self.page_layout = layout = QVBoxLayout(self.content)
        layout.addWidget(self.title)
        layout.addWidget(self.caption_area)
        self.key = QLabel()
        self.key.setWordWrap(True)
        layout.addWidget(self.key)
        layout.addWidget(splitter, 1)
        self.page_area = scrolling(self.content)
        self.page_area.viewport().setAutoFillBackground(False)  # the page's ground, in every theme
        self.content.setAutoFillBackground(False)
        self.content.installEventFilter(self)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.page_area)
        self._apply_fonts()

    def set_tokenizers(self, named: list[tuple[str, Encoder | None]]) -> None:
        """(title, tokenizer or None while loading) for each bar of a language."""
        self.language_counts = {title: language_counts(tok, self.samples) for title, tok in named if tok is not None}
        self.series = [(title, [c.tokens for c in self.language_counts[title]] if tok is not None else None)
                       for title, tok in named]
        self._redraw()

    def counts(self, title: str) -> list[int] | None:
        for name, values in self.series:
            if name == title:
                return values
        return None

    def flagged(self, title: str) -> list[str]:
        """The names of the samples whose count under ``title`` holds unknown tokens."""
        return [s.name for s, c in zip(self.samples, self.language_counts.get(title, [])) if c.flagged]

    def _bar_label(self, title: str, row: int) -> str:
        counts = self.language_counts.get(title)
        if counts is None or not counts[row].flagged:
            return str(counts[row].tokens) if counts else ""
        # short beside a bar, which must keep the chart's room; the table says how many are unknown
        return f"{counts[row].tokens} {FLAG}"

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

    def _chart_points(self, points: float, fit: float | None = None) -> float:
        """A size the chart paints at: the page's, times its theme's chart type, fitted to its height."""
        return points * self.scale * self.theme.chart_type * (self.fit if fit is None else fit)

    def _chart_font(self, points: float, bold: bool = False) -> QFont:
        font = self._font(points, bold)
        font.setPointSizeF(self._chart_points(points))
        return font

    def _apply_fonts(self) -> None:
        self.title.setFont(self._font(17, bold=True))
        self.caption.setFont(self._font(14))
        self.key.setFont(self._font(14, bold=True))
        self.table.setFont(self._font(11))
        self.table.horizontalHeader().setFont(self._font(11, bold=True))
        # under any style sheet a header section takes its size from a ::section rule, not its font;
        # at desktop size the window's sheet sizes it with everything else
        sheet = ""
        if self.scale != 1.0:
            sheet = f"QHeaderView::section {{ font-size: {11 * self.scale:.1f}pt; font-weight: bold; padding: 2px 8px; }}"
        self.table.horizontalHeader().setStyleSheet(sheet)
        self.table.resizeRowsToContents()
        self._fit_caption()
        self._fit_table()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.splitter and event.type() == QEvent.Type.Resize:
            self._refit.start()
        elif watched is self.content and event.type() == QEvent.Type.Resize:
            self._fit_caption()
            self._fit_table()
        return False

    def _fit_caption(self) -> None:
        """The caption whole if the chart and table keep half the page, else as much as leaves them that."""
        area = self.caption_area
        width = max(area.viewport().width(), 1)
        whole = self.caption.heightForWidth(width) if self.caption.text() else 0
        lines = QFontMetricsF(self.caption.font()).lineSpacing()
        layout = self.page_layout
        spacing = 3 * max(layout.spacing(), 0)
        # measured on what the page shows, not on its contents, which grow with the caption's height
        shown = self.page_area.viewport().height()
        margins = layout.contentsMargins()
        chart = max(shown // 2, self._chart_height_need())
        room = shown - margins.top() - margins.bottom() - chart - spacing - self.title.height() - self.key.height()
        least_caption = min(whole, int(2 * lines) + 2)
        area.setFixedHeight(max(0, min(whole, max(room, least_caption))))
        # the least the page holds before it scrolls: its title, key, two lines of the caption and
        # the chart at its least type
        text_width = max(self.content.width() - margins.left() - margins.right(), 1)
        least = (margins.top() + margins.bottom() + spacing + self.title.heightForWidth(text_width)
                 + self.key.heightForWidth(text_width) + least_caption + self._chart_height_need(self._least_fit())
                 + self._stacked_rows)
        if self.content.minimumHeight() != least:
            self.content.setMinimumHeight(least)

    def _fit_table(self) -> None:
        """Give the table the width its columns need, the names on two lines if one would crowd the
        chart; where even its fewest columns crowd the chart (a large zoom on a small screen), the
        table stands under the chart, as wide as the page, rather than scroll sideways."""
        if self._fitting:
            return  # the page's height changed under it: this pass sizes it
        self._fitting = True
        try:
            self._fit_table_now()
        finally:
            self._fitting = False

    def _fit_table_now(self) -> None:
        table, splitter = self.table, self.splitter
        if table.columnCount() == 0 or self.width() <= 0:
            return
        stacked = splitter.orientation() == Qt.Orientation.Vertical
        # the same room in either arrangement: side by side the handle takes its part of it
        total = splitter.width() - (0 if stacked else splitter.handleWidth())
        if total <= 0:
            total = self.width()
        # the chart keeps 45% of the page if two-line names make the table narrow enough, and
        # always the room its names, counts and some bar need
        least = total - self._chart_need()
        self._tall_titles(False)
        want = self._fit_columns(int(total * 0.55), max(int(total * 0.55), least))
        crowded = want > least >= total // 3
        if crowded:
            want = self._fit_columns(total, total)  # under the chart it has the page's width
        if crowded and want > total:
            # still too wide: "×" and "English" take a line each under the tokenizer's name
            self._tall_titles(True)
            want = table.needed_width()
        if crowded != stacked:
            splitter.setOrientation(Qt.Orientation.Vertical if crowded else Qt.Orientation.Horizontal)
        # wider than even the page (never at the sizes classrooms have) it scrolls, its names whole
        scrolls = want > total
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded if scrolls
                                           else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        table.horizontalHeader().setSectionResizeMode(
            0, QHeaderView.ResizeMode.ResizeToContents if scrolls else QHeaderView.ResizeMode.Stretch)
        rows = 0
        if crowded:
            rows = table.verticalHeader().length() + table.horizontalHeader().height() + 2 * table.frameWidth()
        if rows != self._stacked_rows:
            self._stacked_rows = rows
            self._fit_caption()  # the page holds the table's rows under the chart's least height
        if crowded:
            height = splitter.height()
            if height > rows:
                splitter.setSizes([height - rows, rows])
        elif total > want:
            # sizes, not a minimum width: a minimum would keep the page from ever narrowing again
            # the chart takes the rest: it is what the class looks at
            splitter.setSizes([total - want, want])
        self._fit_range()

    def _tall_titles(self, on: bool) -> None:
        """The premium columns' titles on three lines ("GPT-4", "×", "English") or two."""
        table = self.table
        for column in range(table.columnCount()):
            item = table.horizontalHeaderItem(column)
            if item is None or not item.text().endswith(PREMIUM_TITLE[-7:]):
                continue
            name = item.text().split("\n")[0]
            text = f"{name}\n{PREMIUM_TITLE.replace(' ', chr(10))}" if on else f"{name}\n{PREMIUM_TITLE}"
            if item.text() != text:
                item.setText(text)

    def _fit_columns(self, room: int, least: int) -> int:
        """Show the table's columns as ``room`` allows: the names on two lines, then without the
        characters, then (past ``least``) without the counts; returns the width it then needs."""
        table = self.table
        tokens = range(TOKENS, TOKENS + len([v for _, v in self.series if v is not None]))
        table.set_two_lines(False)
        for column in (CHARS, *tokens):
            table.setColumnHidden(column, False)
        if table.needed_width() > room:
            table.set_two_lines(True)
        if table.needed_width() > room:
            # the characters are the least of what a row says: each tokenizer's count and premium stay
            table.setColumnHidden(CHARS, True)
        if table.needed_width() > least:
            # then the counts, which the bars' labels say; each tokenizer's premium over English stays
            for column in tokens:
                table.setColumnHidden(column, True)
        return table.needed_width()

    def _label_texts(self) -> list[tuple[str, float, float]]:
        """(text, x, y) of each count label: one a bar where a bar's height holds a line of the
        labels' type, else one a language, its counts in the bars' order ("25 / 119 ⚠")."""
        shown = [(t, v) for t, v in self.series if v is not None]
        height = 0.8 / max(len(shown), 1)
        if not self.one_label_a_row:
            return [(self._bar_label(title, row), v, row - 0.4 + height * (k + 0.5))
                    for k, (title, values) in enumerate(shown) for row, v in enumerate(values)]
        return [(" / ".join(self._bar_label(title, row) for title, _ in shown), max(v[row] for _, v in shown), row)
                for row in range(len(self.samples))] if shown else []

    def _labels_a_row(self) -> bool:
        """Whether the chart's height leaves a bar too thin for a label of its own."""
        bars = len([v for _, v in self.series if v is not None])
        pixels = self.plot.getPlotItem().getViewBox().height()
        line = QFontMetricsF(self._chart_font(11, bold=True)).height()
        return bars > 1 and (pixels <= 0 or pixels / max(len(self.samples), 1) * 0.8 / bars < line)

    def _label_width(self) -> float:
        metrics = QFontMetricsF(self._chart_font(11, bold=True))
        return max((metrics.horizontalAdvance(f"{text}  ") for text, _, _ in self._label_texts()), default=0.0)

    def _chart_height_need(self, fit: float | None = None) -> int:
        """The chart's least height: a line of the names' type for each language, and the tokens axis."""
        font = self._font(12)
        font.setPointSizeF(self._chart_points(12, fit))
        names = QFontMetricsF(font).lineSpacing()
        return int(len(self.samples) * names * 1.15 + 3 * names) + 20  # the axis's numbers and title, the margins

    def _fitted(self) -> float:
        """The chart's type factor for its height: whole where a line a language fits, else as
        much less as makes it fit, down to the classroom's least type on a projector (or
        ``LEAST_FIT`` on the desktop)."""
        height = self.plot.height()
        if height <= 0 or not self.plot.isVisible():
            return 1.0
        fit = min(1.0, height / max(self._chart_height_need(1.0), 1))
        return max(fit, self._least_fit())

    def _least_fit(self) -> float:
        if not self.theme.projector:
            return LEAST_FIT
        # the counts' type is the chart's smallest
        font = self._font(11, bold=True)
        font.setPointSizeF(self._chart_points(11, 1.0))
        return min(LEAST_PX / max(QFontInfo(font).pixelSize(), 1), 1.0)

    def _apply_chart_fonts(self) -> None:
        item = self.plot.getPlotItem()
        for side in ("left", "bottom"):
            item.getAxis(side).setTickFont(self._chart_font(12))
        # pyqtgraph passes these on as CSS, so the size has to be spelled "font-size"
        item.setLabel("bottom", "tokens", **{"color": self.theme.text, "font-size": f"{self._chart_points(12):.1f}pt",
                                             "font-weight": "bold"})
        # the numbers' line and the title's, held apart whatever the type (the axis keeps the height
        # its first type gave it otherwise, and a larger title then sits over the numbers)
        # the names' width likewise: an axis otherwise widens only as it paints, dropping the names
        # that do not fit the width it had
        left = item.getAxis("left")
        names = QFontMetricsF(self._chart_font(12))
        widest = max((names.horizontalAdvance(f"{s.name}  ") for s in self.samples), default=0.0)
        left.setWidth(int(widest + max(left.style["tickLength"], 0) + left.style["tickTextOffset"][0] + 6))
        bottom = item.getAxis("bottom")
        lines = QFontMetricsF(self._chart_font(12)).height() + bottom.label.boundingRect().height()
        bottom.setHeight(int(lines + max(bottom.style["tickLength"], 0) + bottom.style["tickTextOffset"][1] + 4))

    def _chart_need(self) -> int:
        """The chart's least width: the languages' names, the widest count and some bar."""
        names = QFontMetricsF(self._chart_font(12))
        axis = max((names.horizontalAdvance(f"{s.name}  ") for s in self.samples), default=0.0)
        bars = BAR_EMS * QFontMetricsF(self._chart_font(11, bold=True)).height()
        return int(axis + self._label_width() + bars) + 30  # the axis's ticks and the plot's margins

    def _fit_range(self) -> None:
        """Room right of the longest bar for its count, whatever the chart's width in pixels, and
        the counts' labels placed for the chart's height."""
        item = self.plot.getPlotItem()
        fit = self._fitted()
        if abs(fit - self.fit) > 0.01:
            self.fit = fit
            self._apply_chart_fonts()
            self.one_label_a_row = self._labels_a_row()
            self._place_labels()
        if self._labels_a_row() != self.one_label_a_row:
            self.one_label_a_row = not self.one_label_a_row
            self._place_labels()
        top = max((max(v, default=0) for _, v in self.series if v), default=0)
        pixels = item.getViewBox().width()
        label = self._label_width() or QFontMetricsF(self._chart_font(11, bold=True)).horizontalAdvance(f"{top}  ")
        # the label takes a share of the pixels; the bars keep the rest
        share = min(label / pixels, 0.7) if pixels > 0 else 0.15
        right = max(top, 1) / (1 - max(share, 0.08))
        item.setXRange(0, right, padding=0)
        self._fit_ticks(right, pixels)

    def _fit_ticks(self, right: float, pixels: float) -> None:
        """Ticks on the tokens axis at a round step wide enough that no two of their numbers touch."""
        if pixels <= 0:
            return
        metrics = QFontMetricsF(self._chart_font(12))
        widest = metrics.horizontalAdvance(f"{int(right)}  ")
        step = next(m * 10 ** k for k in range(9) for m in (1, 2, 5) if m * 10 ** k * pixels / right >= widest)
        self.plot.getPlotItem().getAxis("bottom").setTicks(
            [[(v, str(v)) for v in range(0, int(right) + 1, step)]])

    def _place_labels(self) -> None:
        plot = self.plot
        for label in self.labels:
            plot.removeItem(label)
        self.labels = []
        for text, x, y in self._label_texts():
            label = pg.TextItem(text, color=self.theme.text, anchor=(0, 0.5))
            label.setFont(self._chart_font(11, bold=True))
            label.setPos(x, y)
            plot.addItem(label)
            self.labels.append(label)

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
        legend_entries = []
        for k, (title, values) in enumerate(shown):
            offsets = [i - 0.4 + height * (k + 0.5) for i in range(n)]
            brushes = series_brushes(k)
            pen = pg.mkPen(theme.text, width=max(1.0, 1.5 * self.scale))
            bars = None
            for n_brush, brush in enumerate(brushes):
                # the hatching is drawn over the fill; only the last layer carries the outline
                layer = pg.BarGraphItem(x0=0, y=offsets, height=height * 0.92, width=values, brush=brush,
                                        pen=pen if n_brush == len(brushes) - 1 else pg.mkPen(None))
                plot.addItem(layer)
                bars = bars or layer
            legend_entries.append((title, bars))
        self.fit = self._fitted()
        self.labels = []  # the plot's clearing took them
        self.one_label_a_row = self._labels_a_row()
        self._place_labels()
        # the key sits above the chart, where no bar can run under it
        self.key.setText(
            "Tokens per language: "
            + " &nbsp; ".join(
                f"{_swatch(k)} {title}" for k, (title, _) in enumerate(legend_entries)
            )
        )
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            axis.setTextPen(theme.text)
            axis.setPen(theme.text)
        self._apply_chart_fonts()
        item.getAxis("left").setTicks([[(i, f"{s.name}  ") for i, s in enumerate(self.samples)]])
        self._fit_range()
        item.setYRange(-0.6, n - 0.4, padding=0)
        self._fill_table(shown)
        self.caption.setText(self._caption(shown))
        self._fit_caption()

    def _caption(self, shown) -> str:
        if not shown:
            return "Loading the tokenizers…"
        title, values = shown[0]
        base = next((i for i, s in enumerate(self.samples) if s.code == "en"), 0)
        if not values[base]:
            return ""
        counted = self.language_counts.get(title, [])
        # a count cheapened by unknown tokens is no language's real cost
        honest = [i for i in range(len(values)) if self.samples[i].script != "code"
                  and not (counted and counted[i].flagged)] or [base]
        worst = max(honest, key=lambda i: values[i])
        ratio = values[worst] / values[base]
        return (
            f"Under {title}, {self.samples[worst].name} costs {values[worst]} tokens where English costs "
            f"{values[base]}: ×{ratio:.1f} for the same meaning. Languages do <b>not</b> all cost the same — "
            "a model's context window, speed and price all count tokens. " + self._unknown_caption(shown)
            + PUBLISHED
        )

    def _unknown_caption(self, shown) -> str:
        """What the counts with unknown tokens hide, named per tokenizer and language."""
        parts = []
        for title, _ in shown:
            counts = self.language_counts.get(title, [])
            flagged = sorted((c.unknown / c.tokens, s.name, c) for s, c in zip(self.samples, counts) if c.flagged)
            if not flagged:
                continue
            # the worst few by name; the table flags every one
            named = [f"{name} {c.note()}" for _, name, c in reversed(flagged[-CAPTION_NAMES:])]
            more = len(flagged) - len(named)
            parts.append(f"{_short(title)}: " + "; ".join(named) + (f", and {more} more" if more else "") + ".")
        if not parts:
            return ""
        return (f"<b>{FLAG} Unknown:</b> a character a tokenizer never saw becomes &lt;unk&gt;, so such a count is "
                "low only because the text is lost. " + " ".join(parts) + " ")

    def _fill_table(self, shown) -> None:
        # short two-line headings keep the table narrow enough to leave the chart its room
        headers = [("Language", "Double-click a language to see its tokens side by side"),
                   ("Chars", "Characters in the three sentences")]
        headers += [(f"{_short(t)}\ntokens", f"Tokens under {t} (and how many are unknown)") for t, _ in shown]
        premiums = [english_premiums(values, self.samples) for _, values in shown]
        # each tokenizer's premium over English beside the others', so a class compares them on one row
        headers += [(f"{_short(t)}\n{PREMIUM_TITLE}", f"Tokens under {t}, divided by English's")
                    for (t, _), p in zip(shown, premiums) if p is not None]
        self.table.setColumnCount(len(headers))
        for col, (text, tip) in enumerate(headers):
            heading = QTableWidgetItem(text)
            heading.setToolTip(tip)
            self.table.setHorizontalHeaderItem(col, heading)
        self.table.setRowCount(len(self.samples))
        for row, sample in enumerate(self.samples):
            # on two lines a name with no native spelling ("Python code") breaks at its space
            names = (sample.name, sample.name.replace(" ", "\n", 1)) if sample.native in sample.name else (
                f"{sample.name} · {sample.native}", f"{sample.name}\n{sample.native}")
            cells = [names[self.table.two_lines], str(len(sample.text))]
            tips = ["", ""]
            for title, _ in shown:
                count = self.language_counts[title][row]
                # on a second line, so the column stays as narrow as its heading
                cells.append(f"{count.tokens} {FLAG}\n{count.unknown} unknown" if count.flagged else str(count.tokens))
                tips.append(f"{sample.name} under {title}: {count.note()}"
                            + (": characters it never saw became <unk>, so this count is not the language's cost"
                               if count.flagged else ""))
            for (title, _), premium in zip(shown, premiums):
                if premium is not None:
                    flagged = self.language_counts[title][row].flagged
                    cells.append(f"{premium[row]:.1f}" + (f" {FLAG}" if flagged else ""))
                    tips.append(f"{sample.name} under {title}: ×{premium[row]:.1f} English's tokens"
                                + (", with unknown tokens in the count" if flagged else ""))
            for col, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                if tips[col]:
                    cell.setToolTip(tips[col])
                if col == 0:
                    cell.setToolTip(f"{sample.name}: {sample.script} script")
                    cell.setData(LanguageTable.NAMES, names)
                if col >= 1:
                    cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, col, cell)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # any width the table has beyond its columns goes to the names
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        self._fit_table()


# measured on far more text than three sentences, for the classroom's "is it only this sample?"
PUBLISHED = (
    "Measured on the FLORES-200 sentences with cl100k, the premium over English is about ×1.6 for French "
    "and German, ×4.8 for Hindi, ×7.7 for Tamil and Amharic, and as much as ×15 for Shan: Petrov et al., "
    "“Language Model Tokenizers Introduce Unfairness Between Languages”, NeurIPS 2023."
)


def _swatch(k: int) -> str:
    """The key's sample of the k-th series, drawn like its bars: black hatching on a light fill."""
    colour = SERIES[k % len(SERIES)]
    if HATCHED[k % len(HATCHED)]:
        return f"<span style='background-color:{colour}; color:#000000'>▨</span>"
    return f"<span style='color:{colour}'>■</span>"


def _short(title: str) -> str:
    """A column heading from a tokenizer's title: "GPT-4 (cl100k_base)" -> "GPT-4"."""
    short = title.split(" (")[0].split(",")[0]
    # "This lesson" -> "Lesson": the heading says whose tokens, in as few letters as it can
    return short[5:].capitalize() if short.lower().startswith("this ") else short
