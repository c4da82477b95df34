"""The languages chart's labels as they are laid out: the names, the tokens axis's numbers, its
title and the counts beside the bars never overlap, each lies whole inside the chart, and every
count is said, on a projector at 720p and 1024x768 and on the desktop."""

from __future__ import annotations

import PySide6  # noqa: F401  (pyqtgraph must find PySide6 first)
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QPainter, QPicture
from PySide6.QtWidgets import QApplication

from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.explorer.languages import LanguagesView
from widgets.explorer.theme import ExplorerTheme

PROJECTOR_720P = 1.9 * 720 / 1080  # the explorer's scale in classroom mode on a 720p projector


def _page(qtbot, width: int, height: int, scale: float, theme: ExplorerTheme) -> LanguagesView:
    corpus = "low 5\nlower 2\nnewest 6\nwidest 3"
    page = LanguagesView()
    qtbot.addWidget(page)
    page.set_tokenizers([
        ("This lesson, step 0 of 15", Lesson(corpus, word_counts=True).train().tokenizer),
        ("This lesson, step 3 of 3", Lesson(corpus, word_counts=True, settings=Settings(merges=3)).train().tokenizer),
    ])
    page.set_theme(theme)
    page.set_scale(scale)
    page.resize(width, height)
    page.show()
    qtbot.waitExposed(page)
    for _ in range(3):
        QApplication.processEvents()
    return page


def _axis_texts(page: LanguagesView, side: str) -> list[tuple[str, QRect]]:
    """Each tick label the axis paints, with its rectangle in the chart's pixels."""
    axis = page.plot.getPlotItem().getAxis(side)
    picture = QPicture()
    painter = QPainter(picture)
    painter.setFont(axis.style["tickFont"])
    _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    painter.end()
    return [(text, _on_chart(page, axis.mapRectToScene(rect))) for rect, _flags, text in texts]


def _text_rect(page: LanguagesView, item) -> QRect:
    """A text item's text, without the margin its document keeps around it."""
    m = item.document().documentMargin()
    return _on_chart(page, item.mapRectToScene(item.boundingRect().adjusted(m, m, -m, -m)))


def _on_chart(page: LanguagesView, scene_rect: QRectF) -> QRect:
    return page.plot.mapFromScene(scene_rect).boundingRect()


def _labels(page: LanguagesView) -> list[tuple[str, QRect]]:
    page.plot.grab()  # as painted: a text item takes its place in the chart as it paints
    item = page.plot.getPlotItem()
    found = [(f"name {t.strip()}", r) for t, r in _axis_texts(page, "left")]
    found += [(f"tick {t}", r) for t, r in _axis_texts(page, "bottom")]
    found.append(("axis title", _text_rect(page, item.getAxis("bottom").label)))
    counts = [i for i in item.items if isinstance(i, pg.TextItem)]
    found += [(f"count {label.toPlainText()}", _text_rect(page, label.textItem)) for label in counts]
    return found


@pytest.mark.parametrize("width, height, scale, theme", [
    (1272, 627, PROJECTOR_720P, ExplorerTheme.high_contrast()),  # the page in classroom mode at 1280x720
    (1016, 675, PROJECTOR_720P, ExplorerTheme.high_contrast()),  # and at 1024x768
    (1000, 640, 1.0, ExplorerTheme.light()),  # the explorer's tab on the desktop
])
def test_no_two_labels_of_the_chart_overlap_and_none_is_cut(qtbot, width, height, scale, theme):
    page = _page(qtbot, width, height, scale, theme)
    labels = _labels(page)
    # a text's box is its line's: its ascent and descent reach a pixel or two past the glyphs
    chart = page.plot.rect().adjusted(-2, -2, 2, 2)
    for i, (what, rect) in enumerate(labels):
        assert chart.contains(rect), f"{what} at {rect.getRect()} runs outside the chart {chart.getRect()}"
        for other, second in labels[i + 1:]:
            assert not rect.intersects(second), f"{what} {rect.getRect()} overlaps {other} {second.getRect()}"
    # every language named whole, the tokens axis numbered, and each count of each tokenizer said
    assert [w for w, _ in labels if w.startswith("name ")] == [f"name {s.name}" for s in page.samples]
    assert sum(w.startswith("tick ") for w, _ in labels) >= 2
    said = " ".join(w for w, _ in labels if w.startswith("count "))
    for title, values in page.series:
        for value in values:
            assert str(value) in said, (title, value)


def test_a_bar_too_thin_for_its_own_count_shares_its_languages_label(qtbot):
    page = _page(qtbot, 1272, 627, PROJECTOR_720P, ExplorerTheme.high_contrast())
    (first, _), (second, _) = page.series
    assert page.one_label_a_row
    english = page.labels[[s.code for s in page.samples].index("en")].toPlainText()
    assert english == f"{page._bar_label(first, 0)} / {page._bar_label(second, 0)}"
    # a tall chart gives each bar its own count again
    page.set_scale(1.0)
    page.resize(1400, 1600)
    QApplication.processEvents()
    assert not page.one_label_a_row and len(page.labels) == 2 * len(page.samples)


def test_a_short_chart_takes_smaller_type_but_not_below_the_classrooms_least(qtbot):
    from PySide6.QtGui import QFontInfo

    from widgets.classroom.look import LEAST_PX

    page = _page(qtbot, 1016, 675, 2.0, ExplorerTheme.high_contrast())  # 200 % zoom, then classroom mode
    assert page.fit < 1
    axis = page.plot.getPlotItem().getAxis("left")
    assert QFontInfo(axis.style["tickFont"]).pixelSize() >= LEAST_PX
    assert all(QFontInfo(label.textItem.font()).pixelSize() >= LEAST_PX for label in page.labels)
