"""Where the tiles of one row go, and how a row moves through one merge. No Qt here.

A row is laid out from its tokens and a ``measure`` function (token -> tile width) supplied by
the painter, so the geometry can be built, cached and tested without a screen.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable, Sequence


@dataclass(frozen=True)
class RowLayout:
    """One word's tiles: left edges and widths from the row's tile origin, and base-symbol offsets."""

    word: int
    tokens: tuple[str, ...]
    xs: tuple[float, ...]
    widths: tuple[float, ...]
    offsets: tuple[int, ...]

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


def lay_out(word: int, tokens: Sequence[str], symbols: Sequence[str], measure: Callable[[str], float], gap: float) -> RowLayout:
    xs, widths = [], []
    x = 0.0
    for token in tokens:
        w = measure(token)
        xs.append(x)
        widths.append(w)
        x += w + gap
    return RowLayout(word, tuple(tokens), tuple(xs), tuple(widths), tuple(token_offsets(tokens, symbols)))


# -- one row through one merge ------------------------------------------------------------------

KEPT, LEFT, RIGHT = 0, 1, 2
# share of a merge spent sliding together; the rest is the fused tile's moment of emphasis
FUSE_AT = 0.6


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
        target, role = [], []
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
        fused = {self.target[i]: i for i, r in enumerate(self.role) if r == LEFT}
        out = []
        for j, token in enumerate(after.tokens):
            i = fused.get(j)
            if i is None:
                out.append(Frame(token, after.xs[j], after.widths[j]))
                continue
            # the fused tile has its moment: it hops and glows, then settles
            out.append(Frame(token, after.xs[j], after.widths[j], emphasis=_pulse(q), moving=True))
        return out


def smooth(p: float) -> float:
    p = min(1.0, max(0.0, p))
    return p * p * (3 - 2 * p)


def lerp(a: float, b: float, p: float) -> float:
    return a + (b - a) * p


def _pulse(q: float) -> float:
    # rises fast, fades slowly: the eye catches the moment of fusion
    q = min(1.0, max(0.0, q))
    return (1 - q) * min(1.0, q * 6)
