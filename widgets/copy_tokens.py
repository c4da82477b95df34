"""Copying a view's tokens: Ctrl+C gives the ids, a context menu also the tokens or both as JSON.

``add_copy_actions(widget, tokens)`` puts the actions on ``widget``; ``tokens()`` returns what the
view shows now, ``(ids, tokens)``, each token as a person reads it (``engine.readable.display``). The tokens
as text are separated by `` | `` (the tokenize panel's replay writes them so), since a token may
hold a space.
"""

from __future__ import annotations

import json
from typing import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QWidget

from widgets import shortcuts

Tokens = Callable[[], tuple[Sequence[int], Sequence[str]]]
SEPARATOR = " | "


def ids_text(ids: Sequence[int]) -> str:
    return " ".join(str(i) for i in ids)


def tokens_text(tokens: Sequence[str]) -> str:
    return SEPARATOR.join(tokens)


def tokens_json(ids: Sequence[int], tokens: Sequence[str]) -> str:
    return json.dumps({"ids": list(ids), "tokens": list(tokens)}, ensure_ascii=False)


def add_copy_actions(widget: QWidget, tokens: Tokens) -> list[QAction]:
    """Copy ids (Ctrl+C), Copy tokens and Copy as JSON (Ctrl+Shift+C), in ``widget``'s context menu."""
    def copier(make: Callable[[Sequence[int], Sequence[str]], str]):
        return lambda _checked=False: QGuiApplication.clipboard().setText(make(*tokens()))

    made = []
    for text, make, keys in (
        ("Copy ids", lambda ids, _t: ids_text(ids), "copy ids"),
        ("Copy tokens", lambda _i, toks: tokens_text(toks), None),
        ("Copy ids and tokens as JSON", tokens_json, "copy json"),
    ):
        action = QAction(text, widget)
        if keys is not None:
            shortcuts.bind(action, keys)
            # only while this view has the focus: a text field's own Ctrl+C stays its own
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(copier(make))
        widget.addAction(action)
        made.append(action)
    widget.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    if widget.focusPolicy() == Qt.FocusPolicy.NoFocus:
        widget.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # clicked, the view takes Ctrl+C
    return made
