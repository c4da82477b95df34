"""The token explorer: any text through GPT-4's tokenizer and the lesson's, side by side.

Three pages: the two sides with the text box and one-click demonstrations, the languages chart,
and a word replayed merge by merge. GPT-4's tokenizer loads in a worker the first time the
explorer is shown, so opening the window never waits for it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QFontMetricsF, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.algorithm.encoder import Encoder
from engine.readable.explorer import (
    IDS_BECOME_VECTORS, Demo, chat_demo, letter_counting_demo, number_demo, spelling_demo, tokenizers_demo,
)
from widgets.explorer.languages import LanguagesView
from widgets.flow import FlowLayout
from widgets.explorer.race import RaceRunner
from widgets.explorer.replay import MergeReplayView
from widgets.explorer.side import SidePane
from widgets.explorer.sources import CL100K, CL100K_CHAT, LESSON, TokenizerSources
from widgets.explorer.theme import ExplorerTheme, theme_named
from widgets.scrolling import scrolling
from widgets.session_view import SessionView
from widgets.special_switch import SpecialTextSwitch

# what the second line claims about GPT-4's tokens is checked against cl100k by a test
SEVERAL_TOKENS = ("antidisestablishmentarianism", "naïve", "日本語")
ONE_TOKEN = ("café", "🙂")
DEFAULT_TEXT = (
    "Tokenizers cut text into pieces before a model reads it.\n"
    f"Rare words like {SEVERAL_TOKENS[0]}, accents ({SEVERAL_TOKENS[1]}) and {SEVERAL_TOKENS[2]} take several "
    f"tokens; {ONE_TOKEN[0]} and {ONE_TOKEN[1]} take one each.\n"
    "\tA tab, then  two spaces."
)
DEMOS = {
    "spelling": "Spell a word",
    "letters": "Count letters",
    "numbers": "Numbers and IDs",
    "chat": "Chat markers",
    "tokenizers": "Two tokenizers",
    "replay": "Replay merges",
    "race": "Textbook vs trainer",
}
REPLAY_WORD = " tokenization"
# the demonstrations of one tokenizer, GPT-4's
SINGLE_DEMOS: dict[str, Callable[[Encoder], Demo]] = {
    "spelling": spelling_demo, "letters": letter_counting_demo, "numbers": number_demo,
}


class ExplorerView(QWidget):
    def __init__(self, session: SessionView, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("explorer")
        self.session = session
        self.sources = TokenizerSources(session, self)
        self.scale = 1.0
        self.theme = ExplorerTheme.light()
        self._base_point_size = self.font().pointSizeF()
        self._pending_demo: str | None = None
        self._languages_stale = True
        self._shown_once = False

        self.editor = QPlainTextEdit(DEFAULT_TEXT)
        self.editor.setPlaceholderText("Type or paste any text")
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setObjectName("caption")
        self.caption.setVisible(False)
        self.race = RaceRunner(self)
        self.stop_race = QPushButton("Stop the race")
        self.stop_race.setVisible(False)
        self.show_ids = QCheckBox("Show token ids")
        self.ids_note = QLabel(IDS_BECOME_VECTORS)
        self.ids_note.setWordWrap(True)
        self.ids_note.setVisible(False)
        self.special_switch = SpecialTextSwitch()
        self.left = SidePane(self.sources, CL100K)
        self.right = SidePane(self.sources, LESSON)
        # the demonstrations in one menu beside the options: as a block of buttons beside the text
        # box they took four rows of the page's height from the token panes
        self.demos = QPushButton("Show the class")
        self.demos.setToolTip("One-click demonstrations: each puts a text in the box and says what to look at")
        menu = QMenu(self.demos)
        self.demo_actions: dict[str, QAction] = {}
        for name, title in DEMOS.items():
            action = menu.addAction(title)
            action.triggered.connect(lambda _=False, name=name: self.run_demo(name))
            self.demo_actions[name] = action
        self.demos.setMenu(menu)

        self.top = self.editor
        self.sides = sides = QSplitter(Qt.Orientation.Horizontal)
        sides.addWidget(self.left)
        sides.addWidget(self.right)
        sides.setChildrenCollapsible(False)
        below = QWidget()
        page = QVBoxLayout(below)
        page.setContentsMargins(0, 0, 0, 0)
        said = QHBoxLayout()
        said.addWidget(self.caption, 1)
        said.addWidget(self.stop_race, 0, Qt.AlignmentFlag.AlignTop)
        page.addLayout(said)
        # on a narrow page the typed-special-text switch takes a line of its own
        options = QWidget()
        options_row = FlowLayout(options)
        options_row.addWidget(self.demos)
        options_row.addWidget(self.show_ids)
        options_row.addWidget(self.special_switch)
        page.addWidget(options)
        page.addWidget(self.ids_note)
        page.addWidget(sides, 1)
        # the text box over the tokens, its share for the user to drag: the tokens get the rest
        self.parts = QSplitter(Qt.Orientation.Vertical)
        self.parts.addWidget(self.top)
        self.parts.addWidget(below)
        self.parts.setChildrenCollapsible(False)
        self.parts.setStretchFactor(0, 0)
        self.parts.setStretchFactor(1, 1)
        compare = QWidget()
        # the tab's frame is margin enough: at 1024 px the two sides need the page's whole width
        self._framed = framed = QVBoxLayout(compare)
        framed.setContentsMargins(2, 4, 2, 2)
        framed.addWidget(self.parts)

        self.languages = LanguagesView()
        self.replay = MergeReplayView(self.sources)
        self.tabs = QTabWidget()
        # at a large zoom on a small screen the page needs more height than the tab has: it scrolls
        # then, where a layout squeezed under its minimum would draw its controls over each other
        self.compare_page = scrolling(compare)
        self.tabs.addTab(self.compare_page, "Side by side")
        self.tabs.addTab(self.languages, "Languages")
        self.replay_page = scrolling(self.replay)  # zoomed in on a small screen its steps scroll
        self.tabs.addTab(self.replay_page, "Merge replay")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tabs)

        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(150)
        self._typing.timeout.connect(self._on_text_settled)
        self._lesson_moved = QTimer(self)
        self._lesson_moved.setSingleShot(True)
        self._lesson_moved.setInterval(30)
        self._lesson_moved.timeout.connect(self._on_lesson_moved)

        self.editor.textChanged.connect(self._typing.start)
        self.race.said.connect(self._on_race_said)
        self.race.running_changed.connect(self.stop_race.setVisible)
        self.stop_race.clicked.connect(self.race.stop)
        # a race times the corpus it started on: a new lesson makes its figures no one's
        session.lesson_changed.connect(self._on_lesson_changed)
        self.show_ids.toggled.connect(self._on_show_ids)
        self.special_switch.allow_special_changed.connect(self._on_allow_special_changed)
        self.left.source_changed.connect(self._on_source_changed)
        self.right.source_changed.connect(self._on_source_changed)
        self.sources.ready.connect(self._on_source_ready)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.languages.sample_chosen.connect(self._on_sample_chosen)
        # coalesced: a playing lesson moves many steps a second, the explorer redraws once per burst
        session.step_changed.connect(lambda _change: self._lesson_moved.start())
        session.lesson_changed.connect(lambda _lesson: self._lesson_moved.start())
        for side in (self.left, self.right):
            side.set_text(DEFAULT_TEXT)
            side.installEventFilter(self)
        self.compare_page.viewport().installEventFilter(self)
        self._apply_fonts()
        self.set_theme(self.theme)

    # -- the two sides: side by side where they fit ----------------------------------------------

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest) and (
                watched is self.compare_page.viewport() or watched in (self.left, self.right)):
            self._stack_sides_if_narrow()
        return super().eventFilter(watched, event)

    def _stack_sides_if_narrow(self) -> None:
        """The sides one above the other on a page narrower than both side by side (zoomed in on a
        small screen), where the page would otherwise scroll sideways."""
        framed = self._framed.contentsMargins()
        room = self.compare_page.viewport().width() - framed.left() - framed.right()
        need = sum(side.minimumSizeHint().width() for side in (self.left, self.right)) + self.sides.handleWidth()
        wanted = Qt.Orientation.Vertical if need > room else Qt.Orientation.Horizontal
        if self.sides.orientation() != wanted:
            self.sides.setOrientation(wanted)

    # -- first show: start loading --------------------------------------------------------------

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            # after this first paint, not before it
            QTimer.singleShot(0, self, self.activate)  # never after the view is gone

    def activate(self) -> None:
        self.left.activate()
        self.right.activate()
        self._sync_special_switch()
        self._refresh_languages()

    # -- text -----------------------------------------------------------------------------------

    def set_text(self, text: str) -> None:
        self.editor.setPlainText(text)
        self._on_text_settled()

    def _on_text_settled(self) -> None:
        self._typing.stop()
        text = self.editor.toPlainText()
        self.left.set_text(text)
        self.right.set_text(text)

    def _on_show_ids(self, on: bool) -> None:
        self.ids_note.setVisible(on)
        for side in (self.left, self.right):
            side.view.set_show_ids(on)

    def _on_allow_special_changed(self, on: bool) -> None:
        for side in (self.left, self.right):
            side.set_allow_special(on)

    def _sync_special_switch(self) -> None:
        """The switch names the special tokens of the tokenizers on show (and is greyed with none)."""
        specials = {}
        for side in (self.left, self.right):
            if side.tokenizer is not None:
                specials.update(side.tokenizer.special_ids)
        self.special_switch.set_specials(specials)

    def _on_sample_chosen(self, text: str) -> None:
        self.set_text(text)
        self.tabs.setCurrentIndex(0)

    # -- following the lesson and the sources ---------------------------------------------------

    def _on_lesson_moved(self) -> None:
        for side in (self.left, self.right):
            if side.key == LESSON:
                side.refresh()
        self._sync_special_switch()
        if LESSON in (self.left.key, self.right.key):
            self._refresh_languages()

    def _on_source_changed(self, _key: str) -> None:
        self._sync_special_switch()
        self._refresh_languages()

    def _on_source_ready(self, key: str) -> None:
        self._sync_special_switch()
        if key in (self.left.key, self.right.key):
            self._refresh_languages()
        if self._pending_demo is not None:
            self.run_demo(self._pending_demo)

    def _on_tab_changed(self, _index: int) -> None:
        if self.tabs.currentWidget() is self.languages and self._languages_stale:
            self._refresh_languages()
        if self.tabs.currentWidget() is self.replay_page and not self.replay.rows.rows and not self.replay.timer.isActive():
            # an empty page teaches nothing: open on the word in the box, already replayed
            self.replay.start(animate=False)

    def _refresh_languages(self) -> None:
        if not self.left.active or self.tabs.currentWidget() is not self.languages:
            self._languages_stale = True
            return
        self._languages_stale = False
        keys = list(dict.fromkeys([self.left.key, self.right.key]))
        self.languages.set_tokenizers([(self.sources.title(k), self.sources.get(k)) for k in keys])

    # -- demonstrations -------------------------------------------------------------------------

    def run_demo(self, name: str) -> None:
        """One click: set up a demonstration (it waits for GPT-4's tokenizer if that still loads)."""
        if name != "race":
            self.race.drop()
        if name == "race":
            self._pending_demo = None
            self.tabs.setCurrentIndex(0)
            self.race.start(self.session.lesson.corpus)
            return
        if name == "replay":
            self._pending_demo = None
            self.tabs.setCurrentWidget(self.replay_page)
            self.replay.chooser.setCurrentIndex(self.replay.chooser.findData(CL100K))
            self.replay.start(REPLAY_WORD)
            return
        # the chat demo sets the markers (cl100k_im) beside plain cl100k, which spells them out
        keys = {"chat": (CL100K_CHAT, CL100K), "tokenizers": (CL100K, LESSON)}.get(name, (CL100K,))
        self.tabs.setCurrentIndex(0)
        self.activate()
        tokenizers = [self.sources.get(k) for k in keys]
        if LESSON in keys and tokenizers[keys.index(LESSON)] is None:
            # the lesson's tokenizer does not load: it comes with training
            self._pending_demo = None
            self.caption.setText("The lesson has no trained tokenizer yet: type some training text in Corpus.")
            self.caption.setVisible(True)
            return
        ready = [t for t in tokenizers if t is not None]
        if len(ready) < len(tokenizers):
            error = next((self.sources.error(k) for k in keys if self.sources.error(k)), None)
            self._pending_demo = name if not error else None
            self.caption.setText(error or "Loading GPT-4's tokenizer…")
            self.caption.setVisible(True)
            return
        self._pending_demo = None
        if name == "chat":
            demo = chat_demo(ready[0], ready[1])
            # the demonstration shows the markers as the control tokens; switching back spells them out
            self.special_switch.set_allow_special(True)
        elif name == "tokenizers":
            demo = tokenizers_demo(ready[0], ready[1])
        else:
            demo = SINGLE_DEMOS[name](ready[0])
        if self.left.key != demo.tokenizer:
            self.left.set_source(demo.tokenizer)
        if demo.other is not None and self.right.key != demo.other:
            self.right.set_source(demo.other)
        self.set_text(demo.text)
        if demo.other_text is not None:
            # until the box is edited, which puts one text on both sides again
            self.right.set_text(demo.other_text)
        self.caption.setText(demo.caption)
        self.caption.setVisible(True)

    def _on_lesson_changed(self, _lesson: object) -> None:
        self.race.stop()

    def _on_race_said(self, sentence: str) -> None:
        self.caption.setText(sentence)
        self.caption.setVisible(True)

    # -- looks: the classroom mode sets these ---------------------------------------------------

    def follow_zoom(self, ratio: float) -> None:
        """The window's zoom changed by ``ratio``: the explorer's type grows with it."""
        self.set_scale(self.scale * ratio)

    def set_scale(self, factor: float) -> None:
        """Scale every font of the explorer (1.0 is the desktop size; 2.0 reads from the back of a room)."""
        self.scale = max(0.5, min(float(factor), 5.0))
        font = QFont(self.font())
        font.setPointSizeF(self._base_point_size * self.scale)
        self.setFont(font)
        self._apply_fonts()
        self._apply_style()
        for side in (self.left, self.right):
            side.view.set_scale(self.scale)
        self.languages.set_scale(self.scale)
        self.replay.set_scale(self.scale)

    def _apply_fonts(self) -> None:
        def sized(factor: float, bold: bool = False) -> QFont:
            font = QFont(self.font())
            font.setPointSizeF(self._base_point_size * self.scale * factor)
            font.setBold(bold or self.theme.bold)
            return font

        # style sheets stop fonts from flowing down to children, so each control gets its own
        for kind in (QPushButton, QCheckBox, QGroupBox, QLabel, QLineEdit, QComboBox):
            for control in self.findChildren(kind):
                control.setFont(sized(1.0))
        self.editor.setFont(sized(1.35))
        self.demos.menu().setFont(sized(1.0))
        self.caption.setFont(sized(1.3))
        for side in (self.left, self.right):
            side.counts.setFont(sized(1.3))
            side.chooser.setFont(sized(1.15, bold=True))
        self.replay.caption.setFont(sized(1.3))
        lines = QFontMetricsF(self.editor.font()).lineSpacing()
        # the projector sheet pads and frames the box: its four lines still need their room
        frame = 0 if self.theme.name in ("light", "dark") else 2 * (4 + max(1, round(self.theme.outline_width)))
        # two lines of text at the least, three to start: enough to edit, and the tokens below
        # keep the screen (the user drags the line between them for more)
        self.editor.setMinimumHeight(int(lines * 2.2 + 16 + frame))
        start = int(lines * 3.2 + 16 + frame)
        self.parts.setSizes([start, max(1, self.parts.height() - start)])

    def _apply_style(self) -> None:
        t = self.theme
        # with any style sheet in force a tab bar takes its font from its ::tab rule only
        tab_points = self._base_point_size * self.scale * 1.15
        # a projector theme leaves the tabs' size to the classroom's sheet, which sizes all its text
        size = "" if t.name not in ("light", "dark") else f"font-size: {tab_points:.1f}pt; "
        sheet = f"#explorer QTabBar::tab {{ {size}font-weight: bold; padding: 4px 12px; }}"
        if t.name in ("light", "dark"):
            # the window's style already dresses the controls; framing them again would squeeze the
            # demonstration buttons out of their row
            sheet += (f"#explorer #caption {{ background-color: {t.note}; color: {t.text}; "
                      f"border: 1px solid {t.note_edge}; padding: 6px; }}")
        else:
            sheet += (
                f"#explorer, #explorer QWidget {{ background-color: {t.background}; color: {t.text}; }}"
                f"#explorer QPlainTextEdit, #explorer QLineEdit, #explorer QComboBox, #explorer QPushButton,"
                f" #explorer QTableWidget, #explorer QGroupBox, #explorer QTabBar::tab"
                f" {{ border: {max(1, round(t.outline_width))}px solid {t.text}; padding: 4px 12px; }}"
                f"#explorer QCheckBox::indicator {{ border: 2px solid {t.text}; width: 1em; height: 1em; }}"
                f"#explorer QCheckBox::indicator:checked {{ background-color: {t.text}; }}"
                f"#explorer #caption {{ border: 2px solid {t.text}; padding: 6px; }}"
                # a framed group box needs room above its frame for its title, or the frame strikes it
                f"#explorer QGroupBox {{ margin-top: 1.3em; padding-top: 0.3em; }}"
                f"#explorer QGroupBox::title {{ subcontrol-origin: margin; left: 8px; padding: 0 4px; }}"
                f"#explorer QTabBar::tab:selected {{ background-color: {t.text}; color: {t.background}; }}"
            )
        self.setStyleSheet(sheet)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        # the window's light and dark themes reach the explorer as the application's palette (its
        # own style sheet keeps a parent's palette from flowing down); a projector theme someone
        # chose stays until they choose again
        changes = (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange)
        if event.type() in changes and self.theme.name in ("light", "dark"):
            ground = QApplication.palette().color(QPalette.ColorRole.Window)
            wanted = "dark" if ground.lightness() < 128 else "light"
            if wanted != self.theme.name:
                self.set_theme(wanted)

    def set_theme(self, theme: str | ExplorerTheme) -> None:
        """"light", "dark" or "high contrast" (or an ExplorerTheme)."""
        self.theme = theme_named(theme) if isinstance(theme, str) else theme
        t = self.theme
        # bold through fonts, not the style sheet: a style sheet font would undo the scale
        font = QFont(self.font())
        font.setBold(t.bold)
        self.setFont(font)
        self._apply_fonts()
        self._apply_style()
        for side in (self.left, self.right):
            side.view.set_theme(t)
        self.languages.set_theme(t)
        self.replay.set_theme(t)
