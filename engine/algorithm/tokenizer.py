"""Encoding and decoding with learned merges, and with the ranks of a real tokenizer.

Two models share one pipeline (special tokens, lowercase, split, then each word on its own):
``Tokenizer`` replays a merge list in its order, exactly as training made the merges, so the
training words encode to the tokens training ended with; ``RankTokenizer`` follows tiktoken's rule
for ranked byte strings (merge the adjacent parts whose joined bytes have the lowest rank), which
is how cl100k_base is published. Each model cuts text into words one way (``pre_tokenize``), and
``encode``, ``encode_ids`` and ``encode_steps`` all follow it. A ``Tokenizer`` is built from its
tables (``TokenizerTables``), derived from its merges or shared with the tokenizer it was cut from.

Special tokens: text that spells one is ordinary text unless the caller allows special tokens
(``allow_special=True``, tiktoken's ``allowed_special="all"``); by default it is split like any
other text (tiktoken's ``encode_ordinary``), so typed text cannot inject a control token.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, chain, repeat
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Callable, TypeVar, overload

from engine.algorithm.bytelevel import BYTE_TO_CHAR, bytes_to_symbols, symbols_to_bytes
from engine.algorithm.collector import collector_paused
from engine.errors import BpeLabError
from engine.algorithm.merge_queue import merge_ranked_bytes, replay_merges
from engine.algorithm.pretokenize import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    SplitPattern,
    iter_word_spans,
    lowercase,
    lowercase_with_map,
    special_splitter,
    split_specials,
    split_words,
)
from engine.algorithm.settings import UNKNOWN, Settings

if TYPE_CHECKING:  # for the annotation only: reading a tokenizer from a file loads none of the trainer's modules
    from engine.algorithm.trainer import Trainer

# at most this many distinct words keep their ids between calls
_CACHE_LIMIT = 500_000
# the rank of a pair that no merge makes
_UNRANKED = 1 << 62
# each byte as a one-byte string, made once
_ONE_BYTE = [bytes((b,)) for b in range(256)]
# up to this many symbols, a piece is merged by scanning its pairs (a few builtins per merge, fastest
# for a word); past it, by a heap of candidate merges (``engine.algorithm.merge_queue``), whose cost grows
# with the piece's length and not with its square
_SHORT_PIECE = 64
# stands in the list of each word's one id for a word of several tokens (ids are never negative)
_SEVERAL = -1
# how Settings names the published split patterns
_SPLIT_OF_PATTERN = {GPT2_PATTERN: "gpt2", GPT4_PATTERN: "gpt4"}


class Encoding:
    """Token ids, their strings and their (start, end) character offsets in the text encoded.

    Built from the ids, the vocabulary's lookup of a token's string by its id, and each token's
    start and end: the strings are spelt, and the (start, end) pairs paired, when ``tokens`` and
    ``offsets`` are first read, so a caller that reads only ids pays for no string or pair per
    token. Immutable; equal when ids, tokens and offsets are.

    >>> Encoding([5, 2], ["a", "b", "c", "d", "e", "lo"].__getitem__, [0, 2], [2, 3]).offsets
    ((0, 2), (2, 3))
    """

    __slots__ = ("ids", "starts", "ends", "_spell", "_tokens", "_offsets")

    ids: tuple[int, ...]
    starts: tuple[int, ...]  # where each token starts in the text, in characters
    ends: tuple[int, ...]  # where each ends (a token inside a character covers all of it)
    _spell: Callable[[int], str]
    # spelt and paired on first reading; two threads reading at once make equal values, either may stay
    _tokens: tuple[str, ...] | None
    _offsets: tuple[tuple[int, int], ...] | None

    def __init__(self, ids: Iterable[int], spell: Callable[[int], str], starts: Iterable[int], ends: Iterable[int]):
        for name, value in (("ids", tuple(ids)), ("starts", tuple(starts)), ("ends", tuple(ends)),
                            ("_spell", spell), ("_tokens", None), ("_offsets", None)):
            object.__setattr__(self, name, value)

    @property
    def tokens(self) -> tuple[str, ...]:
        """Each id's token string."""
        tokens = self._tokens
        if tokens is None:
            tokens = tuple(map(self._spell, self.ids))
            object.__setattr__(self, "_tokens", tokens)
        return tokens

    @property
    def offsets(self) -> tuple[tuple[int, int], ...]:
        """Each token's (start, end)."""
        offsets = self._offsets
        if offsets is None:
            # a pair per token: the cycle collector would walk a long text's pairs again and again
            with collector_paused():
                offsets = tuple(zip(self.starts, self.ends))
            object.__setattr__(self, "_offsets", offsets)
        return offsets

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an Encoding cannot change: '{name}' is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an Encoding cannot change: '{name}' is read-only")

    def __len__(self) -> int:
        return len(self.ids)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Encoding):
            return NotImplemented
        return (self.ids == other.ids and self.starts == other.starts and self.ends == other.ends
                and self.tokens == other.tokens)

    def __hash__(self) -> int:
        return hash((self.ids, self.starts, self.ends))

    def __repr__(self) -> str:
        return f"Encoding(ids={self.ids!r}, tokens={self.tokens!r}, offsets={self.offsets!r})"


@dataclass(frozen=True)
class TraceStep:
    """One merge that applied while encoding a word: its rank, the pair, the tokens after it."""

    rank: int
    pair: tuple[str, str]
    tokens: tuple[str, ...]


