"""The scrolling surface that paints the words as rows of tiles and plays the merges.

Only the rows inside the viewport are laid out and painted; a row's layout is cached for the
current step and dropped when a step touches its word, so a corpus of any size costs the same per
frame. The lesson state always holds the step the session is at; a running merge is a film laid
over it (``Transition``) that can be dropped at any moment, which is how a step requested
mid-animation finishes the running one cleanly: the rows underneath are already right.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

from PySide6.QtCore import QElapsedTimer, QEvent, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QPainter
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip

from engine.display import MARKER
from engine.trainer import MergeStep
from widgets.tiles.layout import FUSE_AT, Frame, RowLayout, RowMerge, lay_out
from widgets.tiles.painter import TilePainter
from widgets.tiles.theme import TileTheme

ORDERS = ("appearance", "frequency")
# layouts kept for the current step; the visible rows need a few dozen, so this only bounds memory
LAYOUT_CACHE = 2048


@dataclass
class Transition:
    """One merge being played: step ``step.step`` made (forward) or undone (backward)."""

    step: MergeStep
    forward: bool
    sweep_positions: int = 0  # the counting window's stops; 0 when counting is not shown
    progress: float = 0.0  # merge progress: 0 = pair apart, 1 = fused (runs 1 -> 0 for a split)
    sweep: float = -1.0  # counting window position while counting, else -1
    rows: dict[int, RowMerge] = field(default_factory=dict)

    def places_in(self, word: int) -> set[int]:
        places = self.step.places
        i = bisect_left(places, (word, -1))
        found = set()
        while i < len(places) and places[i][0] == word:
            found.add(places[i][1])
            i += 1
        return found

    @property
    def fused(self) -> bool:
        return self.sweep < 0 and self.progress >= FUSE_AT


class TileCanvas(QAbstractScrollArea):
    animation_started = Signal()
    animation_finished = Signal()
    # what the rows show changed in a way a caption should follow (step, counts, selection)
    display_changed = Signal()
    scale_changed = Signal(float)

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.painter = TilePainter(self.font(), self._desktop_theme())
        self.order = "appearance"
        self.reduce_motion = False
        self.show_counting = False
        self.merge_ms = 700
        self.sweep_ms = 260
        self.rows_built = 0  # layouts ever built: lets a test prove big corpora stay lazy
        self._layouts: dict[int, RowLayout] = {}
        self._order: list[int] = []
        self._made_by: dict[str, MergeStep] = {}
        self._selected = session.selected_token if hasattr(session, "selected_token") else ""
        self._transition: Transition | None = None
        self._widest = 0.0
        self._tied: tuple[int, set] = (-1, set())
        self._timer = QTimer(self)
        self._timer.setInterval(15)
        self._timer.timeout.connect(self._on_tick)
        self._clock = QElapsedTimer()
        self._frozen = False
        self._own_theme = False
        self.viewport().setAutoFillBackground(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._apply_metrics()
        session.lesson_changed.connect(self._on_lesson_changed)
        session.step_changed.connect(self._on_step_changed)
        session.token_selected.connect(self._on_token_selected)
        self._on_lesson_changed()

    # -- settings -------------------------------------------------------------------------------

    @property
    def theme(self) -> TileTheme:
        return self.painter.theme

    @property
    def scale(self) -> float:
        return self.painter.scale

    @property
    def row_h(self) -> float:
        return self.painter.row_h

    def set_theme(self, theme: TileTheme | None) -> None:
        """A theme of its own, or None to follow the widget palette (light or dark desktop)."""
        self._own_theme = theme is not None
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

    def set_order(self, order: str) -> None:
        if order not in ORDERS:
            raise ValueError(f"unknown row order '{order}': choose one of {', '.join(ORDERS)}")
        if order != self.order:
            self.order = order
            self._build_order()
            self.verticalScrollBar().setValue(0)
            self.viewport().update()

    def set_reduce_motion(self, on: bool) -> None:
        self.reduce_motion = bool(on)
        if self.reduce_motion:
            self.finish_animation()

    def set_show_counting(self, on: bool) -> None:
        self.show_counting = bool(on)

    def set_merge_duration(self, ms: int) -> None:
        """How long one merge takes to play; the timeline's speed sets it."""
        self.merge_ms = max(1, int(ms))

    def _desktop_theme(self) -> TileTheme:
        """The widget palette's light or dark, or high contrast when the desktop asks for it."""
        contrast = _desktop_preference("contrastPreference")
        if contrast is not None and contrast == Qt.ContrastPreference.HighContrast:
            return TileTheme.high_contrast()
        return TileTheme.from_palette(self.palette())

    def motion_allowed(self) -> bool:
        if self.reduce_motion:
            return False
        preference = _desktop_preference("motionPreference")
        return preference is None or preference != Qt.MotionPreference.ReducedMotion

    # -- what the view shows (also what the tests read) -----------------------------------------

    @property
    def animating(self) -> bool:
        return self._transition is not None

    @property
    def transition(self) -> Transition | None:
        return self._transition

    def row_order(self) -> list[int]:
        return self._order

    def row_tiles(self, word: int) -> tuple[str, ...]:
        """The tiles the row of ``word`` shows at rest (the current step)."""
        return self._layout(word).tokens

    def frame_tiles(self, word: int) -> list[Frame]:
        """The row of ``word`` as painted at this very moment, mid-merge included."""
        return self._frames(word)

    def visible_rows(self) -> range:
        return self._rows_in(self.viewport().height(), self.verticalScrollBar().value())

    def displayed_total(self) -> int:
        """The corpus total the rows show: during a merge it changes at the moment of fusion."""
        state = self.session.state
        if state is None:
            return 0
        t = self._transition
        if t is None:
            return state.total_tokens
        return t.step.tokens_after if t.fused else t.step.tokens_before

    def hidden_below(self) -> int:
        """Words below the last row in view: the summary line counts them."""
        rows = self.visible_rows()
        return max(0, len(self._order) - rows.stop)

    def shows_token(self, token: str) -> bool:
        """Whether a row in view holds the token at rest."""
        return any(token in self._layout(self._order[r]).tokens for r in self.visible_rows())

    def selected_token(self) -> str:
        return self._selected

    # -- session signals ------------------------------------------------------------------------

    def _on_lesson_changed(self) -> None:
        self._drop_transition(emit=True)
        lesson = self.session.lesson
        self._layouts.clear()
        self._widest = 0.0
        self._made_by = {}
        self._tied = (-1, set())
        unknown = None
        ids = None
        specials: tuple[str, ...] = ()
        if lesson is not None and lesson.trained:
            for step in reversed(lesson.steps):
                self._made_by[step.token] = step
            tokenizer = lesson.tokenizer
            ids = tokenizer.token_to_id
            if tokenizer.unknown_id is not None:
                unknown = tokenizer.id_to_token(tokenizer.unknown_id)
            specials = tuple(tokenizer.special_ids)
        if lesson is not None:
            self.painter.set_lesson(lesson.settings.marker, lesson.settings.units, unknown, ids, specials)
        self._selected = getattr(self.session, "selected_token", "")
        self._build_order()
        self._measure_badges()
        self._update_scrollbars()
        self.verticalScrollBar().setValue(0)
        self.viewport().update()
        self.display_changed.emit()

    def _on_step_changed(self, change) -> None:
        new, previous = change.step, change.previous
        # a merge still playing ends here, whole: its rows are already right underneath
        self._drop_transition(emit=True)
        changed = change.words
        if len(changed) >= len(self._layouts):
            self._layouts.clear()
        else:
            for w in changed:
                self._layouts.pop(w, None)
        if abs(new - previous) == 1 and self.motion_allowed() and self.isVisible():
            self._start(new, previous)
        self.viewport().update()
        self.display_changed.emit()

    def _on_token_selected(self, token: str) -> None:
        self._selected = token
        self.viewport().update()
        self.display_changed.emit()

    # -- the animation --------------------------------------------------------------------------

    def _start(self, new: int, previous: int) -> None:
        made = max(new, previous)
        step = self.session.lesson.steps[made - 1]
        forward = new > previous
        t = Transition(step, forward, progress=0.0 if forward else 1.0)
        if forward and self.show_counting:
            longest = max((len(self._before_tokens(t, self._order[r])) for r in self.visible_rows()), default=0)
            t.sweep_positions = max(0, longest - 1)
            t.sweep = 0.0 if t.sweep_positions else -1.0
        self._transition = t
        self._frozen = False
        self._clock.start()
        self._timer.start()
        self.animation_started.emit()

    def _durations(self, t: Transition) -> tuple[int, int]:
        return t.sweep_positions * self.sweep_ms, self.merge_ms

    def _on_tick(self) -> None:
        t = self._transition
        if t is None or self._frozen:
            self._timer.stop()
            return
        self._set_time(t, self._clock.elapsed())

    def _set_time(self, t: Transition, ms: float) -> None:
        sweep_ms, merge_ms = self._durations(t)
        was = (t.fused, t.sweep >= 0)
        if ms < sweep_ms:
            t.sweep = ms / self.sweep_ms
        else:
            t.sweep = -1.0
            p = min(1.0, (ms - sweep_ms) / merge_ms)
            t.progress = p if t.forward else 1.0 - p
            if p >= 1.0:
                self.finish_animation()
                return
        self.viewport().update()
        if (t.fused, t.sweep >= 0) != was:
            self.display_changed.emit()

    def seek(self, fraction: float) -> None:
        """Hold the running merge at a fraction of its length (for pictures and tests)."""
        t = self._transition
        if t is None:
            return
        self._frozen = True
        self._timer.stop()
        sweep_ms, merge_ms = self._durations(t)
        self._set_time(t, max(0.0, min(1.0, fraction)) * (sweep_ms + merge_ms) - 1e-6)

    def finish_animation(self) -> None:
        """Jump the running merge to its end (nothing if none runs)."""
        self._drop_transition(emit=True)
        self.viewport().update()

    def _drop_transition(self, emit: bool) -> None:
        if self._transition is None:
            return
        self._timer.stop()
        self._transition = None
        self._frozen = False
        if emit:
            self.animation_finished.emit()
            self.display_changed.emit()

    def _before_tokens(self, t: Transition, word: int) -> tuple[str, ...]:
        m = self._merge_of(t, word)
        return m.before.tokens if m is not None else self._layout(word).tokens

    def _merge_of(self, t: Transition, word: int) -> RowMerge | None:
        """The row's before/after pair for this merge, or None when the merge does not touch it."""
        found = t.rows.get(word)
        if found is None:
            places = t.places_in(word)
            if not places:
                return None
            lesson = self.session.lesson
            made = t.step.step
            symbols = lesson.corpus.symbols(word)
            before = lay_out(word, lesson.history.word_tokens(word, made - 1), symbols, self.painter.measure, self.painter.gap)
            after = lay_out(word, lesson.history.word_tokens(word, made), symbols, self.painter.measure, self.painter.gap)
            found = t.rows[word] = RowMerge.match(before, after, places)
        return found

    def _frames(self, word: int) -> list[Frame]:
        t = self._transition
        if t is not None:
            m = self._merge_of(t, word)
            if m is not None:
                if t.sweep >= 0:
                    # while counting, the row simply shows its tiles before the merge
                    b = m.before
                    return [Frame(tok, x, w) for tok, x, w in zip(b.tokens, b.xs, b.widths)]
                return m.frames(t.progress)
        layout = self._layout(word)
        return [Frame(tok, x, w) for tok, x, w in zip(layout.tokens, layout.xs, layout.widths)]

    def _frames_in(self, word: int, left: float, right: float) -> tuple[list[Frame], int, float]:
        """The frames of a row that can show between left and right, its tile count and its end.

        A resting row builds frames only for its visible slice: with split "none" a row can hold
        the whole text.
        """
        t = self._transition
        if t is None or self._merge_of(t, word) is None:
            layout = self._layout(word)
            span = layout.visible_range(left, right)
            frames = [Frame(layout.tokens[i], layout.xs[i], layout.widths[i]) for i in span]
            return frames, len(layout.tokens), layout.width
        frames = self._frames(word)
        end = frames[-1].x + frames[-1].width if frames else 0.0
        merged = t.fused
        m = t.rows[word]
        return frames, len((m.after if merged else m.before).tokens), end

    # -- metrics and layouts --------------------------------------------------------------------

    def _apply_metrics(self) -> None:
        """After a change of scale: every size changes, so every layout goes."""
        self._layouts.clear()
        self._widest = 0.0
        self._measure_badges()
        self._update_scrollbars()
        self.viewport().update()

    def _measure_badges(self) -> None:
        lesson = self.session.lesson
        biggest = max(lesson.corpus.counts, default=1) if lesson is not None else 1
        self.badge_w = self.painter.badge_width(biggest)
        self.tiles_x = self.painter.margin + self.badge_w + 14 * self.scale

    def _build_order(self) -> None:
        lesson = self.session.lesson
        n = len(lesson.corpus) if lesson is not None and self.session.state is not None else 0
        if self.order == "frequency":
            counts = lesson.corpus.counts
            self._order = sorted(range(n), key=lambda w: (-counts[w], w))
        else:
            self._order = list(range(n))
        self._update_scrollbars()

    def display_text(self, token: str) -> str:
        """A token as its tile labels it (bytes readable, spaces visible)."""
        return self.painter.text(token)

    def _layout(self, word: int) -> RowLayout:
        layout = self._layouts.get(word)
        if layout is None:
            if len(self._layouts) >= LAYOUT_CACHE:
                self._layouts.clear()
            state = self.session.state
            layout = lay_out(word, state.tokens(word), state.corpus.symbols(word), self.painter.measure, self.painter.gap)
            self._layouts[word] = layout
            self.rows_built += 1
        return layout

    def _rows_in(self, height: float, scroll: float) -> range:
        n = len(self._order)
        if n == 0:
            return range(0)
        top, row_h = self.painter.top, self.painter.row_h
        first = max(0, int((scroll - top) // row_h))
        last = min(n, int((scroll + height - top) // row_h) + 1)
        return range(first, max(first, last))

    def _update_scrollbars(self) -> None:
        if not hasattr(self, "tiles_x"):
            return
        vp = self.viewport()
        painter = self.painter
        content_h = painter.top + len(self._order) * painter.row_h + painter.footer_h
        bar = self.verticalScrollBar()
        bar.setRange(0, max(0, int(content_h - vp.height())))
        bar.setPageStep(max(1, vp.height()))
        bar.setSingleStep(max(1, int(self.row_h / 2)))
        hbar = self.horizontalScrollBar()
        hbar.setRange(0, max(0, int(self.tiles_x + self._widest + 140 * self.scale - vp.width())))
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
        widest = self.paint_rows(painter, vp.width(), vp.height(),
                                 self.horizontalScrollBar().value(), self.verticalScrollBar().value())
        painter.end()
        if widest > self._widest:
            self._widest = widest
            # changing a scroll range inside a paint would re-enter it: do it right after
            QTimer.singleShot(0, self._update_scrollbars)

    def paint_rows(self, p: QPainter, width: float, height: float, sx: float, sy: float, vector: bool = False) -> float:
        """Paint the rows in view onto any device; returns the widest row drawn.

        ``vector`` draws every tile as shapes and text (for SVG and high-resolution pictures)
        instead of blitting the cached tile pictures the screen uses.
        """
        self.painter.vector = vector
        try:
            return self._paint_rows(p, width, height, sx, sy)
        finally:
            self.painter.vector = False

    def _paint_rows(self, p: QPainter, width: float, height: float, sx: float, sy: float) -> float:
        look = self.painter
        theme = look.theme
        p.fillRect(QRectF(0, 0, width, height), theme.color("background"))
        state = self.session.state
        if state is None or not self._order:
            look.message(p, width, height, "No trained lesson yet: type or open a training text.")
            return 0.0
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        rows = self._rows_in(height, sy)
        t = self._transition
        counts = state.corpus.counts
        widest = 0.0
        idle = t is None and state.next_step() is not None
        stripe = theme.color("stripe")
        counting = t is not None and t.sweep_positions > 0
        sweep_rows = []
        ox = self.tiles_x - sx
        left, right = -ox - look.row_h, width - ox + look.row_h
        for r in rows:
            word = self._order[r]
            y = look.top + r * look.row_h - sy
            if r % 2:
                p.fillRect(QRectF(0, y, width, look.row_h), stripe)
            ty = y + look.tile_top
            frames, n, end = self._frames_in(word, left, right)
            widest = max(widest, end)
            if idle:
                self._paint_next(p, word, ox, ty)
            look.paint_tiles(p, frames, ox, ty, left, right, self._selected)
            if counting:
                sweep_rows.append((word, ox, ty))
            look.row_labels(p, QRectF(look.margin - sx, ty, self.badge_w, look.tile_h), ox + end + 14 * look.scale,
                            ty, counts[word], n)
        if counting:
            self._paint_counting(p, t, sweep_rows, width)
        above = rows.start if rows else 0
        below = max(0, len(self._order) - rows.stop)
        if below or above:
            look.footer(p, width, height, self.summary(above, below))
        return widest

    def summary(self, above: int, below: int) -> str:
        """The line that stands for the rows out of view."""
        def words(n: int) -> str:
            return f"{n:,} word" + ("" if n == 1 else "s")
        parts = []
        if above:
            parts.append(f"{words(above)} above")
        if below:
            parts.append(f"… and {below:,} more word{'' if below == 1 else 's'} below")
        return " · ".join(parts)

    def highlights(self, word: int) -> tuple[list[int], list[int]]:
        """Tile indices (left tile of each pair) where the next merge happens, and where a tied pair sits."""
        state = self.session.state
        nxt = state.next_step() if state is not None and self._transition is None else None
        if nxt is None:
            return [], []
        layout = self._layout(word)
        if self._tied[0] != nxt.step:
            self._tied = (nxt.step, set(nxt.tied) - {nxt.pair})
        tied = self._tied[1]
        ties = [i for i, pair in enumerate(zip(layout.tokens, layout.tokens[1:])) if pair in tied]
        winners = []
        places = nxt.places
        i = bisect_left(places, (word, -1))
        while i < len(places) and places[i][0] == word:
            k = layout.index_of_offset(places[i][1])
            if 0 <= k < len(layout.tokens) - 1:
                winners.append(k)
            i += 1
        return winners, ties

    def tile_rect(self, word: int, index: int) -> QRectF:
        """Where a tile of the resting row sits in the viewport (for hit tests and pictures)."""
        r = self._order.index(word)
        layout = self._layout(word)
        look = self.painter
        y = look.top + r * look.row_h - self.verticalScrollBar().value() + look.tile_top
        x = self.tiles_x - self.horizontalScrollBar().value() + layout.xs[index]
        return QRectF(x, y, layout.widths[index], look.tile_h)

    def _paint_next(self, p, word, ox: float, ty: float) -> None:
        """Frame the places where the next merge happens and bracket the tied pairs."""
        layout = self._layout(word)
        winners, ties = self.highlights(word)
        for level, i in enumerate(ties):
            self.painter.bracket_pair(p, ox + layout.xs[i], ox + layout.xs[i + 1] + layout.widths[i + 1], ty, level)
        for k in winners:
            self.painter.frame_pair(p, ox + layout.xs[k], ox + layout.xs[k + 1] + layout.widths[k + 1], ty)

    def _paint_counting(self, p: QPainter, t: Transition, rows, width: float) -> None:
        """The counting window on every row, and the tally of the pairs it has passed so far.

        Once the window has passed every tile the tally stays up during the merge, its winner framed.
        """
        sweeping = t.sweep >= 0
        pos = int(t.sweep) if sweeping else t.sweep_positions
        tally: dict[tuple[str, str], int] = {}
        counts = self.session.lesson.corpus.counts
        for word, ox, ty in rows:
            m = self._merge_of(t, word)
            layout = m.before if m is not None else self._layout(word)
            tokens = layout.tokens
            # rows first, then left to right: the tally meets pairs in reading order
            for pair in zip(tokens, tokens[1:pos + 2]):
                tally[pair] = tally.get(pair, 0) + counts[word]
            if sweeping and pos + 1 < len(tokens):
                self.painter.sweep_window(p, ox + layout.xs[pos], ox + layout.xs[pos + 1] + layout.widths[pos + 1], ty)
        top = sorted(tally.items(), key=lambda item: -item[1])[:6]
        shown = "all words" if len(rows) == len(self._order) else "words in view"
        lines = [(f"{self.display_text(a)} + {self.display_text(b)}", n, not sweeping and (a, b) == t.step.pair)
                 for (a, b), n in top]
        self.painter.tally(p, width, f"Counting pairs ({shown})", lines)

    # -- hover and click ------------------------------------------------------------------------

    def token_at(self, pos: QPointF) -> tuple[int, str] | None:
        """(word, token) under a viewport point, or None."""
        if self.session.state is None:
            return None
        look = self.painter
        y = pos.y() + self.verticalScrollBar().value() - look.top
        r = int(y // look.row_h)
        if r < 0 or r >= len(self._order):
            return None
        ty = look.tile_top
        if not ty <= y - r * look.row_h <= ty + look.tile_h:
            return None
        word = self._order[r]
        layout = self._layout(word)
        i = layout.tile_at(pos.x() + self.horizontalScrollBar().value() - self.tiles_x)
        return (word, layout.tokens[i]) if i >= 0 else None

    def describe(self, token: str) -> str:
        """Tooltip text: id, the step that made the token, its count then, and its parents."""
        lesson = self.session.lesson
        tokenizer = lesson.tokenizer
        token_id = tokenizer.token_to_id(token) if tokenizer is not None else None
        shown = self.display_text(token)
        head = f"{shown}   id {token_id}" if token_id is not None else shown
        step = self._made_by.get(token)
        if step is None:
            kind = "end-of-word marker" if self.painter.look(token).kind == MARKER else "base symbol"
            return f"{head}\n{kind}: in the vocabulary from the start"
        a, b = (self.display_text(x) for x in step.pair)
        return (f"{head}\nmade by merge {step.step} of {lesson.last_step}\n"
                f"parents: {a} + {b}\ncount then: {step.count:,}")

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
        if event.type() == QEvent.Type.PaletteChange and not getattr(self, "_own_theme", True):
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


def _desktop_preference(name: str):
    """A desktop accessibility setting (``contrastPreference``, ``motionPreference``) or None.

    The style hints stay referenced while the setting is read: shiboken drops the accessibility
    object with them.
    """
    hints = QGuiApplication.styleHints()
    accessibility = hints.accessibility() if hasattr(hints, "accessibility") else None
    if accessibility is None or not hasattr(accessibility, name):
        return None
    return getattr(accessibility, name)()
