"""The Charts tab: exports, themes, the history model, a new lesson."""

import csv
import xml.dom.minidom

import pytest
from PySide6.QtTest import QAbstractItemModelTester

from engine.errors import BpeLabError
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.charts import GROWTH, PAIRS, ChartTheme
from widgets.models.history_model import HELD_OUT as HELD_OUT_COLUMN, HistoryModel
from widgets.worker import wait_for_workers

from .conftest import HELD_OUT, PROSE


def test_exports_write_png_svg_and_csv(tmp_path, make_view, classic_session):
    view = make_view(classic_session)
    classic_session.request_step(3)
    for chart in (GROWTH, PAIRS):
        png, svg, table = (tmp_path / f"{chart}.{k}" for k in ("png", "svg", "csv"))
        view.export(chart, str(png))
        view.export(chart, str(svg))
        view.export(chart, str(table))
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
        doc = xml.dom.minidom.parse(str(svg))
        assert doc.documentElement.tagName == "svg"
        assert doc.getElementsByTagName("path") or doc.getElementsByTagName("polyline")
        rows = list(csv.DictReader(table.open(encoding="utf-8")))
        assert rows
    growth_rows = list(csv.DictReader((tmp_path / "growth.csv").open(encoding="utf-8")))
    lesson = classic_session.lesson
    assert [int(r["tokens"]) for r in growth_rows] == [lesson.initial_tokens] + [s.tokens_after for s in lesson.steps]
    assert [int(r["held_out_tokens"]) for r in growth_rows] == [
        len(lesson.tokenizer_at(k).encode(lesson.held_out)) for k in range(lesson.last_step + 1)
    ]
    pair_rows = list(csv.DictReader((tmp_path / "pairs.csv").open(encoding="utf-8")))
    assert pair_rows[0]["pair"] == "l + o" and pair_rows[0]["sources"] == "low ×5 + lower ×2 = 7"
    assert pair_rows[0]["merges_next"] == "1"


def test_export_refuses_an_unknown_format(tmp_path, make_view, classic_session):
    view = make_view(classic_session)
    try:
        view.export(GROWTH, str(tmp_path / "chart.jpg"))
    except BpeLabError as exc:
        assert ".png or .svg" in str(exc)
    else:
        raise AssertionError("a .jpg export should be refused")


def test_themes_change_the_drawing(make_view, classic_session):
    view = make_view(classic_session)
    light = view.growth.plot.grab().toImage()
    view.set_theme(ChartTheme.dark())
    dark = view.growth.plot.grab().toImage()
    corner = (5, 5)
    assert light.pixelColor(*corner).lightness() > 200
    assert dark.pixelColor(*corner).lightness() < 60
    view.set_theme(ChartTheme.projector())
    assert view.growth.plot.getPlotItem().getAxis("left").style["tickFont"].pointSize() == 20


def test_a_new_lesson_replots_with_its_own_held_out_text(qtbot, make_view, classic_session):
    view = make_view(classic_session)
    classic_session.set_lesson(Lesson(PROSE, held_out=HELD_OUT).train())
    assert view.held_out_box.toPlainText() == HELD_OUT
    assert list(view.model.tokens) == [classic_session.lesson.initial_tokens] + [
        s.tokens_after for s in classic_session.lesson.steps
    ]
    assert view.model.held_out.tokens[0] == len(classic_session.lesson.tokenizer_at(0).encode(HELD_OUT))


def test_history_model_passes_qt_checks(qtbot, prose_session):
    model = HistoryModel(prose_session)
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    assert model.rowCount() == prose_session.lesson.last_step + 1
    assert model.data(model.index(0, 2)) == prose_session.lesson.initial_tokens
    prose_session.set_lesson(Lesson("tea tea team teams steam seat", settings=Settings(end_of_word=None)).train())
    # the six tea words: 24 symbols, then e+a, t+ea, tea+m: four rows, steps 0 to 3
    assert model.rowCount() == 4
    assert [model.data(model.index(r, 2)) for r in range(4)] == [24, 18, 13, 10]


def test_long_held_out_text_is_counted_off_the_gui_thread(qtbot, prose_session, monkeypatch):
    import app.held_out_count as held_out_count

    monkeypatch.setattr(held_out_count, "SYNC_LIMIT", 10)
    model = HistoryModel(prose_session)
    with qtbot.waitSignal(model.held_out_changed, timeout=5000):
        prose_session.request_held_out(HELD_OUT * 3)
    lesson = prose_session.lesson
    assert model.held_out.tokens[-1] == len(lesson.tokenizer.encode(HELD_OUT * 3))


def test_the_history_model_shows_the_curve_the_session_counted_and_counts_nothing_itself(
        qtbot, prose_session, monkeypatch):
    import app.held_out_count as held_out_count
    import engine.lesson.lesson

    def counted_again(tokenizer, text, steps):
        raise AssertionError("the model should show the session's curve, not count one")

    monkeypatch.setattr(held_out_count, "token_curve", counted_again)
    monkeypatch.setattr(engine.lesson.lesson, "token_curve", counted_again)
    model = HistoryModel(prose_session)
    assert model.held_out is prose_session.held_out_curve is not None
    with qtbot.waitSignal(model.held_out_changed):
        prose_session.request_held_out("")
    assert model.held_out is None and model.data(model.index(0, HELD_OUT_COLUMN)) is None


