"""The trainer's bulk work in numpy: laying a large corpus out, and a merge with many places.

Both read and write the trainer's own arrays (``array('i')`` links and symbols, weights of 32
bits, or 64 for a word counted 2**31 times or more) through zero-copy views, so the trainer's
Python loop and these functions share one layout; the layout is written into those arrays in
place, never built whole and copied. A merge of a pair of two equal symbols (``a a a``) is never done here: its places depend
on each other, left to right, and stay with the Python loop. numpy is imported only when a
corpus is large enough to profit.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, MutableSequence, Sequence

import numpy as np

# (pair key, weighted count, places in reading order) for each pair a layout made
Listed = list[tuple[int, int, "array[int]"]]
# the pairs a merge made on one side: each one's weighted count, and its places in reading order
Made = tuple[dict[int, int], dict[int, MutableSequence[int]]]


def lay_out(text: str, code: dict[str, int], lengths: Sequence[int], counts: Sequence[int],
            shift: int) -> tuple[array[int], array[int], array[int], array[int], Listed]:
    """The layout of ``text`` (the distinct words side by side, each ``lengths[i]`` symbols long,
    of weight ``counts[i]``): symbols, next and previous links, weights, and every pair made (keyed
    as ``engine.algorithm.trainer.PairKeys`` says, with its ``shift``)."""
    points = np.frombuffer(text.encode("utf-32-le"), np.uint32)
    table = np.zeros(int(points.max()) + 1 if len(points) else 1, np.int32)
    chars = [c for c in code if ord(c) < len(table)]
    table[[ord(c) for c in chars]] = [code[c] for c in chars]
    n = len(points)
    weights = np.asarray(counts, np.int64)
    wide = len(weights) > 0 and int(weights.max()) >= 1 << 31
    sym, nxt, prv, freq = (_zeros(t, n) for t in ("i", "i", "i", "q" if wide else "i"))
    s, nx, pv = (np.frombuffer(x, np.int32) for x in (sym, nxt, prv))
    f = np.frombuffer(freq, freq.typecode)
    np.take(table, points, out=s, mode="clip")
    del points
    size = np.asarray(lengths, np.int64)
    ends = np.cumsum(size)
    starts = (ends - size)[size > 0]
    lasts = ends[size > 0] - 1
    f[:] = np.repeat(weights.astype(f.dtype), size)
    # one run of place numbers gives both links
    at = np.arange(-1, n + 1, dtype=np.int32)
    nx[:] = at[2:]
    nx[lasts] = -1
    pv[:] = at[:n]
    pv[starts] = -1
    del at
    made = _pairs_in_words(s, lasts, f, shift) if n else []
    return sym, nxt, prv, freq, made


def _pairs_in_words(sym: np.ndarray, lasts: np.ndarray, freq: np.ndarray, shift: int) -> Listed:
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
    return list(zip(keys.tolist(), totals.tolist(), _slices(order, bounds)))


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
    weight = np.frombuffer(freq, freq.typecode)
    p = np.frombuffer(found, np.int32) if isinstance(found, array) else np.array(found, np.int32)
    q = nx[p]
    # a link of -1 reads the trainer's sentinel past the last symbol, never one: the test on q >= 0
    # says so outright
    ok = (s[p] == a) & (q >= 0) & (s[q] == b)
    p, q = p[ok], q[ok]
    right, left = nx[q], pv[p]
    after_merge = np.zeros(len(p), bool)
    after_merge[1:] = left[1:] == q[:-1]
    # the place before, where the left neighbour was merged a moment before
    before = np.empty_like(p)
    before[1:] = p[:-1]
    left_at = np.where(after_merge, before, left)
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
    return _int32s(p), made_left, made_right, int(w.sum(dtype=np.int64))


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
    keys = key(ids.astype(np.int64)).tolist()
    return dict(zip(keys, totals.tolist())), dict(zip(keys, _slices(places[order], bounds)))


def _grouped(ids: np.ndarray, order: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The ids in ``order`` (indices sorted by id), each once, their summed weights, and where each
    one's run starts in ``order``, with the end."""
    ids = ids[order]
    if not len(ids):
        return ids, weights[:0], [0]
    first = np.flatnonzero(np.concatenate(([True], ids[1:] != ids[:-1])))
    # 64-bit sums: weights of 32 bits each may add up past 2**31
    return ids[first], np.add.reduceat(weights[order], first, dtype=np.int64), [*first.tolist(), len(ids)]


def _slices(places: np.ndarray, bounds: list[int]) -> list[array[int]]:
    """Each run of ``places`` between bounds as an array of its own (a slice of one array is one
    copy, made in C)."""
    whole = _int32s(places)
    return [whole[start:end] for start, end in zip(bounds, bounds[1:])]


def _zeros(typecode: str, n: int) -> array[int]:
    """An array of ``n`` zeros, made at once."""
    return array(typecode, [0]) * n


def _int32s(values: np.ndarray) -> array[int]:
    """``values`` as an array of 32-bit ints, written through a view: one copy."""
    found = _zeros("i", len(values))
    np.frombuffer(found, np.int32)[:] = values
    return found
