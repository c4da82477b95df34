"""The scrolling surface of the tile view: the widget that wires the rows, the film and the painter.

``TileRows`` (layout) says where rows and tiles go and lays out only the rows asked for, so a
corpus of any size costs the same per frame (a tokenizer read from a file has no corpus: its rows
are a typed text's words, cut by its merges, ``set_text``); ``MergeFilm`` (animation) plays each
merge over the step the session is at; ``TilePainter`` draws them. This widget turns the session's signals,
the clock, scrolling, the mouse and the keys into calls on those three, and announces what changed.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QElapsedTimer, QEvent, QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QGuiApplication, QPainter
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip

from engine.readable.tile_colours import colouring_of
from engine.readable.display import MARKER
from engine.lesson.lesson import Lesson, StepChange
from engine.lesson.text_tiles import TextTiles
from engine.algorithm.trainer import MergeStep
from widgets.session_view import SessionView
from widgets.tiles.animation import MergeFilm, Tick, Transition
from widgets.tiles.layout import Frame, TileRows, summary
from widgets.tiles.painter import RowsShown, TilePainter
from widgets.tiles.theme import TileTheme

TICK_MS = 15
# what a tokenizer read from a file cuts until a text is given: the Tokenize panel's first text
SAMPLE_TEXT = "lowest newer"


class TileCanvas(QAbstractScrollArea):
    animation_started = Signal()
    animation_finished = Signal()
    # what the rows show changed in a way a caption should follow (step, counts, selection)
    display_changed = Signal()
    scale_changed = Signal(float)

    def __init__(self, session: SessionView, parent=None):
        super().__init__(parent)
        self.session = session
        self.painter = TilePainter(self.font(), self._desktop_theme())
        self.rows = TileRows(self.painter)
        self.film = MergeFilm(self._longest_row, on_start=self.animation_started.emit, on_end=self._on_film_ended)
        self._chosen_theme: TileTheme | None = None
        self._selected = session.selected_token
        self._widest = 0.0
        self._shown = RowsShown()
        self._text = SAMPLE_TEXT
        self._text_tiles: TextTiles | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._on_tick)
        self._clock = QElapsedTimer()
        self._clock.start()
        # every paint fills the whole viewport first: nothing beneath it needs painting (the tab pages,
        # the window), which spares a step that much filling of its largest area
        self.viewport().setAutoFillBackground(False)
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._apply_metrics()
        session.lesson_changed.connect(self._on_lesson_changed)
        session.step_changed.connect(self._on_step_changed)
        session.token_selected.connect(self._on_token_selected)
        self._on_lesson_changed(session.lesson)

    # -- settings -------------------------------------------------------------------------------

    @property
    def theme(self) -> TileTheme:
        return self.painter.theme

    @property
    def own_theme(self) -> TileTheme | None:
        """The theme given with ``set_theme``, or None while the view follows the desktop."""
        return self._chosen_theme

    @property
    def scale(self) -> float:
        return self.painter.scale

    @property
    def row_h(self) -> float:
        return self.painter.row_h

    @property
    def tiles_x(self) -> float:
        """Where every row's first tile starts, before scrolling."""
        return self.painter.tiles_x

    @property
    def merge_ms(self) -> int:
        return self.film.merge_ms

    def set_theme(self, theme: TileTheme | None) -> None:
        """A theme of its own, or None to follow the widget palette (light or dark desktop)."""
        self._chosen_theme = theme
        self.painter.set_theme(theme or self._desktop_theme())
        self.viewport().update()
        self.display_changed.emit()

    def set_scale(self, scale: float) -> None:
        scale = max(0.5, min(4.0, float(scale)))
        if scale == self.scale:
            return
        self.painter.set_scale(scale)
        self._apply_metrics()
        self.scale_changed.emit(scale)

    def set_other_pair(self, step: int, pair: tuple[str, str] | None) -> None:
        """Bracket the pair another merge list merges at ``step`` while that merge is the next one."""
        self.rows.set_other(step, pair)
        self.viewport().update()
        self.display_changed.emit()

    def set_order(self, order: str) -> None:
        if self.rows.set_order(order):
            self._update_scrollbars()
            self.verticalScrollBar().setValue(0)
            self.viewport().update()

    def set_reduce_motion(self, on: bool) -> None:
        self.film.set_reduce_motion(on)

    @property
    def text(self) -> str:
        """The text a lesson with no corpus shows cut by its merges."""
        return self._text

    @property
    def text_tiles(self) -> TextTiles | None:
        """That text cut by the lesson's merges, while the lesson has no corpus (else None)."""
        return self._text_tiles

    def set_text(self, text: str) -> None:
        """The text to cut with the merges of a lesson that has no corpus (a tokenizer file)."""
        if text == self._text:
            return
        self._text = text
        lesson = self.session.lesson
        if lesson is not None and lesson.corpus is None and lesson.trained:
            self._show_lesson(lesson)

    def set_show_counting(self, on: bool) -> None:
        self.film.show_counting = bool(on)

    def set_merge_duration(self, ms: int) -> None:
        """How long one merge takes to play; the timeline's speed sets it."""
        self.film.set_merge_duration(ms)

    def _desktop_theme(self) -> TileTheme:
        """The widget palette's light or dark, or high contrast when the desktop asks for it."""
        if _desktop_wants_high_contrast():
            return TileTheme.high_contrast()
        return TileTheme.from_palette(self.palette())

    # -- what the view shows (also what the tests read) -----------------------------------------

    @property
    def animating(self) -> bool:
        return self.film.running

    @property
    def transition(self) -> Transition | None:
        return self.film.transition

    @property
    def rows_built(self) -> int:
        return self.rows.rows_built

    def row_order(self) -> list[int]:
        return self.rows.order

    def row_tiles(self, word: int) -> tuple[str, ...]:
        """The tiles the row of ``word`` shows at rest (the current step)."""
        return self.rows.layout(word).tokens

    def frame_tiles(self, word: int) -> list[Frame]:
        """The row of ``word`` as painted at this very moment, mid-merge included."""
        return self.rows.frames(word, self.film.transition)

    def visible_rows(self) -> range:
        """The rows a class sees, not those under the band that counts the words below."""
        return self.painter.rows_seen(self.rows, self.viewport().height(), self.verticalScrollBar().value())

    def displayed_total(self) -> int:
        """The corpus total the rows show: during a merge it changes at the moment of fusion."""
        state = self.session.state
        if state is None:
            return 0
        t = self.film.transition
        shown = None if t is None else t.tokens_shown
        return state.total_tokens if shown is None else shown

    def hidden_below(self) -> int:
        """Words below the last row in view: the summary line counts them."""
        return self.rows.hidden_below(self.visible_rows())

    def shows_token(self, token: str) -> bool:
        """Whether a row in view holds the token at rest."""
        return self.rows.shows(token, self.visible_rows())

    def selected_token(self) -> str:
        return self._selected

    def summary(self, above: int, below: int) -> str:
        """The line that stands for the rows out of view."""
        return summary(above, below)

    def highlights(self, word: int) -> tuple[list[int], list[int]]:
        """Tile indices (left tile of each pair) where the next merge happens, and where a tied pair sits."""
        state = self.session.state
        nxt = state.next_step() if state is not None and not self.film.running else None
        return self.rows.highlights(word, nxt)

    def tile_rect(self, word: int, index: int) -> QRectF:
        """Where a tile of the resting row sits in the viewport (for hit tests and pictures)."""
        x, y, w, h = self.rows.tile_box(word, index)
        return QRectF(self.tiles_x - self.horizontalScrollBar().value() + x, y - self.verticalScrollBar().value(), w, h)

    def row_texts(self) -> list[tuple[str, QRectF, QFont]]:
        """Each ×count, token count and tie number the resting rows in view write, where in the
        viewport and in which font (for the legibility check: they are painted, not widgets)."""
        vp = self.viewport()
        area = QRectF(self.horizontalScrollBar().value(), self.verticalScrollBar().value(), vp.width(), vp.height())
        return self.painter.row_texts(self.rows, area)

    def set_least_px(self, px: int) -> None:
        """The least type of the tie numbers under the tiles: the classroom's, in the mode."""
        self.painter.least_px = px
        self.viewport().update()

    def display_text(self, token: str) -> str:
        """A token as its tile labels it (bytes readable, spaces visible)."""
        return self.painter.text(token)

    # -- session signals ------------------------------------------------------------------------

    def _on_lesson_changed(self, lesson: Lesson) -> None:
        self._show_lesson(lesson)

    def _show_lesson(self, lesson: Lesson) -> None:
        self.film.stop()
        unknown = None
        ids = None
        colouring = None
        specials: tuple[str, ...] = ()
        tokenizer = lesson.tokenizer if lesson is not None and lesson.trained else None
        if lesson is not None and tokenizer is not None:
            ids = tokenizer.token_to_id
            colouring = colouring_of(lesson)
            if tokenizer.unknown_id is not None:
                unknown = tokenizer.id_to_token(tokenizer.unknown_id)
            specials = tuple(tokenizer.special_ids)
        if lesson is not None:
            self.painter.set_lesson(lesson.settings.marker, lesson.settings.units, unknown, ids, specials, colouring)
        self._selected = self.session.selected_token
        self._shown = RowsShown()
        self._text_tiles = None
        if lesson is not None and lesson.corpus is None and lesson.trained and self._text.strip():
            self._text_tiles = TextTiles(lesson, self._text)
        self.rows.set_lesson(lesson, self.session.state, self._text_tiles)
        self._widest = 0.0
        self._measure_badges()
        self._update_scrollbars()
        self.verticalScrollBar().setValue(0)
        self.viewport().update()
        self.display_changed.emit()

    def _on_step_changed(self, change: StepChange) -> None:
        # a typed text's words are no corpus words: the change names none of them, and any may change
        words = change.words if self._text_tiles is None else range(len(self.rows.order))
        self.rows.forget(words)
        # a merge still playing ends here, whole: its rows are already right underneath
        motion = self.isVisible() and not _desktop_reduces_motion()
        if self.film.move(change.previous, change.step, self.session.lesson.steps, self._clock.elapsed(), motion) is not None:
            self._timer.start()
            self.viewport().update()
        else:
            self._update_changed_rows(set(words))
        self.display_changed.emit()

    def _update_changed_rows(self, words: set[int]) -> None:
        """Repaint the rows in view that a step changed: their words were re-split, or the next
        merge's frames and brackets moved in them. Most steps leave most rows as they were."""
        state = self.session.state
        vp = self.viewport()
        if state is None:
            vp.update()
            return
        rows, sy = self.rows, self.verticalScrollBar().value()
        nxt = state.next_step()
        painted = self._shown.highlights
        for r in rows.rows_in(vp.height(), sy):
            word = rows.order[r]
            if word in words or painted.get(word) != rows.marks(word, nxt):
                top = rows.row_top(r) - sy
                vp.update(QRect(0, int(top) - 1, vp.width(), int(self.row_h) + 3))

    def _on_token_selected(self, token: str) -> None:
        self._selected = token
        self.viewport().update()
        self.display_changed.emit()

    # -- the film -------------------------------------------------------------------------------

    def _longest_row(self, step: MergeStep) -> int:
        if self._text_tiles is not None:
            return 0  # a file's merges were not chosen by counting a typed text: no counting to show
        return self.rows.longest_before(step, self.visible_rows())

    def _on_tick(self) -> None:
        self._follow(self.film.advance(self._clock.elapsed()))

    def seek(self, fraction: float) -> None:
        """Hold the running merge at a fraction of its length (for pictures and tests)."""
        self._timer.stop()
        self._follow(self.film.seek(fraction))

    def _follow(self, tick: Tick) -> None:
        if tick is Tick.STILL:
            self._timer.stop()
        elif tick is not Tick.ENDED:  # an end has redrawn already
            self.viewport().update()
            if tick is Tick.TURNED:
                self.display_changed.emit()

    def finish_animation(self) -> None:
        """Jump the running merge to its end (nothing if none runs)."""
        self.film.stop()
        self.viewport().update()

    def _on_film_ended(self) -> None:
        self._timer.stop()
        self.viewport().update()
        self.animation_finished.emit()
        self.display_changed.emit()

    # -- sizes and scrolling --------------------------------------------------------------------

    def _apply_metrics(self) -> None:
        """After a change of scale: every size changes, so every layout goes."""
        self.rows.rescale()
        self._widest = 0.0
        self._measure_badges()
        self._update_scrollbars()
        self.viewport().update()

    def _measure_badges(self) -> None:
        self.painter.set_biggest_count(max(self.rows.counts, default=1))

    def _update_scrollbars(self) -> None:
        vp = self.viewport()
        self.painter.fit_footer(vp.width(), vp.height(), len(self.rows.order))
        content_h = self.rows.content_height() + self.painter.footer_h
        bar = self.verticalScrollBar()
        bar.setRange(0, max(0, int(content_h - vp.height())))
        bar.setPageStep(max(1, vp.height()))
        bar.setSingleStep(max(1, int(self.row_h / 2)))
        hbar = self.horizontalScrollBar()
        hbar.setRange(0, max(0, math.ceil(self.tiles_x + self._widest + self.painter.margin - vp.width())))
        hbar.setPageStep(max(1, vp.width()))
        hbar.setSingleStep(max(1, int(self.row_h / 2)))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._update_scrollbars()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()
        self.display_changed.emit()

    # -- painting -------------------------------------------------------------------------------

    def paintEvent(self, event) -> None:
        vp = self.viewport()
        self.painter.set_ratio(vp.devicePixelRatioF())
        painter = QPainter(vp)
        band = event.rect()
        self._shown.top, self._shown.bottom = band.top(), band.bottom() + 1
        widest = self.paint_rows(painter, vp.width(), vp.height(), self.horizontalScrollBar().value(),
                                 self.verticalScrollBar().value(), shown=self._shown)
        painter.end()
        if widest > self._widest:
            self._widest = widest
            # changing a scroll range inside a paint would re-enter it: do it right after
            QTimer.singleShot(0, self, self._update_scrollbars)  # with the canvas as context: none after it is gone

    def paint_rows(self, p: QPainter, width: float, height: float, sx: float, sy: float, vector: bool = False,
                   shown: RowsShown | None = None) -> float:
        """Paint the rows in view onto any device; returns the widest row drawn.

        ``vector`` draws every tile as shapes and text (for SVG and high-resolution pictures)
        instead of blitting the cached tile pictures the screen uses; ``shown``: the screen's record.
        """
        return self.painter.paint_rows(p, self.rows, self.film.transition, QRectF(sx, sy, width, height),
                                       self._selected, vector, shown)

    # -- hover and click ------------------------------------------------------------------------

    def token_at(self, pos: QPointF) -> tuple[int, str] | None:
        """(word, token) under a viewport point, or None."""
        if self.session.state is None:
            return None
        return self.rows.token_at(pos.x() + self.horizontalScrollBar().value() - self.tiles_x,
                                  pos.y() + self.verticalScrollBar().value())

    def describe(self, token: str) -> str:
        """Tooltip text: id, the step that made the token, its count then, and its parents."""
        lesson = self.session.lesson
        tokenizer = lesson.tokenizer
        token_id = tokenizer.token_to_id(token) if tokenizer is not None else None
        shown = self.display_text(token)
        head = f"{shown}   id {token_id}" if token_id is not None else shown
        step = lesson.history.made_by(token) if lesson.trained else None
        if step is None:
            kind = "end-of-word marker" if self.painter.look(token).kind == MARKER else "base symbol"
            return f"{head}\n{kind}: in the vocabulary from the start"
        a, b = (self.display_text(x) for x in step.pair)
        count = "not known (the file keeps no corpus)" if step.count is None else f"{step.count:,}"
        return (f"{head}\nmade by merge {step.step} of {lesson.last_step}\n"
                f"parents: {a} + {b}\ncount then: {count}")

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            found = self.token_at(QPointF(event.pos()))
            if found is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.describe(found[1]), self.viewport())
            return True
        return super().viewportEvent(event)

    def mousePressEvent(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        found = self.token_at(event.position())
        token = found[1] if found is not None else ""
        if token == self._selected:
            token = ""  # a second click on the chosen token lets it go
        self.session.request_token_selection(token)

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self._chosen_theme is None:
            self.set_theme(None)

    def keyPressEvent(self, event) -> None:
        # zoom keys as in a browser; the arrows and space stay with the window's timeline
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            key = event.key()
            if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
                self.set_scale(self.scale * 1.15)
                return
            if key == Qt.Key.Key_Minus:
                self.set_scale(self.scale / 1.15)
                return
            if key == Qt.Key.Key_0:
                self.set_scale(1.0)
                return
        super().keyPressEvent(event)

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.set_scale(self.scale * (1.1 if event.angleDelta().y() > 0 else 1 / 1.1))
            return
        super().wheelEvent(event)


# Qt 6.10 brought the desktop's accessibility settings; on older Qt the desktop has no say here.

def _desktop_wants_high_contrast() -> bool:
    # the style hints stay referenced while the setting is read: shiboken drops the
    # accessibility object with them
    hints = QGuiApplication.styleHints()
    try:
        return hints.accessibility().contrastPreference() == Qt.ContrastPreference.HighContrast
    except AttributeError:
        return False


def _desktop_reduces_motion() -> bool:
    hints = QGuiApplication.styleHints()
    try:
        # a Qt newer than the stubs' 6.11 has the motion preference; this one raises AttributeError
        return hints.accessibility().motionPreference() == Qt.MotionPreference.ReducedMotion  # type: ignore[attr-defined]
    except AttributeError:
        return False
