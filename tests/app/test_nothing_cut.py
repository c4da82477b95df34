"""What explains a step is read whole at the sizes classrooms have: the window at 1280×720 and
1024×768, normal and in classroom mode, at every step of the classic lesson, and every central view
at 200 % on 1024×768 (the views' tab titles, the growth read-out and the languages chart too). A pair, a tie mark,
a token, an id, a column title or the status sentence that a view shortens with "…" fails, as does
a visible widget that reaches outside the window. At both sizes and at 100, 150 and 200 %, in both
modes, no view and no dock (each raised in turn) shows a horizontal scroll bar: what a class reads
wraps, stacks or takes the smaller type its fitting allows, it is never scrolled sideways.

The texts are the models' own, measured against the room their view gives them (the width a table
column has, the label's lines). Each render is saved as a PNG, to $BPE_LAB_RENDER_DIR when set.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget

from widgets.models.pairs import COUNT, PAIR, RANK, TIE
from widgets.models.vocab import COUNT as VOCAB_COUNT, ID, MADE, TOKEN
from widgets.tables import CELL_PADDING
from widgets.tiles.canvas import TileCanvas

# whole windows laid out at many sizes: .ci/run runs them, the quick part leaves them out
pytestmark = pytest.mark.slow

SIZES = [(1280, 720), (1024, 768)]
# the columns a student reads whole (the stretching ones, where a count comes from or a token's
# parents, may shorten: their whole text is in the tooltip and the line under the table)
PAIRS_WHOLE = (RANK, PAIR, COUNT, TIE)
VOCAB_WHOLE = (ID, TOKEN, MADE, VOCAB_COUNT)


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory) -> Path:
    named = os.environ.get("BPE_LAB_RENDER_DIR")
    if named:
        Path(named).mkdir(parents=True, exist_ok=True)
        return Path(named)
    return tmp_path_factory.mktemp("cut")


def cells_cut(table, columns) -> list[str]:
    """Cells of ``columns`` whose text is wider than the column leaves it, and titles likewise."""
    model, header = table.model(), table.horizontalHeader()
    metrics = table.fontMetrics()
    titles = QFontMetrics(table.title_font())  # the header's type, which may be smaller than the cells'
    cut = []
    for c in columns:
        room = table.columnWidth(c) - 2 * CELL_PADDING
        title = str(model.headerData(c, Qt.Orientation.Horizontal))
        if header.sectionSize(c) < titles.horizontalAdvance(title) + 2 * CELL_PADDING:
            cut.append(f"title {title}")
        for r in range(model.rowCount()):
            text = str(model.row_values(r)[c])
            if metrics.horizontalAdvance(text) > room or table.cell_shown(r, c) != text:
                cut.append(text)
    return cut


def scrolled(widget, window) -> bool:
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def outside(window) -> list[str]:
    """Visible widgets that reach past the window's edges."""
    frame = window.rect()
    far = []
    for w in window.findChildren(QWidget):
        if not w.isVisible() or w.isWindow() or w.width() <= 1 or w.height() <= 1:
            continue
        if scrolled(w, window):
            continue  # a scrolled area's contents may reach past it: the area shows them
        box = QRect(w.mapTo(window, w.rect().topLeft()), w.size())
        if not frame.contains(box) and not box.intersected(frame).isEmpty():
            if w.visibleRegion().isEmpty():
                continue
            far.append(f"{type(w).__name__} {w.objectName()} {box.getRect()}")
    return far


