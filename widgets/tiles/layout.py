"""Where the rows and their tiles go, which rows are in view, and how a row moves through a merge.

No Qt here. A row is laid out from its tokens and a ``measure`` function (token -> tile width)
supplied by the painter, so the geometry can be built, cached and tested without a screen. The
words come from a ``RowSource``: a lesson's corpus (``LessonRows``), or for a tokenizer read from
a file, which keeps no corpus, a text typed to cut with its merges (``TextRows``).
Coordinates are the content's: y from its top (the first row starts ``top`` below it), x from the
left edge of the tiles (the painter keeps the room before them for each word's count).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from engine.algorithm.corpus import Corpus
from engine.lesson.history import Pair
from engine.lesson.lesson import Lesson, LessonState
from engine.lesson.text_tiles import TextTiles
from engine.algorithm.trainer import MergeStep
from widgets.tiles.animation import FUSE_AT, Transition

ORDERS = ("appearance", "frequency")
# layouts kept for the current step; the visible rows need a few dozen, so this only bounds memory
LAYOUT_CACHE = 2048
# a row shows the tiles that start in its word's first this many symbols: a text with no spaces is
# one word of millions, and laying it all out would take seconds a step (a thousand symbols are
# screens of tiles; each step lays the row out again)
HEAD_SYMBOLS = 1000


@dataclass(frozen=True)
class RowLayout:
    """One word's tiles: left edges and widths from the row's tile origin, and base-symbol offsets."""

    word: int
    tokens: tuple[str, ...]
    xs: tuple[float, ...]
    widths: tuple[float, ...]
    offsets: tuple[int, ...]
    more: int = 0  # the word's tiles past the ones laid out (a long word shows its head)

    @property
    def width(self) -> float:
        return self.xs[-1] + self.widths[-1] if self.xs else 0.0

    def tile_at(self, x: float) -> int:
        """Index of the tile under x (row coordinates), or -1 in a gap or past the ends."""
        i = bisect_right(self.xs, x) - 1
        if i >= 0 and x <= self.xs[i] + self.widths[i]:
            return i
        return -1

    def index_of_offset(self, offset: int) -> int:
        i = bisect_right(self.offsets, offset) - 1
        return i if i >= 0 and self.offsets[i] == offset else -1

    def visible_range(self, left: float, right: float) -> range:
        """Tiles that overlap [left, right]: a very long row (split "none") draws only its slice."""
        start = max(0, bisect_right(self.xs, left) - 1)
        stop = bisect_right(self.xs, right)
        return range(start, stop)


def token_offsets(tokens: Sequence[str], symbols: Sequence[str]) -> list[int]:
    """Base-symbol offset where each token starts.

    A token is its base symbols glued together, so walking the symbols' lengths against each
    token's length finds the boundaries, whatever characters the marker or the word contain.
    """
    offsets = []
    s = 0
    for token in tokens:
        offsets.append(s)
        need = len(token)
        while need > 0:
            need -= len(symbols[s])
            s += 1
    return offsets


def head_symbols(corpus: Corpus, word: int, tokens: Sequence[str]) -> list[str]:
    """The base symbols the tokens (the head of the word) cover, without listing a long word whole."""
    text = corpus.words[word]
    covered = sum(len(t) for t in tokens)
    return corpus.symbols(word) if covered >= len(text) else list(text[:covered])


def lay_out(word: int, tokens: Sequence[str], symbols: Sequence[str], measure: Callable[[str], float], gap: float,
            more: int = 0) -> RowLayout:
    xs: list[float] = []
    widths: list[float] = []
    x = 0.0
    for token in tokens:
        w = measure(token)
        xs.append(x)
        widths.append(w)
        x += w + gap
    return RowLayout(word, tuple(tokens), tuple(xs), tuple(widths), tuple(token_offsets(tokens, symbols)), more)


# -- one row through one merge ------------------------------------------------------------------

KEPT, LEFT, RIGHT = 0, 1, 2


@dataclass(frozen=True)
class Frame:
    """A tile as drawn at one moment: token, left edge, width, and how much it is emphasised (0..1)."""

    token: str
    x: float
    width: float
    emphasis: float = 0.0
    moving: bool = False


@dataclass(frozen=True)
class RowMerge:
    """A row before and after one merge, with each tile before matched to its tile after."""

    before: RowLayout
    after: RowLayout
    target: tuple[int, ...]  # for each tile before: the index of its tile after
    role: tuple[int, ...]  # KEPT, or LEFT / RIGHT half of a merging pair

    @classmethod
    def match(cls, before: RowLayout, after: RowLayout, places: set[int]) -> "RowMerge":
        """``places``: base-symbol offsets where the pair merges in this word (the left tile's start)."""
        at = {o: j for j, o in enumerate(after.offsets)}
        target: list[int] = []
        role: list[int] = []
        i = 0
        n = len(before.tokens)
        while i < n:
            o = before.offsets[i]
            j = at[o]
            if o in places and i + 1 < n:
                target += [j, j]
                role += [LEFT, RIGHT]
                i += 2
            else:
                target.append(j)
                role.append(KEPT)
                i += 1
        return cls(before, after, tuple(target), tuple(role))

    def frames(self, t: float) -> list[Frame]:
        """The row at merge progress t: 0 is before, 1 after (a split runs the same film backwards)."""
        before, after = self.before, self.after
        if t < FUSE_AT:
            p = smooth(t / FUSE_AT)
            out = []
            for i, token in enumerate(before.tokens):
                j, r = self.target[i], self.role[i]
                x = before.xs[i]
                if r == KEPT:
                    out.append(Frame(token, lerp(x, after.xs[j], p), before.widths[i]))
                    continue
                # the pair closes its gap inside the slot of the tile it becomes: the left tile
                # to the slot's left edge, the right one to its right edge, pressing together
                if r == LEFT:
                    goal = after.xs[j]
                else:
                    goal = after.xs[j] + after.widths[j] - before.widths[i]
                out.append(Frame(token, lerp(x, goal, p), before.widths[i], moving=True))
            return out
        q = (t - FUSE_AT) / (1 - FUSE_AT)
        fused = {self.target[i] for i, r in enumerate(self.role) if r == LEFT}
        settled = []
        for j, token in enumerate(after.tokens):
            if j not in fused:
                settled.append(Frame(token, after.xs[j], after.widths[j]))
                continue
            # the fused tile has its moment: it hops and glows, then settles
            settled.append(Frame(token, after.xs[j], after.widths[j], emphasis=_pulse(q), moving=True))
        return settled


def smooth(p: float) -> float:
    p = min(1.0, max(0.0, p))
    return p * p * (3 - 2 * p)


def lerp(a: float, b: float, p: float) -> float:
    return a + (b - a) * p


def _pulse(q: float) -> float:
    # rises fast, fades slowly: the eye catches the moment of fusion
    q = min(1.0, max(0.0, q))
    return (1 - q) * min(1.0, q * 6)


def summary(above: int, below: int) -> str:
    """The line that stands for the rows out of view."""
    parts = []
    if above:
        parts.append(f"{above:,} word" + ("" if above == 1 else "s") + " above")
    if below:
        parts.append(f"… and {below:,} more word{'' if below == 1 else 's'} below")
    return " · ".join(parts)


# -- where the words come from ------------------------------------------------------------------


class RowSource(Protocol):
    """The words a view lays out as rows: how often each occurs, and its tokens at any step."""

    @property
    def counts(self) -> Sequence[int]:
        """How often each word occurs, in word order."""

    def head(self, word: int, k: int, limit: int) -> list[str]:
        """The word's tokens after k merges that start within its first ``limit`` base symbols."""

    def token_count(self, word: int, k: int) -> int: ...

    def head_symbols(self, word: int, tokens: Sequence[str]) -> list[str]:
        """The base symbols the tokens (the head of the word) cover."""

    def merge_offsets(self, word: int, k: int, limit: int) -> list[int]:
        """Base-symbol offsets below ``limit`` where step k merged its pair in the word, left to right."""

    def tied(self, nxt: MergeStep) -> list[Pair]:
        """The pairs tied with the merge ``nxt``, the winner among them, in the tie rule's order."""


class LessonRows:
    """A trained lesson's corpus, its tokens from the state at the step shown and from the history
    at any other."""

    def __init__(self, lesson: Lesson, state: LessonState):
        self.lesson, self.state = lesson, state
        self.history = lesson.history

    @property
    def counts(self) -> Sequence[int]:
        return self.history.corpus.counts

    def head(self, word: int, k: int, limit: int) -> list[str]:
        if k == self.state.step:
            return self.state.tokens_head(word, limit)
        return self.history.word_head(word, k, limit)

    def token_count(self, word: int, k: int) -> int:
        return self.state.token_count(word) if k == self.state.step else self.history.token_count(word, k)

    def head_symbols(self, word: int, tokens: Sequence[str]) -> list[str]:
        return head_symbols(self.history.corpus, word, tokens)

    def merge_offsets(self, word: int, k: int, limit: int) -> list[int]:
        return self.history.merge_offsets(word, k, limit)

    def tied(self, nxt: MergeStep) -> list[Pair]:
        """A step names its first few ties; past those, the live state's counts give the rest at
        once, where the history would count the corpus again."""
        state = self.state
        if nxt.tie_count > len(nxt.tied) and state.step == nxt.step - 1:
            return state.tied_pairs(state.pair_count(nxt.pair))
        return self.history.ties(nxt.step - 1)


class TextRows:
    """A typed text's words cut by a lesson's merges (``engine.lesson.text_tiles``): no pair is
    counted in it, so none is tied."""

    def __init__(self, tiles: TextTiles):
        self.tiles = tiles

    @property
    def counts(self) -> Sequence[int]:
        return self.tiles.counts

    def head(self, word: int, k: int, limit: int) -> list[str]:
        tokens = self.tiles.tokens(word, k)
        if len(self.tiles.symbols(word)) <= limit:
            return tokens
        head, at = [], 0
        for token in tokens:
            if at >= limit:
                break
            head.append(token)
            at += len(token)
        return head

    def token_count(self, word: int, k: int) -> int:
        return self.tiles.token_count(word, k)

    def head_symbols(self, word: int, tokens: Sequence[str]) -> list[str]:
        symbols, covered, n = self.tiles.symbols(word), sum(map(len, tokens)), 0
        while n < len(symbols) and covered > 0:
            covered -= len(symbols[n])
            n += 1
        return symbols[:n]

    def merge_offsets(self, word: int, k: int, limit: int) -> list[int]:
        return [at for at in self.tiles.merge_offsets(word, k) if at < limit]

    def tied(self, nxt: MergeStep) -> list[Pair]:
        return []


# -- every row of the corpus --------------------------------------------------------------------


class Measures(Protocol):
    """The sizes rows are laid out with, at one scale; the painter has them."""

    top: float  # above the first row
    row_h: float
    tile_top: float  # from a row's top to its tiles' top
    tile_h: float
    gap: float  # between neighbouring tiles

    def measure(self, token: str) -> float: ...


class TileRows:
    """The words of a lesson as rows at the current step: their order, and where their tiles go.

    A row is laid out only when asked for and cached for the current step; a step drops the rows
    it touched (``forget``), a new scale drops them all (``rescale``). So a corpus of any size
    costs what the rows in view cost.
    """

    def __init__(self, measures: Measures):
        self.measures = measures
        self.lesson: Lesson | None = None
        self.state: LessonState | None = None
        self.source: RowSource | None = None  # None: no rows (no lesson, or a file's with no text to cut)
        self.order_by = "appearance"
        self.order: list[int] = []  # word index of each row, top to bottom
        self.rows_built = 0  # layouts ever built: lets a test prove big corpora stay lazy
        self._layouts: dict[int, RowLayout] = {}
        self._merges: dict[int, RowMerge] = {}  # rows through the merge of step _merge_step
        self._merge_step = -1
        self._tied: tuple[int, dict[Pair, int]] = (-1, {})
        # another merge list's pair at one step (a compared list's), bracketed beside the ties
        self.other: tuple[int, Pair] | None = None

    def set_other(self, step: int, pair: Pair | None) -> None:
        """Bracket ``pair`` when merge ``step`` is the next one: the pair another list merges there."""
        self.other = None if pair is None else (step, pair)
        self._tied = (-1, {})

    def set_lesson(self, lesson: Lesson | None, state: LessonState | None, text: TextTiles | None = None) -> None:
        """Rows of the lesson's corpus, or of ``text`` cut by its merges for a lesson with no corpus."""
        self.lesson, self.state = lesson, state
        self.source = None
        if lesson is not None and state is not None:
            if lesson.corpus is not None:
                self.source = LessonRows(lesson, state)
            elif text is not None:
                self.source = TextRows(text)
        self._tied = (-1, {})
        self.rescale()
        self._build_order()

    def set_order(self, order: str) -> bool:
        """Order the rows by first appearance or by frequency; False when that is the order already."""
        if order not in ORDERS:
            raise ValueError(f"unknown row order '{order}': choose one of {', '.join(ORDERS)}")
        if order == self.order_by:
            return False
        self.order_by = order
        self._build_order()
        return True

    def rescale(self) -> None:
        """Every size changed: every layout goes."""
        self._layouts.clear()
        self._merges.clear()
        self._merge_step = -1

    def forget(self, words: Sequence[int]) -> None:
        """The current step moved and re-split these words."""
        if len(words) >= len(self._layouts):
            self._layouts.clear()
        else:
            for w in words:
                self._layouts.pop(w, None)

    def _build_order(self) -> None:
        counts = self.counts
        n = len(counts)
        if self.order_by == "frequency":
            self.order = sorted(range(n), key=lambda w: (-counts[w], w))
        else:
            self.order = list(range(n))

    # -- rows in view ---------------------------------------------------------------------------

    @property
    def counts(self) -> Sequence[int]:
        """How often each word occurs (no words without a source)."""
        return self.source.counts if self.source is not None else ()

    def content_height(self) -> float:
        m = self.measures
        return m.top + len(self.order) * m.row_h

    def rows_in(self, height: float, scroll: float) -> range:
        """The rows that show in a window ``height`` tall whose top is at ``scroll``."""
        n = len(self.order)
        if n == 0:
            return range(0)
        top, row_h = self.measures.top, self.measures.row_h
        first = max(0, int((scroll - top) // row_h))
        last = min(n, int((scroll + height - top) // row_h) + 1)
        return range(first, max(first, last))

    def hidden_below(self, rows: range) -> int:
        return max(0, len(self.order) - rows.stop)

    def row_top(self, r: int) -> float:
        """The top of row r's band."""
        return self.measures.top + r * self.measures.row_h

    def tiles_top(self, r: int) -> float:
        return self.row_top(r) + self.measures.tile_top

    def shows(self, token: str, rows: range) -> bool:
        """Whether one of these rows holds ``token`` at rest."""
        return any(token in self.layout(self.order[r]).tokens for r in rows)

    # -- one row --------------------------------------------------------------------------------

    def layout(self, word: int) -> RowLayout:
        """The row of ``word`` at rest, at the current step."""
        found = self._layouts.get(word)
        if found is None:
            if len(self._layouts) >= LAYOUT_CACHE:
                self._layouts.clear()
            source, state = self.source, self.state
            if source is None or state is None:  # no words have no rows; a row asked for anyway has no tiles
                return RowLayout(word, (), (), (), ())
            m = self.measures
            head = source.head(word, state.step, HEAD_SYMBOLS)
            more = source.token_count(word, state.step) - len(head)
            found = lay_out(word, head, source.head_symbols(word, head), m.measure, m.gap, more)
            self._layouts[word] = found
            self.rows_built += 1
        return found

    def tile_box(self, word: int, index: int) -> tuple[float, float, float, float]:
        """x, y, width, height of a tile of the resting row."""
        layout = self.layout(word)
        y = self.tiles_top(self.order.index(word))
        return layout.xs[index], y, layout.widths[index], self.measures.tile_h

    def token_at(self, x: float, y: float) -> tuple[int, str] | None:
        """(word, token) of the resting tile at a point, or None."""
        m = self.measures
        r = int((y - m.top) // m.row_h)
        if r < 0 or r >= len(self.order):
            return None
        if not m.tile_top <= y - self.row_top(r) <= m.tile_top + m.tile_h:
            return None
        word = self.order[r]
        layout = self.layout(word)
        i = layout.tile_at(x)
        return (word, layout.tokens[i]) if i >= 0 else None

    def merge_of(self, step: MergeStep, word: int) -> RowMerge | None:
        """The row's before/after pair for this merge, or None when the merge does not touch it."""
        if step.step != self._merge_step:
            self._merges.clear()
            self._merge_step = step.step
        found = self._merges.get(word)
        if found is None:
            source = self.source
            if source is None:  # no words: no merge touches a row
                return None
            places = source.merge_offsets(word, step.step, HEAD_SYMBOLS)
            if not places:
                return None
            m = self.measures
            rows = []
            for k in (step.step - 1, step.step):
                head = source.head(word, k, HEAD_SYMBOLS)
                more = source.token_count(word, k) - len(head)
                rows.append(lay_out(word, head, source.head_symbols(word, head), m.measure, m.gap, more))
            before, after = rows
            found = self._merges[word] = RowMerge.match(before, after, set(places))
        return found

    def longest_before(self, step: MergeStep, rows: range) -> int:
        """Most tiles a row among these has before ``step``: the counting window's longest walk."""
        return max((len(self.before(step, self.order[r]).tokens) for r in rows), default=0)

    def before(self, step: MergeStep, word: int) -> RowLayout:
        """The row as it was before ``step``."""
        m = self.merge_of(step, word)
        return m.before if m is not None else self.layout(word)

    def frames(self, word: int, t: Transition | None) -> list[Frame]:
        """The row of ``word`` as drawn at this moment of the film ``t`` (at rest without one)."""
        if t is not None:
            m = self.merge_of(t.step, word)
            if m is not None:
                if t.sweeping:
                    return _resting(m.before, range(len(m.before.tokens)))  # counting: still before the merge
                return m.frames(t.progress)
        layout = self.layout(word)
        return _resting(layout, range(len(layout.tokens)))

    def frames_in(self, word: int, t: Transition | None, left: float, right: float) -> tuple[list[Frame], int, float]:
        """The frames of a row that can show between left and right, its word's tile count and its end.

        A resting row builds frames only for its visible slice, and a row lays out only the head of
        a long word (``HEAD_SYMBOLS``): with split "none" a word is the whole text.
        """
        m = self.merge_of(t.step, word) if t is not None else None
        if t is None or m is None:
            layout = self.layout(word)
            return _resting(layout, layout.visible_range(left, right)), len(layout.tokens) + layout.more, layout.width
        frames = self.frames(word, t)
        end = frames[-1].x + frames[-1].width if frames else 0.0
        shown = m.after if t.fused else m.before
        return frames, len(shown.tokens) + shown.more, end

    def _tied_with(self, nxt: MergeStep) -> dict[Pair, int]:
        """The pairs tied with the next merge, each with its number (1 for the first rival, in the
        tie rule's order, as the caption names them)."""
        tied = self.source.tied(nxt) if self.source is not None else []
        # the ranking's order, which the step's named ties (the caption's) follow
        rivals = [pair for pair in tied if pair != nxt.pair]
        other = self.other
        if other is not None and other[0] == nxt.step and other[1] != nxt.pair and other[1] not in rivals:
            rivals.append(other[1])  # not tied (a real difference): numbered after the ties
        return {pair: n for n, pair in enumerate(rivals, 1)}

    def marks(self, word: int, nxt: MergeStep | None) -> tuple[tuple[list[int], list[int]], tuple[int, ...]]:
        """What a row's highlights look like: where they are and each tied pair's number (a row
        whose places stay while its ties are numbered anew must be drawn again)."""
        if nxt is None:
            return ([], []), ()
        winners, ties = self.highlights(word, nxt)
        tokens = self.layout(word).tokens
        return (winners, ties), tuple(self.tie_number((tokens[i], tokens[i + 1])) for i in ties)

    def numbered(self, nxt: MergeStep) -> dict[Pair, int]:
        """The bracketed pairs at the next merge ``nxt``, each with its number."""
        if self._tied[0] != nxt.step:
            self._tied = (nxt.step, self._tied_with(nxt))
        return self._tied[1]

    def tie_number(self, pair: Pair) -> int:
        """The number of a pair tied with the next merge (0 when it is not tied)."""
        return self._tied[1].get(pair, 0)

    def highlights(self, word: int, nxt: MergeStep | None) -> tuple[list[int], list[int]]:
        """Tile indices (left tile of each pair) where the next merge happens, and where a tied pair sits."""
        if nxt is None:
            return [], []
        layout = self.layout(word)
        tied = self.numbered(nxt)
        ties = [i for i, pair in enumerate(zip(layout.tokens, layout.tokens[1:])) if pair in tied]
        winners: list[int] = []
        if self.source is None:  # no words: the next merge is nowhere
            return winners, ties
        for offset in self.source.merge_offsets(word, nxt.step, HEAD_SYMBOLS):
            k = layout.index_of_offset(offset)
            if 0 <= k < len(layout.tokens) - 1:
                winners.append(k)
        return winners, ties


def _resting(layout: RowLayout, span: range) -> list[Frame]:
    tokens, xs, widths = layout.tokens, layout.xs, layout.widths
    return [Frame(tokens[i], xs[i], widths[i]) for i in span]
