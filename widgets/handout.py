"""The PDF handout of a lesson: one page per chosen merge, then the growth chart and the vocabulary.

Each merge page shows the words as tiles right after the merge (the new token framed), the pair
counts just before it (the winner marked) and the merge said in plain words. The pages are drawn
with QPainter straight onto Qt's PDF writer, on white, in the tile colours of the app (Okabe–Ito's
colour-blind-safe scheme, with outlines so a grey print still parts the tiles). Below the growth
chart, a table of the measures of ``engine.readable.metrics`` for the corpus and the held-out text; after a
class vote, its results (each question's rounds, counts per answer, the right one marked). Nothing here needs a
screen, so it works offscreen and from tests.

``choose_steps`` reads what a teacher types in the step dialog: "all", "every 3", or "1, 4, 7-9".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QGuiApplication, QPageLayout, QPageSize, QPainter, QPainterPath, QPdfWriter, QPen

from engine.readable.tile_colours import colouring_of
from engine.errors import BpeLabError
from engine.lesson.lesson import Lesson, LessonState
from engine.readable.describe import (describe_overlap, describe_start, describe_vocab, join_pairs, plural, tie_rule, tie_size,
                             tied_rivals, times)
from engine.readable.display import show
from engine.files.writing import write_atomic
from engine.readable.metrics import Metrics
from engine.readable.metrics_run import MetricsCurve, lesson_metrics
from engine.vote.results import ResultRow
from widgets.tiles.painter import TilePainter
from widgets.tiles.theme import TileTheme

MAX_PAGES = 300
PAIRS_SHOWN = 8
INK = QColor("#000000")
GREY = QColor("#444444")
RULE = QColor("#888888")
WINNER = QColor("#A33A00")


def choose_steps(spec: str, last: int) -> list[int]:
    """The merges a spec names, in order, without repeats: "all", "every N", or numbers and ranges.

    >>> choose_steps("every 5", 12)
    [1, 6, 11, 12]
    """
    text = spec.strip().lower()
    if last <= 0:
        raise BpeLabError("the lesson has no merges yet: train it on a text first")
    if text in ("", "all"):
        return list(range(1, last + 1))
    every = re.fullmatch(r"every\s+(\d+)", text)
    if every:
        n = int(every.group(1))
        if n < 1:
            raise BpeLabError("'every' needs a number of 1 or more, for example: every 5")
        steps = list(range(1, last + 1, n))
        return steps if steps[-1] == last else steps + [last]  # the last merge always closes the story
    chosen: set[int] = set()
    text = re.sub(r"\s*(?:-|–|\bto\b)\s*", "-", text)
    for part in filter(None, re.split(r"[,;\s]+", text)):
        m = re.fullmatch(r"(\d+)-(\d+)|(\d+)", part)
        if not m:
            raise BpeLabError(f"'{part}' is not a step: write numbers and ranges such as 1, 4, 7-9, "
                              f"or 'all', or 'every 5'")
        first, end = (int(m.group(1)), int(m.group(2))) if m.group(3) is None else (int(m.group(3)),) * 2
        if first > end:
            first, end = end, first
        if first < 1 or end > last:
            raise BpeLabError(f"step {first if first < 1 else end} is outside the lesson: its merges run from 1 to {last}")
        chosen.update(range(first, end + 1))
    return sorted(chosen)


def merge_sentence(lesson: Lesson, k: int) -> str:
    """Merge k in plain words."""
    step = lesson.steps[k - 1]
    history = lesson.history
    s = lesson.settings
    a, b, new = show(s, step.pair[0]), show(s, step.pair[1]), show(s, step.token)
    text = f"The pair “{a}” + “{b}” occurs {times(step.count)}, more often than any other pair"
    others = tied_rivals(step)
    if others:
        rivals = tie_size(step) - 1
        names = join_pairs(s, others, rivals)
        verb = "occurs" if rivals == 1 else "occur"
        text = (f"The pair “{a}” + “{b}” occurs {times(step.count)}; {names} {verb} just as often, "
                f"and the tie goes to {tie_rule(s)}")
    overlap = describe_overlap(s, step)
    # where runs overlap, "every" would promise more merges than the totals below show
    every = "Reading left to right, each" if overlap else "Every"
    text += f". {every} “{a}” followed by “{b}” becomes the new token “{new}”."
    if overlap:
        text += f" {overlap}"
    text += (f" The corpus goes from "
             f"{history.total_tokens(k - 1):,} to {history.total_tokens(k):,} tokens, and the vocabulary now holds "
             f"{describe_vocab(s, history.vocab(k))}.")
    return text


def growth_summary(lesson: Lesson) -> str:
    """What the growth chart's page says: the corpus and the vocabulary at the start and the end."""
    history = lesson.history
    s = lesson.settings
    first, last = history.total_tokens(0), history.total_tokens(history.last_step)
    return (f"The corpus starts as {describe_start(history.corpus)}. After {plural(history.last_step, 'merge')} it is "
            f"{last:,} tokens, {100 * (1 - last / max(1, first)):.0f}% fewer, and the vocabulary has grown from "
            f"{describe_vocab(s, history.vocab(0))} to {describe_vocab(s, history.vocab(history.last_step))}.")


