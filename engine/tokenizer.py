"""Encoding and decoding with learned merges, and with the ranks of a real tokenizer.

Two models share one pipeline (special tokens, lowercase, split, then each word on its own):
``Tokenizer`` replays a merge list (the merge of lowest rank first, which is the same as replaying
the merges in order), ``RankTokenizer`` follows tiktoken's rule for ranked byte strings (merge the
adjacent parts whose joined bytes have the lowest rank), which is how cl100k_base is published.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Iterable, Sequence

from engine.bytelevel import BYTE_TO_CHAR, bytes_to_symbols, symbols_to_bytes
from engine.errors import BpeLabError
from engine.pretokenize import (
    iter_word_spans,
    lowercase_with_map,
    special_splitter,
    split_specials,
    split_words,
)
from engine.settings import Settings

UNKNOWN = "<unk>"
# at most this many distinct words keep their ids between calls
_CACHE_LIMIT = 500_000
# the rank of a pair that no merge makes
_UNRANKED = 1 << 62


@dataclass(frozen=True)
class Encoding:
    """Token ids, their strings and their (start, end) character offsets in the text encoded."""

    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...]

    def __len__(self) -> int:
        return len(self.ids)


@dataclass(frozen=True)
class TraceStep:
    """One merge that applied while encoding a word: its rank, the pair, the tokens after it."""

    rank: int
    pair: tuple[str, str]
    tokens: tuple[str, ...]


class _Pipeline:
    """What both models share: special tokens, lowercase, split, per-word cache, offsets."""

    settings: Settings
    special_ids: dict[str, int]

    def _init_pipeline(self, settings: Settings) -> None:
        self.settings = settings
        self._specials = special_splitter(settings.special_tokens)
        self._cache: dict[str, tuple[int, ...]] = {}

    # subclasses provide these two
    def _word_ids(self, word: str) -> tuple[int, ...]:
        raise NotImplementedError

    def id_to_token(self, token_id: int) -> str:
        raise NotImplementedError

    def _ids_of_word(self, word: str) -> tuple[int, ...]:
        ids = self._cache.get(word)
        if ids is None:
            ids = self._word_ids(word)
            if len(self._cache) < _CACHE_LIMIT:
                self._cache[word] = ids
        return ids

    def _extend_with_words(self, out: list[int], words: list[str]) -> None:
        """Append the ids of many words: each distinct word is encoded once, then every word's
        ids are looked up and joined without a Python-level loop over the words."""
        cache = self._cache
        missing = set(words).difference(cache)
        if len(cache) + len(missing) > _CACHE_LIMIT:
            cache.clear()
            missing = set(words)
        word_ids = self._word_ids
        for word in missing:
            cache[word] = word_ids(word)
        out.extend(chain.from_iterable(map(cache.__getitem__, words)))

    def encode_ids(self, text: str) -> list[int]:
        """Only the ids: the fast path for long texts."""
        settings = self.settings
        if settings.lowercase:
            text = text.lower()
        out: list[int] = []
        for start, end, special in split_specials(text, self._specials):
            if special:
                out.append(self.special_ids[text[start:end]])
                continue
            self._extend_with_words(out, split_words(text[start:end], settings.split))
        return out

    def encode(self, text: str) -> Encoding:
        """Ids, token strings and offsets into ``text`` (the original, before lowercasing)."""
        settings = self.settings
        index = None
        norm = text
        if settings.lowercase:
            norm, index = lowercase_with_map(text)
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        for seg_start, seg_end, special in split_specials(norm, self._specials):
            if special:
                ids.append(self.special_ids[norm[seg_start:seg_end]])
                offsets.append((seg_start, seg_end))
                continue
            segment = norm[seg_start:seg_end]
            for start, end in iter_word_spans(segment, settings.split):
                word = segment[start:end]
                word_ids = self._ids_of_word(word)
                ids.extend(word_ids)
                base = seg_start + start
                offsets.extend((base + s, base + e) for s, e in self._spans(word, word_ids))
        if index is not None:
            offsets = [_map_span(index, s, e, len(text)) for s, e in offsets]
        tokens = tuple(self.id_to_token(i) for i in ids)
        return Encoding(tuple(ids), tokens, tuple(offsets))

    def _units_length(self, token_id: int) -> int:
        """How many base units (chars, or bytes) a token spans; the marker spans none."""
        raise NotImplementedError

    def _spans(self, word: str, ids: Sequence[int]) -> list[tuple[int, int]]:
        """Character spans of a word's tokens; a token ending inside a character covers all of it."""
        if self.settings.units == "chars":
            spans = []
            pos = 0
            for i in ids:
                n = self._units_length(i)
                spans.append((pos, pos + n))
                pos += n
            return spans
        char_of_byte: list[int] = []
        for ci, ch in enumerate(word):
            char_of_byte.extend([ci] * len(ch.encode("utf-8")))
        spans = []
        pos = 0
        for i in ids:
            n = self._units_length(i)
            spans.append((char_of_byte[pos], char_of_byte[pos + n - 1] + 1))
            pos += n
        return spans

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """The UTF-8 bytes the ids stand for."""
        return self.decode(ids).encode("utf-8")

    def decode(self, ids: Iterable[int]) -> str:
        raise NotImplementedError


