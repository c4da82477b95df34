"""One side of the explorer: a tokenizer chooser, the counts, and the text drawn as its tokens."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from engine.readable.tile_colours import colouring_of
from engine.errors import is_bad_input, one_line
from engine.readable.explorer import Split, split_text
from widgets.copy_tokens import add_copy_actions
from widgets.shortest_combo import ShortestCombo
from widgets.explorer.sources import (
    CL100K, CL100K_CHAT, FILE_PREFIX, LESSON, TokenizerSources, file_key, internal_problem,
)
from widgets.explorer.token_view import TokenView

OPEN_FILE = "open…"
# past this many characters the side draws (and counts) only the beginning: a whole book as
# coloured boxes helps nobody and would hold up the window
MAX_CHARS = 20_000


class SidePane(QFrame):
    source_changed = Signal(str)

    def __init__(self, sources: TokenizerSources, key: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.sources = sources
        self.key = key
        self.text = ""
        self.split: Split | None = None
        self.active = False
        # typed special-token text becomes the special token only when the explorer's switch says so
        self.allow_special = False
        # no narrower than the tokenizer on show: held to its longest title, a side would not fit
        # half the page at a large zoom
        self.chooser = ShortestCombo()
        self.counts = QLabel()
        self.counts.setObjectName("counts")
        self.counts.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.view = TokenView()
        add_copy_actions(self.view, self.tokens_to_copy)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(self.view)
        head = QHBoxLayout()
        head.addWidget(self.chooser, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.counts)
        layout.addWidget(self.status)
        layout.addWidget(self.scroll_area, 1)
        self._fill_chooser()
        self.chooser.activated.connect(self._on_chosen)
        sources.ready.connect(self._on_source_event)
        sources.failed.connect(self._on_source_event)

    # -- choosing the tokenizer ---------------------------------------------------------------

    def _fill_chooser(self) -> None:
        self.chooser.blockSignals(True)
        self.chooser.clear()
        keys = [CL100K, CL100K_CHAT, LESSON]
        if self.key not in keys:
            keys.append(self.key)
        for key in keys:
            self.chooser.addItem(self.sources.title(key), key)
        self.chooser.addItem("Open a tokenizer file…", OPEN_FILE)
        self.chooser.setCurrentIndex(keys.index(self.key))
        self.chooser.blockSignals(False)

    def _on_chosen(self, index: int) -> None:
        key = self.chooser.itemData(index)
        if key == OPEN_FILE:
            path, _ = QFileDialog.getOpenFileName(
                self, "Open a tokenizer", "", "Tokenizers and lessons (*.json *.txt *.tiktoken *.csv *.bpelab);;All files (*)"
            )
            if not path:
                self._fill_chooser()
                return
            key = file_key(path)
        self.set_source(key)

    def set_source(self, key: str) -> None:
        if key.startswith(FILE_PREFIX) and self.sources.error(key):
            self.sources.reload(key)  # the file may have been fixed since
        self.key = key
        self._fill_chooser()
        self.refresh()
        self.source_changed.emit(key)

    def open_file(self, path: str) -> None:
        self.set_source(file_key(path))

    @property
    def tokenizer(self):
        return self.sources.get(self.key) if self.active else None

    def _on_source_event(self, key: str, *_) -> None:
        if key == self.key:
            self.refresh()

    # -- showing the text -----------------------------------------------------------------------

    def tokens_to_copy(self) -> tuple[list[int], list[str]]:
        """The ids and tokens shown, in order (each token as people read it)."""
        pieces = self.split.pieces if self.split is not None else ()
        return [i for p in pieces for i in p.ids], [t for p in pieces for t in p.tokens]

    def set_text(self, text: str) -> None:
        self.text = text
        self.refresh()

    def set_allow_special(self, on: bool) -> None:
        if on != self.allow_special:
            self.allow_special = on
            self.refresh()

    def activate(self) -> None:
        """Start loading (the explorer calls this when it is first shown)."""
        if not self.active:
            self.active = True
            self.refresh()

    def refresh(self) -> None:
        if self.key == LESSON:
            self.chooser.setItemText(self.chooser.currentIndex(), self.sources.title(LESSON))
        if not self.active:
            return
        tokenizer = self.sources.get(self.key)
        if tokenizer is None:
            self.split = None
            error = self.sources.error(self.key)
            if error:
                message = f"Could not load this tokenizer: {error}. Choose another one above."
            elif self.key == LESSON:
                message = "The lesson has no trained tokenizer yet: type some training text in Corpus."
            else:
                message = f"Loading {self.sources.title(self.key)}…"
            self._show_status(message)
            self.counts.setText("")
            self.view.set_pieces((), message)
            return
        text = self.text[:MAX_CHARS]
        try:
            self.split = split_text(tokenizer, text, allow_special=self.allow_special)
        except Exception as exc:  # noqa: BLE001 (a tokenizer from a file may fail on this text: said, not raised)
            self.split = None
            message = one_line(str(exc)) if is_bad_input(exc) else internal_problem(exc)
            self._show_status(message)
            self.view.set_pieces((), message)
            return
        note = ""
        if len(self.text) > MAX_CHARS:
            note = f"Showing and counting the first {MAX_CHARS:,} of {len(self.text):,} characters."
        self._show_status(note)
        s = self.split
        self.counts.setText(
            f"<b>{s.token_count:,}</b> tokens · {s.char_count:,} characters · "
            f"<b>{s.chars_per_token:.2f}</b> characters per token"
        )
        # the lesson's own tokens take the colours they have on the tiles
        colouring = colouring_of(self.sources.session.lesson) if self.key == LESSON else None
        self.view.set_pieces(s.pieces, "Type some text above.", colouring)

    def _show_status(self, message: str) -> None:
        self.status.setText(message)
        self.status.setVisible(bool(message))