@pytest.mark.parametrize("limit", [10, 10**9], ids=["in a worker", "on the spot"])
def test_an_exception_while_counting_the_held_out_text_is_reported_and_the_column_cleared(
        qtbot, prose_session, monkeypatch, limit):
    import engine.lesson.lesson
    import app.held_out_count as held_out_count

    def broken(tokenizer, text, steps):
        raise RuntimeError("simulated")

    monkeypatch.setattr(held_out_count, "SYNC_LIMIT", limit)
    model = HistoryModel(prose_session)
    real = held_out_count.token_curve
    monkeypatch.setattr(held_out_count, "token_curve", broken)
    monkeypatch.setattr(engine.lesson.lesson, "token_curve", broken)
    with qtbot.waitSignal(model.held_out_failed, timeout=5000) as blocker:
        prose_session.request_held_out("another text the lesson never counted " * 3)
    assert "could not be counted" in blocker.args[0] and "simulated" in blocker.args[0]
    assert model.held_out is None and model.data(model.index(0, HELD_OUT_COLUMN)) is None
    # the same text again is counted again, not taken for done
    monkeypatch.setattr(held_out_count, "token_curve", real)
    monkeypatch.setattr(engine.lesson.lesson, "token_curve", real)
    prose_session.request_held_out("")
    with qtbot.waitSignal(model.held_out_changed, timeout=5000):
        prose_session.request_held_out("another text the lesson never counted " * 3)
    assert model.held_out is not None
    wait_for_workers(5000)


@pytest.mark.parametrize("limit", [10, 10**9], ids=["in a worker", "on the spot"])
def test_the_charts_say_beside_the_held_out_text_why_its_curve_is_missing(
        qtbot, make_view, prose_session, monkeypatch, limit):
    import engine.lesson.lesson
    import app.held_out_count as held_out_count

    def broken(tokenizer, text, steps):
        raise RuntimeError("simulated")

    monkeypatch.setattr(held_out_count, "SYNC_LIMIT", limit)
    view = make_view(prose_session)
    assert view.held_out_problem.isHidden()
    real = held_out_count.token_curve
    monkeypatch.setattr(held_out_count, "token_curve", broken)
    monkeypatch.setattr(engine.lesson.lesson, "token_curve", broken)
    with qtbot.waitSignal(view.model.held_out_failed, timeout=5000):
        view.set_held_out("a text the lesson never counted " * 3)
    assert view.held_out_problem.isVisible()
    said = view.held_out_problem.text()
    assert "could not be counted" in said and "simulated" in said and "no held-out curve" in said
    # a text counted afterwards takes the explanation away
    monkeypatch.setattr(held_out_count, "token_curve", real)
    monkeypatch.setattr(engine.lesson.lesson, "token_curve", real)
    with qtbot.waitSignal(view.model.held_out_changed, timeout=5000):
        view.set_held_out("another text, counted this time " * 3)
    assert view.model.held_out is not None and view.held_out_problem.isHidden()
    wait_for_workers(5000)


def test_beside_the_growth_chart_it_says_why_the_vocabulary_is_not_simply_larger(make_view, classic_session):
    from engine.readable.describe import WHY_NOT_LARGER

    view = make_view(classic_session)
    label = view.why_not_larger
    assert label.isVisible() and label.text() == WHY_NOT_LARGER
    # under the chart it explains, in the same column
    assert label.parentWidget() is view.growth.parentWidget()
    assert label.geometry().top() >= view.growth.geometry().bottom()


def test_large_type_in_a_small_view_scrolls_and_draws_nothing_over_the_charts(make_view, classic_session):
    from PySide6.QtWidgets import QApplication

    view = make_view(classic_session)
    view.follow_zoom(2.0)
    view.resize(620, 420)
    view.show()
    QApplication.processEvents()
    assert view.height() == 420  # the view fits a small tab: its page scrolls
    growth_bottom = view.growth.mapTo(view, view.growth.rect().bottomLeft()).y()
    text_top = view.why_not_larger.mapTo(view, view.why_not_larger.rect().topLeft()).y()
    assert growth_bottom < text_top  # the text under the chart starts below it
    assert view.growth.height() >= view.growth.minimumHeight() > 0
    lines = view.why_not_larger.heightForWidth(view.why_not_larger.width())
    assert view.why_not_larger.height() >= lines  # and has every line it wraps to


def test_zooming_out_and_back_returns_the_charts_to_their_size(make_view, classic_session):
    view = make_view(classic_session)
    start = view.theme.font_size
    for _ in range(4):
        view.follow_zoom(1 / 1.15)
    for _ in range(4):
        view.follow_zoom(1.15)
    assert view.theme.font_size == start


def test_at_a_projectors_type_the_pair_chart_gets_half_the_page_and_its_marks_whole(make_view, classic_session):
    from dataclasses import replace

    from PySide6.QtGui import QFontMetricsF
    from PySide6.QtWidgets import QApplication

    view = make_view(classic_session)
    classic_session.request_step(3)
    desktop = view.pairs.width() / view.width()
    view.set_theme(replace(ChartTheme.projector(dark=True), font_size=27))
    QApplication.processEvents()
    assert desktop < 0.45 < view.pairs.width() / view.width()
    # the top bar's count and its "◀ next" fit between the bar's end and the plot's right edge
    box = view.pairs.plot.getPlotItem().vb
    right = box.viewRange()[0][1]
    top = max(b.count for b in view.pairs.bars)
    room_px = (right - top) / right * box.width()
    assert room_px >= QFontMetricsF(view.theme.font()).horizontalAdvance(f"{top}  ◀ next")
    # and the axis's title, centred under the plot, stays within it (on two lines if need be)
    assert view.pairs.plot.getPlotItem().getAxis("bottom").label.boundingRect().width() <= box.width()
    view.set_theme(ChartTheme.light())
    QApplication.processEvents()
    assert view.pairs.width() / view.width() == pytest.approx(desktop, abs=0.02)

