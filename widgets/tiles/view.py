"""The tile view: every word of the corpus as a row of tiles, following the session step by step.

``TileView(session)`` is a caption (step, corpus total, the next merge and its ties), a strip of
options, and the canvas that paints and animates the rows. A tokenizer read from a file has no
corpus: the rows are then a text typed in the strip (``set_text``), cut by the file's merges.
Everything the projector mode needs is settable: ``set_scale``, ``set_theme``, ``set_controls_visible``.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter, QTextDocument
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFileDialog, QLabel, QLineEdit, QMessageBox,
                               QToolButton, QVBoxLayout, QWidget)

from engine.readable.describe import tie_rule_short
from engine.errors import BpeLabError
from engine.files.writing import write_atomic
from engine.lesson.lesson import Lesson
from widgets.flow import FlowLayout, group
from widgets.saving import drawn_bytes, png_bytes
from widgets.scrolling import WrappedArea
from widgets.session_view import SessionView
from widgets.tiles.canvas import TileCanvas
from widgets.tiles.layout import ORDERS
from widgets.tiles.painter import badge_colour
from widgets.tiles.theme import TileTheme
from widgets.steady import steady

ORDER_LABELS = {"appearance": "first appearance", "frequency": "frequency"}


def tie_number(n: int) -> str:
    """A tied pair's number in the caption as its bracket's badge: black on the pair's colour,
    lightened to 7:1, so it reads on the light, dark and classroom grounds alike (the colour as
    text on white would not)."""
    return f"<span style='background-color:{badge_colour(n).name()}; color:#000000'><b>({n})</b></span>"


@dataclass(frozen=True)
class TilesShown:
    """What the tile view shows: the caption's lines as plain text, and the rows in view at rest
    (word index, each tile's label)."""

    caption: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]


