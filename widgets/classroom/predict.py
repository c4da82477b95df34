""""Predict first": before a merge, the class guesses which pair wins; the teacher then reveals it.

``question_for(session)`` reads the lesson where it stands and builds the question: the top pairs
(at most four) as choices, shuffled so the winner is not always first, and the word rows the class
counts from. ``PredictPrompt`` shows it over the tile view while the class thinks (the view's own
frame around the next pair stays hidden under it), then shrinks to a band at the bottom when the
teacher reveals the answer, so the winner is seen framed on the tiles themselves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from collections.abc import Callable, Sequence, Set
from typing import TYPE_CHECKING

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from engine.readable.tile_colours import TokenColours, colouring_of
from engine.readable.describe import tie_rule, tied_rivals
from engine.readable.display import Display, for_tokenizer
import widgets.classroom.look as look
from widgets.classroom.cover import Cover
from widgets.tiles.painter import TilePainter
from widgets.tiles.theme import TileTheme

if TYPE_CHECKING:
    from engine.lesson.lesson import LessonState
    from widgets.session_view import SessionView

HIDDEN, ASKING, REVEALED = "hidden", "asking", "revealed"
MAX_CHOICES = 4
# a row's symbols at most: more would not fit across a projected screen in tiles this large
ROW_SYMBOLS = 120
MAX_ROWS = 40

TEXT = QColor(look.TEXT)
MUTED = QColor(look.MUTED)
ACCENT = QColor(look.ACCENT)  # the same yellow frames the winner on the high-contrast tiles
RIGHT = QColor(look.RIGHT)

KEYS_LINE = "Keys 1–4: the class's answer   ·   → or Page Down: reveal   ·   ←: step back"
COUNT_HINT = "Count each pair of neighbouring tiles in every word, times the word's count."


@dataclass(frozen=True)
class Choice:
    pair: tuple[str, str]
    count: int


@dataclass(frozen=True)
class Question:
    merge: int  # the number of the merge about to be made (1 for the first)
    choices: tuple[Choice, ...]
    winner: tuple[str, str]
    token: str
    count: int
    tied: tuple[tuple[str, str], ...]  # other pairs with the winner's count
    # which pair a tie goes to, in the lesson's own rule (engine.readable.describe.tie_rule)
    rule: str
    rows: tuple[tuple[tuple[str, ...], int], ...]  # (tokens, how often the word occurs), as shown
    more_words: int  # words left out of ``rows``
    # how the lesson's tokens read (marker, units, special and unknown tokens), as on the tiles
    display: Display = Display()
    token_id: Callable[[str], int | None] | None = field(default=None, compare=False)
    colouring: TokenColours | None = field(default=None, compare=False)

    @property
    def winner_index(self) -> int:
        return next(i for i, c in enumerate(self.choices) if c.pair == self.winner)

    @property
    def choices_tie(self) -> bool:
        """Whether another choice has the winner's count: then only the tie rule decides."""
        return sum(c.count == self.count for c in self.choices) > 1

    def tie_note(self) -> str:
        """The rule, said before the reveal when the choices tie (the reveal's own words, ``rule``)."""
        return f"A tie goes to {self.rule}." if self.choices_tie else ""

    def shown(self, token: str) -> str:
        return self.display.token(token)

    def pair_text(self, pair: tuple[str, str]) -> str:
        return self.display.pair(pair)


def _head(state: LessonState, w: int) -> tuple[str, ...]:
    """The tokens a row can show of word w: a long word's first ones, then "…" (a text with no
    spaces is one word of millions of tokens, and the prompt draws and measures every one it gets)."""
    head = tuple(state.tokens_head(w, ROW_SYMBOLS))
    return head + ("…",) if len(head) < state.token_count(w) else head


