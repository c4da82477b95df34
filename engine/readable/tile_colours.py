"""Which of the palette's colours each token of a lesson takes, so that neighbouring tiles differ.

A token keeps one colour for the whole lesson: the same everywhere at a step, and the same from
step to step. Colours are handed out in the order tokens appear:

- the base symbols first, from the pairs they form in the corpus: most frequent symbol first, each
  taking a colour none of its coloured neighbours has, or when all are taken the one whose clashes
  weigh least;
- then each merged token when its merge makes it, avoiding the colours of the tokens beside its
  places at that step and, where it can, the colours of its two parts.

Among the colours free of its neighbours' a token prefers one the palette holds well apart from
theirs (``NEAR`` names the pairs of fills least apart).

A clash weighs one per word it shows in, however often the word occurs: the tile view draws each
distinct word once. Merging never brings two older tokens side by side (it only joins neighbours),
so every new pair of neighbours holds the newest token; since each token avoids its neighbours when
it is made, two neighbours share a colour only where a token found every colour around it, or where
a merge rebuilt a token that already had one (``ab + c`` after ``a + bc``).

>>> from engine.lesson.lesson import Lesson
>>> lesson = Lesson("low 5\\nlower 2\\nnewest 6\\nwidest 3", word_counts=True).train()
>>> colouring, ids = colouring_of(lesson), lesson.tokenizer.token_to_id
>>> [colouring.colour(ids(t)) for t in ("n", "e", "w", "es", "t")]  # "newest" at step 1: n e w es t
[4, 1, 3, 4, 1]

A lesson trained again after an edit takes the colours of the lesson it replaces (``carry_colours``):
a token with the same string keeps its earlier colour unless another colour would stand beside
fewer tiles of its own colour (for a base symbol: unless a more frequent symbol beside it kept that
colour first). So an unrelated word added to the corpus leaves every other tile as it was; a token
changes colour only where the new text puts it beside one that has its colour.

Work is done lazily, up to the step that made the token asked for, and kept with the lesson. Left out: the fills themselves (``widgets.token_palette``), and lessons with no corpus (a
tokenizer read from a file), whose tokens keep their id's colour round the palette.
"""

from __future__ import annotations

import random
import threading
import weakref
from array import array
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from engine.readable.display import TOKEN, WHITESPACE, WORD_END, Display, for_settings
from engine.lesson.history import History
from engine.algorithm.trainer import Layout, MergeStep

if TYPE_CHECKING:
    from engine.lesson.lesson import Lesson

# the palette's size: widgets.token_palette.TOKEN_FILLS holds this many fills
COLOURS = 7
# the pairs of colours the palette holds least apart (widgets.token_palette: under 15 CIEDE2000 for some
# vision, though never under 12): among free colours a token takes one not near its neighbours'
NEAR = frozenset({(0, 2), (0, 5), (1, 2), (3, 4), (3, 6), (4, 5), (4, 6)})
_NEAR_TO = tuple(tuple(d for d in range(COLOURS) if (min(c, d), max(c, d)) in NEAR) for c in range(COLOURS))
# the kinds drawn in the palette's fills; every other kind has a look of its own and never clashes
FILLED_KINDS = frozenset((TOKEN, WORD_END, WHITESPACE))
# the base symbols' colouring is tried again in other orders while clashes remain, at most this
# many times, and fewer in a large graph: until about this many neighbours have been visited
_TRIES = 64
_VISITS = 40_000
# a merge with at least this many places is made with numpy, all places at once
_MANY_PLACES = 64
# a corpus of at least this many symbols has its base symbols counted with numpy; below it, importing
# numpy costs more than it saves (the window's first lesson is coloured before its first paint)
_MANY_SYMBOLS = 20_000


class TokenColours(Protocol):
    def colour(self, token_id: int) -> int:
        """The colour, 0 to ``COLOURS`` - 1, of the token with this id."""


class IdColours:
    """A token's id round the palette: for a lesson with no corpus to learn neighbours from."""

    def colour(self, token_id: int) -> int:
        return token_id % COLOURS