class TileView(QWidget):
    # re-announced from the canvas so the window can wire them without reaching inside
    animation_finished = Signal()

    def __init__(self, session: SessionView, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.canvas = TileCanvas(session, self)
        self.caption = QLabel()
        self.caption.setTextFormat(Qt.TextFormat.RichText)
        self.caption.setWordWrap(True)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)

        self.order_box = QComboBox()
        for key in ORDERS:
            self.order_box.addItem(ORDER_LABELS[key], key)
        self.order_box.setToolTip("Order the rows by how often each word occurs, or by where it first appears")
        self.counting_box = QCheckBox("Show counting")
        self.counting_box.setToolTip("Before each merge, sweep a two-tile window along the words while the pair tallies grow")
        self.motion_box = QCheckBox("Reduce motion")
        self.motion_box.setToolTip("Show each merge at once, without animation")
        zoom_out = _tool_button("−", "Smaller tiles (Ctrl+wheel)")
        zoom_in = _tool_button("+", "Larger tiles (Ctrl+wheel)")
        export = _tool_button("Export…", "Save the rows in view as a PNG or SVG picture")
        # a tokenizer read from a file keeps no corpus: the rows are this text, cut by its merges
        self.text_box = QLineEdit(self.canvas.text)
        self.text_box.setObjectName("tilesText")
        self.text_box.setPlaceholderText("Type a text to cut with the file's merges")
        self.text_box.setToolTip("The file keeps no training text: the tiles show this text cut by its merges, step by step")
        self.text_box.setMinimumWidth(220)
        self.text_group = group(QLabel("Text"), self.text_box)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(150)  # typing re-cuts the text once it pauses, not on every key
        # the controls in groups that wrap onto a second line rather than clip when the view is narrow
        self.controls = QWidget()
        strip = FlowLayout(self.controls)
        strip.addWidget(self.text_group)
        strip.addWidget(group(QLabel("Rows by"), self.order_box))
        strip.addWidget(self.counting_box)
        strip.addWidget(self.motion_box)
        strip.addWidget(group(QLabel("Zoom"), zoom_out, zoom_in))
        strip.addWidget(export)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        # the caption wraps to its whole height; on a short window at a large zoom it scrolls (two
        # lines at least) rather than lose its end
        self.caption_area = WrappedArea(steady(self.caption), lambda: self.caption.minimumHeight())
        layout.addWidget(self.caption_area)
        layout.addWidget(self.controls)
        layout.addWidget(self.canvas, 1)

        self.order_box.currentIndexChanged.connect(lambda _: self.set_order(self.order_box.currentData()))
        self.counting_box.toggled.connect(self.canvas.set_show_counting)
        self.motion_box.toggled.connect(self.canvas.set_reduce_motion)
        zoom_in.clicked.connect(lambda: self.set_scale(self.canvas.scale * 1.15))
        zoom_out.clicked.connect(lambda: self.set_scale(self.canvas.scale / 1.15))
        export.clicked.connect(self._on_export_clicked)
        self.text_box.textChanged.connect(lambda _text: self._text_timer.start())
        self._text_timer.timeout.connect(lambda: self.canvas.set_text(self.text_box.text()))
        session.lesson_changed.connect(self._on_lesson_changed)
        self._on_lesson_changed(session.lesson)
        self.canvas.display_changed.connect(self._update_caption)
        self.canvas.scale_changed.connect(lambda _: self._update_caption())
        self.canvas.animation_finished.connect(self.animation_finished)
        # a merge plays within one step of Play, whatever its pace
        session.play_interval_changed.connect(lambda _ms: self.set_merge_duration(session.merge_duration))
        self.set_merge_duration(session.merge_duration)
        self._update_caption()

    def sizeHint(self) -> QSize:
        return QSize(900, 560)

    # -- settings (the window and the projector mode call these) --------------------------------

    @property
    def scale(self) -> float:
        """The tiles' size (1 at the window's actual size; the window's zoom multiplies it)."""
        return self.canvas.scale

    def set_scale(self, scale: float) -> None:
        self.canvas.set_scale(scale)

    def set_least_px(self, px: int) -> None:
        """The least type of what the tiles write beside them (the classroom's, in the mode; 0 off it)."""
        self.canvas.set_least_px(px)

    def follow_zoom(self, ratio: float) -> None:
        """The window's zoom changed by ``ratio``: the tiles grow with the type."""
        self.set_scale(self.scale * ratio)

    def set_theme(self, theme: TileTheme | str | None) -> None:
        """"light", "dark", "high contrast", a TileTheme, or None to follow the desktop palette."""
        self.canvas.set_theme(TileTheme.named(theme) if isinstance(theme, str) else theme)
        self._update_caption()

    def set_order(self, order: str) -> None:
        self.canvas.set_order(order)
        i = self.order_box.findData(order)
        if i != self.order_box.currentIndex():
            self.order_box.setCurrentIndex(i)

    def set_reduce_motion(self, on: bool) -> None:
        self.motion_box.setChecked(on)
        self.canvas.set_reduce_motion(on)

    def set_show_counting(self, on: bool) -> None:
        self.counting_box.setChecked(on)
        self.canvas.set_show_counting(on)

    def set_merge_duration(self, ms: int) -> None:
        self.canvas.set_merge_duration(ms)

    def set_text(self, text: str) -> None:
        """The text a tokenizer read from a file shows cut by its merges (the Tokenize panel's, where
        the window passes it on)."""
        self.text_box.setText(text)
        self._text_timer.stop()
        self.canvas.set_text(text)

    def _on_lesson_changed(self, lesson: Lesson | None) -> None:
        from_file = lesson is not None and lesson.corpus is None
        self.text_group.setVisible(from_file)
        # the file's merges were learned from a corpus it does not keep: counting the typed text explains none
        self.counting_box.setEnabled(not from_file)

    def mark_other_pair(self, step: int, pair: tuple[str, str] | None) -> None:
        """Show, while merge ``step`` is the next one, the pair another merge list merges there
        (bracketed, and named in the caption); None takes the mark away."""
        self.canvas.set_other_pair(step, pair)

    def set_controls_visible(self, on: bool) -> None:
        self.controls.setVisible(on)

    def finish_animation(self) -> None:
        self.canvas.finish_animation()

    # -- what is on screen ------------------------------------------------------------------------

    def shown(self) -> TilesShown:
        """The caption as the label renders it and the rows in view (for tests and accessibility)."""
        document = QTextDocument()
        document.setHtml(self.caption.text())
        lines = tuple(document.toPlainText().replace("\u2028", "\n").split("\n"))
        canvas = self.canvas
        order = canvas.row_order()
        rows = tuple((order[r], tuple(canvas.display_text(t) for t in canvas.row_tiles(order[r])))
                     for r in canvas.visible_rows())
        return TilesShown(lines, rows)

    def rows_step(self) -> int:
        """The step whose tokens the rows show now: the session's, except mid-merge, where the film
        shows the step before the merge until its tiles fuse (forward or back alike)."""
        t = self.canvas.transition
        if t is None:
            return self.session.step
        return t.step.step if t.fused else t.step.step - 1

    # -- caption --------------------------------------------------------------------------------

    def caption_text(self) -> str:
        """The caption as plain words (the label shows the same with emphasis)."""
        return self._caption(plain=True)

    def _caption(self, plain: bool) -> str:
        """Two lines: where the lesson is, then what happens next (or what is happening)."""
        state = self.session.state
        lesson = self.session.lesson
        if state is None:
            return "No trained lesson yet."
        esc = (lambda x: x) if plain else _escape

        def b(text: str) -> str:
            return text if plain else f"<b>{_escape(text)}</b>"

        text = self.canvas.display_text
        if lesson.corpus is None:
            return self._caption_without_corpus(state, lesson, b, plain)
        history = lesson.history
        first = (f"Step {state.step} of {lesson.last_step} · {b(format(history.total_tokens(self.rows_step()), ','))} "
                 f"tokens in the corpus (from {history.total_tokens(0):,})")
        chosen = self.canvas.selected_token()
        if chosen:
            first += f" · selected: {b(text(chosen))}"
            if not self.canvas.shows_token(chosen):
                first += " (in no word in view at this step)"
        t = self.canvas.transition
        nxt = state.next_step() if t is None else None
        if nxt is not None:
            pair = f"{text(nxt.pair[0])} + {text(nxt.pair[1])}"
            second = f"Next merge: {b(pair)} ×{nxt.count:,} (framed)"
            others = nxt.tied[1:]
            if others:
                shown = others[:4]
                # the legend of the brackets: each tied pair's number, in its bracket's colour
                def number(n: int) -> str:
                    return f"({n})" if plain else tie_number(n)

                ties = ", ".join(f"{number(n)} {esc(text(a) + ' + ' + text(c))}" for n, (a, c) in enumerate(shown, 1))
                rest = nxt.tie_count - 1 - len(shown)  # the step keeps a few ties and counts them all
                if rest > 0:
                    ties += esc(f" and {rest} more")
                second += (f", tied with {ties} (numbered brackets below the tiles): "
                           + esc(f"the rule picks {tie_rule_short(lesson.settings)}"))
            second += self._other_legend(nxt, b, plain)
        elif t is not None:
            pair = f"{text(t.step.pair[0])} + {text(t.step.pair[1])}"
            if t.sweep >= 0:
                second = "Counting every pair of neighbouring tiles, word by word…"
            elif t.forward:
                second = f"Merging {b(pair)} into {b(text(t.step.token))} ({t.step.count:,} times)"
            else:
                second = f"Undoing merge {t.step.step}: {b(text(t.step.token))} splits into {b(pair)}"
        else:
            second = esc(f"Done: {lesson.stop_reason}." if lesson.stop_reason else "")
        return first + ("\n" if plain else "<br>") + second

    def _other_legend(self, nxt, b, plain: bool) -> str:
        """The compared list's pair at this step, with its bracket's number: "your list merges (2) a + b"."""
        other = self.canvas.rows.other
        if other is None or other[0] != nxt.step or other[1] == nxt.pair:
            return ""
        n = self.canvas.rows.numbered(nxt).get(other[1], 0)
        text = self.canvas.display_text
        number = f"({n})" if plain else tie_number(n)
        return f" · your list merges {number} {b(text(other[1][0]) + ' + ' + text(other[1][1]))}"

    def _caption_without_corpus(self, state, lesson, b, plain: bool) -> str:
        """A tokenizer read from a file keeps no corpus: the rows are a typed text cut by its merges,
        and the caption says so, with the text's tokens and where the next merge applies in it."""
        text = self.canvas.display_text
        esc = (lambda x: x) if plain else _escape
        tiles = self.canvas.text_tiles
        where = f"step {state.step:,} of {lesson.last_step:,}"
        if tiles is None:
            first = esc(f"No training text: type a text above to see the file's merges cut it ({where})")
        else:
            total = b(format(tiles.total_tokens(self.rows_step()), ","))
            first = (esc(f"No training text: the file's merges applied to this text, {where} · ") + total
                     + esc(f" tokens (from {tiles.total_tokens(0):,})"))
        t = self.canvas.transition
        nxt = state.next_step() if t is None else None
        if t is not None:
            pair = b(text(t.step.pair[0]) + " + " + text(t.step.pair[1]))
            if t.forward:
                second = f"Merging {pair} into {b(text(t.step.token))}"
            else:
                second = f"Undoing merge {t.step.step:,}: {b(text(t.step.token))} splits into {pair}"
        elif nxt is None:
            second = esc("The file's merges end here.")
        else:
            second = f"Next merge: {b(text(nxt.pair[0]) + ' + ' + text(nxt.pair[1]))} → {b(text(nxt.token))}"
            if tiles is not None:
                n = tiles.places(nxt.step)
                second += esc(f", framed where it applies ({n:,} time{'' if n == 1 else 's'} in this text)" if n
                              else " (in no word of this text)")
        return first + ("\n" if plain else "<br>") + second

    def _update_caption(self) -> None:
        # the size goes in the caption's own style sheet: the window's sheet sizes every widget's
        # type, and only a sheet overrides a sheet (a font set on the label would be ignored)
        pixels = max(10, round(17 * self.canvas.scale))
        theme = self.canvas.theme
        sheet = f"color: {theme.text}; background: {theme.background}; padding: 4px; font-size: {pixels}px;"
        if self.caption.styleSheet() != sheet:  # setting a style sheet re-polishes: only on a theme or zoom change
            self.caption.setStyleSheet(sheet)
            font = QFont(self.caption.font())
            font.setPixelSize(pixels)
            self.caption.setMinimumHeight(int(QFontMetrics(font).lineSpacing() * 2 + 12))
        self.caption.setText(self._caption(plain=False))

    # -- export ---------------------------------------------------------------------------------

    def render_image(self, resolution: float = 2.0) -> QImage:
        """The rows in view, with the caption above them, at ``resolution`` pixels per screen pixel."""
        w, h, caption_h = self._export_size()
        image = QImage(int(w * resolution), int(h * resolution), QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(resolution)
        painter = QPainter(image)
        self._paint_export(painter, w, h, caption_h)
        painter.end()
        return image

    def export_png(self, path: str, resolution: float = 2.0) -> None:
        write_atomic(path, png_bytes(self.render_image(resolution)))

    def export_svg(self, path: str) -> None:
        try:
            from PySide6.QtSvg import QSvgGenerator
        except ImportError:  # PySide6-Essentials ships QtSvg; guard for trimmed installs
            raise BpeLabError("SVG export needs the QtSvg module of PySide6: install PySide6-Essentials") from None
        w, h, caption_h = self._export_size()

        def draw(device) -> bool:
            generator = QSvgGenerator()
            generator.setOutputDevice(device)
            generator.setSize(QSize(int(w), int(h)))
            generator.setViewBox(QRectF(0, 0, w, h))
            generator.setTitle("BPE Lab tile view")
            generator.setDescription(self.caption_text())
            painter = QPainter()
            if not painter.begin(generator):
                return False
            self._paint_export(painter, w, h, caption_h)
            return painter.end()

        write_atomic(path, drawn_bytes(draw))

    def _export_size(self) -> tuple[float, float, float]:
        vp = self.canvas.viewport()
        caption_h = self.canvas.painter.label_metrics.height() * 2 + 12 * self.canvas.scale
        return float(vp.width()), float(vp.height()) + caption_h, caption_h

    def _paint_export(self, painter: QPainter, w: float, h: float, caption_h: float) -> None:
        canvas = self.canvas
        theme = canvas.theme
        painter.fillRect(QRectF(0, 0, w, h), QColor(theme.background))
        painter.setPen(QColor(theme.text))
        painter.setFont(canvas.painter.label_font)
        painter.drawText(QRectF(canvas.painter.margin, 0, w - 2 * canvas.painter.margin, caption_h),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap,
                         self.caption_text())
        painter.translate(0, caption_h)
        painter.setClipRect(QRectF(0, 0, w, h - caption_h))
        canvas.paint_rows(painter, w, h - caption_h, canvas.horizontalScrollBar().value(),
                          canvas.verticalScrollBar().value(), vector=True)

    def _on_export_clicked(self) -> None:
        path, chosen = QFileDialog.getSaveFileName(self, "Export the tile view", "tiles.png",
                                                   "PNG picture (*.png);;SVG drawing (*.svg)")
        if not path:
            return
        try:
            if path.lower().endswith(".svg") or (chosen.startswith("SVG") and "." not in path.rsplit("/", 1)[-1]):
                self.export_svg(path if path.lower().endswith(".svg") else path + ".svg")
            else:
                self.export_png(path if path.lower().endswith(".png") else path + ".png")
        except BpeLabError as exc:
            QMessageBox.warning(self, "BPE Lab", str(exc))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _tool_button(text: str, tip: str) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    return button