def question_for(session: SessionView, limit: int = MAX_CHOICES) -> Question | None:
    """The question before the next merge, or None when there is nothing to ask (the end, or one pair only)."""
    state = session.state
    lesson = session.lesson
    corpus, tokenizer = lesson.corpus, lesson.tokenizer
    if state is None or tokenizer is None:
        return None  # not trained yet
    if corpus is None:
        return None  # no corpus (an imported tokenizer): no counts to predict from
    step = state.next_step()
    if step is None:
        return None
    # the answer is among the choices even where it ranks below the cut
    ranked = state.ranked_pairs(limit, must_include=step.pair)
    if len(ranked) < 2:
        return None
    choices = [Choice(pair, count) for pair, count in ranked]
    # the same lesson and step always shuffle the same way, so a rehearsal matches the lesson
    random.Random(step.step * 7919 + len(choices)).shuffle(choices)
    words = len(corpus.words)
    shown_rows = min(words, MAX_ROWS)
    rows = tuple((_head(state, w), corpus.counts[w]) for w in range(shown_rows))
    return Question(
        merge=step.step, choices=tuple(choices), winner=step.pair, token=step.token, count=state.pair_count(step.pair),
        tied=tied_rivals(step), rule=tie_rule(lesson.settings), rows=rows, more_words=words - shown_rows,
        display=for_tokenizer(tokenizer), token_id=tokenizer.token_to_id, colouring=colouring_of(lesson),
    )


