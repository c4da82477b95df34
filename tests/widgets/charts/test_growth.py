"""The growth chart plots the engine's history and its step line follows and drives the session."""

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from app.session import Session
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from engine.algorithm.trainer import extra_ids
from widgets.charts.growth import PERCENT, VOCAB

from .conftest import HELD_OUT, PROSE


def _curve(curve):
    x, y = curve.getData()
    return ([] if x is None else list(x)), ([] if y is None else list(y))


def test_training_totals_and_vocab_sizes_are_the_history(make_view, prose_session):
    lesson = prose_session.lesson
    growth = make_view(prose_session).growth
    x, tokens = _curve(growth.training_curve)
    assert x == list(range(lesson.last_step + 1))
    assert tokens == [lesson.initial_tokens] + [s.tokens_after for s in lesson.steps]
    _, vocab = _curve(growth.vocab_curve)
    start = len(lesson.base_vocab) + extra_ids(lesson.settings)
    assert vocab == [start] + [s.vocab_size for s in lesson.steps]
    # the full tokenizer's vocabulary is where the curve ends
    assert vocab[-1] == lesson.tokenizer.get_vocab_size()


def test_held_out_totals_are_the_lengths_of_encoding_at_every_step(make_view, prose_session):
    lesson = prose_session.lesson
    growth = make_view(prose_session).growth
    _, held = _curve(growth.held_out_curve)
    assert held == [len(lesson.tokenizer_at(k).encode(HELD_OUT)) for k in range(lesson.last_step + 1)]


def test_pasting_a_held_out_text_replots_it(qtbot, make_view, prose_session):
    view = make_view(prose_session)
    lesson = prose_session.lesson
    view.held_out_box.clear()
    text = "Whose hat? The mat sat on the cat."
    qtbot.keyClicks(view.held_out_box, text)
    with qtbot.waitSignal(view.model.held_out_changed, timeout=3000):
        pass
    _, held = _curve(view.growth.held_out_curve)
    assert held == [len(lesson.tokenizer_at(k).encode(text)) for k in range(lesson.last_step + 1)]
    view.set_held_out("")
    assert not view.growth.held_out_curve.isVisible()


def test_switching_the_x_axis_to_vocab_size(make_view, prose_session):
    lesson = prose_session.lesson
    growth = make_view(prose_session).growth
    growth.set_x_mode(VOCAB)
    x, tokens = _curve(growth.training_curve)
    assert x == [growth.model.vocab[0]] + [s.vocab_size for s in lesson.steps]
    assert tokens[-1] == lesson.steps[-1].tokens_after
    # the vocabulary is the x axis now: no second curve of it
    assert not growth.vocab_curve.isVisible()
    for k in (0, 3, lesson.last_step):
        assert growth.step_at(growth.x_of(k)) == k


def test_percent_puts_both_texts_on_one_scale(make_view, prose_session):
    growth = make_view(prose_session).growth
    growth.set_y_mode(PERCENT)
    _, tokens = _curve(growth.training_curve)
    _, held = _curve(growth.held_out_curve)
    assert tokens[0] == pytest.approx(100.0) and held[0] == pytest.approx(100.0)
    model = growth.model
    assert tokens[-1] == pytest.approx(100.0 * model.tokens[-1] / model.tokens[0])


def test_stepping_moves_the_line(make_view, prose_session):
    growth = make_view(prose_session).growth
    prose_session.request_step(7)
    assert growth.step_line.value() == 7
    growth.set_x_mode(VOCAB)
    assert growth.step_line.value() == growth.model.vocab[7]
    prose_session.request_step(2)
    assert growth.step_line.value() == growth.model.vocab[2]


def _scene_to_viewport(growth, x_data, y_fraction=0.5):
    vb = growth.plot.getPlotItem().vb
    rect = vb.sceneBoundingRect()
    scene_x = vb.mapViewToScene(QPointF(x_data, 0)).x()
    scene_y = rect.top() + rect.height() * y_fraction
    point = growth.plot.mapFromScene(scene_x, scene_y)
    return QPoint(int(point.x()), int(point.y()))


def test_dragging_the_line_moves_the_lesson(qtbot, make_view, prose_session):
    growth = make_view(prose_session).growth
    prose_session.request_step(2)
    seen = []
    prose_session.step_changed.connect(lambda change: seen.append(change.step))
    viewport = growth.plot.viewport()
    start = _scene_to_viewport(growth, growth.x_of(2))
    goal = _scene_to_viewport(growth, growth.x_of(12))
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    steps = 6
    for i in range(1, steps + 1):
        point = QPoint(start.x() + (goal.x() - start.x()) * i // steps, start.y())
        QTest.mouseMove(viewport, point)
        qtbot.wait(5)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, goal)
    assert prose_session.step == 12
    # the lesson passed through the steps in between, as the line went
    assert len(seen) >= 2 and seen[-1] == 12
    assert growth.step_line.value() == 12


