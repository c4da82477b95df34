"""Help > Keyboard shortcuts: every key of the window, read from its actions and shortcuts.

The list is made from what is bound (``widgets.shortcuts.bindings``) at the moment it opens, with
every view built, so a key added to an action shows without anyone writing it here. An action in
a menu is listed under the menu; a view's own shortcut under the view or panel it lives in. The
classroom's keys come from the mode's own list, the one its "?" overlay shows.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QDockWidget, QMenu, QStackedWidget, QTabWidget, QTextBrowser, QVBoxLayout, QWidget,
)

from widgets.shortcuts import Binding, bindings

Rows = list[tuple[str, str]]  # (keys, what they do)


def _place(widget: QWidget) -> str:
    """The panel or view a widget lives in, by the title a person sees (the outermost: a view may
    hold tabs of its own)."""
    place = "Window"
    w: QWidget | None = widget
    while w is not None:
        parent = w.parentWidget()
        if isinstance(w, QDockWidget):
            place = w.windowTitle()
        elif isinstance(parent, QStackedWidget) and isinstance(tabs := parent.parentWidget(), QTabWidget):
            place = tabs.tabText(tabs.indexOf(w)).replace("&", "")
        w = parent
    return place


def _menu_of(binding: Binding, window) -> str | None:
    menus = [o for o in getattr(binding.owner, "associatedObjects", lambda: [])() if isinstance(o, QMenu)]
    titles = {a.menu(): a.text().replace("&", "") for a in window.menuBar().actions() if a.menu() is not None}
    return next((titles[m] for m in menus if m in titles), None)


def shortcut_sections(window) -> list[tuple[str, Rows]]:
    """The window's keys by menu, then by view, then the classroom's: (section title, rows)."""
    for title in window.views:
        window.views[title]  # a view built later brings its own keys
    keys: dict[tuple[str, int], list[str]] = {}
    what: dict[tuple[str, int], str] = {}
    for b in bindings(window):
        section = _menu_of(b, window) or _place(b.scope)
        slot = (section, id(b.owner))
        if b.keys not in keys.setdefault(slot, []):
            keys[slot].append(b.keys)
        what[slot] = b.what
    sections: dict[str, Rows] = {}
    for slot, found in keys.items():
        rows, row = sections.setdefault(slot[0], []), ("  or  ".join(found), what[slot])
        if row not in rows:  # a view with two panes of tokens copies from each with the same keys
            rows.append(row)
    menus = [a.text().replace("&", "") for a in window.menuBar().actions() if a.menu() is not None]
    # the menus in the menu bar's order, then the views and panels
    listed = sorted(sections.items(), key=lambda item: menus.index(item[0]) if item[0] in menus else len(menus))
    merged: list[tuple[str, Rows]] = []
    for title, rows in listed:
        same = next((i for i, (_t, r) in enumerate(merged) if r == rows), None)
        if same is None:
            merged.append((title, rows))
        else:  # views whose keys are the same keys (copying tokens) share one section
            merged[same] = (f"{merged[same][0]} and {title}", rows)
    merged.append(("Classroom mode (F5)", window.classroom.key_list()))
    return merged


def _section_html(title: str, rows: Rows) -> str:
    # the lists part alternatives with two spaces, which HTML would fold into one
    cell = lambda text: escape(text).replace("  ", "&nbsp; ")  # noqa: E731
    body = "".join(f"<tr><td width='42%' style='padding-right: 12px'><b>{cell(keys)}</b></td><td>{cell(what)}</td></tr>"
                   for keys, what in rows)
    return (f"<h3 style='margin-top: 8px; margin-bottom: 2px'>{escape(title)}</h3>"
            f"<table width='100%' cellspacing='0' cellpadding='2'>{body}</table>")


def shortcuts_html(sections: list[tuple[str, Rows]]) -> str:
    """The sections in two columns, split where the taller column is shortest."""
    # a title takes about two rows' height, a row one line more for each time its text wraps
    sizes = [2 + sum(1 + max(len(keys) // 24, len(what) // 45) for keys, what in rows) for _title, rows in sections]
    # of two splits as even, the one with more on the left: the right column ends with the longest rows
    split = min(range(1, len(sections) + 1), key=lambda i: (max(sum(sizes[:i]), sum(sizes[i:])), -i))
    columns = ["".join(_section_html(t, r) for t, r in part) for part in (sections[:split], sections[split:])]
    return ("<table width='100%' cellspacing='0'><tr>"
            + "".join(f"<td width='50%' valign='top' style='padding-right: 24px'>{c}</td>" for c in columns)
            + "</tr></table>")


class ShortcutList(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.setWindowTitle("Keyboard shortcuts — BPE Lab")
        self.browser = QTextBrowser()
        self.browser.setObjectName("shortcutList")
        self.browser.setHtml(shortcuts_html(shortcut_sections(window)))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.resize(720, 640)


def show_shortcuts(window) -> ShortcutList:
    dialog = ShortcutList(window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
