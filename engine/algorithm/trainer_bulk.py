"""The trainer's bulk work in numpy: laying a large corpus out, and a merge with many places.

Both read and write the trainer's own arrays (``array('i')`` links and symbols, ``array('q')``
weights) through zero-copy views, so the trainer's Python loop and these functions share one
layout. A merge of a pair of two equal symbols (``a a a``) is never done here: its places depend
on each other, left to right, and stay with the Python loop. numpy is imported only when a
corpus is large enough to profit.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

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
    freq = np.repeat(np.asarray(counts, np.int64), size)
    nxt = np.arange(1, n + 1, dtype=np.int32)
    nxt[ends[size > 0] - 1] = -1
    prv = np.arange(-1, n - 1, dtype=np.int32)
    prv[starts] = -1
    at = np.flatnonzero(nxt >= 0).astype(np.int32)
    keys = sym[at].astype(np.int64) << shift | sym[at + 1]
    made = _grouped(keys, at, freq[at])
    return (array("i", sym.tobytes()), array("i", nxt.tobytes()), array("i", prv.tobytes()),
            array("q", freq.tobytes()), made)


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
    made_left = _grouped(left_sym[has_left].astype(np.int64) << shift | new, left_at[has_left], w[has_left])
    made_right = _grouped(np.int64(new) << shift | right_sym.astype(np.int64), p[has_right], w[has_right])
    return array("i", p.tobytes()), made_left, made_right, int(w.sum())


def _grouped(keys: np.ndarray, places: np.ndarray, weights: np.ndarray) -> Made:
    """Places and their summed weights per key, each key's places kept in the order given."""
    if not len(keys):
        return []
    order = np.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    first = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    totals = np.add.reduceat(weights, first)
    bounds = np.append(first, len(keys)) * 4
    raw = memoryview(places[order].astype(np.int32).tobytes())
    made = []
    for key, total, start, end in zip(keys[first].tolist(), totals.tolist(), bounds[:-1].tolist(),
                                      bounds[1:].tolist()):
        found = array("i")
        found.frombytes(raw[start:end])
        made.append((key, total, found))
    return made
