"""The languages chart in the projector theme paints its ticks, counts and axis title at the
classroom's least type or larger, from the least scale the classroom gives the explorer."""

from __future__ import annotations

from engine.lesson.lesson import Lesson
from tests.app.painted_text import _item_text, pixel_size
from app.classroom_looks import EXPLORER_SCALE
from widgets.classroom.look import LEAST_PX, PX_1080
from widgets.explorer.languages import LanguagesView
from widgets.explorer.theme import ExplorerTheme


def _painted(page: LanguagesView):
    """(what, font) of each text the chart shows (its hidden top and right axes paint nothing)."""
    shown = [_item_text(item) for item in page.plot.scene().items() if item.isVisible()]
    return [t for t in shown if t is not None]


def test_the_projector_chart_paints_no_text_below_the_classrooms_least_type(qtbot):
    lesson = Lesson("low 5\nlower 2\nnewest 6\nwidest 3", word_counts=True).train()
    page = LanguagesView()
    qtbot.addWidget(page)
    page.set_tokenizers([("This lesson", lesson.tokenizer)])
    page.set_theme(ExplorerTheme.high_contrast())
    page.set_scale(EXPLORER_SCALE * LEAST_PX / PX_1080)  # where body text is the least type
    texts = _painted(page)
    whats = {what for what, _ in texts}
    assert {"axis left ticks", "axis bottom ticks", "text 'tokens '"} <= whats and len(texts) > len(page.samples)
    assert [(what, pixel_size(font)) for what, font in texts if pixel_size(font) < LEAST_PX] == []
    # on the desktop the chart keeps its own smaller type
    page.set_theme(ExplorerTheme.light())
    assert any(pixel_size(font) < LEAST_PX for _, font in _painted(page))