class _Pipeline:
    """What both models share: special tokens, lowercase, split, per-word cache, offsets."""

    settings: Settings

    @property
    def special_ids(self) -> dict[str, int]:
        """Special token -> id: what a special token in the text encodes as where it is allowed."""
        raise NotImplementedError

    def _init_pipeline(self, settings: Settings) -> None:
        self.settings = settings
        self._specials = special_splitter(settings.special_tokens)
        self._cache: dict[str, tuple[int, ...]] = {}
        # the words of the cache that are one token, by that token's id
        self._single: dict[str, int] = {}
        # word -> (starts, ends) of its tokens; filled by encode, emptied with the id cache
        self._span_cache: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    # subclasses provide these
    def _word_ids(self, word: str) -> tuple[int, ...]:
        raise NotImplementedError

    def _split(self, text: str) -> list[str]:
        """The words of a stretch of text without special tokens, in order."""
        raise NotImplementedError

    def _split_spans(self, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of each word ``_split`` gives, in characters of ``text``."""
        raise NotImplementedError

    def id_to_token(self, token_id: int) -> str:
        raise NotImplementedError

    def _clear_caches(self) -> None:
        """Forget every word met: the caches start again (at their size limit, or for a cold measure)."""
        self._cache.clear()
        self._single.clear()
        self._span_cache.clear()

    def _ids_of_word(self, word: str) -> tuple[int, ...]:
        ids = self._cache.get(word)
        if ids is None:
            ids = self._word_ids(word)
            if len(self._cache) >= _CACHE_LIMIT:
                self._clear_caches()
            self._cache[word] = ids
            if len(ids) == 1:
                self._single[word] = ids[0]
        return ids

    def _several_ids(self, word: str) -> tuple[int, ...]:
        """The ids of a word that ``_one_token_ids`` marks as several tokens and the cache lacks."""
        return self._ids_of_word(word)

    def _learn(self, words: list[str]) -> None:
        """Encode each distinct word not met before, once, into the caches."""
        cache = self._cache
        missing = set(words).difference(cache)
        if not missing:
            return
        if len(cache) + len(missing) > _CACHE_LIMIT:
            self._clear_caches()
            missing = set(words)
        found = dict(self._words_ids(missing))
        cache.update(found)
        self._single.update((word, ids[0]) for word, ids in found.items() if len(ids) == 1)

    def _one_token_ids(self, words: list[str]) -> list[int]:
        """Each word's id where the word is one token, ``_SEVERAL`` where it is several."""
        self._learn(words)
        return list(map(self._single.get, words, repeat(_SEVERAL)))

    def _extend_with_words(self, out: list[int], words: list[str]) -> None:
        """Append the ids of many words.

        Most words of a text are one token: their ids are looked up all at once, and only the
        places of the words of several tokens are visited one by one.
        """
        first = self._one_token_ids(words)
        pos = 0
        cache, ids_of = self._cache, self._several_ids
        for j in _places(first, _SEVERAL):
            out += first[pos:j]
            word = words[j]
            out += cache.get(word) or ids_of(word)
            pos = j + 1
        out += first[pos:] if pos else first

    def _words_ids(self, words: Iterable[str]) -> Iterator[tuple[str, tuple[int, ...]]]:
        """(word, its ids) for each of ``words``; a model may do this faster than word by word."""
        word_ids = self._word_ids
        return ((word, word_ids(word)) for word in words)

    def _segments(self, text: str, allow_special: bool) -> Iterator[tuple[int, int, bool]]:
        """(start, end, is_special) stretches covering the text; special tokens only where allowed."""
        return split_specials(text, self._specials if allow_special else None)

    def _normal(self, segment: str) -> str:
        """A stretch of text between special tokens as its words are cut from it (lowercased if set).

        Special tokens are cut out of the text as written, then the rest is lowercased, as in
        training: a special token with capitals (``<|EOT|>``) is matched, never lowercased away.
        """
        return lowercase(segment) if self.settings.lowercase else segment

    def pieces(self, text: str, allow_special: bool = False) -> list[tuple[str, bool]]:
        """The words and, where allowed, the special tokens the text is encoded as, in order,
        each with whether it is a special token: what a trace of the encoding walks through."""
        found: list[tuple[str, bool]] = []
        for start, end, special in self._segments(text, allow_special):
            if special:
                found.append((text[start:end], True))
            else:
                found.extend((word, False) for word in self._split(self._normal(text[start:end])))
        return found

    def pre_tokenize(self, text: str, allow_special: bool = False) -> list[str]:
        """The words the text is encoded as, one by one and in order; allowed special tokens left out.

        Every way of encoding splits here, so ``encode_steps`` of each word ends in ``encode``'s tokens.
        """
        return [piece for piece, special in self.pieces(text, allow_special) if not special]

    def encode_ids(self, text: str, allow_special: bool = False) -> list[int]:
        """Only the ids: the fast path for long texts."""
        out: list[int] = []
        # a long text's words are one big list, which the cycle collector would walk again at every
        # round it makes while the words are encoded; encoding makes no cycles
        with collector_paused():
            for start, end, special in self._segments(text, allow_special):
                if special:
                    out.append(self.special_ids[text[start:end]])
                    continue
                self._extend_with_words(out, self._split(self._normal(text[start:end])))
        return out

    def encode(self, text: str, allow_special: bool = False) -> Encoding:
        """Ids, token strings and offsets into ``text`` (the original, before lowercasing)."""
        ids: list[int] = []
        starts: list[int] = []
        ends: list[int] = []
        with collector_paused():  # as in encode_ids
            self._encode_segments(text, allow_special, ids, starts, ends)
        return Encoding(ids, self._spell, starts, ends)

    def _encode_segments(self, text: str, allow_special: bool, ids: list[int], starts: list[int],
                         ends: list[int]) -> None:
        """Append the ids of a text and where each token starts and ends."""
        for seg_start, seg_end, special in self._segments(text, allow_special):
            if special:
                ids.append(self.special_ids[text[seg_start:seg_end]])
                starts.append(seg_start)
                ends.append(seg_end)
                continue
            segment = text[seg_start:seg_end]
            index = None
            if self.settings.lowercase:
                segment, index = lowercase_with_map(segment)
            # offsets into the lowercased segment where it has its own length, mapped back below
            at = seg_start if index is None else 0
            words = self._split(segment)
            lengths = list(map(len, words))
            if sum(lengths) == len(segment):
                # the words cover the segment one after another (the gpt2 and gpt4 splits):
                # each starts where the one before ends
                bounds = list(accumulate(lengths, initial=at))
                word_starts = bounds[:-1]
                word_ends = bounds[1:]
            else:
                spans = list(self._split_spans(segment))
                words = [segment[s:e] for s, e in spans]
                word_starts = [at + s for s, _ in spans]
                word_ends = [at + e for _, e in spans]
            if index is None:
                self._extend_with_word_spans(ids, starts, ends, words, word_starts, word_ends)
                continue
            found_starts: list[int] = []
            found_ends: list[int] = []
            self._extend_with_word_spans(ids, found_starts, found_ends, words, word_starts, word_ends)
            # a character whose lowercase is longer: spans in the lowercased text map back to the text
            length = seg_end - seg_start
            for s, e in zip(found_starts, found_ends):
                s, e = _map_span(index, s, e, length)
                starts.append(seg_start + s)
                ends.append(seg_start + e)

    def _extend_with_word_spans(self, ids: list[int], starts: list[int], ends: list[int], words: list[str],
                                word_starts: list[int], word_ends: list[int]) -> None:
        """Append the ids of the words and the start and end of each of their tokens, given each
        word's own: a word of one token spans just that, a word of several is counted off by its
        tokens' lengths (``_spans``), once per distinct word."""
        first = self._one_token_ids(words)
        cache, ids_of = self._cache, self._several_ids
        spans = self._span_cache
        pos = 0
        for j in _places(first, _SEVERAL):
            ids += first[pos:j]
            starts += word_starts[pos:j]
            ends += word_ends[pos:j]
            word = words[j]
            word_ids = cache.get(word) or ids_of(word)
            ids += word_ids
            inside = spans.get(word)
            if inside is None:
                inside = spans[word] = _unzipped(self._spans(word, word_ids))
            add = word_starts[j].__add__
            starts += map(add, inside[0])
            ends += map(add, inside[1])
            pos = j + 1
        ids += first[pos:] if pos else first
        starts += word_starts[pos:] if pos else word_starts
        ends += word_ends[pos:] if pos else word_ends

    @property
    def _spell(self) -> Callable[[int], str]:
        """A token's string by its id, as an ``Encoding`` spells its tokens; each model looks them
        up in a table of its own."""
        raise NotImplementedError

    def _units_length(self, token_id: int) -> int:
        """How many base units (chars, or bytes) a token's string spans; the unknown token one."""
        raise NotImplementedError

    def _spans(self, word: str, ids: Sequence[int]) -> list[tuple[int, int]]:
        """Character spans of a word's tokens; a token ending inside a character covers all of it.

        Tokens are counted off along the word by their length. The end-of-word marker, always the
        last symbol, has no character of its own: the last token stops at the end of the word.
        """
        if len(ids) == 1:
            # most words of a trained vocabulary are one token
            return [(0, len(word))]
        length = self._units_length
        spans = []
        pos = 0
        if self.settings.units == "chars":
            for i in ids:
                after = pos + length(i)
                spans.append((pos, after))
                pos = after
            if pos > len(word):
                spans[-1] = (spans[-1][0], len(word))
            return spans
        if word.isascii():
            # a byte is a character: each token ends where its bytes add up to
            ends = list(accumulate(map(length, ids)))
            return list(zip([0, *ends[:-1]], ends))
        char_of_byte: list[int] = []
        for ci, ch in enumerate(word):
            char_of_byte.extend([ci] * len(ch.encode("utf-8")))
        for i in ids:
            n = length(i)
            spans.append((char_of_byte[pos], char_of_byte[pos + n - 1] + 1))
            pos += n
        return spans

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The bytes the ids stand for, exactly: a token holding part of a character gives that part."""
        raise NotImplementedError

    def decode(self, ids: Iterable[int]) -> str:
        """The text the ids stand for; bytes that are not whole UTF-8 characters become U+FFFD."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")


