"""The merge list that ranked byte strings (a ``.tiktoken`` file) stand for, found token by token.

A token of rank r is the merge of the two parts tiktoken's rule leaves when it splits the
token's bytes with the ranks under r (``byte_pair_split``). Splitting every token from its bytes
costs a long token its length in joins, which a file of chained tokens (``a``, ``aa``, ``aaa``, ...)
pays again for each of them. Here the split of a longer token starts instead from the longest
earlier token it starts or ends with and the few bytes left over (a token with no such start is
split from its bytes), because of two facts about the rule:

- While no join crosses a part's edges, the part's bytes join exactly as they do when that part
  is split alone: each part repeats the joins of its own merge tree, which is already known.
- Once every earlier token is the merge of its two parts, joins come in the order of their ranks
  (a join makes a token ranked above both of its parts), so a join across an edge can be found by
  walking up the two trees beside that edge: the right-hand branch of the part on the left, the
  left-hand branch of the part on the right, each node standing from its own rank to its parent's.

So only the joins that cross the starting parts' edges are worked out, each at the edge where it
happens; the parts it breaks open become their subtrees, whose edges are then checked in turn.
Joins whose bytes are ranked but whose parts are not that token's own two never happen (a join
that happened would make them its parts), so only each token's own pair is looked up.

Ties follow tiktoken: of two equal joins the leftmost goes first, so a node whose parent is
joined at the rank of the crossing join is taken by that parent on the left but not on the right.
"""

from __future__ import annotations

import heapq

from engine.errors import BpeLabError
from engine.algorithm.merge_queue import merge_ranked_bytes

# above every rank
_NEVER = 1 << 62
# tokens up to this many bytes are split from their bytes, which takes no more steps than the trees
SHORT = 32
# how many bytes a split may start from beside an earlier token
REST = 8


def byte_pair_split(piece: bytes, ranks: dict[bytes, int], below: int | None = None) -> list[bytes]:
    """tiktoken's rule (``engine.algorithm.merge_queue.merge_ranked_bytes``), using only ranks under ``below``."""
    if below is None:
        return merge_ranked_bytes(piece, ranks.get)

    def rank_under(joined: bytes) -> int | None:
        rank = ranks.get(joined)
        return rank if rank is not None and rank < below else None

    return merge_ranked_bytes(piece, rank_under)


