"""Classroom mode: the window made for a projector, driven from the keyboard or a presenter's clicker.

F5 enters it and Esc (or F5 again) leaves it. Entering goes full screen, hides the docks, menus,
timeline and tab bar, and gives the window the classroom look (``widgets.classroom.look``: its
palette and style sheet, white and yellow on black at classroom type, which every widget inside
inherits, a view or dialog made later too) and each view that paints itself its projector theme
from the same place (the token colours are the colour-blind-safe scheme every view already uses),
at a large, live type scale. Under the views a band says what the last merge was and why.
Leaving puts back exactly what was there: window state and geometry, dock layout, every hidden
bar, the window's and the application's palette and style, each view's own theme and size, the
tab and the focus.

Keys are read through an application event filter while the mode is on, so they work whichever
widget has the focus and win over the window's own shortcuts (Space steps here, it does not play).
Clickers send Page Down / Page Up (or the arrows) for their two big buttons and B or "." for the
"blank screen" button. As in presentation software, B and "." black the screen, W and "," white
it, the same key again brings the lesson back, and while the screen is blank any other key (Esc
too) only brings the lesson back: it does not act. P plays and pauses.
While the focus is in a text box (the explorer's), typing keys type; Page Up/Down, F5 and the
Ctrl keys still act, and Esc gives the focus back to the view. On the quiz, while a question's
options are open, the digits pick them (as they mark the class's answer to a predict question).
V starts and ends a class vote (``app.class_vote``), which follows the questions the mode asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QByteArray, QEvent, QObject, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractSpinBox, QApplication, QDockWidget, QLineEdit, QMenu, QPlainTextEdit, QStatusBar, QTextEdit,
    QToolBar, QWidget,
)

from app.class_vote import ClassVote
from widgets import shortcuts
from widgets.tiles import TileView

# the covers, the predict prompt and the quiz are imported when the mode first needs them: the
# window's first paint shows none of them
if TYPE_CHECKING:
    from app.classroom_looks import Look
    from widgets.classroom import BlankCover, KeysOverlay, PredictPrompt, WhyBand

SCALE_MIN, SCALE_MAX, SCALE_STEP = 0.5, 2.5, 1.15

NEXT, PREVIOUS, PLAY, BLACK, WHITE, RESET, END = "next", "previous", "play", "black", "white", "reset", "end"
NEXT_VIEW, PREVIOUS_VIEW, BIGGER, SMALLER, ACTUAL = "next view", "previous view", "bigger", "smaller", "actual size"
PREDICT, HELP, LEAVE = "predict", "help", "leave"
VOTE, VOTE_AGAIN, JOIN = "vote", "vote again", "join"

K = Qt.Key
# by int: a key event gives its key as a number
PLAIN_KEYS: dict[int, str] = {
    K.Key_Right: NEXT, K.Key_PageDown: NEXT, K.Key_Space: NEXT, K.Key_Down: NEXT,
    K.Key_Left: PREVIOUS, K.Key_PageUp: PREVIOUS, K.Key_Up: PREVIOUS, K.Key_Backspace: PREVIOUS,
    K.Key_P: PLAY,
    K.Key_B: BLACK, K.Key_Period: BLACK, K.Key_W: WHITE, K.Key_Comma: WHITE,
    K.Key_Home: RESET, K.Key_End: END,
    K.Key_Tab: NEXT_VIEW, K.Key_Backtab: PREVIOUS_VIEW,
    K.Key_Plus: BIGGER, K.Key_Equal: BIGGER, K.Key_Minus: SMALLER, K.Key_0: ACTUAL,
    K.Key_A: PREDICT,
    K.Key_V: VOTE, K.Key_R: VOTE_AGAIN, K.Key_J: JOIN,
    K.Key_Question: HELP, K.Key_F1: HELP, K.Key_Slash: HELP,
    K.Key_Escape: LEAVE, K.Key_F5: LEAVE,
}
CONTROL_KEYS: dict[int, str] = {K.Key_Plus: BIGGER, K.Key_Equal: BIGGER, K.Key_Minus: SMALLER, K.Key_0: ACTUAL}
# keys that still act while a text box has the focus (the rest type into it)
THROUGH_TEXT = {K.Key_PageDown, K.Key_PageUp, K.Key_F5, K.Key_F1, K.Key_Escape}
# on the quiz the lesson's keys are the quiz's own (Return checks, arrows order, Tab moves)
QUIZ_KEEPS = {NEXT, PREVIOUS, PLAY, RESET, END, PREDICT, NEXT_VIEW, PREVIOUS_VIEW}
NUMBER_KEYS: dict[int, int] = {key: n for n, key in enumerate(
    (K.Key_1, K.Key_2, K.Key_3, K.Key_4, K.Key_5, K.Key_6, K.Key_7, K.Key_8, K.Key_9), start=1)}

# The list of keys ("?", and Help > Keyboard shortcuts): each row the commands it names and what
# they do. The keys are read from PLAIN_KEYS, so a key added there is listed; the Ctrl keys are
# the plain ones again (CONTROL_KEYS), which the row's text says.
KEY_ROWS: list[tuple[tuple[str, ...], str]] = [
    ((NEXT,), "next step (with predict first: reveal, then merge)"),
    ((PREVIOUS,), "step back"),
    ((BLACK,), "black screen (a clicker's blank button); any key brings it back"),
    ((WHITE,), "white screen; any key brings it back"),
    ((PLAY,), "play / pause"),
    ((RESET, END), "back to the start  /  go to the end"),
    ((PREDICT,), "predict first on / off"),
    ((VOTE,), "class vote from phones: start / end"),
    ((JOIN,), "class vote: show / hide how to join"),
    ((VOTE_AGAIN,), "class vote, after the reveal: vote again on the same question"),
    ((BIGGER, SMALLER, ACTUAL), "larger / smaller / starting type size, with or without Ctrl"),
    ((HELP,), "this list"),
    ((LEAVE,), "leave classroom mode"),
]
# the views' row, put in where a window's views are known (``Classroom.key_list``)
VIEW_COMMANDS = (NEXT_VIEW, PREVIOUS_VIEW)
KEY_NAMES = {
    K.Key_Right: "→", K.Key_Left: "←", K.Key_Down: "↓", K.Key_Up: "↑", K.Key_PageDown: "Page Down",
    K.Key_PageUp: "Page Up", K.Key_Minus: "−", K.Key_Escape: "Esc", K.Key_Backtab: "Shift+Tab",
}


def key_name(key: Qt.Key) -> str:
    return KEY_NAMES.get(key) or QKeySequence(key).toString(QKeySequence.SequenceFormat.PortableText)


def keys_of(commands: tuple[str, ...]) -> str:
    """The plain keys of each command, a command's keys side by side and commands apart by " / "."""
    return "  /  ".join("  ".join(key_name(K(k)) for k, c in PLAIN_KEYS.items() if c == command) for command in commands)