def vocab_summary(lesson: Lesson) -> str:
    """What the final vocabulary's page says above the tokens."""
    history = lesson.history
    return (f"{describe_vocab(lesson.settings, history.vocab(history.last_step))}. The base symbols first, then "
            f"each merge in the order it was learned.")


METRICS_HEADER = ("Text", "Step", "Characters per token", "Tokens per word", "Words kept whole",
                  "Unknown share", "Rényi efficiency")


def metrics_steps(last: int) -> list[int]:
    """The steps the metrics table reads: the start, the middle and the end of the run."""
    return sorted({0, last // 2, last})


def _metrics_cells(m: Metrics, words_counted: bool) -> tuple[str, ...]:
    # words kept whole are not counted where a split's pieces are not the words
    whole = f"{m.whole_share:.0%}" if words_counted else "—"
    return (f"{m.characters_per_token:.2f}", f"{m.tokens_per_word:.2f}", whole, f"{m.unknown_share:.1%}",
            f"{m.renyi_efficiency:.3f}")


def metrics_table(lesson: Lesson) -> list[tuple[str, ...]]:
    """The handout's metrics rows (below METRICS_HEADER): the corpus, then the held-out text if the
    lesson has one, each at the start, the middle and the end of the run."""
    curves = lesson_metrics(lesson)
    named: list[tuple[str, MetricsCurve | None]] = [("corpus", curves.corpus), ("held-out", curves.held_out)]
    rows = []
    for name, curve in named:
        if curve is None:
            continue
        for k in metrics_steps(lesson.last_step):
            rows.append((name, f"{k:,}", *_metrics_cells(curve.at(k), curve.words_whole is not None)))
    return rows


def metrics_summary(lesson: Lesson) -> str:
    """What the metrics table's heading says: what it measures and why fewer tokens is not all."""
    text = "corpus and the held-out text" if lesson.held_out else "corpus (the lesson has no held-out text)"
    return (f"The {text} measured at the start, the middle and the end of the run (docs/metrics.md defines each "
            "measure). Fewer tokens is not the same as a better model: Zouhar et al. (ACL 2023) found Rényi "
            "efficiency (α = 2.5) correlated 0.78 with translation quality, the compressed length −0.32.")


class _Pages:
    """A PDF being drawn: fonts in points, a cursor going down the page, new pages as needed."""

    def __init__(self, title: str):
        # drawn in memory, then written whole (engine.files.writing)
        self.data = QByteArray()
        self.buffer = QBuffer(self.data)
        self.buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        self.writer = QPdfWriter(self.buffer)
        self.writer.setResolution(72)  # one unit is one point
        self.writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                              QMarginsF(40, 40, 40, 40), QPageLayout.Unit.Point))
        self.writer.setTitle(title)
        self.writer.setCreator("BPE Lab")
        self.p = QPainter()
        if not self.p.begin(self.writer):
            raise BpeLabError("could not start drawing the handout")
        self.p.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.title = title
        self.width = float(self.writer.width())
        self.height = float(self.writer.height())
        self.page = 1
        self.y = 0.0
        self._header()

    def font(self, points: float, bold: bool = False) -> QFont:
        font = QFont()
        font.setPixelSize(round(points))  # pixels are points at this resolution
        font.setBold(bold)
        return font

    def _header(self) -> None:
        p = self.p
        p.setFont(self.font(9))
        p.setPen(GREY)
        p.drawText(QRectF(0, 0, self.width, 14), Qt.AlignmentFlag.AlignLeft, self.title)
        p.drawText(QRectF(0, 0, self.width, 14), Qt.AlignmentFlag.AlignRight, f"page {self.page}")
        p.setPen(QPen(RULE, 0.5))
        p.drawLine(QPointF(0, 16), QPointF(self.width, 16))
        self.y = 28

    def new_page(self) -> None:
        self.writer.newPage()
        self.page += 1
        self._header()

    def room(self) -> float:
        return self.height - self.y

    def need(self, height: float) -> None:
        if self.room() < height:
            self.new_page()

    def heading(self, text: str, points: float = 20) -> None:
        self.need(QFontMetricsF(self.font(points)).lineSpacing() * 3)
        self.paragraph(text, points, bold=True)

    def paragraph(self, text: str, points: float = 12, colour: QColor = INK, bold: bool = False) -> None:
        font = self.font(points, bold)
        flags = Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap
        box = QFontMetricsF(font).boundingRect(QRectF(0, 0, self.width, 10_000), flags, text)
        self.need(box.height() + 6)
        self.p.setFont(font)
        self.p.setPen(colour)
        self.p.drawText(QRectF(0, self.y, self.width, box.height() + 2), flags, text)
        self.y += box.height() + 8

    def finish(self) -> bytes:
        self.p.end()
        self.buffer.close()
        return bytes(self.data.data())