def test_clicking_the_chart_goes_to_that_step(qtbot, make_view, prose_session):
    growth = make_view(prose_session).growth
    point = _scene_to_viewport(growth, growth.x_of(9), y_fraction=0.8)
    QTest.mouseClick(growth.plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    assert prose_session.step == 9


def test_hover_reads_out_step_vocab_and_tokens(qtbot, make_view, prose_session):
    growth = make_view(prose_session).growth
    model = growth.model
    point = _scene_to_viewport(growth, growth.x_of(5))
    QTest.mouseMove(growth.plot.viewport(), point)
    qtbot.waitUntil(lambda: growth.hover_step == 5, timeout=2000)
    text = growth.readout.text()
    assert "Step 5" in text
    assert f"vocabulary {model.vocab[5]:,}" in text
    assert f"tokens {model.tokens[5]:,}" in text
    assert f"held-out {model.held_out.tokens[5]:,}" in text


def test_the_read_out_follows_the_lesson_after_a_hover(qtbot, make_view, prose_session):
    growth = make_view(prose_session).growth
    model, last = growth.model, prose_session.last_step
    for k in (9, 8):
        QTest.mouseMove(growth.plot.viewport(), _scene_to_viewport(growth, growth.x_of(k)))
    qtbot.waitUntil(lambda: growth.hover_step == 8, timeout=2000)
    for k in (3, last, 1):
        # the keyboard, Play or another view moves the lesson while the mouse rests
        prose_session.request_step(k)
        text = growth.readout.text()
        assert text.startswith(f"Step {k} of {last}") and growth.hover_step is None
        # the same numbers the timeline and the lesson state say
        assert f"tokens {prose_session.state.total_tokens:,}" in text
        assert f"vocabulary {model.vocab[k]:,}" in text


def test_the_read_out_comes_back_to_the_current_step_when_the_mouse_leaves(qtbot, make_view, prose_session):
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    growth = make_view(prose_session).growth
    prose_session.request_step(4)
    # two moves: a move to where the pointer already is (after another test) reaches no one
    for k in (6, 7):
        QTest.mouseMove(growth.plot.viewport(), _scene_to_viewport(growth, growth.x_of(k)))
    qtbot.waitUntil(lambda: growth.hover_step == 7, timeout=2000)
    assert growth.readout.text().startswith("Step 7 of")
    QApplication.sendEvent(growth.plot, QEvent(QEvent.Type.Leave))
    assert growth.hover_step is None and growth.readout.text().startswith("Step 4 of")


def test_stop_line_marks_the_target_or_why_training_ended(make_view, qtbot):
    session = Session(Lesson(PROSE, settings=Settings(merges=10)).train())
    growth = make_view(session).growth
    assert growth.stop_line.value() == 10
    assert growth.stop_label() == "stop: 10 merges"
    session.set_lesson(Lesson(PROSE, settings=Settings(vocab_size=40)).train())
    growth.set_x_mode(VOCAB)
    assert growth.stop_line.value() == 40
    assert growth.stop_label() == "stop: vocabulary 40"
    session.set_lesson(Lesson(PROSE, settings=Settings(merges=10_000)).train())
    assert "no pair repeats" in growth.stop_label() and "10,000" in growth.stop_label()


def test_axis_ranges_hold_the_whole_history(make_view, prose_session, classic_session):
    for session in (classic_session, prose_session):
        growth = make_view(session).growth
        (x0, x1), (y0, y1) = growth.plot.getPlotItem().vb.viewRange()
        model = growth.model
        assert x0 <= 0 and x1 >= model.last_step
        assert y0 <= 0 and y1 >= max(model.tokens + list(model.held_out.tokens))
        v0, v1 = growth.vocab_view.viewRange()[1]
        assert v1 >= model.vocab[-1]


def test_the_legend_fits_a_narrow_chart_with_characters_per_token(make_view, prose_session):
    view = make_view(prose_session)
    view.resize(560, 650)
    view.growth.set_per_token_visible(True)
    view.held_out_box.setPlainText("some words the tokenizer never saw")
    view.growth.set_per_token_visible(True)
    legend, plot = view.growth.legend, view.growth.plot
    assert len(legend.items) >= 4
    assert legend.boundingRect().width() <= plot.width()