KEY_LIST = [(keys_of(commands), what) for commands, what in KEY_ROWS]
# where the row of the views goes, and the row for marking the class's answer after it
VIEWS_AT = 6


def _application() -> QApplication:
    app = QApplication.instance()
    assert isinstance(app, QApplication), "classroom mode runs in the window's QApplication"
    return app


def command_for(key: int, modifiers: Qt.KeyboardModifier) -> str | None:
    """The classroom command of a key press, or None when the mode does not use the key."""
    mods = modifiers & ~(Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.ShiftModifier)
    if mods == Qt.KeyboardModifier.ControlModifier:
        return CONTROL_KEYS.get(key)
    if mods != Qt.KeyboardModifier.NoModifier:
        return None
    if key in NUMBER_KEYS:
        return f"view {NUMBER_KEYS[key]}"
    return PLAIN_KEYS.get(key)


@dataclass
class _Saved:
    """What the mode changes, as it was when the mode began."""

    window_state: Qt.WindowState
    geometry: QRect
    layout: QByteArray
    style_sheet: str
    palette: QPalette
    app_palette: QPalette
    tab: int
    hidden: dict[QWidget, bool] = field(default_factory=dict)
    looks: list[Look] = field(default_factory=list)
    focus: QWidget | None = None


class Classroom(QObject):
    entered = Signal()
    left = Signal()
    scale_changed = Signal(float)
    predict_first_changed = Signal(bool)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.active = False
        self.scale = 1.0
        self.predict_first = False
        self._saved: _Saved | None = None
        self._looks: list[Look] = []
        self.prompt: PredictPrompt | None = None
        self._keys_overlay: KeysOverlay | None = None
        self._blank: BlankCover | None = None
        self._band: WhyBand | None = None
        self._fit = 1.0

        self.action = QAction("&Classroom mode", window)
        shortcuts.bind(self.action, "classroom")
        self.action.setCheckable(True)
        self.action.setStatusTip("Full screen, large type and high contrast for a projector; Esc leaves")
        self.action.triggered.connect(lambda _checked=False: self.toggle())
        self.predict_action = QAction("&Predict first", window)
        self.predict_action.setCheckable(True)
        self.predict_action.setStatusTip("In classroom mode, ask the class which pair wins before each merge")
        self.predict_action.toggled.connect(self.set_predict_first)
        window.addActions([self.action, self.predict_action])
        # the phones' vote on what the mode asks; its results outlive the mode, until the window closes
        self.class_vote = ClassVote(self, window)
        view_menu = _menu(window, "View")
        if view_menu is not None:
            view_menu.addSeparator()
            view_menu.addActions([self.action, self.predict_action, self.class_vote.action])

        window.session.step_changed.connect(self._on_lesson_moved)
        window.session.lesson_changed.connect(self._on_lesson_moved)
        window.installEventFilter(self)

    # -- entering and leaving -------------------------------------------------------------------

    def toggle(self) -> None:
        self.leave() if self.active else self.enter()

    def enter(self) -> None:
        if self.active:
            return
        w = self.window
        self._make_covers()  # made once, hidden, before the window changes: nothing flickers
        saved = _Saved(w.windowState(), w.geometry(), w.saveState(), w.styleSheet(), QPalette(w.palette()),
                       QPalette(QApplication.palette()), w.tabs.currentIndex(), focus=QApplication.focusWidget())
        for bar in self._chrome():
            saved.hidden[bar] = bar.isHidden()
            bar.hide()
        fit = self._fit = _screen_fit(w)
        # the looks know every kind of view, so their imports (pyqtgraph among them) wait for the mode
        from app.classroom_looks import projector_look
        from widgets.classroom import look

        saved.looks = [projector_look(view, fit) for view in w.views.values()]
        self._saved = saved
        self.active = True
        self._looks = saved.looks
        # the application's too: a dialog is a window of its own, which takes no palette from its parent
        QApplication.setPalette(look.palette())
        w.setPalette(look.palette())
        self._apply_scale()
        self.band.show()
        w.showFullScreen()
        # with no window manager (a bare X server, some kiosks) full screen keeps the old size
        w.setGeometry(w.screen().geometry())
        self._park_focus()
        _application().installEventFilter(self)
        self.action.setChecked(True)
        self.entered.emit()
        self._ask_when_still()

    def leave(self) -> None:
        if not self.active:
            return
        self.class_vote.end()  # nothing listens once the mode is left
        if self._band is not None:
            self._band.set_notice("")
        _application().removeEventFilter(self)
        self.active = False
        self._ask_pending = False
        self._clear_prompt()
        self.keys_overlay.hide()
        self.blank.hide()
        self.band.hide()
        saved, self._saved = self._saved, None
        assert saved is not None, "entering saved the window's ordinary look"
        w = self.window
        # the window's look first, palettes before the sheet that is polished from them: a view that
        # follows the desktop's palette reads it as it restores
        QApplication.setPalette(saved.app_palette)
        w.setPalette(saved.palette)
        w.setStyleSheet(saved.style_sheet)
        # the views shrink back before the bars return: at projector size they would squeeze the docks
        for look in reversed(saved.looks):
            look.restore()
        self._looks = []
        for bar, hidden in saved.hidden.items():
            bar.setHidden(hidden)
        w.setWindowState(saved.window_state)
        normal = not saved.window_state & (Qt.WindowState.WindowFullScreen | Qt.WindowState.WindowMaximized)
        if normal:
            w.setGeometry(saved.geometry)
        w.restoreState(saved.layout)

        def settle() -> None:
            # once the layout has run (and a window manager has ended full screen its own way),
            # the window and its docks get their sizes again
            if self.active or w.windowState() != saved.window_state:
                return
            if normal:
                w.setGeometry(saved.geometry)
            w.restoreState(saved.layout)

        QTimer.singleShot(0, settle)
        w.tabs.setCurrentIndex(saved.tab)
        if saved.focus is not None and saved.focus.isVisible():
            saved.focus.setFocus()
        self.action.setChecked(False)
        self.left.emit()

    def _make_covers(self) -> None:
        if self._blank is not None:
            return
        from widgets.classroom import BlankCover, KeysOverlay, WhyBand  # the covers wait for the mode

        self._keys_overlay = KeysOverlay(self.window)
        self._keys_overlay.set_keys(self.key_list())
        self._blank = BlankCover(self.window)
        # under the views, in the window's own column: every view has it, one added later too
        self._band = WhyBand(self.window.session)
        self._band.hide()
        self.window.centralWidget().layout().addWidget(self._band)
        self.window.tabs.currentChanged.connect(lambda _index: self._show_why())
        self.window.tabs.currentChanged.connect(lambda _index: self.class_vote.follow())
        self.predict_first_changed.connect(lambda _on: self._show_why())

    @property
    def keys_overlay(self) -> KeysOverlay:
        """The list of keys laid over the window (made on first use, like the blank screen)."""
        self._make_covers()
        assert self._keys_overlay is not None
        return self._keys_overlay

    @property
    def band(self) -> WhyBand:
        """The band under the views: the last merge, its count and the tie rule in words."""
        self._make_covers()
        assert self._band is not None
        return self._band

    def _show_why(self) -> None:
        # the tiles add the pair counts now, unless the class is to predict the winner from them
        tiles = isinstance(self.window.tabs.currentWidget(), TileView)
        self.band.set_pair_counts(tiles and not self.predict_first)

    @property
    def blank(self) -> BlankCover:
        """The black or white screen laid over the window."""
        self._make_covers()
        assert self._blank is not None
        return self._blank

    def _chrome(self) -> list[QWidget]:
        """Everything around the central views that the class does not need."""
        w = self.window
        bars: list[QWidget] = [w.menuBar(), w.timeline, w.tabs.tabBar()]
        bars += [d for d in w.findChildren(QDockWidget) if d.parent() is w]
        bars += [t for t in w.findChildren(QToolBar) if t.parent() is w]
        bars += [s for s in w.findChildren(QStatusBar) if s.parent() is w]
        return bars

    # -- the type scale -------------------------------------------------------------------------

    def set_scale(self, scale: float) -> None:
        scale = max(SCALE_MIN, min(SCALE_MAX, scale))
        if scale != self.scale:
            self.scale = scale
            if self.active:
                self._apply_scale()
            self.scale_changed.emit(scale)

    def _apply_scale(self) -> None:
        from widgets.classroom.look import text_px, window_sheet

        # the window's own sheet sizes every widget's text: the classroom's sizes it at the mode's type
        sheet = window_sheet(text_px(self._fit, self.scale))
        if self.window.styleSheet() != sheet:
            self.window.setStyleSheet(sheet)
        for look in self._looks:
            look.apply(self.scale)
        self._show_why()

    # -- predict first --------------------------------------------------------------------------
    #
    # The tile view frames the next pair as soon as a merge has played, which would give the answer
    # away. So while predict first is on, the question goes up as soon as the lesson stands still
    # after any move the mode makes (after the merge animation, if one is playing), and the frame is
    # only seen once the teacher reveals it.

    def set_predict_first(self, on: bool) -> None:
        on = bool(on)
        if on != self.predict_first:
            self.predict_first = on
            if on:
                self._ask_when_still()
            else:
                self._ask_pending = False
                self._clear_prompt()
            if self.predict_action.isChecked() != on:
                self.predict_action.setChecked(on)
            self.predict_first_changed.emit(on)

    @property
    def prompt_state(self) -> str:
        from widgets.classroom import HIDDEN  # the covers wait for the mode

        return self.prompt.state if self.prompt is not None else HIDDEN

    def _tiles_host(self) -> QWidget:
        views = self.window.views
        return views.get("Tiles") or next(iter(views.values()), None) or self.window.tabs

    def _prompt_for(self, host: QWidget) -> PredictPrompt:
        from widgets.classroom import PredictPrompt  # the covers wait for the mode

        if self.prompt is None or self.prompt.host is not host:
            if self.prompt is not None:
                self.prompt.deleteLater()
            self.prompt = PredictPrompt(host)
            if isinstance(host, TileView):
                host.animation_finished.connect(self._on_animation_finished)
        return self.prompt

    def _ask(self) -> bool:
        """Put the question up over the tiles; False when there is nothing to ask."""
        from widgets.classroom.predict import question_for  # the covers wait for the mode

        self._ask_pending = False
        question = question_for(self.window.session)
        if question is None:
            self._clear_prompt()
            return False
        host = self._tiles_host()
        prompt = self._prompt_for(host)
        index = self.window.tabs.indexOf(host)
        if index >= 0 and self.window.tabs.currentIndex() != index:
            self.window.tabs.setCurrentIndex(index)
            self._park_focus()
        self.window.timeline.pause()
        prompt.ask(question)
        self.class_vote.follow()
        return True

    def _ask_when_still(self) -> None:
        if not (self.active and self.predict_first) or self.window.timeline.playing:
            return
        host = self._tiles_host()
        self._prompt_for(host)
        if isinstance(host, TileView) and host.canvas.animating:
            self._ask_pending = True  # asked from _on_animation_finished
        else:
            self._ask()

    def _on_animation_finished(self) -> None:
        if self._ask_pending:
            self._ask()

    def _clear_prompt(self) -> None:
        if self.prompt is not None:
            from widgets.classroom import HIDDEN  # the covers wait for the mode

            if self.prompt.state != HIDDEN:
                self.prompt.clear()
                self.class_vote.follow()

    def _on_lesson_moved(self, *_args) -> None:
        # the step moved some other way (the slider, play, a new lesson): the question is stale
        if not self._stepping:
            self._ask_pending = False
            self._clear_prompt()

    def _move(self, step: int) -> None:
        """Move the lesson for the mode: no question stays up across it, and with predict first on the
        next one follows."""
        self._clear_prompt()
        self._stepping = True
        try:
            self.window.session.request_step(step)
        finally:
            self._stepping = False
        self._ask_when_still()

    _stepping = False
    _ask_pending = False

    # -- commands -------------------------------------------------------------------------------

    def key_list(self) -> list[tuple[str, str]]:
        titles = list(self.window.views)
        rows = list(KEY_LIST)
        if titles:
            digits = f"1–{min(len(titles), len(NUMBER_KEYS))}"
            rows[VIEWS_AT:VIEWS_AT] = [
                (f"{digits}  /  {keys_of(VIEW_COMMANDS)}",
                 "  ".join(f"{i + 1} {t}" for i, t in enumerate(titles)) + "  /  next  /  previous"),
                (digits, "while asking: mark the class's answer"),
            ]
        return rows

    def run(self, command: str) -> None:
        """Do one classroom command (what a key press does; tests and menus call it too)."""
        session = self.window.session
        if command == NEXT:
            self.next()
        elif command == PREVIOUS:
            self._move(session.step - 1)
        elif command == PLAY:
            self._clear_prompt()
            self.window.timeline.toggle_play()
            self._ask_when_still()  # on pausing, with predict first on
        elif command in (BLACK, WHITE):
            self.blank.set_white(command == WHITE)
            self.blank.show()
        elif command == RESET:
            self.window.timeline.pause()
            self._move(0)
        elif command == END:
            self.window.timeline.pause()
            self._move(session.last_step)
        elif command in (NEXT_VIEW, PREVIOUS_VIEW):
            tabs = self.window.tabs
            if tabs.count():
                self._show_view((tabs.currentIndex() + (1 if command == NEXT_VIEW else -1)) % tabs.count())
        elif command.startswith("view "):
            from widgets.classroom import ASKING  # the covers wait for the mode

            n = int(command.split()[1])
            prompt = self.prompt
            if self.prompt_state == ASKING and prompt is not None and self.window.tabs.currentWidget() is prompt.host:
                prompt.mark(n - 1)
            elif n <= self.window.tabs.count():
                self._show_view(n - 1)
        elif command == BIGGER:
            self.set_scale(self.scale * SCALE_STEP)
        elif command == SMALLER:
            self.set_scale(self.scale / SCALE_STEP)
        elif command == ACTUAL:
            self.set_scale(1.0)
        elif command == PREDICT:
            self.set_predict_first(not self.predict_first)
        elif command == VOTE:
            self.class_vote.toggle()
        elif command == JOIN:
            self.class_vote.toggle_join()
        elif command == VOTE_AGAIN:
            self.vote_again()
        elif command == HELP:
            self.keys_overlay.set_keys(self.key_list())
            self.keys_overlay.setVisible(self.keys_overlay.isHidden())
        elif command == LEAVE:
            self.leave()

    def next(self) -> None:
        """Next step; with predict first on, reveal the answer first, then make the merge."""
        from widgets.classroom import ASKING, HIDDEN  # the covers wait for the mode

        state, prompt = self.prompt_state, self.prompt
        if state != HIDDEN and prompt is not None and self.window.tabs.currentWidget() is not prompt.host:
            self._show_view(self.window.tabs.indexOf(prompt.host))  # back to the question first
            return
        if state == ASKING and prompt is not None:
            prompt.reveal()
            self.class_vote.reveal()
        elif state == HIDDEN and self.predict_first and self._ask():
            pass  # a question was due (predict first just turned on, or a pause)
        else:
            self._move(self.window.session.step + 1)

    def vote_again(self) -> None:
        """A second round of the class vote on the question just revealed: the question goes up again."""
        from widgets.classroom import REVEALED  # the covers wait for the mode

        if not self.class_vote.vote_again():
            return
        prompt = self.prompt
        if prompt is not None and prompt.state == REVEALED and prompt.question is not None:
            prompt.ask(prompt.question)

    def _show_view(self, index: int) -> None:
        # a question stays with the tiles: it is there again on coming back
        self.window.tabs.setCurrentIndex(index)
        self._park_focus()

    def _park_focus(self) -> None:
        """Focus on the view itself, out of any text box, so the keys step rather than type."""
        view = self.window.tabs.currentWidget()
        (view or self.window).setFocus()
        if isinstance(QApplication.focusWidget(), (QLineEdit, QPlainTextEdit, QTextEdit, QAbstractSpinBox)):
            self.window.setFocus()

    # -- keys -----------------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, any_event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = any_event.type()
        if watched is self.window and kind == QEvent.Type.Close:
            # leave first, so the window saves its ordinary layout, not the projector's
            self.leave()
            self.class_vote.end()
            return False
        if not self.active or kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        tabs = self.window.tabs  # the window's own: the check below takes the window for a plain QWidget
        if not isinstance(watched, QWidget) or watched.window() is not self.window:
            return False  # a dialog, or the window-system side of the same key press
        event = cast(QKeyEvent, any_event)  # both kinds left are key events
        if not self.blank.isHidden():
            return self._wake(event)
        command = command_for(event.key(), event.modifiers())
        if command is None:
            return False
        from widgets.quiz_panel import QuizPanel  # the quiz comes after the first paint

        typing = isinstance(watched, (QLineEdit, QPlainTextEdit, QTextEdit, QAbstractSpinBox))
        control = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if typing and event.key() not in THROUGH_TEXT and not control:
            return False
        quiz = tabs.currentWidget()
        if command.startswith("view ") and isinstance(quiz, QuizPanel) and quiz.takes_digit(int(command[5:])):
            # an open choice on the quiz: the digit answers it, as it marks the class's answer to a prediction
            event.accept()
            if kind == QEvent.Type.KeyPress:
                quiz.answer_digit(int(command[5:]))
            return True
        if command == NEXT and isinstance(quiz, QuizPanel) and self.class_vote.takes_next():
            # a class vote on the quiz's question: → reveals it, as on the tiles, then gives the keys back
            event.accept()
            if kind == QEvent.Type.KeyPress and not event.isAutoRepeat():
                self.class_vote.next_on_quiz()
            return True
        if command in QUIZ_KEEPS and isinstance(quiz, QuizPanel):
            # the quiz gets the key press; the window's shortcut for the same key must not fire
            if kind == QEvent.Type.ShortcutOverride:
                event.accept()
                return True
            return False
        if typing and event.key() == K.Key_Escape:
            command = "_release"
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # the key comes back as a key press, not as the window's shortcut
            return True
        if event.isAutoRepeat() and command not in (NEXT, PREVIOUS, BIGGER, SMALLER):
            return True
        self._on_key(command, watched)
        return True

    def _wake(self, event: QKeyEvent) -> bool:
        """A key on a blank screen brings the lesson back and does nothing else; B or W turns a
        white screen black or a black one white, as in presentation software."""
        event.accept()
        if event.type() == QEvent.Type.ShortcutOverride or event.isAutoRepeat():
            return True
        if event.key() in (K.Key_Shift, K.Key_Control, K.Key_Alt, K.Key_Meta, K.Key_AltGr):
            return True  # the first half of a combination is not yet a key
        command = command_for(event.key(), event.modifiers())
        if command in (BLACK, WHITE) and self.blank.white != (command == WHITE):
            self.blank.set_white(command == WHITE)
        else:
            self.blank.hide()
        return True

    def _on_key(self, command: str, watched: QWidget) -> None:
        if command == "_release":
            self._park_focus()
            return
        if not self.keys_overlay.isHidden() and command in (HELP, LEAVE):
            self.keys_overlay.hide()
            return
        self.keys_overlay.hide()
        self.run(command)


def _screen_fit(window) -> float:
    screen = window.screen()
    if screen is None:
        return 1.0
    size = screen.geometry()
    return max(0.5, min(1.0, size.width() / 1920, size.height() / 1080))


def _menu(window, title: str) -> QMenu | None:
    for action in window.menuBar().actions():
        menu = action.menu()
        if menu is not None and action.text().replace("&", "") == title:
            return menu
    return None