class Colouring:
    """The colour of every ordinary token of a trained lesson, worked out as far as asked."""

    def __init__(self, history: History, display: Display, earlier: Mapping[str, int] | None = None):
        """``earlier``: token -> colour in the lesson this one replaces, kept where it can be."""
        self.history = history
        # ids as training gives them (the tokenizer's): base symbols, then each new token
        ids = {token: i for i, token in enumerate(history.base)}
        made_at: list[int] = []  # per learned id, the step that made it
        for number, step in enumerate(history.steps, start=1):
            if step.token not in ids:
                ids[step.token] = len(ids)
                made_at.append(number)
        self._ids = ids
        self._made_at = made_at
        self._earlier = {ids[t]: c for t, c in (earlier or {}).items() if t in ids and 0 <= c < COLOURS}
        self._colours = array("b", [-1]) * len(ids)
        # base symbols of a look of their own (the marker, a lone byte of a longer character) stand
        # apart whatever their neighbours; a merged token is taken as filled, which costs it at most
        # a colour it could have had (reading the kind of 20,000 long tokens costs seconds)
        self._filled = bytearray(b"\x01") * len(ids)
        for i, token in enumerate(history.base):
            self._filled[i] = display.kind(token) in FILLED_KINDS
        self._done: int | None = None  # steps coloured so far; None before the base symbols
        # the corpus laid out while colouring lasts (``_lay_out``): word starts, and per position its
        # token id and the positions of the tokens after and before it
        self._layout: tuple[array[int], array[int], array[int], array[int]] | None = None
        # the trainer's layout last looked at, and whether it places the words as ``_lay_out`` does
        self._checked: Layout | None = None
        self._aligned = False
        self._lock = threading.Lock()  # a worker (quiz, handout) may ask while the window does

    def colour(self, token_id: int) -> int:
        """The colour of a token id; ids the lesson did not learn (special tokens, the unknown token)
        and symbols drawn in a look of their own keep their id's place round the palette."""
        base = len(self.history.base)
        if 0 <= token_id < len(self._colours):
            self.colour_to(0 if token_id < base else self._made_at[token_id - base])
            found = self._colours[token_id]
            if found >= 0:
                return found
        return token_id % COLOURS

    def colour_of(self, token: str) -> int | None:
        """The colour of a token by its text, or None if the lesson has no such token."""
        token_id = self._ids.get(token)
        return None if token_id is None else self.colour(token_id)

    @property
    def complete(self) -> bool:
        """Whether every token's colour is worked out."""
        return self._done == len(self.history.steps)

    def known(self) -> dict[str, int]:
        """Every token coloured so far, by its text: what a lesson trained after this one keeps."""
        colours = self._colours
        with self._lock:
            return {token: colours[i] for token, i in self._ids.items() if colours[i] >= 0}

    def colour_to(self, k: int) -> None:
        """Work out the colours of every token made up to step k (each step is worked out once)."""
        steps = self.history.steps
        k = min(k, len(steps))
        if self._done is not None and self._done >= k:
            return
        with self._lock:
            if self._done is None:
                self._lay_out()
                self._colour_base()
                self._done = 0
            for number in range(self._done + 1, k + 1):
                self._merge(steps[number - 1])
                self._done = number
            if self._done == len(steps):
                # every token has its colour: the corpus laid out (24 bytes a symbol) is not needed again
                self._layout = None

    # -- the corpus as linked token starts ----------------------------------------------------------

    def _lay_out(self) -> None:
        """Every distinct word's base symbols side by side: each position's token id and the start
        of the token before and after it in its word (-1 at a word's ends)."""
        corpus, ids = self.history.corpus, self._ids
        starts = array("q")
        tok = array("q")
        for w in range(len(corpus)):
            starts.append(len(tok))
            tok.extend(map(ids.__getitem__, corpus.symbols(w)))
        n = len(tok)
        nxt = array("q", range(1, n + 1))
        prv = array("q", range(-1, n - 1))
        for s in starts:
            prv[s] = -1
            if s:
                nxt[s - 1] = -1
        if n:
            nxt[n - 1] = -1
        self._layout = (starts, tok, nxt, prv)

    def _laid_out(self) -> tuple[array[int], array[int], array[int], array[int]]:
        assert self._layout is not None, "the corpus is laid out while colouring lasts"
        return self._layout

    # -- base symbols -------------------------------------------------------------------------------

    def _colour_base(self) -> None:
        base = len(self.history.base)
        count = self._count_numpy if len(self._laid_out()[1]) >= _MANY_SYMBOLS else self._count_each
        frequency, pairs = count(base)
        meets: dict[int, dict[int, int]] = {}
        for (x, y), n in sorted(pairs.items()):
            meets.setdefault(x, {})[y] = n
            meets.setdefault(y, {})[x] = n
        # most frequent first; symbols the corpus never holds (bytes units) take a colour too
        order = sorted((t for t in range(base) if self._filled[t]), key=lambda t: (-frequency[t], t))
        for token_id, c in colour_graph(meets, order, self._kept_base(meets, order)).items():
            self._colours[token_id] = c

    def _kept_base(self, meets: Meets, order: list[int]) -> dict[int, int]:
        """The base symbols that keep their earlier colour: each, most frequent first, unless a symbol
        beside it kept that colour already."""
        kept: dict[int, int] = {}
        for token_id in order:
            c = self._earlier.get(token_id)
            if c is not None and not any(kept.get(other) == c for other in meets.get(token_id, {})):
                kept[token_id] = c
        return kept

    def _count_each(self, base: int) -> tuple[list[int], dict[tuple[int, int], int]]:
        """How often each base symbol occurs, and how often each two filled symbols stand side by side
        (the lower id first), one position at a time."""
        _, tok, nxt, _ = self._laid_out()
        filled = self._filled
        frequency = [0] * base
        pairs: dict[tuple[int, int], int] = {}
        for p, a in enumerate(tok):
            frequency[a] += 1
            q = nxt[p]
            if q >= 0:
                b = tok[q]
                if a != b and filled[a] and filled[b]:
                    key = (a, b) if a < b else (b, a)
                    pairs[key] = pairs.get(key, 0) + 1
        return frequency, pairs

    def _count_numpy(self, base: int) -> tuple[list[int], dict[tuple[int, int], int]]:
        """``_count_each`` for a large corpus, all positions at once."""
        import numpy as np  # only here: a corpus of a million symbols is counted in one go

        _, tok_array, nxt_array, _ = self._laid_out()
        tok = np.frombuffer(tok_array, dtype=np.int64)
        nxt = np.frombuffer(nxt_array, dtype=np.int64)
        filled = np.frombuffer(bytes(self._filled[:base]), dtype=np.uint8).astype(bool)
        frequency = np.bincount(tok, minlength=base)
        left = np.flatnonzero(nxt >= 0)
        a, b = tok[left], tok[nxt[left]]
        keep = (a != b) & filled[a] & filled[b]
        a, b = a[keep], b[keep]
        keys, counts = np.unique(np.minimum(a, b) * base + np.maximum(a, b), return_counts=True)
        return frequency.tolist(), {divmod(k, base): n for k, n in zip(keys.tolist(), counts.tolist())}

    # -- one merge ----------------------------------------------------------------------------------

    def _merge(self, step: MergeStep) -> None:
        """Join the pair at each of the step's places, then colour the new token from what stands
        beside it (after the whole step: a run ``a a a a`` holds the new token twice)."""
        ids = self._ids
        new = ids[step.token]
        at = self._positions(step)
        join = self._join_all if len(at) >= _MANY_PLACES else self._join_each
        clash = join(at, new)
        colours = self._colours
        if colours[new] >= 0 or not self._filled[new]:
            return  # rebuilt: a token keeps the colour it was first given
        before = self._earlier.get(new)
        if before is not None and clash[before] == min(clash):
            colours[new] = before  # no other colour would stand beside fewer of its own
            return
        left, right = step.pair
        colours[new] = _least(new, clash, (colours[ids[left]], colours[ids[right]]))

    def _positions(self, step: MergeStep) -> Sequence[int]:
        """Where the step merged, as positions of this layout (the left token's start). The trainer
        lays the words out as this does, so its positions serve as they are: reading them as
        (word, offset) places and back costs a search per place, seconds over a large corpus."""
        layout = step.layout
        starts = self._laid_out()[0]
        if layout is not None and layout is not self._checked:
            # one comparison per training run: every step of a run shares its layout
            self._checked, self._aligned = layout, layout.word_start == starts.tolist()
        if layout is not None and self._aligned:
            return step.positions
        return [starts[w] + offset for w, offset in step.places]

    def _join_each(self, at: Sequence[int], new: int) -> list[int]:
        """Join the pairs one place at a time; returns how often each colour stands beside them."""
        _, tok, nxt, prv = self._laid_out()
        for p in at:
            after = nxt[nxt[p]]
            nxt[p] = after
            if after >= 0:
                prv[after] = p
            tok[p] = new
        clash = [0] * COLOURS
        colours, filled = self._colours, self._filled
        for p in at:
            for q in (prv[p], nxt[p]):
                if q >= 0:
                    other = tok[q]
                    if other != new and filled[other] and colours[other] >= 0:
                        clash[colours[other]] += 1
        return clash

    def _join_all(self, at: Sequence[int], new: int) -> list[int]:
        """``_join_each`` for a step with many places, all at once: the places of one step never
        overlap, so no place reads a link another writes."""
        import numpy as np  # only here: the first merges of a large corpus have many thousands of places

        _, *links = self._laid_out()
        tok, nxt, prv = (np.frombuffer(a, dtype=np.int64) for a in links)
        joined = np.asarray(at, dtype=np.int64)
        after = nxt[nxt[joined]]
        nxt[joined] = after
        inside = after >= 0
        prv[after[inside]] = joined[inside]
        tok[joined] = new
        beside = np.concatenate((prv[joined], nxt[joined]))
        others = tok[beside[beside >= 0]]
        colours = np.frombuffer(self._colours, dtype=np.int8)[others]
        filled = np.frombuffer(self._filled, dtype=np.uint8)[others].astype(bool)
        counted = colours[(others != new) & filled & (colours >= 0)]
        found: list[int] = np.bincount(counted, minlength=COLOURS).tolist()
        return found


