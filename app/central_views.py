"""The window's central views by title, each in a tab; a view added ``later`` is built when needed.

The charts import pyqtgraph, the explorer tiktoken and the quiz its question packs: built with the
window, they would hold back its first paint by most of a second. Added ``later``, such a view has a
blank stand-in tab until its tab is chosen, ``views[title]`` asks for it, or ``build_later()``
(which the window runs once it shows) builds the views left, one per turn of the event loop so no
pause is long. The real view then takes the stand-in's place in the same tab, with no signal from
the tab widget: nothing moved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Callable, Iterator

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QTabWidget, QWidget


class Views(Mapping):
    def __init__(self, tabs: QTabWidget, build: Callable[[Callable], QWidget], built: Callable[[QWidget], None]):
        """``build(factory)`` makes a view; ``built(view)`` hears of each view once it exists."""
        self.tabs = tabs
        self._build = build
        self._built_hook = built
        self._titles: list[str] = []
        self._views: dict[str, QWidget] = {}
        self._later: dict[str, tuple[Callable, QWidget]] = {}
        # first of the tab widget's listeners: a chosen tab holds its view before any other looks at it
        tabs.currentChanged.connect(self._on_tab_chosen)

    def add(self, title: str, factory: Callable, later: bool = False) -> QWidget | None:
        self._titles.append(title)
        if later:
            stand_in = QWidget()
            self._later[title] = (factory, stand_in)
            self.tabs.addTab(stand_in, title)
            return None
        view = self._views[title] = self._build(factory)
        self.tabs.addTab(view, title)
        self._built_hook(view)
        return view

    def built(self, title: str) -> bool:
        return title in self._views

    @property
    def waiting(self) -> bool:
        return bool(self._later)

    def build_later(self) -> None:
        """Build one view still waiting, then the next on the event loop's next turn."""
        if self._later:
            self[next(iter(self._later))]
            QTimer.singleShot(0, self.tabs, self.build_later)

    def _on_tab_chosen(self, index: int) -> None:
        chosen = self.tabs.widget(index)
        title = next((t for t, (_f, stand_in) in self._later.items() if stand_in is chosen), None)
        if title is not None:
            self[title]

    def _take_place(self, title: str) -> QWidget:
        factory, stand_in = self._later.pop(title)
        view = self._views[title] = self._build(factory)
        tabs = self.tabs
        index, current = tabs.indexOf(stand_in), tabs.currentIndex()
        blocked = tabs.blockSignals(True)
        tabs.removeTab(index)
        tabs.insertTab(index, view, title)
        tabs.setCurrentIndex(current)
        tabs.blockSignals(blocked)
        stand_in.deleteLater()
        self._built_hook(view)
        return view

    def __getitem__(self, title: str) -> QWidget:
        if title in self._views:
            return self._views[title]
        if title not in self._later:
            raise KeyError(title)
        return self._take_place(title)

    def __contains__(self, title: object) -> bool:
        return title in self._titles

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._titles))

    def __len__(self) -> int:
        return len(self._titles)
