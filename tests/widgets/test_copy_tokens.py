"""The tokenize panel and the explorer copy what they show: Ctrl+C the ids, the menu tokens or JSON."""

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.session import Session
from engine.readable.display import for_tokenizer
from widgets.copy_tokens import ids_text, tokens_json, tokens_text
from widgets.explorer import ExplorerView
from widgets.tokenize_panel import TokenizePanel

TEXT = "lowest newer 🙂"


@pytest.fixture
def session(qtbot):
    s = Session()
    s.request_step(5)
    return s


def expected(session, text=TEXT):
    tokenizer = session.lesson.tokenizer_at(session.step)
    encoding = tokenizer.encode(text)
    return list(encoding.ids), [for_tokenizer(tokenizer).token(t) for t in encoding.tokens]


def clipboard() -> str:
    return QApplication.clipboard().text()


def action(widget, text):
    return next(a for a in widget.actions() if a.text() == text)


def test_the_three_ways_to_write_tokens():
    assert ids_text([5, 17, 0]) == "5 17 0"
    assert tokens_text(["low", "est</w>", "a b"]) == "low | est</w> | a b"
    assert json.loads(tokens_json([5, 6], ["é", "␣x"])) == {"ids": [5, 6], "tokens": ["é", "␣x"]}


def test_tokenize_panel_copies_every_id_and_token_of_the_typed_text(session, qtbot):
    panel = TokenizePanel(session)
    qtbot.addWidget(panel)
    panel.show()
    panel.input.setText(TEXT)
    ids, tokens = expected(session)
    assert session.lesson.tokenizer_at(5).unknown_id in ids  # the unseen emoji is copied as <unk>, not dropped
    panel.chips.setFocus()
    qtbot.waitUntil(panel.chips.hasFocus)
    qtbot.keyClick(panel.chips, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert clipboard() == ids_text(ids)
    action(panel.chips, "Copy tokens").trigger()
    assert clipboard() == tokens_text(tokens)
    qtbot.keyClick(panel.chips, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert json.loads(clipboard()) == {"ids": ids, "tokens": tokens}


def test_ctrl_c_in_the_text_field_still_copies_the_selected_text(session, qtbot):
    panel = TokenizePanel(session)
    qtbot.addWidget(panel)
    panel.show()
    panel.input.setText(TEXT)
    panel.input.setFocus()
    qtbot.waitUntil(panel.input.hasFocus)
    panel.input.setSelection(0, 6)
    qtbot.keyClick(panel.input, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert clipboard() == "lowest"


def test_an_empty_panel_copies_nothing(session, qtbot):
    panel = TokenizePanel(session)
    qtbot.addWidget(panel)
    panel.input.setText("  ")
    action(panel.chips, "Copy ids and tokens as JSON").trigger()
    assert json.loads(clipboard()) == {"ids": [], "tokens": []}


def test_the_explorer_copies_the_lesson_side_as_shown(session, qtbot):
    explorer = ExplorerView(session)
    qtbot.addWidget(explorer)
    explorer.show()
    explorer.set_text(TEXT)
    side = explorer.right
    ids, tokens = expected(session)
    qtbot.waitUntil(lambda: side.split is not None and side.split.ids == ids, timeout=10_000)
    action(side.view, "Copy ids").trigger()
    assert clipboard() == ids_text(ids)
    action(side.view, "Copy ids and tokens as JSON").trigger()
    assert json.loads(clipboard()) == {"ids": ids, "tokens": tokens}