# per symbol, how often each neighbour stands beside it
Meets = dict[int, dict[int, int]]


def colour_graph(meets: Meets, order: list[int], fixed: Mapping[int, int] | None = None) -> dict[int, int]:
    """A colour for each symbol of ``order`` (most frequent first) that none of its neighbours in
    ``meets`` (symbol -> neighbour -> weight) has, or else the lightest total clash found; near
    colours side by side weigh next. The symbols in ``fixed`` keep the colour it gives them.

    Greedy colouring leaves a clash where a late symbol finds every colour around it; moving one
    symbol at a time to a lighter colour mends some, and the rest often go in another order. The
    orders come from a fixed seed: the same corpus always gets the same colours.
    """
    rng = random.Random(0)
    fixed = dict(fixed or {})
    order = [t for t in order if t not in fixed]
    edges = sum(map(len, meets.values())) or 1
    best: dict[int, int] = {}
    best_clash = None
    visits = 0
    for attempt in range(_TRIES):
        colours = _greedy(meets, order, rng if attempt else None, fixed)
        visits += edges * (1 + _mend(colours, meets, order))
        clash = _total_clash(colours, meets)
        if best_clash is None or clash < best_clash:
            best, best_clash = colours, clash
        if clash[0] == 0 or visits >= _VISITS:
            break
        order = order[:]
        rng.shuffle(order)
    return best