def _map_span(index: list[int], start: int, end: int, length: int) -> tuple[int, int]:
    s = index[start] if start < len(index) else length
    e = index[end - 1] + 1 if end > start else s
    return s, e


class _CutIds:
    """Token -> id for a tokenizer cut after its first merges: the full map's first ``regular``
    ids, then the cut's own ids for the special and unknown tokens."""

    __slots__ = ("full", "regular", "extra")

    def __init__(self, full: dict[str, int], regular: int, extra: dict[str, int]):
        self.full, self.regular, self.extra = full, regular, extra

    def get(self, token: str, default=None):
        i = self.full.get(token)
        if i is not None and i < self.regular:
            return i
        return self.extra.get(token, default)

    def __getitem__(self, token: str) -> int:
        i = self.get(token)
        if i is None:
            raise KeyError(token)
        return i

    def __contains__(self, token: str) -> bool:
        return self.get(token) is not None


class Tokenizer(_Pipeline):
    """A merge-list tokenizer: a base vocabulary, merges in order, special tokens.

    Ids: the base vocabulary, then each new token in merge order (a string made twice keeps its
    first id), then the special tokens, then the unknown token for chars units.
    """

    def __init__(self, settings: Settings, base: Sequence[str], merges: Sequence[tuple[str, str]]):
        settings = settings.resolved()
        self._init_pipeline(settings)
        self.base = list(base)
        self.merges: list[tuple[str, str]] = [tuple(m) for m in merges]
        vocab = list(self.base)
        ids = {t: i for i, t in enumerate(vocab)}
        if len(ids) != len(vocab):
            raise BpeLabError("the base vocabulary holds a symbol twice")
        self._ranks: dict[tuple[int, int], tuple[int, int]] = {}
        for rank, (a, b) in enumerate(self.merges):
            if a not in ids or b not in ids:
                missing = a if a not in ids else b
                raise BpeLabError(f"merge {rank + 1} ({a} {b}) uses '{missing}', which no earlier token makes")
            token = a + b
            if token not in ids:
                ids[token] = len(vocab)
                vocab.append(token)
            self._ranks.setdefault((ids[a], ids[b]), (rank, ids[token]))
        self.special_ids = {}
        for token in settings.special_tokens:
            self.special_ids[token] = len(vocab)
            vocab.append(token)
        self.unknown_id: int | None = None
        if settings.units == "chars":
            self.unknown_id = len(vocab)
            vocab.append(UNKNOWN)
        self.vocab = vocab
        self._ids = {t: i for i, t in reversed(list(enumerate(vocab)))}
        self._lengths = [self._measure(i, t) for i, t in enumerate(vocab)]
        self._regular = len(vocab) - len(self.special_ids) - (self.unknown_id is not None)
        # how many regular tokens the vocabulary held after each merge (repeated strings add none)
        self._regular_after = [len(self.base)]
        made = set(self.base)
        for a, b in self.merges:
            made.add(a + b)
            self._regular_after.append(len(made))

    @classmethod
    def from_trainer(cls, trainer, merges: int | None = None) -> "Tokenizer":
        """The tokenizer a trainer has learned, optionally only its first ``merges`` merges."""
        vocab = trainer.vocab
        pairs = [(vocab[a], vocab[b]) for a, b in trainer.merges[:merges]]
        return cls(trainer.settings, trainer.base, pairs)

    def truncated(self, merges: int) -> "Tokenizer":
        """The same tokenizer as it was after its first ``merges`` merges.

        Made in time proportional to the vocabulary's size, not by replaying the merges: a window
        asks for it on every step. The merge table is shared (ranks past the cut never apply);
        the special tokens and the unknown token take the ids right after the regular tokens.
        """
        k = max(0, min(merges, len(self.merges)))
        cut = object.__new__(Tokenizer)
        cut._init_pipeline(self.settings)
        cut.base = self.base
        cut.merges = self.merges[:k]
        cut._ranks = self._ranks
        regular = self._regular_after[k]
        vocab = self.vocab[:regular]
        cut.special_ids = {}
        for token in self.settings.special_tokens:
            cut.special_ids[token] = len(vocab)
            vocab.append(token)
        cut.unknown_id = None
        if self.unknown_id is not None:
            cut.unknown_id = len(vocab)
            vocab.append(UNKNOWN)
        cut.vocab = vocab
        full = self._ids.full if isinstance(self._ids, _CutIds) else self._ids
        cut._ids = _CutIds(full, regular, {t: i for i, t in reversed(list(enumerate(vocab[regular:], regular)))})
        cut._lengths = self._lengths[:regular] + [cut._measure(i, t) for i, t in enumerate(vocab[regular:], regular)]
        cut._regular = regular
        cut._regular_after = self._regular_after[: k + 1]
        return cut

    def _measure(self, token_id: int, token: str) -> int:
        if token_id == self.unknown_id:
            return 1
        if token in self.special_ids:
            return len(token)
        marker = self.settings.marker
        n = len(token)
        if marker is not None and token.endswith(marker):
            n -= len(marker)
        return n

    # -- vocabulary -----------------------------------------------------------------------------

    def get_vocab_size(self) -> int:
        return len(self.vocab)

    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(token)

    def id_to_token(self, token_id: int) -> str:
        return self.vocab[token_id]

    def _units_length(self, token_id: int) -> int:
        return self._lengths[token_id]

    # -- encoding -------------------------------------------------------------------------------

    def _symbols(self, word: str) -> list[int]:
        """The base ids of a word; an unseen character becomes the unknown token."""
        ids = self._ids
        if self.settings.units == "bytes":
            return [ids[c] for c in bytes_to_symbols(word.encode("utf-8"))]
        unknown = self.unknown_id
        syms = [ids.get(c, unknown) for c in word]
        marker = self.settings.marker
        if marker is not None:
            syms.append(ids[marker])
        return syms

    def _word_ids(self, word: str) -> tuple[int, ...]:
        return tuple(self._bpe(self._symbols(word)))

    def merge_symbols(self, symbols: Sequence[str], merges: int | None = None) -> list[str]:
        """Base symbols (a corpus word, marker included) after the first ``merges`` merges.

        Replaying the merges on one word gives exactly that word's tokens at that training step:
        merge_symbols(["l", "o", "w", "</w>"], 2) == ["lo", "w", "</w>"] on a corpus where l+o came second.
        """
        ids = self._ids
        out = self._bpe([ids.get(s, self.unknown_id) for s in symbols], limit=merges)
        return [self.vocab[i] for i in out]

    def _bpe(self, ids: list[int], trace: list[TraceStep] | None = None, limit: int | None = None) -> list[int]:
        ranks = self._ranks
        if limit is None:
            limit = len(self.merges)
        while len(ids) > 1:
            best = None
            for pair in zip(ids, ids[1:]):
                found = ranks.get(pair)
                if found is not None and found[0] < limit and (best is None or found[0] < best[1][0]):
                    best = (pair, found)
            if best is None:
                break
            (a, b), (rank, new) = best
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

    def encode_steps(self, word: str) -> tuple[tuple[str, ...], list[TraceStep]]:
        """A word's base symbols and each merge that applied to it, in order.

        >>> steps = tok.encode_steps("lowest")  # doctest: +SKIP
        after e+s: l | o | w | es | t | </w>
        """
        if self.settings.lowercase:
            word = word.lower()
        base = self._symbols(word)
        trace: list[TraceStep] = []
        self._bpe(base, trace)
        return tuple(self.vocab[i] for i in base), trace

    # -- decoding -------------------------------------------------------------------------------

    def decode(self, ids: Iterable[int]) -> str:
        vocab = self.vocab
        ids = list(ids)
        for i in ids:
            if not isinstance(i, int) or not 0 <= i < len(vocab):
                raise BpeLabError(f"id {i} is outside this vocabulary: ids run from 0 to {len(vocab) - 1}")
        tokens = [vocab[i] for i in ids]
        if self.settings.units == "bytes":
            first_special = len(vocab) - len(self.special_ids)
            data = bytearray()
            for i, t in zip(ids, tokens):
                data += t.encode("utf-8") if i >= first_special else symbols_to_bytes(t)
            return data.decode("utf-8", errors="replace")
        text = "".join(tokens)
        marker = self.settings.marker
        if marker is not None:
            text = text.replace(marker, " ").rstrip(" ")
        return text

    def to_dict(self) -> dict:
        return {
            "settings": self.settings.to_dict(),
            "base_vocabulary": list(self.base),
            "merges": [list(m) for m in self.merges],
        }


