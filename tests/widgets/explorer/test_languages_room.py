"""On a short page the languages paragraph scrolls and the chart and table keep half the page;
where there is room the paragraph shows whole."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from engine.lesson.lesson import Lesson
from widgets.explorer.languages import LanguagesView


def _page(qtbot, width: int, height: int, scale: float) -> LanguagesView:
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3", word_counts=True).train()
    page = LanguagesView()
    qtbot.addWidget(page)
    page.set_tokenizers([("This lesson", lesson.tokenizer)])
    page.set_scale(scale)
    page.resize(width, height)
    page.show()
    qtbot.waitExposed(page)
    QApplication.processEvents()
    return page


def test_a_short_page_keeps_half_its_height_for_the_chart_and_table(qtbot):
    page = _page(qtbot, 780, 400, 1.5)
    assert page.splitter.height() >= page.height() // 2 - 30
    # the table shows at least a row below its header
    assert page.table.viewport().height() >= page.table.rowHeight(0)
    area = page.caption_area
    assert area.height() < page.caption.heightForWidth(area.viewport().width())


def test_a_tall_page_shows_the_whole_paragraph(qtbot):
    page = _page(qtbot, 1280, 1000, 1.0)
    area = page.caption_area
    assert area.height() >= page.caption.heightForWidth(area.viewport().width())


def test_a_page_shorter_than_its_texts_and_chart_scrolls_rather_than_squeeze_them(qtbot):
    # the explorer's tab at 200 % zoom in a 1024x768 window: about 560 x 300 pixels
    page = _page(qtbot, 560, 300, 2.0)
    for label in (page.title, page.key):
        assert label.height() >= label.heightForWidth(label.width()), label.text()[:30]
    assert page.content.height() > page.page_area.viewport().height()
    assert page.page_area.verticalScrollBar().isVisible()
    # the chart keeps a line of its type for each language
    assert page.plot.height() >= page._chart_height_need(page.fit) - 2
