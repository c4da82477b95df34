"""The trainer's bulk work in numpy: laying a large corpus out, and a merge with many places.

Both read and write the trainer's own arrays (``array('i')`` links and symbols, ``array('q')``
weights) through zero-copy views, so the trainer's Python loop and these functions share one
layout. A merge of a pair of two equal symbols (``a a a``) is never done here: its places depend
on each other, left to right, and stay with the Python loop. numpy is imported only when a
corpus is large enough to profit.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence

import numpy as np

# (pair key, weighted count, places in reading order) for each pair a layout or a merge made
Made = list[tuple[int, int, "array[int]"]]


def lay_out(text: str, code: dict[str, int], lengths: Sequence[int], counts: Sequence[int],
            shift: int) -> tuple[array[int], array[int], array[int], array[int], Made]:
    """The layout of ``text`` (the distinct words side by side, each ``lengths[i]`` symbols long,
    of weight ``counts[i]``): symbols, next and previous links, weights, and every pair made (keyed
    as ``engine.algorithm.trainer.PairKeys`` says, with its ``shift``)."""
    points = np.frombuffer(text.encode("utf-32-le"), np.uint32)
    table = np.zeros(int(points.max()) + 1 if len(points) else 1, np.int32)
    chars = [c for c in code if ord(c) < len(table)]
    table[[ord(c) for c in chars]] = [code[c] for c in chars]
    sym = table[points]
    n = len(sym)
    size = np.asarray(lengths, np.int64)
    ends = np.cumsum(size)
    starts = (ends - size)[size > 0]
    lasts = ends[size > 0] - 1
    freq = np.repeat(np.asarray(counts, np.int64), size)
    nxt = np.arange(1, n + 1, dtype=np.int32)
    nxt[lasts] = -1
    prv = np.arange(-1, n - 1, dtype=np.int32)
    prv[starts] = -1
    made = _pairs_in_words(sym, lasts, freq, shift) if n else []
    return (array("i", sym.tobytes()), array("i", nxt.tobytes()), array("i", prv.tobytes()),
            array("q", freq.tobytes()), made)


def _pairs_in_words(sym: np.ndarray, lasts: np.ndarray, freq: np.ndarray, shift: int) -> Made:
    """Every pair of neighbours inside a word (at each place but a word's last, ``lasts``): its
    key, summed weight and places in reading order.

    The symbols there are ranked 0 to k - 1, so a pair is one number below k * k, the fewest bits
    that ``_order`` sorts by; a word's last place, which starts no pair, is k * k or more, sorted
    after them all."""
    present = np.flatnonzero(np.bincount(sym))
    k = len(present)
    rank = np.zeros(int(present[-1]) + 1, np.int64 if (k + 1) * k >= 1 << 31 else np.int32)
    rank[present] = np.arange(k)
    ranked = rank[sym]
    pair = ranked * k
    pair[:-1] += ranked[1:]
    pair[lasts] = k * k
    # the places themselves, by pair, in reading order
    order = _order(pair, k * k + k)[:len(sym) - len(lasts)]
    pairs, totals, bounds = _grouped(pair, order, freq)
    keys = present[pairs // k] << shift | present[pairs % k]
    return _listed(keys, totals, order, bounds)


def merge_in_bulk(sym: array[int], nxt: array[int], prv: array[int], freq: array[int], found: Sequence[int],
                  a: int, b: int, new: int, shift: int) -> tuple[array[int], Made, Made, int]:
    """``Trainer._merge_at_places`` vectorised: merge ``a b`` (a != b) into ``new`` at the current
    ones of the places ``found`` (reading order), rewriting the layout in place.

    Returns the places merged, the pairs made with the new token on the right and on the left
    (as ``Made``), and the weight merged. With ``a != b`` no merge can spoil another, so all are
    made at once; only a left neighbour that was itself merged a moment before (``a b a b``)
    reads as the new token, as it does when the places are visited one by one.
    """
    s, nx, pv = (np.frombuffer(x, np.int32) for x in (sym, nxt, prv))
    weight = np.frombuffer(freq, np.int64)
    p = np.frombuffer(found, np.int32) if isinstance(found, array) else np.array(found, np.int32)
    q = nx[p]
    # a link of -1 reads the trainer's sentinel past the last symbol, never one: the test on q >= 0
    # says so outright
    ok = (s[p] == a) & (q >= 0) & (s[q] == b)
    p, q = p[ok], q[ok]
    right, left = nx[q], pv[p]
    after_merge = np.zeros(len(p), bool)
    after_merge[1:] = left[1:] == q[:-1]
    left_at = np.where(after_merge, np.roll(p, 1), left)
    left_sym = np.where(after_merge, new, s[left])
    has_left, has_right = left_at >= 0, right >= 0
    right_sym = s[right[has_right]]  # read before the rewrite: a later place still shows its a
    pv[right[has_right]] = p[has_right]
    s[p] = new
    s[q] = -1
    nx[p] = right
    w = weight[p]
    made_left = _made(left_sym[has_left], left_at[has_left], w[has_left], new, lambda x: x << shift | new)
    made_right = _made(right_sym, p[has_right], w[has_right], new, lambda x: new << shift | x)
    return array("i", p.tobytes()), made_left, made_right, int(w.sum())


def _order(ids: np.ndarray, most: int) -> np.ndarray:
    """The indices of ``ids`` (each below ``most``) stably sorted by id. numpy sorts 16-bit ints by
    radix, in one linear pass, several times as fast as it sorts wider ones by comparing: ids below
    2**32 are sorted by their low 16 bits, then stably by their high ones."""
    if most > 1 << 32:
        return np.argsort(ids, kind="stable")
    # to 16 bits: the low ones
    order = np.argsort(ids.astype(np.uint16), kind="stable")
    if most > 1 << 16:
        order = order[np.argsort((ids[order] >> 16).astype(np.uint16), kind="stable")]
    return order


def _made(others: np.ndarray, places: np.ndarray, weights: np.ndarray, new: int,
          key: Callable[[np.ndarray], np.ndarray]) -> Made:
    """The pairs a merge made on one side: ``new`` with each of ``others`` (ids up to ``new``),
    each keyed by ``key`` of the other's id."""
    order = _order(others, new + 1)
    ids, totals, bounds = _grouped(others, order, weights)
    return _listed(key(ids.astype(np.int64)), totals, places[order], bounds)


def _grouped(ids: np.ndarray, order: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The ids in ``order`` (indices sorted by id), each once, their summed weights, and where each
    one's run starts in ``order``, with the end."""
    ids = ids[order]
    if not len(ids):
        return ids, weights[:0], [0]
    first = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
    return ids[first], np.add.reduceat(weights[order], first), [*first.tolist(), len(ids)]


def _listed(keys: np.ndarray, totals: np.ndarray, places: np.ndarray, bounds: list[int]) -> Made:
    """Each key with its total and its slice of ``places`` as an array of its own."""
    raw = memoryview(places.astype(np.int32).tobytes())
    made = []
    for key, total, start, end in zip(keys.tolist(), totals.tolist(), bounds, bounds[1:]):
        found = array("i")
        found.frombytes(raw[4 * start:4 * end])
        made.append((key, total, found))
    return made