def row_overflow(canvas) -> int:
    """How far the tiles view's widest row, as painted, reaches past its view (0 when all fit)."""
    vp = canvas.viewport()
    image = QImage(vp.width(), vp.height(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    # every row painted (a height that holds them all), unscrolled
    widest = canvas.paint_rows(painter, vp.width(), 1 << 20, 0, 0)
    painter.end()
    return max(0, math.ceil(canvas.tiles_x + widest + canvas.painter.margin - vp.width()))


def sideways(window) -> list[str]:
    """The scroll areas on show in ``window`` whose contents scroll sideways, and how far.

    The tiles view is the one that may: a word is one row of tiles, never wrapped (a real text has
    words longer than any window), so it scrolls as far as its widest row reaches and no further.
    """
    found = []
    for area in window.findChildren(QAbstractScrollArea):
        bar = area.horizontalScrollBar()
        allowed = row_overflow(area) if isinstance(area, TileCanvas) else 0
        # a dock tabbed behind another keeps its widgets "visible": only what shows counts
        if area.isVisible() and not area.visibleRegion().isEmpty() and bar.isVisible() and bar.maximum() > allowed:
            holder = area.parentWidget()
            while holder is not None and not holder.objectName() and holder is not window:
                holder = holder.parentWidget()
            where = holder.objectName() if holder is not None else ""
            found.append(f"{type(area).__name__} {area.objectName() or ''} in {where}: scrolls {bar.maximum()}")
    return found


def check_normal(window, where: str) -> None:
    status = window.timeline.status
    assert not status.is_elided() and "…" not in status.text(), (where, status.full_text())
    assert not cells_cut(window.pairs_panel.table, PAIRS_WHOLE), where
    assert not cells_cut(window.vocab_panel.table, VOCAB_WHOLE), where
    assert not outside(window), where


@pytest.mark.parametrize("width, height", SIZES)
def test_nothing_that_explains_a_step_is_cut_in_normal_mode(make_window, out_dir, width, height):
    window = make_window()
    window.resize(width, height)
    window.show()
    settle()
    for step in range(window.session.last_step + 1):
        window.session.request_step(step)
        settle()
        for dock in (window.pairs_dock, window.vocab_dock):
            dock.raise_()  # tabbed on a small screen: each is checked where it is seen
            settle()
            check_normal(window, (width, height, step, dock.windowTitle()))
        if step in (0, 2, window.session.last_step):
            window.grab().save(str(out_dir / f"{width}x{height}-normal-step{step}.png"))


@pytest.mark.parametrize("width, height", SIZES)
def test_the_classroom_tiles_and_reveal_stay_inside_the_window(make_window, out_dir, monkeypatch, width, height):
    monkeypatch.setattr("app.classroom._screen_fit", lambda window: 1.0)
    window = make_window()
    window.resize(width, height)
    window.show()
    settle()

    class Screen:  # the projector the window goes full screen on
        @staticmethod
        def geometry():
            return QRect(0, 0, width, height)

    window.screen = lambda: Screen
    window.showFullScreen = window.show
    window.classroom.enter()
    settle()
    assert window.size().toTuple() == (width, height)
    for step in range(window.session.last_step + 1):
        window.session.request_step(step)
        settle()
        assert not outside(window), (width, height, step)
    window.session.request_step(0)
    window.classroom.set_predict_first(True)
    settle()
    window.grab().save(str(out_dir / f"{width}x{height}-classroom-predict.png"))
    window.classroom.run("next")  # reveal
    settle()
    prompt = window.classroom.prompt
    assert prompt.isVisible() and window.rect().contains(QRect(prompt.mapTo(window, prompt.rect().topLeft()), prompt.size()))
    assert prompt.answer_fits(), (width, height)
    window.grab().save(str(out_dir / f"{width}x{height}-classroom-reveal.png"))


ZOOMED = (1024, 768)  # the smallest screen classrooms have, at the largest zoom
ZOOMED_VIEWS = ("tiles", "charts", "quiz", "explorer", "languages")


def zoomed_problems(window, view: str, classroom: bool) -> list[str]:
    """What the window cuts of ``view`` at 200 %: the status sentence, a panel's cells, a widget past
    the window's edge, the growth chart's read-out, the languages chart's labels."""
    from tests.widgets.explorer.test_languages_labels import _labels

    found = [f"outside: {far}" for far in outside(window)]
    status = window.timeline.status
    if not classroom and (status.is_elided() or "…" in status.text()):
        found.append(f"status {status.full_text()!r}")
    if not classroom:
        bar = window.tabs.tabBar()
        found += [f"view tab {bar.tabText(i)!r} {bar.tabRect(i).getRect()} in {bar.rect().getRect()}"
                  for i in range(bar.count()) if not bar.rect().contains(bar.tabRect(i))]
    if view in ("explorer", "languages"):
        # the explorer's own tabs (Side by side, Languages, Merge replay), in both modes
        bar = window.views["Explorer"].tabs.tabBar()
        found += [f"explorer tab {bar.tabText(i)!r} {bar.tabRect(i).getRect()} in {bar.rect().getRect()}"
                  for i in range(bar.count()) if not bar.rect().contains(bar.tabRect(i))]
    if view == "charts":
        readout = window.views["Charts"].growth.readout
        if readout.height() < readout.heightForWidth(readout.width()):
            found.append(f"read-out {readout.height()} px of {readout.heightForWidth(readout.width())}")
    if view == "languages":
        page = window.views["Explorer"].languages
        labels = _labels(page)
        chart = page.plot.rect().adjusted(-2, -2, 2, 2)
        found += [f"chart label outside: {what}" for what, rect in labels if not chart.contains(rect)]
        found += [f"chart labels overlap: {a} / {b}" for i, (a, ra) in enumerate(labels)
                  for b, rb in labels[i + 1:] if ra.intersects(rb)]
        found += [f"squeezed: {label.text()[:30]!r}" for label in (page.title, page.key)
                  if label.height() < label.heightForWidth(label.width())]
    return found


@pytest.mark.parametrize("classroom", [False, True], ids=["normal", "classroom"])
def test_at_200_percent_on_1024x768_nothing_that_explains_a_step_is_cut(out_dir, classroom):

    from app.commands import snapshot

    window, _ = snapshot.open_window(snapshot.source_for(None), 3, ZOOMED, "light", 2.0)
    found: dict[str, list[str]] = {}
    try:
        if classroom:
            snapshot.enter_classroom(window, ZOOMED)
        for view in ZOOMED_VIEWS:
            shown = snapshot.stage(window, view, size=ZOOMED)
            found[view] = zoomed_problems(window, view, classroom)
            shown.grab().save(str(out_dir / f"1024x768-200-{'classroom' if classroom else 'normal'}-{view}.png"))
        if not classroom:
            for dock in (window.pairs_dock, window.vocab_dock):
                dock.raise_()
                settle()
                table = window.pairs_panel.table if dock is window.pairs_dock else window.vocab_panel.table
                found[dock.windowTitle()] = [f"cell {t!r}" for t in
                                             cells_cut(table, PAIRS_WHOLE if dock is window.pairs_dock else VOCAB_WHOLE)]
    finally:
        snapshot.close_window(window)
    assert not any(found.values()), {view: p for view, p in found.items() if p}


SIDEWAYS_ZOOMS = (1.0, 1.5, 2.0)
SIDEWAYS_DOCKS = ("corpus_dock", "tokenize_dock", "pairs_dock", "vocab_dock")


@pytest.mark.parametrize("zoom", SIDEWAYS_ZOOMS, ids=lambda z: f"{round(z * 100)}%")
@pytest.mark.parametrize("width, height", SIZES)
def test_no_view_or_dock_scrolls_sideways(out_dir, width, height, zoom):
    from app.commands import snapshot

    size = (width, height)
    window, _ = snapshot.open_window(snapshot.source_for(None), 3, size, "light", zoom)
    found: dict[str, list[str]] = {}
    name = f"{width}x{height}-{round(zoom * 100)}"
    try:
        for view in ZOOMED_VIEWS:
            shown = snapshot.stage(window, view, size=size)
            found[f"normal {view}"] = sideways(shown)
        snapshot.stage(window, "tiles", size=size)
        for dock in SIDEWAYS_DOCKS:
            getattr(window, dock).raise_()
            settle()
            found[f"normal {dock}"] = sideways(window)
            window.grab().save(str(out_dir / f"{name}-sideways-{dock}.png"))
        snapshot.enter_classroom(window, size)
        for view in ZOOMED_VIEWS:
            shown = snapshot.stage(window, view, size=size)
            found[f"classroom {view}"] = sideways(shown)
            shown.grab().save(str(out_dir / f"{name}-sideways-classroom-{view}.png"))
    finally:
        snapshot.close_window(window)
    assert not any(found.values()), {case: p for case, p in found.items() if p}
