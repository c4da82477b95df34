"""The main window: the session's panels around a central area of views, menus, files, undo.

The central area is a tab per view, built from ``CENTRAL_VIEWS``: a title and a factory that takes
the session. Adding the animated tiles, the charts, the quiz or the explorer is one line there (or
``window.add_view(title, factory)``). The corpus, pairs, vocabulary and tokenize panels are dock
widgets around it; the timeline sits above the views.

The window is the controller: it turns the panels' intents into undoable lesson changes, trains
through the runner (in a worker for large texts) and hands finished lessons to the session.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QApplication, QDockWidget, QFileDialog, QMainWindow, QMessageBox, QTabWidget, QVBoxLayout, QWidget,
)

from app.appearance import THEMES, ZOOM_STEP, clamp_zoom, palette, style_sheet
from app.autosave import INTERVAL_MS, LARGE as AUTOSAVE_LARGE, Autosave
from app.classroom import Classroom
from app.handout_dialog import add_handout_action
from app.session import Session
from app.undo import ChangeLesson
from app.workers import TrainingRunner
from engine.errors import BpeLabError
from engine.files import read_text
from engine.formats.lesson_file import SUFFIX, LessonFile, load_lesson, save_lesson
from resources.presets import preset
from widgets.corpus_panel import CorpusPanel
from widgets.pairs_panel import PairsPanel
from widgets.timeline import Timeline
from widgets.tokenize_panel import TokenizePanel
from widgets.vocabulary_panel import VocabularyPanel

ViewFactory = Callable[[Session], QWidget]



def _tiles(session: Session) -> QWidget:
    from widgets.tiles import TileView

    return TileView(session)


def _charts(session: Session) -> QWidget:
    from widgets.charts import ChartsView

    return ChartsView(session)


def _quiz(session: Session) -> QWidget:
    from widgets.quiz.session_link import quiz_view

    return quiz_view(session)


def _explorer(session: Session) -> QWidget:
    from widgets.explorer import ExplorerView

    return ExplorerView(session)


# the central tabs, in order; each view is one line, built from the session
CENTRAL_VIEWS: list[tuple[str, ViewFactory]] = [
    ("Tiles", _tiles),
    ("Charts", _charts),
    ("Quiz", _quiz),
    ("Explorer", _explorer),
]

MAX_RECENT = 8
# a text longer than this reaches the corpus editor a moment after its lesson is shown
LONG_TEXT = 100_000
EDITOR_DELAY_MS = 60
LESSON_FILTER = f"BPE Lab lessons (*{SUFFIX})"
OPEN_FILTER = f"Lessons and texts (*{SUFFIX} *.txt *.md *.csv *.py *.json);;{LESSON_FILTER};;All files (*)"


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
        self.setObjectName("mainWindow")
        self.session = session or Session()
        self.persist = persist
        self.app_settings = app_settings if app_settings is not None else (QSettings() if persist else None)
        self.autosave = autosave if autosave is not None else (Autosave() if persist else None)
        self.path: Path | None = None
        self.source: LessonFile = self.session.lesson.to_file()
        self._pending_open: tuple[Path | None, bool] | None = None
        self.undo_stack = QUndoStack(self)
        self._side_changes = False
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.runner = TrainingRunner(self)
        self.runner.started.connect(self._on_training_started)
        self.runner.progressed.connect(self.session.training_progressed)
        self.runner.done.connect(self._on_training_done)
        self.runner.failed.connect(self._on_training_failed)
        self.runner.cancelled.connect(self._on_training_cancelled)
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
        self.classroom = Classroom(self)  # F5: the projector mode
        self._wire_views()
        self.handout_action = add_handout_action(self)
        self.setAcceptDrops(True)
        self.resize(1600, 1000)
        self._restore_settings()
        self.apply_appearance()
        self._update_title()

        self._autosave_timer = QTimer(self)
        self._autosave_timer.setInterval(INTERVAL_MS)
        self._autosave_timer.timeout.connect(self.write_autosave)
        if self.autosave is not None:
            self._autosave_timer.start()
        if path:
            self.open_path(path)

    # -- building --------------------------------------------------------------------------------

    def _build_central(self, views) -> None:
        self.timeline = Timeline(self.session)
        self.timeline.cancel_requested.connect(self.runner.cancel)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("views")
        self.tabs.setDocumentMode(True)
        self.views: dict[str, QWidget] = {}
        for title, factory in views:
            self.add_view(title, factory)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.timeline)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

    def add_view(self, title: str, factory: ViewFactory) -> QWidget:
        """Add a tab to the central area: ``factory(session)`` builds the view."""
        view = factory(self.session)
        self.views[title] = view
        self.tabs.addTab(view, title)
        return view

    def _dock(self, title: str, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        session = self.session
        self.corpus_panel = CorpusPanel(session)
        self.corpus_panel.corpus_edited.connect(self._on_corpus_edited)
        self.corpus_panel.settings_edited.connect(self._on_settings_edited)
        self.corpus_panel.preset_requested.connect(self.load_preset)
        self.corpus_panel.open_requested.connect(self.open_dialog)
        self.corpus_panel.large_text_pasted.connect(self._on_large_paste)
        self.pairs_panel = PairsPanel(session)
        self.vocabulary_panel = VocabularyPanel(session)
        self.tokenize_panel = TokenizePanel(session)
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                               Qt.DockWidgetArea.BottomDockWidgetArea)
        self.corpus_dock = self._dock("Corpus", "corpusDock", self.corpus_panel, left)
        self.pairs_dock = self._dock("Pairs", "pairsDock", self.pairs_panel, right)
        self.vocabulary_dock = self._dock("Vocabulary and merges", "vocabularyDock", self.vocabulary_panel, right)
        self.tokenize_dock = self._dock("Tokenize", "tokenizeDock", self.tokenize_panel, bottom)
        self._layout_restored = False

    def _default_dock_sizes(self) -> None:
        # the central views get what is left: on a 1600-pixel projector about 650 pixels
        width = max(self.width(), 1000)
        self.resizeDocks([self.corpus_dock, self.pairs_dock], [int(width * 0.23), int(width * 0.30)],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.pairs_dock, self.vocabulary_dock], [1, 1], Qt.Orientation.Vertical)
        self.resizeDocks([self.tokenize_dock], [int(self.height() * 0.26)], Qt.Orientation.Vertical)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if not self._layout_restored:
            self._layout_restored = True
            self._default_dock_sizes()
            # once more after the first layout pass has settled the central widget's size
            QTimer.singleShot(0, self, self._default_dock_sizes)  # the window as context: no call after it is gone

    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            keys = shortcut if isinstance(shortcut, list) else [shortcut]
            action.setShortcuts([QKeySequence(k) for k in keys])
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        s = self.session
        K = QKeySequence.StandardKey
        self.new_action = self._action("&New", self.new_lesson, K.New)
        self.open_action = self._action("&Open…", self.open_dialog, K.Open)
        self.save_action = self._action("&Save", self.save, K.Save)
        self.save_as_action = self._action("Save &As…", self.save_as, K.SaveAs)
        self.quit_action = self._action("&Quit", self.close, K.Quit)
        self.undo_action = self.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts(QKeySequence.keyBindings(K.Undo))
        self.redo_action = self.undo_stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts(QKeySequence.keyBindings(K.Redo))
        self.addActions([self.undo_action, self.redo_action])
        self.next_action = self._action("Step &forward", s.request_next, Qt.Key.Key_Right)
        self.previous_action = self._action("Step &back", s.request_previous, Qt.Key.Key_Left)
        self.play_action = self._action("&Play / pause", self.timeline.toggle_play, Qt.Key.Key_Space)
        self.start_action = self._action("Back to the &start", lambda: s.request_step(0), Qt.Key.Key_Home)
        self.end_action = self._action("Go to the &end", lambda: s.request_step(s.last_step), Qt.Key.Key_End)
        self.zoom_in_action = self._action("Zoom &in", lambda: self.set_zoom(self.zoom * ZOOM_STEP),
                                           ["Ctrl+=", "Ctrl++", K.ZoomIn])
        self.zoom_out_action = self._action("Zoom &out", lambda: self.set_zoom(self.zoom / ZOOM_STEP), ["Ctrl+-", K.ZoomOut])
        self.zoom_reset_action = self._action("&Actual size", lambda: self.set_zoom(1.0), "Ctrl+0")
        self.dark_action = self._action("&Dark theme", lambda: self.set_theme("dark" if self.dark_action.isChecked() else "light"))
        self.dark_action.setCheckable(True)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_action, self.open_action])
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addActions([self.save_action, self.save_as_action])
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = bar.addMenu("&Edit")
        edit_menu.addActions([self.undo_action, self.redo_action])
        lesson_menu = bar.addMenu("&Lesson")
        lesson_menu.addActions([self.next_action, self.previous_action, self.play_action, self.start_action, self.end_action])
        view_menu = bar.addMenu("&View")
        view_menu.addActions([self.zoom_in_action, self.zoom_out_action, self.zoom_reset_action])
        view_menu.addSeparator()
        view_menu.addAction(self.dark_action)
        view_menu.addSeparator()
        for dock in (self.corpus_dock, self.pairs_dock, self.vocabulary_dock, self.tokenize_dock):
            view_menu.addAction(dock.toggleViewAction())

    # -- asking the user (tests replace these) ----------------------------------------------------

    def ask(self, title: str, text: str, buttons, default):
        return QMessageBox.question(self, title, text, buttons, default)

    def tell(self, text: str) -> None:
        QMessageBox.warning(self, "BPE Lab", text)

    def choose_open_path(self) -> str:
        return QFileDialog.getOpenFileName(self, "Open a lesson or a text", self._folder(), OPEN_FILTER)[0]

    def choose_save_path(self) -> str:
        suggested = str(self.path) if self.path else str(Path(self._folder()) / f"lesson{SUFFIX}")
        return QFileDialog.getSaveFileName(self, "Save the lesson", suggested, LESSON_FILTER)[0]

    def _folder(self) -> str:
        return str(self.path.parent) if self.path else str(Path.home())

    # -- lesson changes ---------------------------------------------------------------------------

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean() or self._side_changes

    def _wire_views(self) -> None:
        """What the central views tell the window: held-out text and quiz answers to save, play speed."""
        # changes that need no retraining (held-out text, quiz answers) are not undo steps, but
        # they are still unsaved work
        for view in self.views.values():
            edited = getattr(view, "held_out_edited", None)
            if edited is not None:
                edited.connect(self._on_held_out_edited)
            progressed = getattr(view, "progress_changed", None)
            if progressed is not None:
                progressed.connect(self._on_side_change)
            if hasattr(view, "set_merge_duration"):
                self.timeline.speed.currentIndexChanged.connect(lambda _index, v=view: self._follow_speed(v))
                self._follow_speed(view)

    def _follow_speed(self, view) -> None:
        # one merge fills at most two thirds of a step, so Play never outruns the tiles
        view.set_merge_duration(min(600, int(self.timeline._interval() * 2 / 3)))

    @Slot(str)
    def _on_held_out_edited(self, text: str) -> None:
        if text == self.source.held_out:
            return
        self.source = replace(self.source, held_out=text)
        self.session.lesson.held_out = text
        self._on_side_change()

    @Slot()
    def _on_side_change(self) -> None:
        self._side_changes = True
        self._update_title()

    def _current_file(self) -> LessonFile:
        """The lesson as it would be saved: the latest source at the current step."""
        lesson, source = self.session.lesson, self.source
        same = (lesson.text, lesson.word_counts, lesson.settings) == (source.text, source.word_counts, source.settings)
        quiz = self._quiz_view()
        progress = quiz.progress() if quiz is not None else source.quiz
        return replace(source, step=self.session.step if same else 0, quiz=progress)

    def _quiz_view(self):
        """The central view that keeps quiz progress for the lesson file, if there is one."""
        for view in self.views.values():
            if callable(getattr(view, "progress", None)) and callable(getattr(view, "restore_progress", None)):
                return view
        return None

    def _push(self, after: LessonFile, text: str) -> None:
        before = self._current_file()

        def key(f: LessonFile):
            return f.text, f.word_counts, f.settings, f.held_out

        if key(after) == key(before):
            return
        self.undo_stack.push(ChangeLesson(self._apply_source, before, after, text))

    def _apply_source(self, source: LessonFile) -> None:
        """Train a source and show it (undo and redo land here too)."""
        self.source = source
        self.corpus_panel.show_source(source)
        self._pending_open = None
        self.runner.start(source)

    @Slot(str, bool)
    def _on_corpus_edited(self, text: str, word_counts: bool) -> None:
        what = "Edit the training text" if word_counts == self.source.word_counts else "Switch the text mode"
        self._push(replace(self.source, text=text, word_counts=word_counts, step=0), what)

    @Slot(object)
    def _on_settings_edited(self, settings) -> None:
        self._push(replace(self.source, settings=settings, step=0), "Change the settings")

    @Slot(str)
    def _on_large_paste(self, text: str) -> None:
        self._push(replace(self.source, text=text, word_counts=False, step=0), "Paste a large text")

    def load_preset(self, key: str) -> None:
        p = preset(key)
        source = LessonFile(p.text(), p.word_counts, p.settings, 0, p.held_out(), self.source.quiz)
        self._push(source, f"Load the preset “{p.title}”")

    def load(self, source: LessonFile, path: Path | None = None, clean: bool = True, background: bool | None = None) -> None:
        """Replace the lesson (a file, New, a recovery): the current one stays until this one is trained."""
        self._pending_open = (path, clean)
        self.runner.start(source, background)

    @Slot()
    def _on_training_started(self) -> None:
        self.session.training = True
        self.session.training_started.emit()

    @Slot(object, object, object)
    def _on_training_done(self, lesson, state, source) -> None:
        self._end_training()
        self.session.set_lesson(lesson, source.step, state)
        if self._pending_open is not None:
            path, clean = self._pending_open
            self._pending_open = None
            self.source = source
            if len(source.text) > LONG_TEXT:
                # laying out a long text takes the editor a while: a moment later, so the window
                # answers between showing the lesson and showing its text (a zero delay would run
                # it in the same turn of the event loop as the lesson's first paint)
                QTimer.singleShot(EDITOR_DELAY_MS, lambda: self.source is source and self.corpus_panel.show_source(source))
            else:
                self.corpus_panel.show_source(source)
            quiz = self._quiz_view()
            if quiz is not None and source.quiz:
                quiz.restore_progress(source.quiz)
            self.undo_stack.clear()
            self._side_changes = False
            self.path = path
            if clean:
                self.undo_stack.setClean()
            else:
                # a recovered or imported lesson is saved nowhere yet, so closing must ask
                self.undo_stack.resetClean()
            if path is not None:
                self._remember_recent(path)
            self._update_title()

    @Slot(str, object)
    def _on_training_failed(self, message: str, source) -> None:
        self._end_training()
        if self._pending_open is not None:
            self._pending_open = None
            self.tell(f"The lesson could not be opened: {message}\n\nThe current lesson is unchanged.")
        else:
            self.corpus_panel.show_problem(f"{message} (the panels still show the lesson before this edit)")

    @Slot()
    def _on_training_cancelled(self) -> None:
        self._end_training()
        self._pending_open = None
        self.corpus_panel.show_problem("Training stopped: the panels still show the lesson before this change. "
                                       "Edit again, or press Ctrl+Z.")

    def _end_training(self) -> None:
        if self.session.training:
            self.session.training = False
            self.session.training_ended.emit()

    # -- files ------------------------------------------------------------------------------------

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current lesson (saved, discarded, or nothing to save)."""
        self.corpus_panel.flush()
        if not self.dirty:
            return True
        B = QMessageBox.StandardButton
        answer = self.ask("Unsaved changes", "The lesson has changes that are not saved. Save them first?",
                          B.Save | B.Discard | B.Cancel, B.Save)
        if answer == B.Save:
            return self.save()
        return answer == B.Discard

    def new_lesson(self) -> None:
        if self.maybe_save():
            self.load(LessonFile(""), None)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path = self.choose_open_path()
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path) -> bool:
        """Open a lesson file or a text file; on any problem say so and keep the current lesson."""
        p = Path(path)
        if p.suffix == SUFFIX:
            try:
                source = load_lesson(p)
            except BpeLabError as exc:
                self.tell(f"{exc}\n\nThe current lesson is unchanged.")
                return False
            self.load(source, p)
            return True
        try:
            text = read_text(p)
        except BpeLabError as exc:
            message = str(exc)
            if "not UTF-8" not in message and "binary" not in message:
                self.tell(message)
                return False
            B = QMessageBox.StandardButton
            answer = self.ask("Not plain UTF-8 text", f"{message}\n\nOpen it anyway, with every unreadable byte "
                              "shown as the replacement character �?", B.Open | B.Cancel, B.Cancel)
            if answer != B.Open:
                return False
            try:
                text = p.read_bytes().decode("utf-8", errors="replace")
            except OSError as os_exc:
                self.tell(f"{p}: cannot be read ({os_exc.strerror})")
                return False
        # a text file becomes a new, unsaved lesson: Save asks where, so the text file is never overwritten
        self.load(LessonFile(text, False, self.source.settings, 0, ""), None, clean=False)
        return True

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self._save_to(self.path)

    def save_as(self) -> bool:
        chosen = self.choose_save_path()
        if not chosen:
            return False
        p = Path(chosen)
        if p.suffix != SUFFIX:
            p = p.with_name(p.name + SUFFIX)
        return self._save_to(p)

    def _save_to(self, path: Path) -> bool:
        self.corpus_panel.flush()
        try:
            save_lesson(self._current_file(), path)
        except BpeLabError as exc:
            self.tell(f"The lesson was not saved: {exc}")
            return False
        self.path = path
        self.undo_stack.setClean()
        self._side_changes = False
        self._remember_recent(path)
        if self.autosave is not None:
            self.autosave.clear()
        self._update_title()
        return True

    def _remember_recent(self, path: Path) -> None:
        if self.app_settings is None:
            return
        recent = [str(path.resolve())] + [r for r in self.recent_files() if r != str(path.resolve())]
        self.app_settings.setValue("recent", recent[:MAX_RECENT])

    def recent_files(self) -> list[str]:
        if self.app_settings is None:
            return []
        value = self.app_settings.value("recent", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value or []]

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        if not recent:
            self.recent_menu.addAction("(none yet)").setEnabled(False)
        for r in recent:
            action = self.recent_menu.addAction(Path(r).name)
            action.setToolTip(r)
            action.triggered.connect(lambda _c=False, r=r: self.maybe_save() and self.open_path(r))

    @Slot(bool)
    def _on_clean_changed(self, _clean: bool) -> None:
        try:
            self._update_title()
        except RuntimeError:
            pass  # the stack announces itself clean while the window is being destroyed

    def _update_title(self) -> None:
        name = self.path.name if self.path else "Untitled lesson"
        self.setWindowTitle(f"{name}{' •' if self.dirty else ''} — BPE Lab")

    # -- autosave and recovery ----------------------------------------------------------------------

    def write_autosave(self) -> None:
        if self.autosave is not None and self.dirty:
            lesson = self._current_file()
            self.autosave.write(lesson, background=len(lesson.text) > AUTOSAVE_LARGE)

    def offer_recovery(self) -> bool:
        """If the last run left an autosave, offer to bring that lesson back. True when recovered."""
        if self.autosave is None:
            return False
        pending = self.autosave.pending()
        if pending is None:
            return False
        B = QMessageBox.StandardButton
        answer = self.ask("Recover the lesson?", "BPE Lab did not close properly last time. Bring back the lesson "
                          "it was working on?", B.Yes | B.No, B.Yes)
        if answer != B.Yes:
            self.autosave.clear()
            return False
        self.load(pending, None, clean=False)
        return True

    # -- look -------------------------------------------------------------------------------------

    def set_theme(self, theme: str) -> None:
        self.theme = theme if theme in THEMES else "light"
        self.apply_appearance()

    def set_zoom(self, zoom: float) -> None:
        self.zoom = clamp_zoom(zoom)
        self.apply_appearance()

    def apply_appearance(self) -> None:
        self.dark_action.setChecked(self.theme == "dark")
        QApplication.setPalette(palette(self.theme))
        self.setPalette(palette(self.theme))
        self.setStyleSheet(style_sheet(self.theme, self.zoom))

    # -- drag and drop ------------------------------------------------------------------------------

    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        files = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if files:
            event.acceptProposedAction()
            if self.maybe_save():
                self.open_path(files[0])

    # -- settings that persist ---------------------------------------------------------------------

    def _restore_settings(self) -> None:
        s = self.app_settings
        if s is None:
            return
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = s.value("window/state")
        if isinstance(state, QByteArray) and self.restoreState(state):
            self._layout_restored = True

    def _saved_look(self) -> tuple[str, float]:
        s = self.app_settings
        if s is None:
            return "light", 1.0
        theme = str(s.value("theme", "light"))
        try:
            zoom = clamp_zoom(float(s.value("zoom", 1.0)))
        except (TypeError, ValueError):
            zoom = 1.0
        return (theme if theme in THEMES else "light"), zoom

    def save_settings(self) -> None:
        s = self.app_settings
        if s is None:
            return
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("theme", self.theme)
        s.setValue("zoom", self.zoom)
        s.sync()

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if not self.maybe_save():
            event.ignore()
            return
        self.timeline.pause()
        self.runner.cancel(quietly=True)
        self.runner.wait()
        self.save_settings()
        if self.autosave is not None:
            self.autosave.clear()
        QApplication.setPalette(self._app_palette)
        event.accept()