class _Splitter:
    """The tokens recovered so far: each one's two parts, and each pair of parts' rank and token."""

    def __init__(self, ranks: dict[bytes, int]):
        self.ranks = ranks
        self.parts: dict[bytes, tuple[bytes, bytes]] = {}
        self.joins: dict[tuple[bytes, bytes], tuple[int, bytes]] = {}
        # each token as the one bytes object every table holds, so lookups compare by identity
        self.same = {t: t for t in ranks}
        # tree nodes visited and crossings queued (a split from the bytes counts its length): the
        # work done, whatever the machine's speed
        self.work = 0

    def time(self, node: bytes) -> int:
        """When a node is formed: a byte before any join, a token at its rank."""
        return -1 if len(node) == 1 else self.ranks[node]

    def add(self, token: bytes, rank: int, left: bytes, right: bytes) -> None:
        self.parts[token] = (left, right)
        self.joins[(left, right)] = (rank, token)

    def start(self, token: bytes, rank: int) -> list[bytes] | None:
        """Earlier tokens that spell ``token``: the longest earlier token it starts with (or else ends
        with) that leaves at most ``REST`` bytes, and those bytes; None where there is none."""
        ranks, same = self.ranks, self.same

        def byte(i: int) -> bytes:
            one = token[i : i + 1]
            return same.get(one, one)

        n = len(token)
        for rest in range(1, min(REST, n - 2) + 1):
            head = token[:-rest]
            if ranks.get(head, _NEVER) < rank:
                return [same[head]] + [byte(i) for i in range(n - rest, n)]
        for rest in range(1, min(REST, n - 2) + 1):
            tail = token[rest:]
            if ranks.get(tail, _NEVER) < rank:
                return [byte(i) for i in range(rest)] + [same[tail]]
        return None

    def right_branch(self, node: bytes) -> list[bytes]:
        """The node, its right part, that part's right part, ... down to its last byte."""
        out = [node]
        parts = self.parts
        while len(node) > 1:
            node = parts[node][1]
            out.append(node)
        return out

    def left_branch(self, node: bytes) -> list[bytes]:
        out = [node]
        parts = self.parts
        while len(node) > 1:
            node = parts[node][0]
            out.append(node)
        return out

    def crossing(self, left: bytes, right: bytes, after: int) -> tuple[int, int, int, bytes] | None:
        """The first join across the edge between two neighbouring parts whose joins inside follow
        their trees, at rank ``after`` or later: (rank, depth on the left, depth on the right, token)."""
        xs, ys = self.right_branch(left), self.left_branch(right)
        time, joins = self.time, self.joins
        # the nodes standing beside the edge when rank ``after`` comes: the highest formed before it
        i = 0
        while len(xs[i]) > 1 and time(xs[i]) >= after:
            i += 1
        j = 0
        while len(ys[j]) > 1 and time(ys[j]) >= after:
            j += 1
        visited = i + j
        while True:
            visited += 1
            up_x = time(xs[i - 1]) if i else _NEVER
            up_y = time(ys[j - 1]) if j else _NEVER
            found = joins.get((xs[i], ys[j]))
            # a tie with the left node's parent goes to that parent, on the left; with the right's, to this join
            if found is not None and found[0] < up_x and found[0] <= up_y:
                self.work += visited
                return found[0], i, j, found[1]
            if not i and not j:
                self.work += visited
                return None
            if up_x <= up_y:
                i -= 1
            if up_y <= up_x:
                j -= 1

    def split(self, token: bytes, rank: int) -> list[bytes]:
        """``byte_pair_split(token, ranks, below=rank)``, given every token ranked below it recovered."""
        nodes = self.start(token, rank) if len(token) > SHORT else None
        if nodes is None:
            # from its bytes; a short token costs fewer steps so than through its trees
            self.work += len(token)
            return [self.same.get(p, p) for p in byte_pair_split(token, self.ranks, below=rank)]
        # the parts in order as a linked list of slots; a slot dies when a join breaks its part open
        tok = list(nodes)
        at = [0] * len(nodes)
        for s in range(1, len(nodes)):
            at[s] = at[s - 1] + len(nodes[s - 1])
        nxt = list(range(1, len(nodes))) + [-1]
        prv = list(range(-1, len(nodes) - 1))
        alive = [True] * len(nodes)
        heap: list[tuple[int, int, int, int, int, int, bytes]] = []

        def check(a: int, b: int, after: int) -> None:
            found = self.crossing(tok[a], tok[b], after)
            if found is not None:
                self.work += 1
                # equal ranks join left to right: the edge's place in the token breaks the tie
                heapq.heappush(heap, (found[0], at[b], a, b, found[1], found[2], found[3]))

        for s in range(len(nodes) - 1):
            check(s, s + 1, -1)
        while heap:
            rank_now, _, a, b, i, j, joined = heapq.heappop(heap)
            if not (alive[a] and alive[b]):
                continue  # a join since then broke one of the two parts open
            parts = self.parts
            xs, ys = self.right_branch(tok[a]), self.left_branch(tok[b])
            # what stands in the two parts' places: the left one's subtrees beside its branch, the
            # new token, then the right one's
            new = [parts[xs[s]][0] for s in range(i)] + [joined] + [parts[ys[s]][1] for s in reversed(range(j))]
            first = len(tok)
            pos = at[a]
            for s, node in enumerate(new):
                tok.append(node)
                at.append(pos)
                pos += len(node)
                prv.append(first + s - 1 if s else prv[a])
                nxt.append(first + s + 1 if s + 1 < len(new) else nxt[b])
                alive.append(True)
            last = len(tok) - 1
            alive[a] = alive[b] = False
            if prv[a] >= 0:
                nxt[prv[a]] = first
            if nxt[b] >= 0:
                prv[nxt[b]] = last
            lo = prv[a] if prv[a] >= 0 else first
            hi = nxt[b] if nxt[b] >= 0 else last
            s = lo
            while s != hi:
                check(s, nxt[s], rank_now)
                s = nxt[s]
        out = []
        s = next(s for s in range(len(tok)) if alive[s] and prv[s] == -1)
        while s != -1:
            out.append(tok[s])
            s = nxt[s]
        return out


def recover_merges(ranks: dict[bytes, int], source: str = "ranks",
                   work: list[int] | None = None) -> list[tuple[bytes, bytes]]:
    """The merge list, in rank order, that ranked tokens stand for.

    ``work``, when given, gets the number of tree nodes visited appended: a count of the work that
    does not depend on the machine's speed.
    """
    splitter = _Splitter(ranks)
    merges = []
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(token) < 2:
            continue
        token = splitter.same[token]
        parts = splitter.split(token, rank)
        if len(parts) != 2:
            raise BpeLabError(
                f"{source}: the token of rank {rank} is not the join of two earlier tokens, so it is not a "
                "byte pair encoding vocabulary"
            )
        splitter.add(token, rank, parts[0], parts[1])
        merges.append((parts[0], parts[1]))
    if work is not None:
        work.append(splitter.work)
    return merges
