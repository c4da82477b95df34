"""The tile view against the engine: rows, animation, highlights, selection and big corpora."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QColor, QHelpEvent, QImage
from PySide6.QtWidgets import QApplication, QToolTip

from app.session import Session
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.tiles import TileView
from widgets.tiles.animation import FUSE_AT

CLASSIC = "low 5\nlower 2\nnewest 6\nwidest 3\n"


def make_view(qtbot, lesson: Lesson, size=(1000, 600)) -> TileView:
    session = Session(lesson)
    view = TileView(session)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    view.set_merge_duration(30)
    return view


@pytest.fixture
def view(qtbot):
    return make_view(qtbot, Lesson(CLASSIC, word_counts=True).train())


def engine_rows(lesson: Lesson, k: int) -> list[tuple[str, ...]]:
    return [tuple(lesson.history.word_tokens(w, k)) for w in range(len(lesson.corpus))]


def shown_rows(view: TileView) -> list[tuple[str, ...]]:
    canvas = view.canvas
    return [tuple(f.token for f in canvas.frame_tiles(w)) for w in range(len(view.session.lesson.corpus))]


def test_every_step_forward_and_back_shows_the_engine_tokens(view, qtbot):
    session, canvas = view.session, view.canvas
    lesson = session.lesson
    last = lesson.last_step
    assert last >= 10
    assert shown_rows(view) == engine_rows(lesson, 0)
    for k in list(range(1, last + 1)) + list(range(last - 1, -1, -1)):
        previous = session.step
        with qtbot.waitSignal(view.animation_finished, timeout=3000):
            session.request_step(k)
            assert canvas.animating
            made = max(k, previous)
            # the film starts on the rows of one step and ends on those of the other
            canvas.seek(0.0)
            start = engine_rows(lesson, previous)
            assert shown_rows(view) == start
            canvas.seek(0.999)
            assert shown_rows(view) == engine_rows(lesson, k)
            assert canvas.transition.step.step == made
            canvas.finish_animation()
        assert not canvas.animating
        assert shown_rows(view) == engine_rows(lesson, k)
        assert [canvas.row_tiles(w) for w in range(len(lesson.corpus))] == engine_rows(lesson, k)
        assert canvas.displayed_total() == session.state.total_tokens
        assert f"Step {k} of {last}" in view.caption_text()


def test_the_total_changes_at_the_moment_of_fusion(view, qtbot):
    session, canvas = view.session, view.canvas
    view.set_merge_duration(60_000)
    session.request_step(1)
    step = session.lesson.steps[0]
    canvas.seek(FUSE_AT * 0.5)
    assert canvas.displayed_total() == step.tokens_before == 95
    assert f"{step.tokens_before}" in view.caption_text()
    canvas.seek(FUSE_AT + 0.1)
    assert canvas.displayed_total() == step.tokens_after
    # the merging tiles are marked as moving while they slide
    canvas.seek(0.3)
    moving = [f.token for f in canvas.frame_tiles(2) if f.moving]
    assert moving == ["e", "s"]


def test_the_next_merge_and_its_ties_are_highlighted(view):
    session, canvas = view.session, view.canvas
    state = session.state
    for k in range(session.lesson.last_step):
        session.request_step(k)
        canvas.finish_animation()
        ranked = state.ranked_pairs()
        best_pair, best_count = ranked[0]
        tied = {pair for pair, count in ranked[1:] if count == best_count}
        for w in range(len(session.lesson.corpus)):
            tokens = state.tokens(w)
            expected_winners, i = [], 0
            while i < len(tokens) - 1:  # the merge rule: left to right, no overlap
                if (tokens[i], tokens[i + 1]) == best_pair:
                    expected_winners.append(i)
                    i += 2
                else:
                    i += 1
            expected_ties = [i for i in range(len(tokens) - 1) if (tokens[i], tokens[i + 1]) in tied]
            assert canvas.highlights(w) == (expected_winners, expected_ties), (k, w)
    # the classic first step: e + s wins, tied with s + t and t + </w>
    session.request_step(0)
    assert canvas.highlights(0) == ([], [])
    assert canvas.highlights(2) == ([3], [4, 5])
    assert "tied with (1) s + t, (2) t + </w> (numbered brackets below the tiles)" in view.caption_text()
    # on screen each number is its bracket's badge: black on the lightened colour, legible on any ground
    from widgets.tiles.painter import badge_colour

    for n in (1, 2):
        assert f"background-color:{badge_colour(n).name()}; color:#000000'><b>({n})</b>" in view.caption.text()


def test_a_corpus_without_ties_marks_none(qtbot):
    view = make_view(qtbot, Lesson("tea tea team teams steam seat", settings=Settings(end_of_word=None)).train())
    assert view.canvas.highlights(0) == ([1], [])
    assert "tied" not in view.caption_text()


def test_a_step_requested_mid_animation_finishes_the_running_one(view, qtbot):
    session, canvas = view.session, view.canvas
    lesson = session.lesson
    view.set_merge_duration(60_000)
    finished = []
    view.animation_finished.connect(lambda: finished.append(session.step))
    session.request_step(1)
    canvas.seek(0.3)
    session.request_step(2)
    assert finished == [2]
    t = canvas.transition
    assert t.forward and t.step.step == 2
    canvas.seek(0.0)
    # the new film starts exactly where the interrupted one would have ended: no tile half-moved
    frames = canvas.frame_tiles(2)
    assert [f.token for f in frames] == list(lesson.history.word_tokens(2, 1))
    session.request_step(1)  # back, mid-animation
    t = canvas.transition
    assert not t.forward and t.step.step == 2
    session.request_step(6)  # a jump: no film, the rows at once
    assert not canvas.animating
    assert shown_rows(view) == engine_rows(lesson, 6)


def test_reduce_motion_makes_changes_instant(view, qtbot):
    session, canvas = view.session, view.canvas
    view.set_merge_duration(60_000)
    session.request_step(1)
    assert canvas.animating
    view.set_reduce_motion(True)  # turning it on ends the running merge too
    assert not canvas.animating
    session.request_step(2)
    assert not canvas.animating
    assert shown_rows(view) == engine_rows(session.lesson, 2)
    view.set_reduce_motion(False)
    session.request_step(3)
    assert canvas.animating


def test_show_counting_sweeps_before_the_merge(view, qtbot):
    session, canvas = view.session, view.canvas
    view.set_show_counting(True)
    view.set_merge_duration(60_000)
    session.request_step(1)
    t = canvas.transition
    # the longest row in view has 7 tiles: the window stops at 6 places
    assert t.sweep_positions == 6
    canvas.seek(0.01)  # the sweep takes its share of the film before the merge
    assert canvas.transition.sweep >= 0
    assert "Counting" in view.caption_text()
    assert shown_rows(view) == engine_rows(session.lesson, 0)
    canvas.finish_animation()
    assert shown_rows(view) == engine_rows(session.lesson, 1)


def tile_centre(canvas, word: int, token: str) -> QPoint:
    index = canvas.row_tiles(word).index(token)
    return canvas.tile_rect(word, index).center().toPoint()


def test_hover_tells_id_step_count_and_parents(view, qtbot):
    session, canvas = view.session, view.canvas
    session.request_step(1)
    canvas.finish_animation()
    tokenizer = session.lesson.tokenizer
    pos = tile_centre(canvas, 2, "es")
    vp = canvas.viewport()
    QApplication.sendEvent(vp, QHelpEvent(QEvent.Type.ToolTip, pos, vp.mapToGlobal(pos)))
    text = QToolTip.text()
    assert f"id {tokenizer.token_to_id('es')}" in text
    assert "merge 1 of" in text and "e + s" in text and "count then: 9" in text
    marker = canvas.describe("</w>")
    assert "end-of-word marker" in marker and f"id {tokenizer.token_to_id('</w>')}" in marker
    assert "base symbol" in canvas.describe("n")


def test_click_and_selection_sync(view, qtbot):
    session, canvas = view.session, view.canvas
    session.request_step(5)
    canvas.finish_animation()
    picked = []
    session.token_selected.connect(picked.append)
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=tile_centre(canvas, 3, "est</w>"))
    assert picked == ["est</w>"] and canvas.selected_token() == "est</w>"
    # another panel picks a token: every row marks it
    session.request_token_selection("low")
    assert canvas.selected_token() == "low"
    image = canvas.viewport().grab().toImage()
    selection = QColor(canvas.theme.selection)
    for word in (0, 1):
        rect = canvas.tile_rect(word, canvas.row_tiles(word).index("low"))
        frame = image.pixelColor(QPoint(round(rect.left() - 4 * canvas.scale), round(rect.center().y())))
        assert _close(frame, selection), (word, frame.name())
    # a token no word holds yet is named as such
    session.request_token_selection("lowest</w>")
    assert "in no word in view" in view.caption_text()
    session.request_token_selection("low")
    assert "in no word in view" not in view.caption_text()
    # a second click on the chosen token lets it go
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=tile_centre(canvas, 0, "low"))
    assert picked[-1] == "" and canvas.selected_token() == ""


def _close(a: QColor, b: QColor, tolerance: int = 40) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) <= tolerance


def test_rows_by_frequency_or_first_appearance(view):
    view.set_order("frequency")
    assert view.canvas.row_order() == [2, 0, 3, 1]  # newest 6, low 5, widest 3, lower 2
    view.set_order("appearance")
    assert view.canvas.row_order() == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        view.set_order("alphabet")


def big_lesson(n: int) -> Lesson:
    letters = "abcdefghijklmnopqrstuvwxyz"
    lines = []
    for i in range(n):
        word, j = "", i
        for _ in range(4):
            word += letters[j % 26]
            j //= 26
        lines.append(f"{word}{letters[i % 7]}e {1 + i % 9}")
    return Lesson("\n".join(lines), word_counts=True, settings=Settings(merges=40)).train()


def test_fifty_thousand_words_scroll_and_step_without_building_all_rows(qtbot):
    lesson = big_lesson(50_000)
    assert len(lesson.corpus) == 50_000
    view = make_view(qtbot, lesson)
    canvas, session = view.canvas, view.session
    in_view = len(canvas.visible_rows())
    assert 0 < in_view < 40
    assert canvas.hidden_below() == 50_000 - canvas.visible_rows().stop
    bar = canvas.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    QApplication.processEvents()
    middle = canvas.visible_rows()
    assert middle.start > 20_000
    session.request_step(1)
    canvas.seek(0.5)
    canvas.viewport().repaint()
    canvas.finish_animation()
    session.request_step(lesson.last_step)
    canvas.viewport().repaint()
    view.set_order("frequency")
    canvas.viewport().repaint()
    bar.setValue(bar.maximum())
    canvas.viewport().repaint()
    assert canvas.hidden_below() == 0
    for r in canvas.visible_rows():
        w = canvas.row_order()[r]
        assert canvas.row_tiles(w) == tuple(lesson.history.word_tokens(w, lesson.last_step))
    # a few screens' worth of rows were laid out, never the corpus
    assert canvas.rows_built < 400


def test_export_png_and_svg(view, tmp_path):
    view.session.request_step(2)
    view.finish_animation()
    png, svg = tmp_path / "tiles.png", tmp_path / "tiles.svg"
    view.export_png(str(png))
    view.export_svg(str(svg))
    image = QImage(str(png))
    assert image.width() >= 2 * view.canvas.viewport().width()
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "Step 2 of" in text and "&lt;/w&gt;" in text


def test_scale_and_theme_are_settable(view):
    canvas = view.canvas
    height = canvas.row_h
    view.set_scale(2.0)
    assert canvas.scale == 2.0 and canvas.row_h > 1.8 * height
    view.set_theme("dark")
    assert canvas.theme.dark
    image = canvas.viewport().grab().toImage()
    assert QColor(image.pixel(2, canvas.viewport().height() - 2)).lightnessF() < 0.3
    view.set_theme("high contrast")
    assert canvas.theme.background == "#000000"
    with pytest.raises(ValueError):
        view.set_theme("sepia")


def test_a_new_lesson_rebuilds_the_rows(view, qtbot):
    session, canvas = view.session, view.canvas
    view.set_merge_duration(60_000)
    session.request_step(1)
    tea = Lesson("tea tea team teams steam seat", settings=Settings(end_of_word=None)).train()
    session.set_lesson(tea)
    assert not canvas.animating
    assert shown_rows(view) == engine_rows(tea, 0)
    assert "Step 0 of 3" in view.caption_text()


def test_an_empty_lesson_shows_a_hint(qtbot):
    view = make_view(qtbot, Lesson(""))
    assert view.session.state is None
    assert view.canvas.visible_rows() == range(0)
    assert "No trained lesson" in view.caption_text()
    view.canvas.viewport().grab()  # paints the hint without touching a missing state


def test_the_summary_counts_the_words_out_of_view(qtbot):
    view = make_view(qtbot, big_lesson(600), size=(900, 400))
    canvas = view.canvas
    rows = canvas.visible_rows()
    assert canvas.summary(rows.start, 600 - rows.stop) == f"… and {600 - rows.stop:,} more words below"
    assert canvas.summary(120, 1) == "120 words above · … and 1 more word below"


def test_tiles_take_the_explorer_colour_of_their_id(view):
    canvas = view.canvas
    lesson = view.session.lesson
    tokenizer = lesson.tokenizer
    from engine.readable.tile_colours import colouring_of
    from widgets.token_palette import fill_of

    colouring = colouring_of(lesson)
    for token in ("l", "e", "w"):
        assert canvas.painter.look(token).fill == QColor(fill_of(tokenizer.token_to_id(token), colouring))
    image = canvas.viewport().grab().toImage()
    rect = canvas.tile_rect(0, 0)  # the "l" of "low"
    inside = image.pixelColor(QPoint(round(rect.left() + 4), round(rect.top() + 4)))
    assert _close(inside, QColor(fill_of(tokenizer.token_to_id("l"), colouring)), 12)


def test_the_theme_follows_the_palette_until_one_is_chosen(view, qtbot):
    from PySide6.QtGui import QPalette

    canvas = view.canvas
    dark = QPalette()
    dark.setColor(QPalette.ColorRole.Base, QColor("#202020"))
    dark.setColor(QPalette.ColorRole.Text, QColor("#EEEEEE"))
    canvas.setPalette(dark)
    assert canvas.theme.dark and canvas.theme.background == "#202020"
    view.set_theme("high contrast")
    canvas.setPalette(QPalette())
    assert canvas.theme.name == "high contrast"


def test_zoom_keys(view, qtbot):
    canvas = view.canvas
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert canvas.scale > 1.1
    qtbot.keyClick(canvas, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert canvas.scale == 1.0


def test_the_caption_type_grows_with_the_tiles_under_the_windows_style_sheet(qtbot):
    from PySide6.QtGui import QFontInfo
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from app.appearance import style_sheet

    # the window's sheet gives every widget the base type size; the caption must still follow the zoom
    window = QWidget()
    window.setStyleSheet(style_sheet("light", 1.0))
    view = TileView(Session(Lesson(CLASSIC, word_counts=True).train()))
    QVBoxLayout(window).addWidget(view)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)

    def points() -> float:
        view.caption.ensurePolished()
        return QFontInfo(view.caption.font()).pointSizeF()

    start = points()
    view.set_scale(2.0)
    assert points() >= 1.9 * start
    view.follow_zoom(1 / 4)  # the window zoomed out: type smaller than at the start
    assert points() < start
    view.set_scale(1.0)
    assert points() == start