def _tile_painter(lesson: Lesson, scale: float) -> TilePainter:
    painter = TilePainter(QFont(), TileTheme.light(), scale)
    tokenizer = lesson.tokenizer
    assert tokenizer is not None, "a handout is made of a trained lesson"
    unknown = tokenizer.id_to_token(tokenizer.unknown_id) if tokenizer.unknown_id is not None else None
    painter.set_lesson(lesson.settings.marker, lesson.settings.units, unknown, tokenizer.token_to_id,
                       tuple(tokenizer.special_ids), colouring_of(lesson))
    return painter


# the most of a word's symbols a handout draws as tiles
WORD_SYMBOLS = 600


def _word_rows(pages: _Pages, tiles: TilePainter, lesson: Lesson, state: LessonState, new: str, bottom: float) -> None:
    """The words as rows of tiles (wrapped when long) until ``bottom``; the rest is counted."""
    p = pages.p
    counts = state.corpus.counts
    badge_font = pages.font(11, bold=True)
    badge_w = QFontMetricsF(badge_font).horizontalAdvance(f"×{max(counts):,}") + 10
    line = tiles.tile_h + tiles.gap
    words = len(state.corpus.words)
    for w in range(words):
        # a page holds a few hundred tiles: a long word (a text with no spaces) shows its start, then …
        tokens = state.tokens_head(w, WORD_SYMBOLS)
        if len(tokens) < state.token_count(w):
            tokens = [*tokens, "…"]
        widths = [tiles.measure(t) for t in tokens]
        lines, x = 1, 0.0
        for width in widths:
            if x and x + width > pages.width - badge_w:
                lines, x = lines + 1, 0.0
            x += width + tiles.gap
        if pages.y + lines * line + line > bottom and w < words:
            rest = words - w
            pages.paragraph(f"… and {rest:,} more word{'s' if rest != 1 else ''}", 11, GREY)
            return
        p.setFont(badge_font)
        p.setPen(INK)
        p.drawText(QRectF(0, pages.y, badge_w - 8, tiles.tile_h), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                   f"×{counts[w]:,}")
        p.setFont(tiles.tile_font)
        x, y = badge_w, pages.y
        for token, width in zip(tokens, widths):
            if x > badge_w and x + width > pages.width:
                x, y = badge_w, y + line
            tiles.draw_tile(p, token, QRectF(x, y, width, tiles.tile_h), token == new, False)
            x += width + tiles.gap
        pages.y = y + line + 2