def _greedy(meets: Meets, order: list[int], rng: random.Random | None, fixed: dict[int, int]) -> dict[int, int]:
    colours = dict(fixed)
    for token_id in order:
        clash = _clash(token_id, colours, meets)
        if rng is None:
            colours[token_id] = _least(token_id, clash, ())
        else:
            near = _near(clash)
            colours[token_id] = min(range(COLOURS), key=lambda c: (clash[c], near[c], rng.random()))
    return colours


def _mend(colours: dict[int, int], meets: Meets, order: list[int]) -> int:
    """Move symbols to a colour that clashes less (or as little and is near fewer neighbours)
    until none can: each move lowers the totals. Returns the passes made."""
    passes, moved = 0, True
    while moved:
        passes, moved = passes + 1, False
        for token_id in order:
            clash = _clash(token_id, colours, meets)
            near = _near(clash)
            best = min(range(COLOURS), key=lambda c: (clash[c], near[c]))
            now = colours[token_id]
            if (clash[best], near[best]) < (clash[now], near[now]):
                colours[token_id] = best
                moved = True
    return passes


def _clash(token_id: int, colours: dict[int, int], meets: Meets) -> list[int]:
    """How much each colour would clash with the coloured neighbours of ``token_id``."""
    clash = [0] * COLOURS
    for other, weight in meets.get(token_id, {}).items():
        c = colours.get(other)
        if c is not None:
            clash[c] += weight
    return clash


def _near(clash: list[int]) -> list[int]:
    """How much each colour would sit beside a colour near it, from what each colour clashes."""
    return [sum(map(clash.__getitem__, near)) for near in _NEAR_TO]


def _total_clash(colours: dict[int, int], meets: Meets) -> tuple[int, int]:
    """The weight of neighbours that share a colour, then of those whose colours are near."""
    same = near = 0
    for a, around in meets.items():
        for b, w in around.items():
            if colours[a] == colours[b]:
                same += w
            elif colours[b] in _NEAR_TO[colours[a]]:
                near += w
    return same, near


