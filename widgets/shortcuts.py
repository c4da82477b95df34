"""Every key of the window's actions and shortcuts, declared once, and the bindings they make.

``KEYS`` names each shortcut and gives its keys; an action takes them through ``bind``, a view's
own shortcut is made by ``shortcut``. Nothing else calls ``setShortcut``: a key given in two places
(an action given Ctrl++ directly and again through the platform's zoom-in key) is a key Qt finds
ambiguous and then ignores. ``bindings(window)`` reads back every key bound in a window, from the
actions and shortcuts themselves, for the Help list and for the check that no key is bound twice
where both would be live.

Left out: the classroom's keys, which its event filter reads while the mode is on (``app.classroom``),
and the keys a view handles in its own key presses (the quiz's digits and Return).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QMenu, QWidget

S = QKeySequence.StandardKey
Key = str | QKeySequence.StandardKey

KEYS: dict[str, tuple[Key, ...]] = {
    "new": (S.New,),
    "open": (S.Open,),
    "save": (S.Save,),
    "save as": (S.SaveAs,),
    "export": ("Ctrl+E",),
    "quit": (S.Quit, "Ctrl+Q"),  # some platforms bind no key to Quit
    "undo": (S.Undo,),
    "redo": (S.Redo,),
    "next step": ("Right",),
    "previous step": ("Left",),
    "play": ("Space",),
    "start": ("Home",),
    "end": ("End",),
    "go to step": ("Ctrl+G",),
    # Ctrl+= as well: on most keyboards + needs Shift, and the key is the same one
    "zoom in": ("Ctrl+=", S.ZoomIn, "Ctrl++"),
    "zoom out": (S.ZoomOut, "Ctrl+-"),
    "actual size": ("Ctrl+0",),
    "classroom": ("F5",),
    "shortcuts": ("F1",),
    # F1 is the list of keys; Shift+F1 (Qt's "What's this?", which the window does not use) its tour
    "quick start": ("Shift+F1",),
    "copy ids": (S.Copy,),
    "copy json": ("Ctrl+Shift+C",),
    "quiz check": ("Ctrl+Return", "Ctrl+Enter"),
    "quiz hint": ("Ctrl+H",),
    # not Ctrl+N, which is File > New everywhere
    "quiz next": ("Alt+Right",),
    "quiz reveal": ("Ctrl+R",),
    "quiz tiles": ("Ctrl+T",),
    "quiz full screen": ("F11",),
}


def _typed(sequence: QKeySequence) -> bool:
    """Whether every key of ``sequence`` is one a person types: the platform's standard keys also
    name keys of their own (Copy, Zoom In) that few keyboards have, and a list of keys would read
    them as typed words."""
    # PySide6's stubs leave out QKeySequence's operator[], which it has
    return all(sequence[i].key().value < Qt.Key.Key_Back.value  # type: ignore[index]
               for i in range(sequence.count()))


def sequences(name: str) -> list[QKeySequence]:
    """The key sequences of ``name`` on this platform, each once, in the order declared."""
    found: list[QKeySequence] = []
    for key in KEYS[name]:
        for sequence in QKeySequence.keyBindings(key) if isinstance(key, QKeySequence.StandardKey) else [QKeySequence(key)]:
            if not sequence.isEmpty() and _typed(sequence) and sequence not in found:
                found.append(sequence)
    return found


def key_text(name: str) -> str:
    """How the keys of ``name`` read to a person ("Ctrl+H"), for tooltips."""
    return " or ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in sequences(name))


def bind(action: QAction, name: str) -> QAction:
    action.setShortcuts(sequences(name))
    return action


def shortcut(widget: QWidget, name: str, what: str, slot: Callable[[], object]) -> QShortcut:
    """A shortcut live while the focus is in ``widget``; ``what`` says what it does, for the Help list."""
    made = QShortcut(widget)
    made.setKeys(sequences(name))
    made.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    made.setWhatsThis(what)
    made.activated.connect(slot)
    return made


@dataclass(frozen=True, slots=True)
class Binding:
    """One key sequence bound to one action or shortcut."""

    sequence: QKeySequence
    what: str  # the action's text, without its mnemonic
    owner: QObject  # the action or the shortcut
    scope: QWidget  # where the key is live: the window, or a widget and its children
    exact: bool  # live only while ``scope`` itself has the focus (WidgetShortcut)

    @property
    def keys(self) -> str:
        return self.sequence.toString(QKeySequence.SequenceFormat.NativeText)

    def overlaps(self, other: Binding) -> bool:
        """Whether both could be live at once: one's scope holds the other's."""
        def holds(a: Binding, b: Binding) -> bool:
            return (a.scope is b.scope or (not a.exact and a.scope.isAncestorOf(b.scope)))
        return holds(self, other) or holds(other, self)


def _scopes(context: Qt.ShortcutContext, widgets: list[QWidget]) -> list[tuple[QWidget, bool]]:
    if context in (Qt.ShortcutContext.WindowShortcut, Qt.ShortcutContext.ApplicationShortcut):
        return list({id(w.window()): (w.window(), False) for w in widgets}.values())
    return [(w, context == Qt.ShortcutContext.WidgetShortcut) for w in widgets]


def bindings(window: QWidget) -> list[Binding]:
    """Every key bound in ``window`` by an action or a shortcut, read from the objects themselves."""
    found: list[Binding] = []
    for action in window.findChildren(QAction):
        # a menu's action is live through the window the menu belongs to
        widgets = [o for o in action.associatedObjects() if isinstance(o, QWidget) and not isinstance(o, QMenu)]
        widgets = widgets or [window]
        what = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        for scope, exact in _scopes(action.shortcutContext(), widgets):
            found += [Binding(s, what, action, scope, exact) for s in action.shortcuts()]
    for made in window.findChildren(QShortcut):
        parent = made.parent()
        if isinstance(parent, QWidget):
            for scope, exact in _scopes(made.context(), [parent]):
                found += [Binding(s, made.whatsThis(), made, scope, exact) for s in made.keys()]
    return found


def clashes(window: QWidget) -> list[tuple[Binding, Binding]]:
    """Pairs of bindings of one key sequence that could be live at once (Qt then runs neither)."""
    every = bindings(window)
    return [(a, b) for i, a in enumerate(every) for b in every[i + 1:]
            if a.sequence == b.sequence and a.overlaps(b)]