def _pair_table(pages: _Pages, lesson: Lesson, ranked, winner, best: int) -> None:
    s = lesson.settings
    p = pages.p
    font = pages.font(11)
    bold = pages.font(11, bold=True)
    row_h = QFontMetricsF(font).lineSpacing() * 1.3
    pages.need(row_h * (len(ranked) + 2))
    biggest = max((c for _, c in ranked), default=1)
    label_w = min(pages.width * 0.35, max(QFontMetricsF(bold).horizontalAdvance(f"{show(s, a)} + {show(s, b)}")
                                          for (a, b), _ in ranked) + 12)
    bar_room = pages.width - label_w - 120
    for pair, count in ranked:
        won = pair == winner
        y = pages.y
        p.setFont(bold if won else font)
        p.setPen(INK)
        p.drawText(QRectF(0, y, label_w - 10, row_h), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                   f"{show(s, pair[0])} + {show(s, pair[1])}")
        bar = QRectF(label_w, y + row_h * 0.15, max(2.0, bar_room * count / biggest), row_h * 0.7)
        p.setPen(QPen(INK, 0.8))
        p.setBrush(WINNER if won else QColor("#BFD0E3"))
        p.drawRect(bar)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawText(QRectF(bar.right() + 6, y, 110, row_h), Qt.AlignmentFlag.AlignVCenter,
                   f"{count:,}" + ("  ◀ merged" if won else "  (tied)" if count == best else ""))
        pages.y += row_h
    pages.y += 6


