"""Trainers as students write them: a dict of words, count the pairs, take the max, merge, repeat.

Each keyword turns on one deliberate mistake or picks one tie rule, written the way a student's
own code would have it; nothing here calls the engine, so compare is checked against code it
does not share.
"""

from __future__ import annotations

Pair = tuple[str, str]


def merge_left(symbols: tuple[str, ...], pair: Pair) -> tuple[str, ...]:
    out, i = [], 0
    while i < len(symbols):
        if symbols[i:i + 2] == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def merge_right(symbols: tuple[str, ...], pair: Pair) -> tuple[str, ...]:
    out, i = [], len(symbols)
    while i > 0:
        if i >= 2 and symbols[i - 2:i] == pair:
            out.insert(0, pair[0] + pair[1])
            i -= 2
        else:
            out.insert(0, symbols[i - 1])
            i -= 1
    return tuple(out)


def merge_every_place(symbols: tuple[str, ...], pair: Pair) -> tuple[str, ...]:
    """Finds every place first, overlapping ones too, and makes the token at each."""
    places = {i for i in range(len(symbols) - 1) if symbols[i:i + 2] == pair}
    out, i = [], 0
    while i < len(symbols):
        if i in places:
            out.append(pair[0] + pair[1])
            i += 1 if i + 1 in places else 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def pick(tied: list[Pair], tie: str, ids: dict[str, int]) -> Pair:
    if tie == "first":
        return tied[0]
    if tie == "last":
        return tied[-1]
    if tie == "greatest":
        return max(tied)
    if tie == "smallest":
        return min(tied)
    if tie == "hf":
        return min(tied, key=lambda p: (ids[p[0]], ids[p[1]]))
    raise ValueError(tie)


def learn(text: str, *, marker: str | None = None, lowercase: bool = False, weighted: bool = True,
          across: bool = False, merge=merge_left, tie: str = "first", merges: int | None = None,
          extra: int = 0, min_frequency: int = 2, first_tie: str | None = None) -> list[Pair]:
    """``merges``: stop after that many (``extra`` more or fewer: the off-by-one); else until no pair
    repeats (``min_frequency``). ``first_tie``: the rule of the first merge only (a slip once)."""
    if lowercase:
        text = text.lower()
    counts: dict[str, int] = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    end = (marker,) if marker else ()
    vocab = {tuple(word) + end: n for word, n in counts.items()}
    ids = {s: i for i, s in enumerate(sorted({c for w in counts for c in w}) + list(end))}
    if across:
        one: list[str] = []
        for word in text.split():
            one += list(word) + list(end)
        vocab = {tuple(one): 1}
    learned: list[Pair] = []
    rounds = None if merges is None else merges + extra
    while rounds is None or len(learned) < rounds:
        pairs: dict[Pair, int] = {}
        for symbols, n in vocab.items():
            for pair in zip(symbols, symbols[1:]):
                pairs[pair] = pairs.get(pair, 0) + (n if weighted else 1)
        if not pairs:
            break
        best_count = max(pairs.values())
        if merges is None and best_count < min_frequency:
            break
        rule = first_tie if first_tie is not None and not learned else tie
        best = pick([p for p, c in pairs.items() if c == best_count], rule, ids)
        ids.setdefault(best[0] + best[1], len(ids))
        new = {}
        for symbols, n in vocab.items():
            merged = merge(symbols, best)
            new[merged] = new.get(merged, 0) + n
        vocab = new
        learned.append(best)
    return learned
