"""The pair bars: the top pairs at the step, ties lit, the winner marked, counts explained."""

from PySide6.QtGui import QColor

from app.session import Session
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.charts.pair_data import sources_text, top_pairs
from widgets.charts.pairs import THROTTLE_MS


def _bar_colours(chart):
    return [QColor(b.color()).name().upper() for b in chart.bar_item.opts["brushes"]]


def test_three_way_tie_at_the_start_is_lit_and_the_winner_marked(make_view, classic_session):
    chart = make_view(classic_session).pairs
    theme = chart.theme
    names = [(b.pair, b.count, b.tied, b.winner) for b in chart.bars[:4]]
    assert names[:3] == [
        (("e", "s"), 9, True, True),
        (("s", "t"), 9, True, False),
        (("t", "</w>"), 9, True, False),
    ]
    assert names[3][2:] == (False, False)
    colours = _bar_colours(chart)
    assert colours[0] == theme.bar_winner.upper()
    assert colours[1:3] == [theme.bar_tied.upper()] * 2
    assert set(colours[3:]) == {theme.bar.upper()}
    assert chart.caption.text() == "Step 0: next merge e + s (9), tied with 2 others (the pair met first wins)."
    assert chart._labels[0].toPlainText() == "9  ◀ next"
    assert chart._labels[1].toPlainText().endswith("tie")


def test_no_tie_is_lit_when_one_pair_leads(make_view, classic_session):
    chart = make_view(classic_session).pairs
    classic_session.request_step(3)
    chart.finish_animation()
    # l o and o w both come from low and lower: 7 each, l o met first
    assert [(b.pair, b.tied, b.winner) for b in chart.bars[:2]] == [(("l", "o"), True, True), (("o", "w"), True, False)]
    classic_session.request_step(4)
    chart.finish_animation()
    top = chart.bars[0]
    assert (top.pair, top.count, top.winner) == (("lo", "w"), 7, True)
    assert not any(b.tied for b in chart.bars)
    assert _bar_colours(chart)[1:] == [chart.theme.bar.upper()] * (len(chart.bars) - 1)


def test_hover_lists_where_the_count_comes_from(make_view, classic_session):
    chart = make_view(classic_session).pairs
    classic_session.request_step(3)
    chart.finish_animation()
    assert chart.hover_slot(0) == "l + o:  low ×5 + lower ×2 = 7"
    # a word holding the pair twice says so, and the sum still adds up
    session = Session(Lesson("banana 3\nband 1", word_counts=True).train())
    state = session.state
    assert sources_text(state, ("a", "n")) == "banana ×3 (2 in the word) + band ×1 = 7"
    assert state.pair_count(("a", "n")) == 7


def _assert_bars_at_step(chart, session):
    expected = top_pairs(session.state, chart.limit)
    assert chart.bars == expected
    widths = chart.bar_item.opts["width"]
    ys = chart.bar_item.opts["y"]
    assert sorted(zip(ys, widths)) == [(float(i), float(b.count)) for i, b in enumerate(expected)]


def test_bars_glide_one_step_forward_and_back(qtbot, make_view, prose_session):
    chart = make_view(prose_session).pairs
    for k in (1, 2, 3, 2, 1, 0):
        # a key press at a time: slower than the bars' refresh limit
        qtbot.wait(THROTTLE_MS + 10)
        prose_session.request_step(k)
        assert chart.animation.state() == chart.animation.State.Running
        with qtbot.waitSignal(chart.settled, timeout=2000):
            pass
        _assert_bars_at_step(chart, prose_session)


def test_bars_jump_with_the_step_line(qtbot, make_view, prose_session):
    chart = make_view(prose_session).pairs
    for k in (5, 2, prose_session.lesson.last_step, 0):
        qtbot.wait(THROTTLE_MS + 10)
        prose_session.request_step(k)
        # a jump does not wait for a glide
        assert chart.animation.state() != chart.animation.State.Running
        _assert_bars_at_step(chart, prose_session)


def test_a_fast_run_of_steps_ends_on_the_last_one(qtbot, make_view, prose_session):
    chart = make_view(prose_session).pairs
    for k in range(1, 9):
        prose_session.request_step(k)
    # the steps came faster than the bars redraw: they catch up with the latest step
    qtbot.waitUntil(lambda: chart._shown_step == 8, timeout=2000)
    chart.finish_animation()
    _assert_bars_at_step(chart, prose_session)


def test_the_end_has_no_winner(make_view, qtbot):
    session = Session(Lesson("low 5\nlower 2\nnewest 6\nwidest 3", word_counts=True, settings=Settings(merges=4)).train())
    chart = make_view(session).pairs
    session.request_step(4)
    chart.finish_animation()
    assert chart.bars and not any(b.winner or b.tied for b in chart.bars)
    assert "training stopped here (target reached)" in chart.caption.text()
