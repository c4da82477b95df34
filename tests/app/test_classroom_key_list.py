"""The classroom's list of keys is read from the keys the mode acts on, so none goes unlisted."""

from __future__ import annotations

from app.classroom import CONTROL_KEYS, KEY_LIST, KEY_ROWS, NUMBER_KEYS, PLAIN_KEYS, VIEW_COMMANDS, key_name


def test_every_command_of_a_key_has_a_row():
    listed = {c for commands, _what in KEY_ROWS for c in commands} | set(VIEW_COMMANDS)
    assert set(PLAIN_KEYS.values()) | set(CONTROL_KEYS.values()) <= listed


def test_a_ctrl_key_does_what_its_plain_key_does():
    # the list names the plain keys only, and says Ctrl works too
    assert all(PLAIN_KEYS.get(key) == command for key, command in CONTROL_KEYS.items())


def test_every_plain_key_is_named_in_the_list():
    names = {name for keys, _what in KEY_LIST for name in keys.split("  ")}
    missing = [key_name(k) for k, c in PLAIN_KEYS.items() if c not in VIEW_COMMANDS and key_name(k) not in names]
    assert missing == []


def test_the_window_list_names_the_view_keys(make_window):
    window = make_window()
    rows = dict(window.classroom.key_list())
    views = next(keys for keys in rows if keys.startswith("1–"))
    assert "Tab" in views and "Shift+Tab" in views
    assert f"1–{min(len(window.views), len(NUMBER_KEYS))}" in rows
