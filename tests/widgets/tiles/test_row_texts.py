"""What the tile rows write beside their tiles, as the legibility check reads it: each row's
×count and token count and each tie bracket's number, where they are painted and in which font;
in the classroom the tie numbers take the mode's least type and stay clear of the framed tiles."""

from __future__ import annotations

from PySide6.QtGui import QFontInfo, QImage

from tests.widgets.tiles.test_tile_view import CLASSIC, make_view
from engine.lesson.lesson import Lesson
from widgets.classroom.look import LEAST_PX


def _classic(qtbot):
    view = make_view(qtbot, Lesson(CLASSIC, word_counts=True).train(), size=(1000, 700))
    view.session.request_step(3)  # l + o wins, tied with o + w in "low" and "lower"
    return view


def test_each_row_reports_its_count_its_tokens_and_its_tie_numbers(qtbot):
    view = _classic(qtbot)
    canvas = view.canvas
    texts = [what for what, _box, _font in canvas.row_texts()]
    lesson, state = view.session.lesson, view.session.state
    for word in canvas.visible_rows():
        w = canvas.row_order()[word]
        assert f"×{lesson.corpus.counts[w]}" in texts
    assert f"{len(canvas.row_tiles(canvas.row_order()[0]))} tokens" in texts
    ties = [what for what in texts if what.startswith("tie number")]
    assert ties == ["tie number 1", "tie number 1"], texts
    assert state.next_step() is not None
    # the numbers are where the tiles paint them: inside the canvas, each on its bracket's colour
    image = QImage(canvas.viewport().size(), QImage.Format.Format_RGB32)
    canvas.viewport().render(image)
    for what, box, _font in canvas.row_texts():
        assert canvas.viewport().rect().contains(box.toAlignedRect()), what
        if what.startswith("tie number"):
            centre = box.center().toPoint()
            assert image.pixelColor(centre.x(), box.toAlignedRect().top() + 1).name() != "#ffffff"


def test_with_the_classrooms_least_type_the_tie_numbers_grow_and_hang_below_the_frame(qtbot):
    view = _classic(qtbot)
    canvas = view.canvas
    small = [(box, font) for what, box, font in canvas.row_texts() if what.startswith("tie number")]
    assert all(QFontInfo(font).pixelSize() < LEAST_PX for _, font in small)
    view.set_least_px(LEAST_PX)
    numbers = [(box, font) for what, box, font in canvas.row_texts() if what.startswith("tie number")]
    assert numbers and all(QFontInfo(font).pixelSize() >= LEAST_PX for _, font in numbers)
    for (box, _font), row in zip(numbers, canvas.visible_rows()):
        word = canvas.row_order()[row]
        # below the tiles and the next merge's frame (4 px wide, 5 px out), which are drawn over it
        tiles_bottom = max(canvas.tile_rect(word, i).bottom() for i in range(len(canvas.row_tiles(word))))
        assert box.top() >= tiles_bottom + 7 * canvas.scale - 0.5
    view.set_least_px(0)
    assert [box for box, _ in small] == [box for what, box, _ in canvas.row_texts() if what.startswith("tie number")]
