"""The growth chart keeps room for its curves on a small screen, and its stop label stays off them."""

from PySide6.QtCore import QPointF
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication

from widgets.charts.growth import PLOT_LINES


def settle():
    for _ in range(4):
        QApplication.processEvents()


def test_squeezed_under_its_text_the_plot_keeps_its_lines_and_the_page_scrolls(classic_session, make_view):
    view = make_view(classic_session)
    view.resize(760, 420)  # the Charts tab of a 1280x720 window
    settle()
    plot = view.growth.plot
    assert plot.height() >= QFontMetricsF(view.growth.theme.font()).lineSpacing() * PLOT_LINES - 1
    assert plot.height() >= 180


def test_the_stop_label_covers_no_curve(classic_session, make_view):
    view = make_view(classic_session)
    view.resize(760, 420)
    classic_session.request_step(3)
    settle()
    growth = view.growth
    label = growth.stop_line.label.sceneBoundingRect()
    assert label.width() > 0
    for curve, box in ((growth.training_curve, growth.plot.getPlotItem().vb), (growth.vocab_curve, growth.vocab_view)):
        xs, ys = curve.getData()
        points = [box.mapViewToScene(QPointF(x, y)) for x, y in zip(xs, ys)]
        assert not any(label.contains(p) for p in points), curve.name()


def test_at_a_large_type_in_a_narrow_chart_the_read_out_and_stop_label_are_whole(classic_session, make_view):
    from dataclasses import replace

    from widgets.charts.theme import ChartTheme

    # the classroom's charts at 200 % zoom on a 1024x768 projector: about 500 pixels for the growth chart
    view = make_view(classic_session)
    view.set_theme(replace(ChartTheme.projector(dark=True), font_size=32))
    view.resize(1000, 700)
    classic_session.request_step(3)
    settle()
    growth = view.growth
    readout = growth.readout
    assert readout.height() >= readout.heightForWidth(readout.width())
    vb = growth.plot.getPlotItem().getViewBox().sceneBoundingRect()
    text = growth.stop_line.label.textItem
    label = text.mapRectToScene(text.boundingRect())
    assert label.width() > 0
    assert label.left() >= vb.left() - 1 and label.right() <= vb.right() + 1, (label, vb)
    # the last step's read-out, the longest, fits the height already kept: stepping moves nothing
    height = readout.height()
    classic_session.request_step(classic_session.last_step)
    settle()
    assert readout.height() == height >= readout.heightForWidth(readout.width())