class PredictPrompt(Cover):
    """Hidden, asking (covers the tiles) or revealed (a band at the bottom of them)."""

    def __init__(self, host: QWidget):
        super().__init__(host)
        self.state = HIDDEN
        self.question: Question | None = None
        self.guess: int | None = None
        self.tiles = TilePainter(self.font(), TileTheme.high_contrast())

    # -- the flow -------------------------------------------------------------------------------

    def ask(self, question: Question) -> None:
        self.question = question
        self.guess = None
        self.state = ASKING
        d = question.display
        self.tiles.set_lesson(d.marker, d.units, d.unknown, question.token_id, tuple(d.specials), question.colouring)
        self.show()
        self.place()
        self.update()

    def mark(self, index: int) -> bool:
        """Note the class's answer (0-based); False when there is no such choice or nothing is asked."""
        if self.state != ASKING or self.question is None or not 0 <= index < len(self.question.choices):
            return False
        self.guess = index
        self.update()
        return True

    def reveal(self) -> None:
        if self.state == ASKING:
            self.state = REVEALED
            self.place()
            self.update()

    def clear(self) -> None:
        self.state = HIDDEN
        self.question = None
        self.guess = None
        self.hide()

    # -- words ----------------------------------------------------------------------------------

    def verdict(self) -> str:
        """After the reveal: was the class right, in plain words."""
        q = self.question
        if q is None or self.state != REVEALED or self.guess is None:
            return ""
        chosen = q.choices[self.guess]
        if chosen.pair == q.winner:
            return f"The class said {self.guess + 1}: right!"
        if chosen.count == q.count:
            return (f"The class said {self.guess + 1} ({q.pair_text(chosen.pair)}): as frequent, "
                    f"but a tie goes to {q.rule}")
        return f"The class said {self.guess + 1} ({q.pair_text(chosen.pair)}): only {chosen.count:,} times"

    def text(self) -> str:
        """What the prompt says, as plain lines (for tests and screen readers)."""
        q = self.question
        if q is None or self.state == HIDDEN:
            return ""
        if self.state == ASKING:
            lines = [f"Merge {q.merge}: which pair wins?", COUNT_HINT]
            if q.tie_note():
                lines.append(q.tie_note())
            lines += [f"{i + 1}  {q.pair_text(c.pair)}" for i, c in enumerate(q.choices)]
            if self.guess is not None:
                lines.append(f"The class says {self.guess + 1}")
            return "\n".join(lines)
        lines = [f"Answer: {q.pair_text(q.winner)} → {q.shown(q.token)}, {q.count:,} times"]
        lines.append("   ".join(f"{i + 1}  {q.pair_text(c.pair)}  {c.count:,}" for i, c in enumerate(q.choices)))
        if self.verdict():
            lines.append(self.verdict())
        return "\n".join(lines)

    # -- painting -------------------------------------------------------------------------------

    def area(self) -> QRect:
        r = self.host.rect()
        if self.state == REVEALED:
            band = max(140, int(r.height() * 0.27))
            return QRect(r.left(), r.bottom() - band + 1, r.width(), band)
        return r

    def _font(self, px: float, bold: bool = False) -> QFont:
        """The prompt's type at ``px`` for a 1080p projector's size, never below the classroom's least."""
        font = QFont(self.font())
        font.setPixelSize(max(look.LEAST_PX, int(px)))
        font.setBold(bold)
        return font

    def _draw_tiles(self, p: QPainter, tokens: Sequence[str], x: float, y: float,
                    framed: Set[int] = frozenset()) -> float:
        t = self.tiles
        p.setFont(t.tile_font)
        for i, token in enumerate(tokens):
            w = t.measure(token)
            t.draw_tile(p, token, QRectF(x, y, w, t.tile_h), i in framed, False)
            x += w + t.gap
        return x

    def _pair_width(self, pair: tuple[str, str], plus_w: float) -> float:
        t = self.tiles
        return t.measure(pair[0]) + t.measure(pair[1]) + plus_w + 2 * t.gap

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        q = self.question
        if q is None:
            return  # hidden: nothing asked
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(look.GROUND))
        if self.state == ASKING:
            self._paint_question(p, q)
        else:
            self._paint_answer(p, q)

    def _paint_question(self, p: QPainter, q: Question) -> None:
        w, h = self.width(), self.height()
        unit = min(h / 1080, w / 1920)  # sizes are drawn for a 1080p projector and follow the screen
        margin = 40 * unit
        title = self._font(64 * unit, bold=True)
        p.setFont(title)
        p.setPen(TEXT)
        top_h = QFontMetricsF(title).lineSpacing() * 1.2
        p.drawText(QRectF(margin, margin * 0.5, w - 2 * margin, top_h), Qt.AlignmentFlag.AlignVCenter,
                   f"Merge {q.merge}: which pair wins?")
        hint = self._font(30 * unit)
        p.setFont(hint)
        y = margin * 0.5 + top_h
        # the lines that say how to count and how a tie goes wrap rather than run off a small screen
        wrap = int(Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap)
        for text, pen in ((COUNT_HINT, MUTED), (q.tie_note(), ACCENT)):
            if not text:
                continue
            line_h = QFontMetricsF(hint).boundingRect(QRectF(0, 0, w - 2 * margin, 1e6), wrap, text).height() * 1.1
            p.setPen(pen)
            p.drawText(QRectF(margin, y, w - 2 * margin, line_h), wrap, text)
            y += line_h
        y += 10 * unit

        choices_h = h * 0.30
        footer_h = QFontMetricsF(hint).boundingRect(QRectF(0, 0, w - 2 * margin, 1e6), wrap, KEYS_LINE).height() \
            + QFontMetricsF(hint).lineSpacing() * 0.6
        rows_bottom = h - choices_h - footer_h - margin * 0.5
        self._paint_rows(p, q, margin, y, w - 2 * margin, rows_bottom - y, unit)
        self._paint_choices(p, q, margin, rows_bottom + 10 * unit, w - 2 * margin, choices_h - 20 * unit, unit)

        p.setFont(hint)
        p.setPen(MUTED)
        p.drawText(QRectF(margin, h - footer_h, w - 2 * margin, footer_h),
                   int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), KEYS_LINE)

    def _word_width(self, tokens: Sequence[str], count: int, badge: QFontMetricsF) -> tuple[float, float]:
        t = self.tiles
        badge_w = badge.horizontalAdvance(f"×{count:,}") + t.gap
        return badge_w, badge_w + sum(t.measure(x) + t.gap for x in tokens)

    def _flow(self, rows: Sequence[tuple[Sequence[str], int]], width: float) -> list[list[tuple[int, float]]]:
        """Words laid out like a paragraph: lines of (row index, x), each word whole on one line."""
        badge = QFontMetricsF(self.tiles.bold_font)
        word_gap = self.tiles.gap * 5
        lines: list[list[tuple[int, float]]] = [[]]
        x = 0.0
        for i, (tokens, count) in enumerate(rows):
            w = self._word_width(tokens, count, badge)[1]
            if lines[-1] and x + w > width:
                lines.append([])
                x = 0.0
            lines[-1].append((i, x))
            x += w + word_gap
        return lines

    def _stacked(self, rows: Sequence[tuple[Sequence[str], int]], width: float, height: float,
                 unit: float) -> list[list[tuple[int, float]]] | None:
        badge = QFontMetricsF(self.tiles.bold_font)
        for scale in (2.2 * unit, 1.9 * unit, 1.6 * unit):
            self.tiles.set_scale(scale)
            badge = QFontMetricsF(self.tiles.bold_font)
            tall = len(rows) * (self.tiles.tile_h + self.tiles.gap * 1.5)
            if tall <= height and all(self._word_width(t, c, badge)[1] <= width for t, c in rows):
                return [[(i, 0.0)] for i in range(len(rows))]
        return None

    def _paint_rows(self, p: QPainter, q: Question, x: float, y: float, width: float, height: float,
                    unit: float) -> None:
        rows = q.rows
        # a word per line while a few words allow it, the way the tile view shows them; else a
        # paragraph of words, as large as fits, from 2.2 down to 1 (then the rest is counted)
        lines = self._stacked(rows, width, height, unit)
        scale = 2.2 * unit
        while lines is None:
            self.tiles.set_scale(scale)
            flowed = self._flow(rows, width)
            if len(flowed) * (self.tiles.tile_h + self.tiles.gap * 1.5) <= height or scale <= unit:
                lines = flowed
            scale = max(unit, scale * 0.9)
        step_h = self.tiles.tile_h + self.tiles.gap * 1.5
        t = self.tiles
        more_font = self._font(30 * unit)
        fit = max(1, int(height // step_h))
        shown = lines[:fit]
        if len(lines) > fit or q.more_words:
            shown = lines[:max(1, fit - 1)]
        badge = QFontMetricsF(t.bold_font)
        drawn = 0
        for line in shown:
            for i, lx in line:
                tokens, count = rows[i]
                badge_w = self._word_width(tokens, count, badge)[0]
                p.setFont(t.bold_font)
                p.setPen(TEXT)
                p.drawText(QRectF(x + lx, y, badge_w - t.gap * 0.5, t.tile_h),
                           Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"×{count:,}")
                self._draw_tiles(p, tokens, x + lx + badge_w, y)
                drawn += 1
            y += step_h
        more = q.more_words + len(rows) - drawn
        if more:
            p.setFont(more_font)
            p.setPen(MUTED)
            p.drawText(QRectF(x, y, width, step_h), Qt.AlignmentFlag.AlignVCenter,
                       f"… and {more:,} more word{'s' if more != 1 else ''}")

    def _paint_choices(self, p: QPainter, q: Question, x: float, y: float, width: float, height: float,
                       unit: float) -> None:
        n = len(q.choices)
        gap = 24 * unit
        box_w = (width - gap * (n - 1)) / n
        number_font = self._font(min(height * 0.28, 64 * unit), bold=True)
        plus_font = self._font(56 * unit, bold=True)
        plus_w = QFontMetricsF(plus_font).horizontalAdvance("+")
        # one tile size for every box: the widest pair decides it
        scale = 2.8 * unit
        self.tiles.set_scale(scale)
        while scale > 0.8 * unit and max(self._pair_width(c.pair, plus_w) for c in q.choices) > box_w - 40 * unit:
            scale *= 0.92
            self.tiles.set_scale(scale)
        t = self.tiles
        for i, choice in enumerate(q.choices):
            box = QRectF(x + i * (box_w + gap), y, box_w, height)
            marked = self.guess == i
            p.setBrush(QColor(look.PANEL))
            p.setPen(QPen(ACCENT if marked else TEXT, (9 if marked else 3) * unit))
            p.drawRoundedRect(box, 16 * unit, 16 * unit)
            p.setFont(number_font)
            p.setPen(ACCENT if marked else TEXT)
            p.drawText(box.adjusted(22 * unit, 10 * unit, 0, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                       str(i + 1))
            a, b = choice.pair
            tx = box.center().x() - self._pair_width(choice.pair, plus_w) / 2
            ty = box.center().y() - t.tile_h / 2 + 12 * unit
            tx = self._draw_tiles(p, [a], tx, ty)
            p.setFont(plus_font)
            p.setPen(TEXT)
            p.drawText(QRectF(tx, ty, plus_w, t.tile_h), Qt.AlignmentFlag.AlignCenter, "+")
            self._draw_tiles(p, [b], tx + plus_w + t.gap, ty)
            if marked:
                p.setFont(self._font(30 * unit, bold=True))
                p.setPen(ACCENT)
                p.drawText(box.adjusted(0, 0, 0, -8 * unit), Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
                           "the class's answer")

    def _answer_layout(self, q: Question, w: float, unit: float) -> tuple[float, float, bool]:
        """Where the answer's parts go at ``unit``: the headline's height, the height of all of it,
        and whether the count sentence goes under the tiles (it does not fit beside them)."""
        margin = 36 * unit
        big = QFontMetricsF(self._font(52 * unit, bold=True))
        self.tiles.set_scale(2.0 * unit)
        row_h = max(big.lineSpacing() * 1.25, self.tiles.tile_h)
        x = margin + big.horizontalAdvance("Answer:") + 24 * unit + self._pair_width(q.winner, 0)
        under = x + 12 * unit + big.horizontalAdvance(self._times(q)) > w - margin
        head = row_h + (big.lineSpacing() * 1.25 if under else 0)
        room = QRectF(0, 0, w - 2 * margin, 1e6)
        wrap = Qt.TextFlag.TextWordWrap
        body = 0.0
        for text, bold in ((self._counts(q), False), (self._closing_line(q), True)):
            body += QFontMetricsF(self._font(36 * unit, bold=bold)).boundingRect(room, wrap, text).height() + 4 * unit
        hint = QFontMetricsF(self._font(30 * unit)).lineSpacing()
        return head, 18 * unit + head + 8 * unit + body + hint + 8 * unit, under

    def _unit(self, q: Question) -> float:
        """The answer's scale: as large as the band allows with every line whole and wrapped inside it."""
        w, h = self.width(), self.height()
        unit = min(h / 290, w / 1920)
        while unit > 0.2 and self._answer_layout(q, w, unit)[1] > h:
            unit *= 0.92
        return unit

    def answer_fits(self) -> bool:
        """Whether the revealed answer's lines all lie inside the band (for tests); with nothing asked
        there is no answer to overflow."""
        q = self.question
        return q is None or self._answer_layout(q, self.width(), self._unit(q))[1] <= self.height()

    def _times(self, q: Question) -> str:
        return f"→ {q.shown(q.token)}   {q.count:,} times (choice {q.winner_index + 1})"

    def _counts(self, q: Question) -> str:
        return "    ".join(f"{i + 1}: {q.pair_text(c.pair)} ×{c.count:,}" for i, c in enumerate(q.choices))

    def _closing_line(self, q: Question) -> str:
        tie = f"Tied pairs: the tie goes to {q.rule}." if q.tied else ""
        return "   ".join(s for s in (self.verdict(), tie) if s) or "It is framed on the tiles above."

    def _paint_answer(self, p: QPainter, q: Question) -> None:
        w, h = self.width(), self.height()
        unit = self._unit(q)
        head, _, under = self._answer_layout(q, w, unit)
        margin = 36 * unit
        p.fillRect(QRectF(0, 0, w, 6 * unit), ACCENT)
        big = self._font(52 * unit, bold=True)
        line_h = QFontMetricsF(big).lineSpacing() * 1.25
        self.tiles.set_scale(2.0 * unit)
        t = self.tiles
        y = 18 * unit
        p.setFont(big)
        p.setPen(ACCENT)
        label = "Answer:"
        row_h = max(line_h, t.tile_h)
        p.drawText(QRectF(margin, y, w, row_h), Qt.AlignmentFlag.AlignVCenter, label)
        x = margin + QFontMetricsF(big).horizontalAdvance(label) + 24 * unit
        ty = y + (row_h - t.tile_h) / 2
        x = self._draw_tiles(p, list(q.winner), x, ty, framed={0, 1})
        p.setFont(big)
        p.setPen(TEXT)
        # on a narrow screen the count goes under the tiles rather than off the edge
        where = QRectF(margin, y + row_h, w - 2 * margin, line_h) if under else QRectF(x + 12 * unit, y, w - x, row_h)
        p.drawText(where, Qt.AlignmentFlag.AlignVCenter, self._times(q))
        y += head + 8 * unit

        wrap = int(Qt.TextFlag.TextWordWrap)
        room = w - 2 * margin
        small = self._font(36 * unit)
        p.setFont(small)
        p.setPen(TEXT)
        counts = self._counts(q)
        box = QFontMetricsF(small).boundingRect(QRectF(0, 0, room, 1e6), wrap, counts)
        p.drawText(QRectF(margin, y, room, box.height()), wrap, counts)
        y += box.height() + 4 * unit
        right = self.guess is not None and q.choices[self.guess].pair == q.winner
        p.setPen(RIGHT if right else MUTED)
        closing = self._font(36 * unit, bold=True)
        p.setFont(closing)
        line = self._closing_line(q)
        box = QFontMetricsF(closing).boundingRect(QRectF(0, 0, room, 1e6), wrap, line)
        p.drawText(QRectF(margin, y, room, box.height()), wrap, line)
        p.setFont(self._font(30 * unit))
        p.setPen(MUTED)
        p.drawText(QRectF(margin, 0, w - 2 * margin, h - 8 * unit),
                   Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom, "→ : merge it")