def round_step(top: int, most: int = 5) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, … that cuts 0..top into at most ``most`` steps: the
    ticks a reader counts on (0, 20, 40 …, never 24, 48, 71)."""
    scale = 1
    while True:
        for unit in (1, 2, 5):
            if unit * scale * most >= top:
                return unit * scale
        scale *= 10


def round_ticks(top: int, most: int = 5) -> list[int]:
    """0 and the multiples of ``round_step`` up to the first that reaches ``top``: the axis ends on a
    round number at or above the highest value."""
    step = round_step(top, most)
    return list(range(0, -(-max(top, 1) // step) * step + 1, step))


def _growth_chart(pages: _Pages, lesson: Lesson, marked: list[int]) -> None:
    steps = lesson.steps
    totals = lesson.history.totals()
    p = pages.p
    pages.heading("The corpus shrinks as the vocabulary grows")
    pages.paragraph(growth_summary(lesson) + " Dots mark the merges shown on the earlier pages.", 12)
    font = pages.font(11)
    metrics = QFontMetricsF(font)
    tokens_ticks = round_ticks(max(totals))
    biggest = tokens_ticks[-1]
    left, top = metrics.horizontalAdvance(f"{biggest:,}") + 40, pages.y + 10
    width, height = pages.width - left - 10, min(330.0, pages.room() - 60)
    bottom = top + height
    n = max(1, len(steps))

    def at(k: int, total: int) -> QPointF:
        return QPointF(left + width * k / n, bottom - height * total / biggest)

    p.setFont(font)
    p.setPen(QPen(INK, 1.2))
    p.drawLine(QPointF(left, top), QPointF(left, bottom))
    p.drawLine(QPointF(left, bottom), QPointF(left + width, bottom))
    for value in tokens_ticks:
        y = bottom - height * value / biggest
        p.setPen(QPen(RULE, 0.4, Qt.PenStyle.DotLine))
        p.drawLine(QPointF(left, y), QPointF(left + width, y))
        p.setPen(INK)
        p.drawText(QRectF(0, y - 8, left - 8, 16), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"{value:,}")
    # the merges axis ends at the last merge: its ticks are the round ones within it
    for k in (k for k in round_ticks(n) if k <= n):
        x = left + width * k / n
        p.drawText(QRectF(x - 30, bottom + 4, 60, 16), Qt.AlignmentFlag.AlignHCenter, f"{k:,}")
    p.drawText(QRectF(left, bottom + 20, width, 16), Qt.AlignmentFlag.AlignHCenter, "merges made")
    p.save()
    p.translate(12, top + height / 2)
    p.rotate(-90)
    p.drawText(QRectF(-60, -8, 120, 16), Qt.AlignmentFlag.AlignCenter, "tokens in the corpus")
    p.restore()
    path = QPainterPath(at(0, totals[0]))
    for k, total in enumerate(totals[1:], start=1):
        path.lineTo(at(k, total))
    p.setPen(QPen(QColor("#0046A0"), 2.5))
    p.drawPath(path)
    p.setBrush(INK)
    p.setPen(Qt.PenStyle.NoPen)
    for k in marked:
        p.drawEllipse(at(k, totals[k]), 3.2, 3.2)
    p.setBrush(Qt.BrushStyle.NoBrush)
    pages.y = bottom + 44


def _metrics(pages: _Pages, lesson: Lesson) -> None:
    rows = metrics_table(lesson)
    if not rows:
        return
    pages.heading("How good is the vocabulary?", 16)
    pages.paragraph(metrics_summary(lesson), 11)
    p = pages.p
    font, bold = pages.font(10), pages.font(10, bold=True)
    flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
    widths = [0.14, 0.10, 0.16, 0.15, 0.15, 0.14, 0.16]
    lefts = [pages.width * sum(widths[:i]) for i in range(len(widths))]
    row_h = QFontMetricsF(font).lineSpacing() * 1.5
    head_h = QFontMetricsF(bold).lineSpacing() * 2.4
    pages.need(head_h + row_h * len(rows) + 8)
    for cells, height, f in [(METRICS_HEADER, head_h, bold), *((r, row_h, font) for r in rows)]:
        p.setFont(f)
        p.setPen(INK)
        for left, share, cell in zip(lefts, widths, cells):
            p.drawText(QRectF(left, pages.y, pages.width * share, height), flags, cell)
        pages.y += height
        p.setPen(QPen(RULE, 0.5))
        p.drawLine(QPointF(0, pages.y), QPointF(pages.width, pages.y))
    pages.y += 10


VOTE_HEADER = ("Round", "Answer", "Votes", "Share", "Right")


def vote_tables(rows: Sequence[ResultRow]) -> list[tuple[str, list[tuple[str, ...]]]]:
    """The class vote's results per question, in the order asked: (the prompt, its rows below
    VOTE_HEADER), each round's share of that round's votes."""
    questions: dict[str, tuple[str, list[ResultRow]]] = {}
    for r in rows:
        questions.setdefault(r.qid, (r.question, []))[1].append(r)
    tables = []
    for prompt, found in questions.values():
        totals: dict[int, int] = {}
        for r in found:
            totals[r.round] = totals.get(r.round, 0) + r.count
        cells: list[tuple[str, ...]] = [(str(r.round), r.option, f"{r.count:,}", f"{100 * r.count / totals[r.round]:.0f}%" if totals[r.round] else "—",
                  "✔ right" if r.correct else "") for r in found]
        tables.append((prompt, cells))
    return tables


def _votes(pages: _Pages, rows: Sequence[ResultRow]) -> None:
    tables = vote_tables(rows)
    if not tables:
        return
    pages.new_page()
    pages.heading("Class vote")
    pages.paragraph("What the class voted from their phones, round by round (a second round came after discussion). "
                    "A choose-many question's shares can add up to more than 100%: each student may pick several.", 11)
    p = pages.p
    font, bold = pages.font(10), pages.font(10, bold=True)
    widths = [0.10, 0.52, 0.12, 0.12, 0.14]
    lefts = [pages.width * sum(widths[:i]) for i in range(len(widths))]
    flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap
    for prompt, cells in tables:
        pages.paragraph(prompt, 12, bold=True)
        for row, f in [(VOTE_HEADER, bold), *((c, font) for c in cells)]:
            height = max(QFontMetricsF(f).boundingRect(QRectF(0, 0, pages.width * share - 6, 1e4), flags, cell).height()
                         for share, cell in zip(widths, row)) + 6
            pages.need(height)
            p.setFont(f)
            p.setPen(INK)
            for left, share, cell in zip(lefts, widths, row):
                p.drawText(QRectF(left, pages.y, pages.width * share - 6, height), flags, cell)
            pages.y += height
            p.setPen(QPen(RULE, 0.5))
            p.drawLine(QPointF(0, pages.y), QPointF(pages.width, pages.y))
        pages.y += 12


def _vocab(pages: _Pages, lesson: Lesson, tiles: TilePainter) -> None:
    s = lesson.settings
    p = pages.p
    pages.new_page()
    pages.heading("The final vocabulary")
    base = lesson.base_vocab
    pages.paragraph(vocab_summary(lesson), 12)
    p.setFont(tiles.tile_font)
    x = 0.0
    line = tiles.tile_h + tiles.gap
    pages.need(line)
    for token in base:
        width = tiles.measure(token)
        if x and x + width > pages.width:
            x = 0.0
            pages.y += line
            pages.need(line)
            p.setFont(tiles.tile_font)
        tiles.draw_tile(p, token, QRectF(x, pages.y, width, tiles.tile_h), False, False)
        x += width + tiles.gap
    pages.y += line + 10
    font = pages.font(11)
    metrics = QFontMetricsF(font)
    row_h = metrics.lineSpacing() * 1.25
    columns = 2
    col_w = pages.width / columns
    entries = [f"{st.step:,}.  {show(s, st.pair[0])} + {show(s, st.pair[1])}  →  {show(s, st.token)}   (×{st.count:,})"
               for st in lesson.steps]
    i = 0
    while i < len(entries):
        rows = max(1, int(pages.room() // row_h))
        p.setFont(font)
        p.setPen(INK)
        for c in range(columns):
            for r in range(rows):
                if i >= len(entries):
                    break
                text = metrics.elidedText(entries[i], Qt.TextElideMode.ElideMiddle, col_w - 12)
                p.drawText(QRectF(c * col_w, pages.y + r * row_h, col_w - 12, row_h), Qt.AlignmentFlag.AlignVCenter, text)
                i += 1
        if i < len(entries):
            pages.new_page()
        else:
            pages.y += rows * row_h


def write_handout(lesson: Lesson, path: str | Path, steps: list[int], title: str = "BPE Lab lesson",
                  votes: Sequence[ResultRow] = ()) -> int:
    """Write the handout for merges ``steps`` (1-based) to ``path``, with a class vote's results
    ``votes`` if any; returns the number of pages."""
    if QGuiApplication.instance() is None:
        # Qt would abort the whole process at the first font
        raise BpeLabError("the handout is drawn with Qt: create a QApplication (or QGuiApplication) first")
    if not lesson.trained or lesson.is_empty or lesson.last_step == 0:
        raise BpeLabError("the lesson has no merges to show: train it on a text with repeated pairs first")
    if lesson.corpus is None:
        raise BpeLabError("this lesson is an imported tokenizer with no training corpus: a handout shows the words "
                          "and counts at each merge, so there is nothing to print")
    steps = sorted(set(steps))
    if not steps:
        raise BpeLabError("no steps chosen: choose all, every n-th, or a list such as 1, 4, 7-9")
    if steps[0] < 1 or steps[-1] > lesson.last_step:
        raise BpeLabError(f"the lesson's merges run from 1 to {lesson.last_step}: step {steps[-1]} is not one of them")
    if len(steps) > MAX_PAGES:
        raise BpeLabError(f"{len(steps):,} pages is too many for a handout: choose every n-th step "
                          f"(at most {MAX_PAGES} pages)")
    pages = _Pages(f"{title} — BPE Lab handout")
    try:
        tiles = _tile_painter(lesson, 0.62)
        state = LessonState(lesson)
        s = lesson.settings
        for n, k in enumerate(steps):
            if n:
                pages.new_page()
            step = lesson.steps[k - 1]
            state.go_to(k - 1)
            ranked = state.ranked_pairs(PAIRS_SHOWN, must_include=step.pair)
            pages.heading(f"Merge {k} of {lesson.last_step}:  {show(s, step.pair[0])} + {show(s, step.pair[1])}  →  "
                          f"{show(s, step.token)}")
            pages.paragraph(merge_sentence(lesson, k), 12)
            pages.paragraph("The most frequent pairs just before this merge:", 12, bold=True)
            # tied: at the winner's count (the step's record may list only the first few ties)
            _pair_table(pages, lesson, ranked, step.pair, state.pair_count(step.pair))
            state.go_to(k)
            pages.paragraph(f"The words after it ({state.total_tokens:,} tokens; the new token is framed):", 12, bold=True)
            _word_rows(pages, tiles, lesson, state, step.token, pages.height)
        pages.new_page()
        _growth_chart(pages, lesson, steps)
        _metrics(pages, lesson)
        _vocab(pages, lesson, tiles)
        _votes(pages, votes)
    finally:
        pdf = pages.finish()
    try:
        write_atomic(path, pdf)
    except BpeLabError as exc:
        raise BpeLabError(f"could not write the handout: {exc}") from None
    return pages.page
