"""The table of keys: each key once, and no shortcut made anywhere but through it."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from widgets import shortcuts
from widgets.shortcuts import KEYS, bind, clashes, key_text, sequences, shortcut

ROOT = Path(__file__).resolve().parents[2]


def test_a_key_declared_twice_for_one_name_is_bound_once(qapp):
    # Ctrl++ is both declared and the platform's zoom-in key: Qt ignores a key an action has twice
    zoom_in = [s.toString() for s in sequences("zoom in")]
    assert "Ctrl+=" in zoom_in and "Ctrl++" in zoom_in
    assert len(zoom_in) == len(set(zoom_in))
    assert sequences("zoom out") == [QKeySequence("Ctrl+-")]


def test_no_two_names_share_a_key(qapp):
    owner: dict[str, str] = {}
    for name in KEYS:
        for s in sequences(name):
            assert owner.setdefault(s.toString(), name) == name, (s.toString(), owner[s.toString()], name)


def test_every_name_has_a_key_on_this_platform(qapp):
    assert [name for name in KEYS if not sequences(name)] == []


def test_the_quiz_moves_on_with_a_key_file_new_does_not_use(qapp):
    assert set(sequences("quiz next")).isdisjoint(sequences("new"))
    assert key_text("quiz next") == "Alt+Right"


def test_a_view_shortcut_and_a_window_action_with_one_key_clash(qtbot):
    window = QWidget()
    qtbot.addWidget(window)
    view = QWidget(window)
    action = bind(QAction("New", window), "new")
    window.addAction(action)
    shortcut(view, "quiz next", "Next question", lambda: None)
    assert clashes(window) == []
    shortcut(view, "new", "Also new", lambda: None)
    assert [(a.what, b.what) for a, b in clashes(window)] == [("New", "Also new")]


def test_side_by_side_views_may_share_a_key(qtbot):
    window = QWidget()
    qtbot.addWidget(window)
    for _ in range(2):
        shortcut(QWidget(window), "copy ids", "Copy ids", lambda: None)
    assert clashes(window) == []


def test_no_key_is_bound_but_through_the_table():
    # a key set directly would escape the check and the Help list
    direct = re.compile(r"\.setShortcuts?\(|\bQShortcut\(|\.setKeys\(")
    table = Path(shortcuts.__file__).resolve()
    found = [f"{path.relative_to(ROOT)}:{n}" for package in ("app", "widgets") for path in sorted((ROOT / package).rglob("*.py"))
             if path.resolve() != table
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if direct.search(line)]
    assert found == []
