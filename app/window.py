"""The main window: the session's panels around a central area of views, menus, look and drops.

The central area is a tab per view, built from ``CENTRAL_VIEWS``: a title and a factory that takes
the session. Adding the animated tiles, the charts, the quiz or the explorer is one line there (or
``window.add_view(title, factory)``). The views in ``LATER`` are built after the first paint
(``app.central_views``). The corpus, pairs, vocabulary and tokenize panels are dock
widgets around it; the timeline sits above the views.

The window builds and wires; it changes nothing itself. The panels' intents go to the session,
which owns the lesson, its training and its undo history; lesson files go through ``files``
(``app.lesson_open_save``), which asks the user through ``ask``, ``tell`` and ``choose_*`` here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Protocol, runtime_checkable

from PySide6.QtCore import QByteArray, QEvent, QSettings, QSize, Qt, QTimer, SignalInstance, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication, QDockWidget, QFileDialog, QLabel, QMainWindow, QMessageBox, QTabBar, QTabWidget, QVBoxLayout, QWidget,
)

from app.about import app_icon, show_about
from app.appearance import BASE_POINTS, THEMES, ZOOM_STEP, clamp_zoom, palette, style_sheet
from app.autosave import Autosave
from app import layout as dock_layout
from app.central_views import Views
from app.classroom import Classroom
from widgets.algorithms_view import add_compare_algorithms_action
from widgets.handout_dialog import add_handout_action
from app.lesson_open_save import KeepsProgress, LessonFiles
from app.session import Session
from app.vote_export import add_vote_export_action
from app.rules_part import show_rules_part
from app.shortcut_list import show_shortcuts
from widgets.tab_titles import TitlesFit
from app import help_pages
from app.help_window import show_guide
from engine.formats.lesson_file import SUFFIX
from widgets.corpus_panel import CorpusPanel
from widgets.pairs_panel import PairsPanel
from widgets.quiz.session_link import quiz_view
from widgets import shortcuts
from widgets.scrolling import scrolling
from widgets.tiles import TileView
from widgets.timeline import Timeline
from widgets.tokenize_panel import TokenizePanel
from widgets.vocab_panel import VocabPanel
from widgets.wheel_guard import guard_wheel
from widgets.worker import wait_for_workers

ViewFactory = Callable[[Session], QWidget]


@runtime_checkable
class AsksForTiles(Protocol):
    """A view that may ask for the tiles to be shown (the quiz's "show on the tiles")."""

    tiles_requested: SignalInstance  # with no arguments


@runtime_checkable
class HasOwnTabs(Protocol):
    """A view with tabs of its own (the explorer's pages), whose titles the window keeps whole."""

    tabs: QTabWidget


@runtime_checkable
class HidesAnswers(Protocol):
    """A view that asks a question the Pairs panel would answer (the quiz, about the live lesson)."""

    answer_pending_changed: SignalInstance  # carrying whether the answer is still to come


def _tiles(session: Session) -> QWidget:
    return TileView(session)


def _charts(session: Session) -> QWidget:
    from widgets.charts import ChartsView  # pyqtgraph and numpy: after the first paint

    return ChartsView(session)


def _quiz(session: Session) -> QWidget:
    return quiz_view(session)


def _explorer(session: Session) -> QWidget:
    from widgets.explorer import ExplorerView  # pyqtgraph and numpy: after the first paint

    return ExplorerView(session)


# the central tabs, in order; each view is one line, built from the session
CENTRAL_VIEWS: list[tuple[str, ViewFactory]] = [
    ("Tiles", _tiles),
    ("Charts", _charts),
    ("Quiz", _quiz),
    ("Explorer", _explorer),
]

# views whose imports (pyqtgraph, tiktoken, the quiz's questions) would delay the first paint: built after it
LATER = ("Charts", "Quiz", "Explorer")
# how long after the window shows the later views start to be built, one per turn of the event loop
LATER_MS = 150
# a resize that has stopped this long is the window's new size (dragging an edge resizes many times)
RESIZE_SETTLE_MS = 250

LESSON_FILTER = f"BPE Lab lessons (*{SUFFIX})"
OPEN_FILTER = (f"Lessons, texts and tokenizers (*{SUFFIX} *.txt *.md *.csv *.py *.json *.tiktoken merges.txt);;"
               f"{LESSON_FILTER};;All files (*)")


class MainWindow(QMainWindow):
    def __init__(
        self,
        path: str | None = None,
        session: Session | None = None,
        views: list[tuple[str, ViewFactory]] | None = None,
        app_settings: QSettings | None = None,
        autosave: Autosave | None = None,
        persist: bool = True,
        theme: str | None = None,
    ):
        super().__init__()
        app = QApplication.instance()
        assert isinstance(app, QApplication), "the window needs a QApplication"
        guard_wheel(app)  # before any panel is made: every one is polished through it
        self.setObjectName("mainWindow")
        self.setWindowIcon(app_icon())  # dialogs with the window as parent show it too
        self.session = session or Session()
        self.persist = persist
        self.app_settings = app_settings if app_settings is not None else (QSettings() if persist else None)
        autosave = autosave if autosave is not None else (Autosave() if persist else None)
        self.files = LessonFiles(self, self.session, self.app_settings, autosave,
                                 flush=lambda: self.corpus_panel.flush())
        self.theme, self.zoom = self._saved_look()
        if theme is not None:
            self.theme = theme if theme in THEMES else "light"
        # the palette is in place before any view is built: views that read their colours once
        # when they are made (before they have a parent) get the right ones
        self._app_palette = QApplication.palette()
        QApplication.setPalette(palette(self.theme))
        self.setPalette(palette(self.theme))

        self._build_central(views if views is not None else CENTRAL_VIEWS)
        self._build_docks()
        self._build_actions()
        self._build_menus()
        self._build_status_bar(autosave)
        self.classroom = Classroom(self)  # F5: the projector mode
        self.vote_export_action = add_vote_export_action(self, self.classroom.class_vote, self.quit_action)
        self.handout_action = add_handout_action(self, self.file_menu, self.quit_action)
        self.setAcceptDrops(True)
        self.resize(1600, 1000)
        self._restore_settings()
        self.apply_appearance()
        self.session.dirty_changed.connect(self._update_title)
        self.files.path_changed.connect(self._update_title)
        self._update_title()
        if path:
            self.files.open_path(path)

    # -- building --------------------------------------------------------------------------------

    def _build_central(self, views) -> None:
        self.timeline = Timeline(self.session)
        self.timeline.cancel_requested.connect(self.session.request_cancel)
        self.timeline.move_cancel_requested.connect(self.session.request_move_cancel)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("views")
        self.tabs.setDocumentMode(True)
        # the views' titles whole at any zoom: smaller where the central area is narrow (the sheets' tab type is 1.25 ×)
        # the views' tab titles, and those of a view with tabs of its own (the explorer), kept whole
        self.tab_titles = [TitlesFit(self.tabs, BASE_POINTS * self.zoom * 1.25)]
        self.views = Views(self.tabs, lambda factory: factory(self.session), self._on_view_built)
        for title, factory in views:
            self.add_view(title, factory, later=title in LATER)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.timeline)
        layout.addWidget(self.tabs, 1)
        # a view narrower than its controls clips them rather than pushing the window off a small screen
        self.tabs.setMinimumSize(dock_layout.CENTRAL_MINIMUM)
        self.setCentralWidget(central)

    def add_view(self, title: str, factory: ViewFactory, later: bool = False) -> QWidget | None:
        """Add a tab to the central area: ``factory(session)`` builds the view, now or (``later``)
        after the window shows; a view built later gets the progress it keeps (``KeepsProgress``)
        from the lesson file opened before it."""
        return self.views.add(title, factory, later)

    def _on_view_built(self, view: QWidget) -> None:
        dock_layout.follow_zoom(view, self.zoom)  # views are made at actual size
        if isinstance(view, HasOwnTabs):
            self.tab_titles.append(TitlesFit(view.tabs, BASE_POINTS * self.zoom * 1.25))
        if isinstance(view, KeepsProgress):
            self.files.keep_progress_of(view)
        if isinstance(view, AsksForTiles):
            view.tiles_requested.connect(lambda: self.show_view("Tiles"))
        if isinstance(view, HidesAnswers):
            view.answer_pending_changed.connect(self.pairs_panel.set_answer_hidden)

    def show_view(self, title: str) -> None:
        if title in self.views:
            self.tabs.setCurrentWidget(self.views[title])

    def _build_status_bar(self, autosave: Autosave | None) -> None:
        # the bar appears only while there is something the user must know: autosave has failed
        self.autosave_problem = QLabel()
        self.autosave_problem.setObjectName("autosaveProblem")
        self.autosave_problem.setWordWrap(True)
        bar = self.statusBar()
        bar.addPermanentWidget(self.autosave_problem, 1)
        bar.hide()
        if autosave is not None:
            autosave.failed.connect(self._on_autosave_failed)
            autosave.written.connect(self._on_autosave_written)

    def _dock(self, title: str, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(scrolling(widget))  # a short dock scrolls its panel, never crushes it
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        session = self.session
        self.corpus_panel = CorpusPanel(session)
        self.corpus_panel.corpus_requested.connect(session.request_corpus)
        self.corpus_panel.settings_requested.connect(session.request_settings)
        self.corpus_panel.preset_requested.connect(session.request_preset)
        self.corpus_panel.large_text_requested.connect(session.request_large_text)
        self.corpus_panel.open_requested.connect(self.files.open_dialog)
        self.pairs_panel = PairsPanel(session)
        self.vocab_panel = VocabPanel(session)
        self.vocab_panel.export_requested.connect(self.export_vocab)
        self.tokenize_panel = TokenizePanel(session)
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                               Qt.DockWidgetArea.BottomDockWidgetArea)
        self.corpus_dock = self._dock("Corpus", "corpusDock", self.corpus_panel, left)
        self.pairs_dock = self._dock("Pairs", "pairsDock", self.pairs_panel, right)
        self.vocab_dock = self._dock("Vocabulary", "vocabularyDock", self.vocab_panel, right)
        self.tokenize_dock = self._dock("Tokenize", "tokenizeDock", self.tokenize_panel, bottom)
        self.compare_dock: QDockWidget | None = None  # made by the first compare (File > Compare merges…)
        self._layout_restored = False
        self._fit_on_show = False
        self.dock_arrangement = "side by side"
        self._given_width: int | None = None  # a width sizing the panels took the window past
        self._resized = QTimer(self, singleShot=True, interval=RESIZE_SETTLE_MS)
        self._resized.timeout.connect(self._follow_size)

    @property
    def docks(self) -> list[QDockWidget]:
        return [self.corpus_dock, self.pairs_dock, self.vocab_dock, self.tokenize_dock]

    def arrange_docks(self, afresh: bool = True) -> None:
        """The default arrangement for this width and zoom (``app.layout``): the views keep 60%.
        Not ``afresh``, panels already arranged so keep their places and are only sized."""
        current = None if afresh else self.dock_arrangement
        corpus, pairs, vocab, tokenize = self.docks
        width = self.width()
        self.dock_arrangement = dock_layout.arrange(self, corpus, pairs, vocab, tokenize, BASE_POINTS * self.zoom,
                                                    current)
        self._keep_width(width)

    def _keep_width(self, width: int) -> None:
        """Sizing the panels for a large zoom may widen the window past the width it had (its
        screen's, often): it goes back to that width where its minimum allows, the panels giving way."""
        whole_screen = Qt.WindowState.WindowFullScreen | Qt.WindowState.WindowMaximized
        if self.width() > width and not self.windowState() & whole_screen:
            # before the first layout pass the minimum can still be too wide: tried again once sized
            self._given_width = width
            self.resize(max(width, self.minimumSizeHint().width()), self.height())
        if self._given_width is not None and self.width() <= self._given_width:
            self._given_width = None

    def size_docks(self) -> None:
        corpus, pairs, vocab, tokenize = self.docks
        dock_layout.size_docks(self, self.dock_arrangement, corpus, pairs, vocab, tokenize, BASE_POINTS * self.zoom)
        if self._given_width is not None:
            self._keep_width(self._given_width)

    def layout_crushed(self) -> bool:
        return dock_layout.crushed(self.docks, BASE_POINTS * self.zoom)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._fit_on_show:
            self._fit_on_show = False
            dock_layout.fit_to_screen(self, self.docks)  # again, now that the frame's size is known
        if not self._layout_restored:
            self._layout_restored = True
            self.arrange_docks()
            # once more after the first layout pass has settled the central widget's size
            QTimer.singleShot(0, self, self.size_docks)  # the window as context: no call after it is gone
        else:
            # a saved layout that no longer fits (another screen, another zoom) gives way to the default
            QTimer.singleShot(0, self, self._drop_crushed_layout)
        if self.views.waiting:
            QTimer.singleShot(LATER_MS, self, self.views.build_later)

    def _drop_crushed_layout(self) -> None:
        if self.layout_crushed():
            self.arrange_docks()

    def restoreState(self, state, version: int | None = 0) -> bool:  # noqa: N802 (Qt's name)
        """Qt's, without the tab bars of the groups it replaced (it leaves them over the new ones,
        where they take the clicks): the classroom and the saved settings restore through here."""
        restored = super().restoreState(state, version)
        dock_layout.drop_stale_tab_bars(self)
        return restored

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if self._layout_restored:
            self._resized.start()  # once the user stops dragging the edge

    def _follow_size(self) -> None:
        """Another screen or a resize past the point where the panels' arrangement changes: change it."""
        if not self.isVisible() or self.classroom.active:
            return  # the classroom hides the panels and puts them back itself
        points = BASE_POINTS * self.zoom
        if dock_layout.wanted_arrangement(self, self.corpus_dock, self.pairs_dock, self.vocab_dock, points) \
                != self.dock_arrangement:
            self.arrange_docks()

    def event(self, event) -> bool:
        # Qt makes a tab bar for every new group of tabbed panels, also when the user drags one
        if event.type() == QEvent.Type.ChildPolished and isinstance(event.child(), QTabBar) \
                and event.child().parent() is self:
            dock_layout.keep_titles_whole(event.child())
        return super().event(event)

    def _action(self, text: str, slot, keys: str | None = None, tip: str = "") -> QAction:
        """An action of the window; ``keys`` names its shortcut in ``widgets.shortcuts.KEYS``."""
        action = QAction(text, self)
        if keys is not None:
            shortcuts.bind(action, keys)
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        s, files = self.session, self.files
        self.new_action = self._action("&New", files.new_lesson, "new")
        self.open_action = self._action("&Open…", files.open_dialog, "open")
        self.save_action = self._action("&Save", files.save, "save")
        self.save_as_action = self._action("Save &As…", files.save_as, "save as")
        self.quit_action = self._action("&Quit", self.close, "quit")
        self.export_action = self._action("&Export vocabulary…", self.export_vocab, "export",
                                          "Write the vocabulary for tokenizers, GPT-2 tools, tiktoken or a spreadsheet")
        self.compare_action = self._action("&Compare merges…", self.compare_merges, tip=(
            "Walk someone's merge list beside this lesson: where they part, and why"))
        self.undo_action = shortcuts.bind(s.undo_stack.createUndoAction(self, "&Undo"), "undo")
        self.redo_action = shortcuts.bind(s.undo_stack.createRedoAction(self, "&Redo"), "redo")
        self.addActions([self.undo_action, self.redo_action])
        self.next_action = self._action("Step &forward", s.request_next, "next step")
        self.previous_action = self._action("Step &back", s.request_previous, "previous step")
        self.play_action = self._action("&Play / pause", self.timeline.toggle_play, "play")
        self.start_action = self._action("Back to the &start", lambda: s.request_step(0), "start")
        self.end_action = self._action("Go to the &end", lambda: s.request_step(s.last_step), "end")
        self.go_to_action = self._action("&Go to step…", self.timeline.step_field.focus_for_typing, "go to step")
        self.zoom_in_action = self._action("Zoom &in", lambda: self.set_zoom(self.zoom * ZOOM_STEP), "zoom in")
        self.zoom_out_action = self._action("Zoom &out", lambda: self.set_zoom(self.zoom / ZOOM_STEP), "zoom out")
        self.zoom_reset_action = self._action("&Actual size", lambda: self.set_zoom(1.0), "actual size")
        self.dark_action: QAction = self._action(
            "&Dark theme", lambda: self.set_theme("dark" if self.dark_action.isChecked() else "light"))
        self.dark_action.setCheckable(True)
        self.shortcuts_action = self._action("&Keyboard shortcuts", lambda: show_shortcuts(self), "shortcuts",
                                             "Every key of the window, of each view and of classroom mode")

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addActions([self.save_action, self.save_as_action])
        file_menu.addSeparator()
        file_menu.addAction(self.export_action)
        file_menu.addAction(self.compare_action)
        file_menu.addAction(self.quit_action)
        edit_menu = bar.addMenu("&Edit")
        edit_menu.addActions([self.undo_action, self.redo_action])
        lesson_menu = bar.addMenu("&Lesson")
        lesson_menu.addActions([self.next_action, self.previous_action, self.play_action, self.start_action, self.end_action,
                                self.go_to_action])
        self.rules_part_action = lesson_menu.addAction("Where the tie &rules part…", lambda: show_rules_part(self))
        self.rules_part_action.setStatusTip(
            "Train this lesson under every tie rule: the first step where each two rules part, and the tie there")
        self.compare_algorithms_action = add_compare_algorithms_action(self, lesson_menu)
        view_menu = bar.addMenu("&View")
        view_menu.addActions([self.zoom_in_action, self.zoom_out_action, self.zoom_reset_action])
        view_menu.addSeparator()
        view_menu.addAction(self.dark_action)
        view_menu.addSeparator()
        for dock in (self.corpus_dock, self.pairs_dock, self.vocab_dock, self.tokenize_dock):
            view_menu.addAction(dock.toggleViewAction())
        help_menu = bar.addMenu("&Help")
        self.quick_start_action = shortcuts.bind(
            help_menu.addAction("&Quick start", lambda: show_guide(self, help_pages.QUICK_START)), "quick start")
        self.quick_start_action.setStatusTip("The first five minutes of a lesson")
        self.addAction(self.quick_start_action)  # its key live wherever the focus is in the window
        self.guide_action = help_menu.addAction("&User guide", lambda: show_guide(self, help_pages.INDEX))
        self.guide_action.setStatusTip("Every panel, view, file format and command, offline")
        help_menu.addAction(self.shortcuts_action)
        self.about_action = help_menu.addAction("&About BPE Lab", lambda: show_about(self))

    def _compare_dock(self) -> QDockWidget:
        """The Compare panel's dock, made the first time a compare runs."""
        if self.compare_dock is None:
            from app.compare_merges import merge_comparison
            from widgets.compare_panel import ComparePanel

            self.compare_panel = ComparePanel()
            self.comparison = merge_comparison(self)
            self.compare_panel.cancel_requested.connect(self.comparison.cancel)
            self.compare_panel.step_requested.connect(self._show_parting)
            self.comparison.progressed.connect(lambda stage: self.compare_panel.show_running(self._compared, stage))
            self.comparison.done.connect(self._on_compared)
            self.comparison.failed.connect(self._on_compare_failed)
            self.comparison.cancelled.connect(self.compare_panel.show_cancelled)
            self.session.lesson_changed.connect(self._on_lesson_changed_under_compare)
            self.compare_dock = self._dock("Compare", "compareDock", self.compare_panel,
                                           Qt.DockWidgetArea.BottomDockWidgetArea)
            # a tab beside the Tokenize panel, wherever it is: the views keep their room
            self.tabifyDockWidget(self.tokenize_dock, self.compare_dock)
        return self.compare_dock

    def compare_merges(self, path: str | None = None) -> None:
        """File > Compare merges…: a merge file walked beside the lesson on screen, in a worker."""
        path = path if path is not None else self.choose_merge_path()
        if not path:
            return
        dock = self._compare_dock()
        dock.show()
        dock.raise_()
        self._compared = path
        self.timeline.mark_parting(None)
        self._mark_other_pair(None)
        self.compare_panel.show_running(path, "Starting…")
        lesson = self.session.lesson
        self.comparison.start(path, lesson.text, lesson.word_counts, lesson.settings)

    def _on_compared(self, done) -> None:
        self.compare_panel.show_report(done.report, done.settings)
        first = done.report.first
        self.timeline.mark_parting(None if first is None else first.step)
        self._mark_other_pair(None if first is None else (first.step, first.theirs))

    def _mark_other_pair(self, other) -> None:
        tiles = self.views["Tiles"] if "Tiles" in self.views else None
        if isinstance(tiles, TileView):
            step, pair = other if other is not None else (0, None)
            tiles.mark_other_pair(step, pair)

    def _on_lesson_changed_under_compare(self, _lesson) -> None:
        # its steps are another lesson's: the marks go, the report stays to read
        self.timeline.mark_parting(None)
        self._mark_other_pair(None)
        self.compare_panel.show_stale()

    def _on_compare_failed(self, reason: str) -> None:
        self.compare_panel.show_failure(self._compared, reason)

    def _show_parting(self, step: int) -> None:
        # the state before the parting merge: the tiles frame the lesson's merge as the next one
        self.session.request_step(step - 1)
        self.show_view("Tiles")

    def export_vocab(self):
        """File > Export vocabulary…: the dialog, window-modal (the lesson holds still while it exports)."""
        from widgets.export_dialog import ExportDialog  # 25 ms the launch need not pay for a dialog

        dialog = ExportDialog(self.session, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    # -- asking the user (tests replace these) ----------------------------------------------------

    def ask(self, title: str, text: str, buttons, default):
        return QMessageBox.question(self, title, text, buttons, default)

    def tell(self, text: str) -> None:
        QMessageBox.warning(self, "BPE Lab", text)

    def choose_open_path(self) -> str:
        return QFileDialog.getOpenFileName(self, "Open a lesson or a text", self.files.folder(), OPEN_FILTER)[0]

    def choose_merge_path(self) -> str:
        return QFileDialog.getOpenFileName(self, "Compare a merge list with this lesson", self.files.folder(),
                                           "Merge lists (*.txt *.json *.model *.tiktoken);;All files (*)")[0]

    def choose_save_path(self) -> str:
        path = self.files.path
        suggested = str(path) if path else str(Path(self.files.folder()) / f"lesson{SUFFIX}")
        return QFileDialog.getSaveFileName(self, "Save the lesson", suggested, LESSON_FILTER)[0]

    # -- what the window shows of the lesson's state ------------------------------------------------

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.files.recent_files()
        if not recent:
            self.recent_menu.addAction("(none yet)").setEnabled(False)
        for r in recent:
            action = self.recent_menu.addAction(Path(r).name)
            action.setToolTip(r)
            action.triggered.connect(lambda _c=False, r=r: self.files.open_after_asking(r))

    @Slot(str)
    def _on_autosave_failed(self, message: str) -> None:
        self.autosave_problem.setText(f"{message}. Your work is not being autosaved: "
                                      "save it yourself (File > Save) until this is fixed.")
        self.statusBar().show()

    @Slot()
    def _on_autosave_written(self) -> None:
        self.autosave_problem.clear()
        self.statusBar().hide()

    @Slot()
    def _update_title(self) -> None:
        try:
            self.setWindowTitle(f"{self.files.title()}{' •' if self.session.dirty else ''} — BPE Lab")
        except RuntimeError:
            pass  # the session announces itself clean while the window is being destroyed

    # -- look -------------------------------------------------------------------------------------

    def set_theme(self, theme: str) -> None:
        self.theme = theme if theme in THEMES else "light"
        self.apply_appearance()

    def set_zoom(self, zoom: float) -> None:
        old, self.zoom = self.zoom, clamp_zoom(zoom)
        for title in self.views:
            if self.views.built(title):  # a view built later starts at the zoom of its day
                dock_layout.follow_zoom(self.views[title], self.zoom / old)
        self.apply_appearance()
        if self.isVisible():
            # larger type needs wider docks, perhaps tabbed; smaller type gives the room back to the views
            self.arrange_docks(afresh=False)
            # once more when the new type has reached every panel and the layout has settled
            QTimer.singleShot(0, self, self.size_docks)

    def apply_appearance(self) -> None:
        self.dark_action.setChecked(self.theme == "dark")
        QApplication.setPalette(palette(self.theme))
        self.setPalette(palette(self.theme))
        self.setStyleSheet(style_sheet(self.theme, self.zoom) + dock_layout.dock_tab_style(BASE_POINTS * self.zoom))
        dock_layout.apply_minimums(self.docks, BASE_POINTS * self.zoom)
        for titles in self.tab_titles:
            titles.set_points(BASE_POINTS * self.zoom * 1.25)

    # -- drag and drop ------------------------------------------------------------------------------

    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        files = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if files:
            event.acceptProposedAction()
            self.files.open_after_asking(files[0])

    # -- settings that persist ---------------------------------------------------------------------

    def _restore_settings(self) -> None:
        s = self.app_settings
        if s is None:
            return
        geometry = s.value("window/geometry")
        restored = isinstance(geometry, QByteArray) and self.restoreGeometry(geometry)
        state = s.value("window/state")
        if isinstance(state, QByteArray) and self.restoreState(state):
            self._layout_restored = True
            self.dock_arrangement = "tabbed" if self.tabifiedDockWidgets(self.pairs_dock) else "side by side"
        self._fit_on_show = restored
        if restored:
            dock_layout.fit_to_screen(self, self.docks)
        saved = s.value("window/size")
        if isinstance(saved, QSize) and (saved.width() > self.width() or saved.height() > self.height()):
            # the docks were sized for a larger window: the default arrangement for this one, at first show
            self._layout_restored = False
        if not self._layout_restored:
            # arranged for this width before the window shows: side by side at a large zoom, the
            # panels' minimums would hold the window wider than its screen
            self.arrange_docks()

    def _saved_look(self) -> tuple[str, float]:
        s = self.app_settings
        if s is None:
            return "light", 1.0
        theme = str(s.value("theme", "light"))
        try:
            # QSettings gives text back from its file, the number itself within one run
            zoom = clamp_zoom(float(str(s.value("zoom", 1.0))))
        except (TypeError, ValueError):
            zoom = 1.0
        return (theme if theme in THEMES else "light"), zoom

    def save_settings(self) -> None:
        s = self.app_settings
        if s is None:
            return
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/size", self.size())  # the size the dock layout was made for
        if self.layout_crushed():
            s.remove("window/state")  # the next start lays the docks out afresh
        else:
            s.setValue("window/state", self.saveState())
        s.setValue("theme", self.theme)
        s.setValue("zoom", self.zoom)
        s.sync()

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if not self.files.maybe_save():
            event.ignore()
            return
        self.timeline.pause()
        self.session.close()
        self.save_settings()
        self.files.close()
        # the explorer's loading, a quiz question, a held-out count: nothing outlives the window
        wait_for_workers(stop=True)
        QApplication.setPalette(self._app_palette)
        event.accept()
