"""A step repaints only the rows it changed: what the screen shows after many steps, each painted
in part, is what a full repaint draws."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.session import Session
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.tiles import TileView

# words that share pairs: a merge frames places in some rows and leaves others alone
TEXT = "low lower lowest newest widest wide new news slow slower " * 3 + "banana bandana band stand"


class _PaintedAreas(QObject):
    def __init__(self):
        super().__init__()
        self.areas: list[int] = []

    def eventFilter(self, watched, event):  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Paint:
            self.areas.append(sum(r.width() * r.height() for r in event.region()))
        return False


def _on_screen(canvas) -> QImage:
    """The viewport's pixels as the window holds them after its paints (not drawn afresh)."""
    vp = canvas.viewport()
    window = vp.window()
    at = vp.mapTo(window, vp.rect().topLeft())
    whole = QApplication.primaryScreen().grabWindow(window.winId())
    return whole.copy(at.x(), at.y(), vp.width(), vp.height()).toImage()


def test_steps_painted_in_part_leave_the_screen_as_a_full_repaint_draws_it(qtbot):
    lesson = Lesson(TEXT, settings=Settings(merges=30)).train()
    session = Session(lesson)
    view = TileView(session)
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    qtbot.waitExposed(view)
    view.motion_box.setChecked(True)
    qtbot.wait(20)
    viewport = view.canvas.viewport()
    painted = _PaintedAreas()
    viewport.installEventFilter(painted)
    for k in list(range(1, lesson.last_step + 1)) + [3, 2, 9, 0]:
        session.request_step(k)
        QApplication.processEvents()
        assert _on_screen(view.canvas) == viewport.grab().toImage(), k
    # the check above holds for a full repaint too: some step must have painted less than the whole
    assert min(painted.areas) < viewport.width() * viewport.height()