class RankTokenizer(_Pipeline):
    """A tokenizer given as ranked byte strings (tiktoken's form), such as GPT-4's cl100k_base."""

    def __init__(self, name: str, ranks: dict[bytes, int], pattern: str, special_tokens: dict[str, int]):
        self.name = name
        self.ranks = ranks
        self.pattern = pattern
        settings = Settings(split="gpt4", units="bytes", min_frequency=1, special_tokens=tuple(special_tokens))
        self._init_pipeline(settings)
        import regex

        self._regex = regex.compile(pattern)
        self.special_ids = dict(special_tokens)
        self._by_id: dict[int, bytes] = {r: b for b, r in ranks.items()}
        self._special_by_id = {i: t for t, i in special_tokens.items()}

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

    def token_to_id(self, token: str) -> int | None:
        if token in self.special_ids:
            return self.special_ids[token]
        try:
            return self.ranks.get(symbols_to_bytes(token))
        except KeyError:
            return None

    def _units_length(self, token_id: int) -> int:
        return len(self.token_bytes(token_id))

    def encode_ids(self, text: str) -> list[int]:
        out: list[int] = []
        findall = self._regex.findall
        for start, end, special in split_specials(text, self._specials):
            if special:
                out.append(self.special_ids[text[start:end]])
            else:
                self._extend_with_words(out, findall(text[start:end]))
        return out

    def _word_ids(self, word: str) -> tuple[int, ...]:
        piece = word.encode("utf-8")
        rank = self.ranks.get(piece)
        if rank is not None:
            return (rank,)
        return tuple(self.ranks[p] for p in self._byte_pair_merge(piece))

    def _byte_pair_merge(self, piece: bytes, trace: list | None = None) -> list[bytes]:
        """Merge the lowest-ranked neighbouring pair, the leftmost of equals, until none is ranked.

        Each pair's rank is looked up once; a merge looks up only the two pairs it changes.
        """
        ranks = self.ranks
        parts = [piece[i : i + 1] for i in range(len(piece))]
        pair_ranks = [ranks.get(parts[i] + parts[i + 1], _UNRANKED) for i in range(len(parts) - 1)]
        while pair_ranks:
            best = min(pair_ranks)
            if best == _UNRANKED:
                break
            i = pair_ranks.index(best)
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
            del pair_ranks[i]
            if i > 0:
                pair_ranks[i - 1] = ranks.get(parts[i - 1] + parts[i], _UNRANKED)
            if i < len(pair_ranks):
                pair_ranks[i] = ranks.get(parts[i] + parts[i + 1], _UNRANKED)
            if trace is not None:
                trace.append((best, tuple(parts)))
        return parts

    def encode_steps(self, word: str) -> tuple[tuple[str, ...], list[TraceStep]]:
        piece = word.encode("utf-8")
        base = tuple(BYTE_TO_CHAR[b] for b in piece)
        raw: list = []
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
        return base, trace

    def decode(self, ids: Iterable[int]) -> str:
        try:
            data = b"".join(self.token_bytes(i) for i in ids)
        except (KeyError, TypeError):
            raise BpeLabError(f"an id is not in {self.name}: ids run from 0 to {max(self._by_id)}") from None
        return data.decode("utf-8", errors="replace")
