"""The metrics chart plots the engine's measures over the run, off the GUI thread, and follows the step."""

import pyqtgraph as pg
import pytest

from app.session import Session
from engine.lesson.lesson import Lesson
from engine.readable.metrics_run import lesson_metrics
from widgets.charts import ChartsView
from widgets.charts.growth import VOCAB
from widgets.charts.metric_data import BY_KEY
from widgets.charts.metrics import WARNING

from .conftest import HELD_OUT, PROSE


def _curve(curve):
    x, y = curve.getData()
    return ([] if x is None else list(x)), ([] if y is None else list(y))


def _measured(qtbot, view):
    qtbot.waitUntil(lambda: view.metrics.series is not None, timeout=5000)
    return view.metrics


@pytest.mark.parametrize("key", ["characters", "fertility", "renyi", "shannon", "used"])
def test_curves_are_lesson_metrics_at_every_step(qtbot, make_view, prose_session, key):
    lesson = prose_session.lesson
    chart = _measured(qtbot, make_view(prose_session))
    chart.set_metric(key)
    kind = BY_KEY[key]
    curves = lesson_metrics(lesson)
    x, corpus = _curve(chart.corpus_curve)
    _, held = _curve(chart.held_out_curve)
    assert x == list(range(lesson.last_step + 1))
    for k in (0, 1, lesson.last_step // 2, lesson.last_step):
        assert corpus[k] == pytest.approx(kind.value(curves.corpus.at(k)))
        assert held[k] == pytest.approx(kind.value(curves.held_out.at(k)))
    # the measure changes over the run: a flat line would pass the comparison above by luck
    assert corpus[0] != pytest.approx(corpus[-1])


def test_vocab_x_axis_is_the_vocabulary_size_at_each_step(qtbot, make_view, prose_session):
    view = make_view(prose_session)
    chart = _measured(qtbot, view)
    view.x_choice.setCurrentIndex(view.x_choice.findData(VOCAB))
    x, _ = _curve(chart.corpus_curve)
    assert x == list(lesson_metrics(prose_session.lesson).corpus.vocab_sizes)
    assert x == view.growth.x_values()


def test_the_step_line_follows_the_session_and_drives_it(qtbot, make_view, prose_session):
    chart = _measured(qtbot, make_view(prose_session))
    prose_session.request_step(7)
    assert chart.step_line.value() == 7
    assert chart.readout.text().startswith("Step 7 of")
    chart.step_line.setValue(12)  # as a drag does
    assert prose_session.step == 12
    assert chart.step_line.value() == 12


def test_a_new_held_out_text_is_measured_again(qtbot, make_view, prose_session):
    view = make_view(prose_session)
    chart = _measured(qtbot, view)
    view.set_held_out("Whose hat? The mat sat on the cat.")
    qtbot.waitUntil(lambda: chart.series is not None and chart.series.held_out.startswith("Whose"), timeout=5000)
    _, held = _curve(chart.held_out_curve)
    expected = lesson_metrics(prose_session.lesson, "Whose hat? The mat sat on the cat.").held_out
    assert held[-1] == pytest.approx(expected.at(expected.last_step).characters_per_token)


def test_the_warning_stands_under_the_chart(qtbot, make_view, prose_session):
    chart = _measured(qtbot, make_view(prose_session))
    assert chart.warning.text() == WARNING
    assert "Rényi" in WARNING and chart.warning.isVisible()


def test_hovering_reads_the_step_under_the_mouse_and_leaving_returns_to_the_current_one(qtbot, make_view, prose_session):
    chart = _measured(qtbot, make_view(prose_session))
    chart.set_metric("used")
    prose_session.request_step(2)
    vb = chart.plot.getPlotItem().vb
    chart.scrub.mouse_moved(vb.mapViewToScene(pg.Point(9, 10)))
    assert chart.hover_step == 9
    assert chart.readout.text().startswith("Step 9 of")
    assert "% of the vocabulary used" in chart.readout.text()
    assert len(chart.markers.data) == 2  # one on each curve
    prose_session.request_step(4)
    assert chart.hover_step is None and chart.readout.text().startswith("Step 4 of")


def _file_lesson(tmp_path, held_out=""):
    """A lesson read from a tokenizer file: merges, no corpus."""
    from engine.formats.bpelab import save_tokenizer
    from engine.lesson_io.from_tokenizer import read_imported

    save_tokenizer(Lesson(PROSE).train().tokenizer, tmp_path / "tok.json")
    run = read_imported(tmp_path / "tok.json")
    while True:
        try:
            next(run)
        except StopIteration as end:
            lesson = end.value
            lesson.held_out = held_out
            return lesson


def test_a_tokenizer_file_has_only_the_held_out_curve(qtbot, make_view, tmp_path):
    lesson = _file_lesson(tmp_path, HELD_OUT)
    chart = _measured(qtbot, make_view(Session(lesson)))
    assert not chart.corpus_curve.isVisible() and chart.held_out_curve.isVisible()
    _, held = _curve(chart.held_out_curve)
    expected = lesson_metrics(lesson).held_out
    assert held[3] == pytest.approx(expected.at(3).characters_per_token)
    assert "training text" not in chart.readout.text() and "held-out" in chart.readout.text()


def test_a_tokenizer_file_with_no_held_out_text_says_what_to_do(qtbot, make_view, tmp_path):
    chart = _measured(qtbot, make_view(Session(_file_lesson(tmp_path))))
    assert not chart.corpus_curve.isVisible() and not chart.held_out_curve.isVisible()
    assert chart.readout.text().startswith("No text to measure: paste a held-out text")


def test_a_hidden_chart_measures_only_once_shown(qtbot, prose_session):
    view = ChartsView(prose_session)
    qtbot.addWidget(view)
    assert view.metrics.series is None and not view.metrics.measuring
    view.show()
    qtbot.waitUntil(lambda: view.metrics.series is not None, timeout=5000)
    assert view.metrics.series.lesson is prose_session.lesson
