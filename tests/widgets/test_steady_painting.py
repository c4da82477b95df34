"""What keeps a merge step cheap: labels that change without a window-wide layout, and tables
that draw their own cells."""

from PySide6.QtCore import QEvent, QModelIndex, QObject
from PySide6.QtGui import QColor, QHelpEvent, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QToolTip, QVBoxLayout, QWidget

from app.session import Session
from widgets.models.common import HeaderedTableModel
from widgets.steady import steady
from widgets.tables import fitted, make_table
from widgets.timeline import Timeline


class _LayoutRequests(QObject):
    def __init__(self):
        super().__init__()
        self.count = 0

    def eventFilter(self, watched, event):  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def _panel(qtbot, label):
    panel = QWidget()
    layout = QVBoxLayout(panel)
    holder = steady(label)
    layout.addWidget(holder)
    layout.addStretch(1)
    qtbot.addWidget(panel)
    panel.resize(300, 400)
    panel.show()
    qtbot.waitExposed(panel)
    return panel, holder


def test_a_new_text_that_fits_asks_the_window_for_no_layout(qtbot):
    label = QLabel("Step 1 of 300")
    label.setWordWrap(True)
    panel, holder = _panel(qtbot, label)
    qtbot.wait(50)  # the panel's own first layout
    requests = _LayoutRequests()
    panel.installEventFilter(requests)
    for step in range(2, 40):
        label.setText(f"Step {step} of 300")
        qtbot.wait(1)
    assert requests.count == 0
    assert label.geometry() == holder.rect()


def test_a_text_that_needs_more_lines_grows_its_holder(qtbot):
    label = QLabel("one line")
    label.setWordWrap(True)
    panel, holder = _panel(qtbot, label)
    before = holder.height()
    label.setText("a much longer text that cannot fit on one line of a panel only three hundred pixels wide " * 3)
    qtbot.waitUntil(lambda: holder.height() > before)
    assert label.height() == holder.height()
    assert label.heightForWidth(holder.width()) <= holder.height()


def test_a_hidden_label_hides_its_holder(qtbot):
    label = QLabel("shown")
    panel, holder = _panel(qtbot, label)
    label.hide()
    qtbot.waitUntil(lambda: not holder.isVisible())
    label.show()
    qtbot.waitUntil(holder.isVisible)


class _WordCounts(HeaderedTableModel):
    headers = ("Word", "Count")
    right_aligned = frozenset({1})

    def __init__(self, rows):
        super().__init__()
        self.rows = rows

    def rowCount(self, parent=QModelIndex()):  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self.rows)

    def row_values(self, row):
        return self.rows[row]


def _table(qtbot, rows):
    model = _WordCounts(rows)
    view = make_table(model, stretch_column=0)
    qtbot.addWidget(view)
    view.resize(360, 300)
    view.show()
    qtbot.waitExposed(view)
    return model, view


def _dark_pixels(image, x0, x1, y0, y1, background):
    return sum(1 for x in range(x0, x1) for y in range(y0, y1)
               if QColor(image.pixel(x, y)).lightness() < background.lightness() - 80)


def test_cells_draw_their_text_aligned_and_the_selected_row_highlighted(qtbot):
    model, view = _table(qtbot, [("lowest", 5), ("newer", 2), ("wider", 3)])
    view.selectRow(1)
    qtbot.wait(10)
    image = view.viewport().grab().toImage()
    palette = view.palette()
    base = palette.color(QPalette.ColorRole.Base)
    y0, h = view.rowViewportPosition(0), view.rowHeight(0)
    text_x, text_w = view.columnViewportPosition(0), view.columnWidth(0)
    count_x, count_w = view.columnViewportPosition(1), view.columnWidth(1)
    # row 0: the word is drawn at the left of its cell, the count at the right of its cell
    assert _dark_pixels(image, text_x, text_x + text_w // 2, y0, y0 + h, base) > 20
    assert _dark_pixels(image, count_x + count_w // 2, count_x + count_w, y0, y0 + h, base) > 5
    assert _dark_pixels(image, count_x, count_x + count_w // 3, y0, y0 + h, base) == 0
    # row 1 is selected: its background is the highlight colour
    y1 = view.rowViewportPosition(1)
    highlight = palette.color(QPalette.ColorRole.Highlight)
    corner = QColor(image.pixel(view.viewport().width() - 3, y1 + 2))
    assert corner.rgb() == highlight.rgb()


def test_a_text_too_long_for_its_cell_ends_in_an_ellipsis(qtbot):
    model, view = _table(qtbot, [("lowest", 1)])
    metrics = view.fontMetrics()
    long = "supercalifragilisticexpialidocious " * 5
    cut = fitted(metrics, long, 120)
    assert cut.endswith("…") and long.startswith(cut[:-1]) and metrics.horizontalAdvance(cut) <= 120
    assert fitted(metrics, "lowest", 120) == "lowest"


def test_a_shortened_cell_shows_its_whole_text_where_the_pointer_is(qtbot):
    long = "supercalifragilisticexpialidocious " * 5
    model, view = _table(qtbot, [(long, 1), ("short", 2)])
    assert view.cell_shown(0, 0).endswith("…")
    viewport = view.viewport()
    for row, text in ((1, ""), (0, long)):
        rect = view.visualRect(model.index(row, 0))
        QToolTip.hideText()
        QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, rect.center(),
                                                     viewport.mapToGlobal(rect.center())))
        assert (QToolTip.text() if QToolTip.isVisible() else "") == text


def test_training_progress_lays_nothing_out_and_never_runs_a_busy_bar(qtbot):
    session = Session()
    window = QWidget()
    layout = QVBoxLayout(window)
    timeline = Timeline(session)
    layout.addWidget(timeline)
    qtbot.addWidget(window)
    window.resize(900, 200)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)
    requests = _LayoutRequests()
    window.installEventFilter(requests)
    session.training_started.emit()
    assert timeline.progress.maximum() > 0 and timeline.progress.text() == "Reading the text…"
    session.training_progressed.emit(12, 0)  # no target: as many merges as repeat
    assert timeline.progress.maximum() > 0 and timeline.progress.text() == "12 merges so far"
    session.training_progressed.emit(40, 200)
    assert timeline.progress.text() == "40 of 200 merges"
    qtbot.wait(50)
    assert timeline.progress_row.isVisibleTo(timeline) and not timeline.status.isVisibleTo(timeline)
    assert requests.count == 0
    session.training_ended.emit()
    assert timeline.status.isVisibleTo(timeline) and not timeline.progress_row.isVisibleTo(timeline)


def test_column_titles_fit_after_the_font_grows(qtbot):
    from PySide6.QtGui import QFont, QFontMetrics

    model, view = _table(qtbot, [("a", 1), ("b", 2)])
    view.horizontalHeader().setSectionResizeMode(0, view.horizontalHeader().ResizeMode.Interactive)
    font = QFont(view.font())
    font.setPointSizeF(font.pointSizeF() * 2)
    view.setFont(font)
    bold = QFont(font)
    bold.setBold(True)
    qtbot.waitUntil(lambda: view.columnWidth(1) >= QFontMetrics(bold).horizontalAdvance("Count") + 12)
    assert view.columnWidth(0) >= QFontMetrics(bold).horizontalAdvance("Word") + 12