def _places(values: list[int], value: int) -> Iterator[int]:
    """The indexes where ``value`` stands in ``values``, in order, each found by ``list.index``."""
    index = values.index
    at = -1
    try:
        while True:
            at = index(value, at + 1)
            yield at
    except ValueError:
        return


def _unzipped(spans: list[tuple[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(starts, ends) of (start, end) spans."""
    return tuple(s for s, _ in spans), tuple(e for _, e in spans)


def _map_span(index: list[int], start: int, end: int, length: int) -> tuple[int, int]:
    s = index[start] if start < len(index) else length
    e = index[end - 1] + 1 if end > start else s
    return s, e


_T = TypeVar("_T")


class _CutIds(Mapping[str, int]):
    """Token -> id for a tokenizer cut after its first merges: the full map's first ``regular``
    ids, then the cut's own ids for the special and unknown tokens."""

    __slots__ = ("full", "regular", "extra")

    def __init__(self, full: Mapping[str, int], regular: int, extra: dict[str, int]):
        self.full, self.regular, self.extra = full, regular, extra

    # Mapping's get would look up by __getitem__ and catch a KeyError for every token a cut lacks
    @overload
    def get(self, token: str, /) -> int | None: ...
    @overload
    def get(self, token: str, default: int | _T, /) -> int | _T: ...

    def get(self, token: str, default: object = None, /) -> object:
        i = self.full.get(token)
        if i is not None and i < self.regular:
            return i
        return self.extra.get(token, default)

    def __getitem__(self, token: str) -> int:
        i = self.get(token)
        if i is None:
            raise KeyError(token)
        return i

    def __contains__(self, token: object) -> bool:
        return isinstance(token, str) and self.get(token) is not None

    # walked only to copy the map (a renumbering): a lookup never lists the full map
    def __iter__(self) -> Iterator[str]:
        regular, full = self.regular, self.full
        yield from (t for t, i in full.items() if i < regular)
        yield from (t for t in self.extra if full.get(t, regular) >= regular)

    def __len__(self) -> int:
        return sum(1 for _ in self)


Pair = tuple[int, int]


# what the pair tables say about every merge, by the tables' identity: the tokenizer at each step
# shares its lesson's tables, and working this out per step would cost a pass over every merge
_PAIR_FACTS: dict[int, tuple[Mapping[Pair, tuple[int, int]], bool, dict[Pair, int]]] = {}


def _pair_facts(pairs: Mapping[Pair, tuple[int, int]], repeats: Mapping[Pair, object], start: int) -> tuple[bool, dict[Pair, int]]:
    """(whether every merge makes a new token, each pair's rank) for a pair table."""
    found = _PAIR_FACTS.get(id(pairs))
    if found is None or found[0] is not pairs:
        if len(_PAIR_FACTS) >= 4:
            _PAIR_FACTS.clear()
        each_new = not repeats and all(new == start + rank for rank, new in pairs.values())
        # the table kept beside the facts, so its id names no other table while they are kept
        found = _PAIR_FACTS[id(pairs)] = (pairs, each_new, {pair: rank for pair, (rank, _) in pairs.items()})
    return found[1], found[2]


@dataclass(frozen=True)
class TokenizerTables:
    """What a merge-list tokenizer looks up, all derived from its settings, base and merges.

    Ids: the base vocabulary, then each new token in merge order (a string made twice keeps its
    first id), then the special tokens, then the unknown token for chars units.
    """

    vocab: list[str]  # id -> token
    ids: Mapping[str, int]  # token -> id; the first id where a special token spells a regular one
    base_ids: dict[str, int]  # base symbol -> id: what a word's characters (or bytes) start as
    pairs: Mapping[Pair, tuple[int, int]]  # (left id, right id) -> (rank, id of the join), first merge of the pair
    repeats: Mapping[Pair, tuple[tuple[int, int], ...]]  # the later (rank, id)s of a pair merged more than once
    special_ids: dict[str, int]
    unknown_id: int | None
    lengths: list[int]  # how many base units each token's string spans (the unknown token: one)
    regular_after: list[int]  # how many regular tokens there are after 0, 1, ... merges

    @classmethod
    def of(cls, settings: Settings, base: Sequence[str], merges: Sequence[tuple[str, str]]) -> "TokenizerTables":
        """The tables of ``merges`` learned over ``base`` with resolved ``settings``."""
        vocab = list(base)
        ids = {t: i for i, t in enumerate(vocab)}
        if len(ids) != len(vocab):
            raise BpeLabError("the base vocabulary holds a symbol twice")
        base_ids = dict(ids)
        pairs: dict[Pair, tuple[int, int]] = {}
        repeats: dict[Pair, tuple[tuple[int, int], ...]] = {}
        regular_after = [len(vocab)]
        for rank, (a, b) in enumerate(merges):
            if a not in ids or b not in ids:
                missing = a if a not in ids else b
                raise BpeLabError(f"merge {rank + 1} ({a} {b}) uses '{missing}', which no earlier token makes")
            token = a + b
            if token not in ids:
                ids[token] = len(vocab)
                vocab.append(token)
            pair = (ids[a], ids[b])
            if pair in pairs:
                # replayed in order, a pair merged again applies again where a rebuilt token made it anew
                repeats[pair] = repeats.get(pair, ()) + ((rank, ids[token]),)
            else:
                pairs[pair] = (rank, ids[token])
            regular_after.append(len(vocab))
        special_ids, unknown_id = _append_extras(vocab, settings)
        ids = {t: i for i, t in reversed(list(enumerate(vocab)))}
        lengths = _token_lengths(vocab, 0, unknown_id)
        return cls(vocab, ids, base_ids, pairs, repeats, special_ids, unknown_id, lengths, regular_after)

    def cut(self, merges: int, settings: Settings) -> "TokenizerTables":
        """The tables after the first ``merges`` merges, in time proportional to the vocabulary's size.

        The pair tables are shared: a tokenizer never applies a rank at or past its number of merges.
        The special tokens and the unknown token take the ids right after the regular tokens.
        """
        regular = self.regular_after[merges]
        vocab = self.vocab[:regular]
        special_ids, unknown_id = _append_extras(vocab, settings)
        full = self.ids.full if isinstance(self.ids, _CutIds) else self.ids
        extra = {t: i for i, t in reversed(list(enumerate(vocab[regular:], regular)))}
        lengths = self.lengths[:regular] + _token_lengths(vocab[regular:], regular, unknown_id)
        return TokenizerTables(
            vocab, _CutIds(full, regular, extra), self.base_ids, self.pairs, self.repeats, special_ids, unknown_id,
            lengths, self.regular_after[: merges + 1],
        )

    def renumbered(self, new_ids: Sequence[int]) -> "TokenizerTables":
        """The same tables with token i at id ``new_ids[i]`` (a file's own ids)."""
        p = new_ids
        if sorted(p) != list(range(len(self.vocab))):
            raise BpeLabError("the ids do not run from 0 without gaps or repeats")
        vocab = [""] * len(p)
        lengths = [0] * len(p)
        for i, token in enumerate(self.vocab):
            vocab[p[i]] = token
            lengths[p[i]] = self.lengths[i]
        return TokenizerTables(
            vocab,
            {t: p[i] for t, i in self.ids.items()},
            {t: p[i] for t, i in self.base_ids.items()},
            {(p[a], p[b]): (rank, p[t]) for (a, b), (rank, t) in self.pairs.items()},
            {(p[a], p[b]): tuple((rank, p[t]) for rank, t in later) for (a, b), later in self.repeats.items()},
            {t: p[i] for t, i in self.special_ids.items()},
            None if self.unknown_id is None else p[self.unknown_id],
            lengths,
            self.regular_after,
        )


def _append_extras(vocab: list[str], settings: Settings) -> tuple[dict[str, int], int | None]:
    """Add the special tokens and, for chars units, the unknown token after the regular tokens."""
    special_ids = {}
    for token in settings.special_tokens:
        special_ids[token] = len(vocab)
        vocab.append(token)
    unknown_id = None
    if settings.units == "chars":
        unknown_id = len(vocab)
        vocab.append(UNKNOWN)
    return special_ids, unknown_id


def _token_lengths(tokens: Sequence[str], first_id: int, unknown_id: int | None) -> list[int]:
    """How many base units each token's string spans: the unknown token stands for one character."""
    return [1 if i == unknown_id else len(token) for i, token in enumerate(tokens, first_id)]


def rank_order_conflict(merges: Sequence[tuple[str, str]]) -> tuple[int, int] | None:
    """Where merging the lowest-ranked pair first (the rule of ``tokenizers`` and tiktoken) could
    differ from replaying the merges in order: (r, e), merge r rebuilding a token that the earlier
    merge e joins, which the lowest-rank rule would then apply again. None when the two agree on
    every text: every merge then makes a token no earlier merge has used, so no pair of lower rank
    can appear after it.
    """
    first_use: dict[str, int] = {}
    for rank, (a, b) in enumerate(merges):
        # a token some merge used already existed, so merge ``rank`` rebuilds it
        used = first_use.get(a + b)
        if used is not None:
            return rank, used
        first_use.setdefault(a, rank)
        first_use.setdefault(b, rank)
    return None


class Tokenizer(_Pipeline):
    """A merge-list tokenizer: a base vocabulary, merges in order, special tokens (``TokenizerTables``
    says how ids are laid out).

    ``tables`` is for tables already derived from these merges, which a cut or a renumbering
    reuses; without it they are built and every merge is checked. ``trusted`` merges are a
    trainer's own, sound by construction: nothing is checked and the tables are built on first
    use (a run that only writes the merges to a file never needs them).
    """

    def __init__(self, settings: Settings, base: Sequence[str], merges: Sequence[tuple[str, str]],
                 tables: TokenizerTables | None = None, *, trusted: bool = False):
        settings = settings.resolved()
        self._init_pipeline(settings)
        self.base = list(base)
        # a cut passes a slice of its parent's merges, already pairs: converting 10,000 again costs a step
        self.merges: list[tuple[str, str]] = (
            list(merges) if tables is not None or trusted else [(a, b) for a, b in merges])
        if tables is None and not trusted:
            tables = TokenizerTables.of(settings, self.base, self.merges)
        if tables is not None:
            self.tables = tables
        self._ending: frozenset[int] | None = None  # ids of tokens that end a word, found on first decode

    @cached_property
    def tables(self) -> TokenizerTables:
        """Built here only for trusted merges, on first use."""
        return TokenizerTables.of(self.settings, self.base, self.merges)

    # what encoding and decoding look up, each read from the tables once

    @cached_property
    def vocab(self) -> list[str]:
        return self.tables.vocab

    @cached_property
    def special_ids(self) -> dict[str, int]:
        return self.tables.special_ids

    @cached_property
    def unknown_id(self) -> int | None:
        return self.tables.unknown_id

    @cached_property
    def _ids(self) -> Mapping[str, int]:
        return self.tables.ids

    @cached_property
    def _base_ids(self) -> dict[str, int]:
        return self.tables.base_ids

    @cached_property
    def _ranks(self) -> Mapping[Pair, tuple[int, int]]:
        return self.tables.pairs

    @cached_property
    def _repeats(self) -> Mapping[Pair, tuple[tuple[int, int], ...]]:
        return self.tables.repeats

    @cached_property
    def _lengths(self) -> list[int]:
        return self.tables.lengths

    @cached_property
    def _special_set(self) -> frozenset[int]:
        return frozenset(self.tables.special_ids.values())

    @classmethod
    def from_trainer(cls, trainer: Trainer, merges: int | None = None) -> "Tokenizer":
        """The tokenizer a trainer has learned, optionally only its first ``merges`` merges."""
        vocab = trainer.vocab
        pairs = [(vocab[a], vocab[b]) for a, b in trainer.merges[:merges]]
        return cls(trainer.settings, trainer.base, pairs, trusted=True)

    def truncated(self, merges: int) -> "Tokenizer":
        """The same tokenizer as it was after its first ``merges`` merges.

        Made from this one's tables, not by replaying the merges: a window asks for it on every step.
        """
        k = max(0, min(merges, len(self.merges)))
        return Tokenizer(self.settings, self.base, self.merges[:k], tables=self.tables.cut(k, self.settings))


    # -- vocabulary -----------------------------------------------------------------------------

    def get_vocab_size(self) -> int:
        return len(self.vocab)

    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(token)

    def id_to_token(self, token_id: int) -> str:
        return self.vocab[token_id]

    def _units_length(self, token_id: int) -> int:
        return self._lengths[token_id]

    @property
    def _spell(self) -> Callable[[int], str]:
        return self.vocab.__getitem__

    # -- encoding -------------------------------------------------------------------------------

    def _symbols(self, word: str) -> list[int]:
        """The base ids of a word; an unseen character becomes the unknown token (never a special
        token that happens to be spelt as one character)."""
        if self.settings.units == "bytes":
            return self._ids_of_base(bytes_to_symbols(word.encode("utf-8")))
        syms = self._ids_of_base(word)
        marker = self.settings.marker
        if marker is not None:
            syms.append(self._base_ids[marker])
        return syms

    def _ids_of_base(self, symbols: Iterable[str]) -> list[int]:
        """The base ids of symbols; one outside the base is the unknown token, which chars units
        always have (bytes units have none: every byte's symbol is in the base)."""
        ids = self._base_ids
        unknown = self.unknown_id
        if unknown is None:
            return [ids[s] for s in symbols]
        return [ids.get(s, unknown) for s in symbols]

    def _split(self, text: str) -> list[str]:
        return split_words(text, self.settings.split)

    def _split_spans(self, text: str) -> Iterator[tuple[int, int]]:
        return iter_word_spans(text, self.settings.split)

    def _word_ids(self, word: str) -> tuple[int, ...]:
        return tuple(self._bpe(self._symbols(word)))

    def merge_symbols(self, symbols: Sequence[str], merges: int | None = None) -> list[str]:
        """Base symbols (a corpus word, marker included) after the first ``merges`` merges.

        Replaying the merges on one word gives exactly that word's tokens at that training step:
        merge_symbols(["l", "o", "w", "</w>"], 2) == ["lo", "w", "</w>"] on a corpus where l+o came second.
        """
        out = self._bpe(self._ids_of_base(symbols), limit=merges)
        return [self.vocab[i] for i in out]

    def _bpe(self, ids: list[int], trace: list[TraceStep] | None = None, limit: int | None = None) -> list[int]:
        """The merges replayed in order: each round applies the present pair of lowest rank above
        the rank applied last, everywhere in the word, left to right.

        Skipping the ranks at or below the last one is what makes this a replay: a merge that
        rebuilds a token already there (a literal ``</w>`` spelt by letters, ``ab + c`` after
        ``a + bc``) can bring back a pair of lower rank, which training had merged before that
        token was rebuilt and so never merged again. Without such merges no pair at or below the
        last rank can be present, and this is plain lowest-rank-first.
        """
        if limit is None:
            limit = len(self.merges)
        if trace is None:
            if self._each_merge_new and len(ids) <= _SHORT_PIECE:
                return self._bpe_lowest_first(ids, limit)
            return replay_merges(ids, self._ranks.get, self._later_merge, limit)
        ranks = self._ranks
        done = -1
        while len(ids) > 1:
            best = None
            best_rank = limit
            for pair in zip(ids, ids[1:]):
                found = ranks.get(pair)
                if found is None:
                    continue
                if found[0] <= done:
                    found = self._later_merge(pair, done)
                    if found is None:
                        continue
                if found[0] < best_rank:
                    best, best_rank = (pair, found), found[0]
            if best is None:
                break
            (a, b), (rank, new) = best
            done = rank
            out = []
            i = 0
            n = len(ids)
            while i < n:
                if i + 1 < n and ids[i] == a and ids[i + 1] == b:
                    out.append(new)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            ids = out
            if trace is not None:
                vocab = self.vocab
                trace.append(TraceStep(rank, (vocab[a], vocab[b]), tuple(vocab[i] for i in ids)))
        return ids

    def _bpe_lowest_first(self, ids: list[int], limit: int) -> list[int]:
        """``_bpe`` for merges that rebuild no token (most tokenizers), as tiktoken merges: no pair at
        or below the rank applied last can be present, so the pair of lowest rank is merged, the
        leftmost first; the same pair's other places, still lowest, follow before any other, which
        is one round of ``_bpe``. Each pair's rank is kept beside it and only the merged pair's
        neighbours are looked up again: a word costs a pass of builtins per merge, not per pair."""
        rank_of = self._pair_ranks.get
        # each merge's token follows the base vocabulary in merge order (``_each_merge_new``)
        start = len(self.base)
        parts = list(ids)
        ranks = list(map(rank_of, zip(parts, parts[1:]), repeat(_UNRANKED)))
        while ranks:
            rank = min(ranks)
            if rank >= limit:
                break
            i = ranks.index(rank)
            parts[i] = start + rank
            del parts[i + 1]
            del ranks[i]
            if i:
                ranks[i - 1] = rank_of((parts[i - 1], parts[i]), _UNRANKED)
            if i < len(ranks):
                ranks[i] = rank_of((parts[i], parts[i + 1]), _UNRANKED)
        return parts

    @cached_property
    def _each_merge_new(self) -> bool:
        """Whether every merge makes a token not there before (none rebuilds one, no pair is merged
        twice): the ids then follow the base vocabulary in merge order."""
        return _pair_facts(self._ranks, self._repeats, len(self.base))[0]

    @cached_property
    def _pair_ranks(self) -> dict[Pair, int]:
        """Each merged pair's rank (its first merge's)."""
        return _pair_facts(self._ranks, self._repeats, len(self.base))[1]

    def _later_merge(self, pair: Pair, done: int) -> tuple[int, int] | None:
        """The (rank, id) of the pair's first merge after rank ``done``, if it is merged again."""
        for found in self._repeats.get(pair, ()):
            if found[0] > done:
                return found
        return None

    def encode_steps(self, word: str) -> tuple[tuple[str, ...], list[TraceStep]]:
        """A word's base symbols and each merge that applied to it, in order.

        >>> steps = tok.encode_steps("lowest")  # doctest: +SKIP
        after e+s: l | o | w | es | t | </w>
        """
        if self.settings.lowercase:
            word = lowercase(word)
        base = self._symbols(word)
        trace: list[TraceStep] = []
        self._bpe(base, trace)
        return tuple(self.vocab[i] for i in base), trace

    # -- decoding -------------------------------------------------------------------------------

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        ids = self._checked(ids)
        if self.settings.units != "bytes":
            return self._chars_text(ids).encode("utf-8")
        vocab, specials = self.vocab, self._special_set
        data = bytearray()
        for i in ids:
            data += vocab[i].encode("utf-8") if i in specials else symbols_to_bytes(vocab[i])
        return bytes(data)

    def decode(self, ids: Iterable[int]) -> str:
        if self.settings.units == "bytes":
            return super().decode(ids)
        return self._chars_text(self._checked(ids))

    def _checked(self, ids: Iterable[int]) -> list[int]:
        ids = list(ids)
        n = len(self.vocab)
        for i in ids:
            if not isinstance(i, int) or not 0 <= i < n:
                raise BpeLabError(f"id {i} is outside this vocabulary: ids run from 0 to {n - 1}")
        return ids

    def _chars_text(self, ids: list[int]) -> str:
        """The text of char-level ids: a token that ends in the marker symbol ends a word, read as a
        space (nothing after the last token, as the exported ``BPEDecoder`` does); a ``</w>`` typed in
        the text was spelt letter by letter, so it stays ``</w>``."""
        marker = self.settings.marker
        if marker is None:
            return "".join([self.vocab[i] for i in ids])
        ending = self._word_ending_ids(marker)
        cut = len(marker)
        last = len(ids) - 1
        parts = []
        for n, i in enumerate(ids):
            token = self.vocab[i]
            parts.append(token[:-cut] + ("" if n == last else " ") if i in ending else token)
        return "".join(parts)

    def _word_ending_ids(self, marker: str) -> frozenset[int]:
        """The ids of tokens whose last symbol is the end-of-word marker, from how each was first made
        (a string spelt from letters alone, like a typed ``a</w>``, is not among them)."""
        if self._ending is None:
            ids = self._ids
            ending = {ids[marker]}
            made = set(self.base)
            for a, b in self.merges:
                token = a + b
                if token not in made:
                    made.add(token)
                    if ids[b] in ending:
                        ending.add(ids[token])
            self._ending = frozenset(ending)
        return self._ending


class RankTokenizer(_Pipeline):
    """A tokenizer given as ranked byte strings (tiktoken's form), such as GPT-4's cl100k_base.

    Its words always come from ``pattern``; ``settings.split`` names that pattern when it is GPT-2's
    or cl100k's published one, and says gpt4 for any other.
    """

    def __init__(self, name: str, ranks: dict[bytes, int], pattern: str, special_tokens: dict[str, int]):
        self.name = name
        self.ranks = ranks
        self.pattern = pattern
        split = _SPLIT_OF_PATTERN.get(pattern, "gpt4")
        settings = Settings(split=split, units="bytes", min_frequency=1, special_tokens=tuple(special_tokens))
        self._init_pipeline(settings)
        self._regex = SplitPattern(pattern)
        self._special_ids = dict(special_tokens)
        self.unknown_id = None  # ranks of bytes: every text encodes
        self._by_id: dict[int, bytes] = {r: b for b, r in ranks.items()}
        self._special_by_id = {i: t for t, i in special_tokens.items()}

    @property
    def special_ids(self) -> dict[str, int]:
        return self._special_ids

    def get_vocab_size(self) -> int:
        return len(self.ranks) + len(self.special_ids)

    def token_bytes(self, token_id: int) -> bytes:
        if token_id in self._special_by_id:
            return self._special_by_id[token_id].encode("utf-8")
        return self._by_id[token_id]

    def id_to_token(self, token_id: int) -> str:
        if token_id in self._special_by_id:
            return self._special_by_id[token_id]
        return "".join([BYTE_TO_CHAR[b] for b in self._by_id[token_id]])

    @cached_property
    def _spellings(self) -> list[str]:
        """Each id's token string, at its id (an id no token has is empty): an encoding's tokens
        are looked up by position, quicker than by a map over a long text."""
        spellings = [""] * (max(chain(self._by_id, self._special_by_id), default=-1) + 1)
        for i in chain(self._by_id, self._special_by_id):
            spellings[i] = self.id_to_token(i)
        return spellings

    @property
    def _spell(self) -> Callable[[int], str]:
        return self._spellings.__getitem__

    def token_to_id(self, token: str) -> int | None:
        if token in self.special_ids:
            return self.special_ids[token]
        try:
            return self.ranks.get(symbols_to_bytes(token))
        except KeyError:
            return None

    def _units_length(self, token_id: int) -> int:
        # a word's ids are never special tokens: those are matched before splitting
        return len(self._by_id[token_id])

    def _split(self, text: str) -> list[str]:
        return self._regex.findall(text)

    def _split_spans(self, text: str) -> Iterator[tuple[int, int]]:
        return self._regex.spans(text)

    def _word_ids(self, word: str) -> tuple[int, ...]:
        piece = word.encode("utf-8")
        rank = self.ranks.get(piece)
        if rank is not None:
            return (rank,)
        return self._merged_ids(piece)

    def _merged_ids(self, piece: bytes) -> tuple[int, ...]:
        """The ids of a piece that is not one token."""
        return tuple(map(self.ranks.__getitem__, self._byte_pair_merge(piece)))

    def _several_ids(self, word: str) -> tuple[int, ...]:
        """The ids of a word that ``_whole`` does not hold, cached: its bytes are no token, so they are
        merged without looking them up whole again, once per distinct word of a text."""
        ids = self._merged_ids(word.encode("utf-8"))
        cache = self._cache
        if len(cache) >= _CACHE_LIMIT:
            self._clear_caches()
        cache[word] = ids
        return ids

    @cached_property
    def _whole(self) -> dict[str, int]:
        """The rank of each token that is whole UTF-8 text, by that text: a word that is one token
        is found without encoding it, and every other word is several tokens."""
        whole = {}
        for token, rank in self.ranks.items():
            try:
                whole[token.decode("utf-8")] = rank
            except UnicodeDecodeError:
                continue  # part of a character: never a word of its own
        return whole

    def _one_token_ids(self, words: list[str]) -> list[int]:
        return list(map(self._whole.get, words, repeat(_SEVERAL)))

    def _byte_pair_merge(self, piece: bytes, trace: list[tuple[int, tuple[bytes, ...]]] | None = None) -> list[bytes]:
        """Merge the lowest-ranked neighbouring pair, the leftmost of equals, until none is ranked.

        Each pair's rank is looked up once; a merge looks up only the two pairs it changes.
        """
        rank_of = self.ranks.get
        if trace is None and len(piece) > _SHORT_PIECE:
            return merge_ranked_bytes(piece, rank_of)
        parts = [_ONE_BYTE[b] for b in piece]
        # the first ranks joined and looked up inside map, with no Python step per pair
        pair_ranks = list(map(rank_of, map(bytes.__add__, parts, parts[1:]), repeat(_UNRANKED)))
        while pair_ranks:
            best = min(pair_ranks)
            if best == _UNRANKED:
                break
            i = pair_ranks.index(best)
            joined = parts[i] + parts[i + 1]
            parts[i] = joined
            del parts[i + 1]
            del pair_ranks[i]
            if i > 0:
                pair_ranks[i - 1] = rank_of(parts[i - 1] + joined, _UNRANKED)
            if i < len(pair_ranks):
                pair_ranks[i] = rank_of(joined + parts[i + 1], _UNRANKED)
            if trace is not None:
                trace.append((best, tuple(parts)))
        return parts

    def encode_steps(self, word: str) -> tuple[tuple[str, ...], list[TraceStep]]:
        piece = word.encode("utf-8")
        base = tuple(BYTE_TO_CHAR[b] for b in piece)
        raw: list[tuple[int, tuple[bytes, ...]]] = []
        self._byte_pair_merge(piece, raw)
        trace = []
        previous = [bytes([b]) for b in piece]
        for rank, parts in raw:
            merged = self._by_id[rank]
            # the pair is the two neighbouring parts whose join made the new part
            for i in range(len(previous) - 1):
                if previous[i] + previous[i + 1] == merged:
                    pair = (bytes_to_symbols(previous[i]), bytes_to_symbols(previous[i + 1]))
                    break
            trace.append(TraceStep(rank, pair, tuple(bytes_to_symbols(p) for p in parts)))
            previous = list(parts)
        whole = self.ranks.get(piece)
        if whole is not None and len(previous) > 1:
            # tiktoken takes a piece that is a token whole, even where the ranked pairs stop short of it
            # (a rank file that is no merge list): the last step joins what is left
            pair = (bytes_to_symbols(b"".join(previous[:-1])), bytes_to_symbols(previous[-1]))
            trace.append(TraceStep(whole, pair, (bytes_to_symbols(piece),)))
        return base, trace

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        try:
            return b"".join([self.token_bytes(i) for i in ids])
        except (KeyError, TypeError):
            raise BpeLabError(f"an id is not in {self.name}: ids run from 0 to {max(self._by_id)}") from None