def _least(token_id: int, clash: list[int], parts: Sequence[int]) -> int:
    """The colour whose clashes weigh least, then one near the fewest neighbours, then one its
    parts do not have, then the one its id names round the palette (so unconstrained tokens still
    spread over every colour)."""
    # each test in turn keeps the colours that pass it best: the order above, one colour at a time
    # (most tokens are placed in the first test or the last, with no sum of near colours made)
    if not any(clash):
        # nothing coloured beside it: the first colour from its id's place round the palette that
        # neither part has (the parts are two colours of seven)
        for turn in range(COLOURS):
            c = (token_id + turn) % COLOURS
            if c not in parts:
                return c
    low = min(clash)
    left = [c for c in range(COLOURS) if clash[c] == low]
    if len(left) > 1 and any(clash):
        near = [sum(map(clash.__getitem__, _NEAR_TO[c])) for c in left]
        fewest = min(near)
        left = [c for c, n in zip(left, near) if n == fewest]
    if len(left) > 1:
        left = [c for c in left if c not in parts] or left
    return min(left, key=lambda c: (c - token_id) % COLOURS)


# per lesson, its history when coloured and the colouring: training again makes a new history
_KEPT: "weakref.WeakKeyDictionary[object, tuple[History, TokenColours]]" = weakref.WeakKeyDictionary()
# per lesson, the colours of the lesson it replaced (token -> colour), for its colouring to keep
_EARLIER: "weakref.WeakKeyDictionary[object, dict[str, int]]" = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def colouring_of(lesson: Lesson) -> TokenColours:
    """The colouring of a trained lesson, made once per training and kept as long as the lesson."""
    history = lesson.history
    with _KEPT_LOCK:
        kept = _KEPT.get(lesson)
        if kept is None or kept[0] is not history:
            found: TokenColours = IdColours()
            if lesson.corpus is not None:
                found = Colouring(history, for_settings(lesson.settings), _EARLIER.get(lesson))
            kept = _KEPT[lesson] = (history, found)
    return kept[1]


def colours_shown(lesson: Lesson) -> dict[str, int] | None:
    """The colours ``lesson`` has worked out, by token text: what a lesson trained to replace it keeps
    (None where it has none to hand on). Cheap: nothing is coloured here."""
    if lesson.corpus is None or not lesson.trained:
        return None
    with _KEPT_LOCK:
        kept = _KEPT.get(lesson)
    if kept is None or not isinstance(kept[1], Colouring):
        return None
    return kept[1].known()


def keep_colours(lesson: Lesson, earlier: dict[str, int] | None) -> None:
    """Before ``lesson`` is first coloured (in the worker that trained it), let it keep ``earlier``,
    the colours of the lesson it replaces."""
    if earlier is not None and lesson.corpus is not None:
        with _KEPT_LOCK:
            _EARLIER[lesson] = earlier


def carry_colours(before: Lesson, after: Lesson) -> None:
    """Let ``after``, the lesson that replaces ``before``, keep the colours ``before`` showed.

    Only colours already worked out are carried (the tokens a view has shown, or all of them once a
    worker coloured every token), so nothing is coloured here. A colouring ``after`` already has is
    kept when every token it shares with ``before`` has its earlier colour; otherwise it is made
    again, lazily, with the earlier colours.
    """
    if after is before or not after.trained or after in _EARLIER:
        return
    earlier = colours_shown(before)
    if earlier is None or after.corpus is None:
        return
    with _KEPT_LOCK:
        _EARLIER[after] = earlier
        made = _KEPT.get(after)
        if made is not None and isinstance(made[1], Colouring) and not _agrees(made[1], earlier):
            del _KEPT[after]


def _agrees(colouring: Colouring, earlier: Mapping[str, int]) -> bool:
    """Whether every token both lessons have coloured has its earlier colour (a token not coloured
    yet could still take another, so only a colouring worked out to its end can agree)."""
    if not colouring.complete:
        return False
    now = colouring.known()
    return all(now.get(token, c) == c for token, c in earlier.items())


def colour_every_token(lesson: Lesson) -> None:
    """Work out every token's colour now, in a worker's thread, rather than when a view first asks
    (a jump to the end of a long lesson would otherwise wait for it)."""
    colouring = colouring_of(lesson)
    if isinstance(colouring, Colouring):
        colouring.colour_to(lesson.last_step)
