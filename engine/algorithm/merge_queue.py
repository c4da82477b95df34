"""Merging one long piece in time near-linear in its length: its parts as a linked list, the
candidate merges in a heap ordered by (rank, place).

Scanning every pair for the lowest rank at each merge costs the square of a piece's length (a text
split ``none``, a minified file). Here a merge touches only its own place: the two parts join, and
the pairs with the neighbours on either side are looked up and pushed. An entry whose place has
changed since it was pushed is dropped when it comes up, so nothing is ever searched for.

Both rules of ``engine.algorithm.tokenizer`` run here with the same ids as their scanning loops:

- ``replay_merges``: a merge list replayed in order. The heap gives the lowest rank first and, among
  one rank, the places left to right: one round of the replay. A pair whose rank is at or below the
  last rank applied is one a rebuilt token brought back; it stands for its next merge, if any.
- ``merge_ranked_bytes``: tiktoken's rule for ranked byte strings (the lowest-ranked join, the
  leftmost of equals).

>>> pairs = {(0, 1): (0, 2), (2, 2): (1, 3)}
>>> replay_merges([0, 1, 0, 1, 0], pairs.get, lambda pair, done: None, 5)
[3, 0]

Left out: what the tokenizer shows of each step (a trace keeps the scanning loop: it records every
token after every round anyway).
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush
from typing import Callable

Pair = tuple[int, int]
# (rank, id of the join) of a pair's first merge, or None where no merge joins it
RankOf = Callable[[Pair], "tuple[int, int] | None"]
# (rank, id) of a pair's first merge after a rank, or None
LaterMerge = Callable[[Pair, int], "tuple[int, int] | None"]


def replay_merges(ids: list[int], rank_of: RankOf, later: LaterMerge, limit: int) -> list[int]:
    """The ids of a piece after replaying the merges of rank below ``limit`` in order."""
    n = len(ids)
    tokens = list(ids)
    after = list(range(1, n + 1))  # the place of the next part; n after the last; -1 once joined
    before = list(range(-1, n - 1))
    done = -1

    def candidate(i: int, j: int) -> tuple[int, int, int, int, int] | None:
        pair = (tokens[i], tokens[j])
        found = rank_of(pair)
        if found is not None and found[0] <= done:
            found = later(pair, done)
        if found is None or found[0] >= limit:
            return None
        return found[0], i, pair[0], pair[1], found[1]

    heap = [entry for entry in map(candidate, range(n - 1), range(1, n)) if entry is not None]
    heapify(heap)
    while heap:
        rank, i, left, right, new = heappop(heap)
        j = after[i]
        # a part that has grown since holds another token: the entry stands for a pair gone
        if j < 0 or j >= n or tokens[i] != left or tokens[j] != right:
            continue
        # every entry was pushed with a rank above the one applied then, so ranks only rise here
        done = rank
        tokens[i] = new  # the right part joins the left one
        k = after[j]
        after[i] = k
        after[j] = -1
        if k < n:
            before[k] = i
            entry = candidate(i, k)
            if entry is not None:
                heappush(heap, entry)
        h = before[i]
        if h >= 0:
            entry = candidate(h, i)
            if entry is not None:
                heappush(heap, entry)
    out = []
    i = 0
    while i < n:
        out.append(tokens[i])
        i = after[i]
    return out


def merge_ranked_bytes(piece: bytes, rank_of: Callable[[bytes], int | None]) -> list[bytes]:
    """The parts of a piece after joining, again and again, the neighbouring parts whose joined
    bytes have the lowest rank (the leftmost of equals), until no join is ranked."""
    n = len(piece)
    after = list(range(1, n + 1))  # where the part starting here ends; -1 once joined
    heap = []
    for i in range(n - 1):
        rank = rank_of(piece[i:i + 2])
        if rank is not None:
            heap.append((rank, i, i + 2))
    heapify(heap)
    # the part starting at each place, for the joins on its left
    before = list(range(-1, n - 1))
    while heap:
        _, i, end = heappop(heap)
        j = after[i]
        # the pair is named by its bytes: the same start and end mean the same join
        if j < 0 or j >= n or after[j] != end:
            continue
        after[i] = end
        after[j] = -1
        if end < n:
            before[end] = i
            rank = rank_of(piece[i:after[end]])
            if rank is not None:
                heappush(heap, (rank, i, after[end]))
        h = before[i]
        if h >= 0:
            rank = rank_of(piece[h:end])
            if rank is not None:
                heappush(heap, (rank, h, end))
    parts = []
    i = 0
    while i < n:
        parts.append(piece[i:after[i]])
        i = after[i]
    return parts
