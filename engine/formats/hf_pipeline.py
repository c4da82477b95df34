"""Files whose normalizer and pre-tokenizer BPE Lab's settings do not name, read with the file's own steps.

A ``tokenizer.json`` trained with ``tokenizers`` often cuts and spells words otherwise than BPE
Lab trains: the ``Whitespace`` pre-tokenizer (``\\w+|[^\\w\\s]+``), ``CharBPETokenizer``'s BERT
normalizer and pre-tokenizer with an ``end_of_word_suffix`` glued to each word's last character,
``SentencePieceBPETokenizer``'s NFKC and ``Metaspace`` with ``<0xNN>`` byte tokens for characters
outside the vocabulary, ByteLevel with a prefix space, Sequences of Digits and Punctuation, and
other steps ``engine.formats.hf_steps`` runs as the library does. ``FileTokenizer`` keeps BPE
Lab's merge replay and lets such a front end cut the words and give their first symbols, so the
ids equal the library's; the file's added tokens are cut out first, with their flags
(``engine.formats.hf_added``), also for a file in BPE Lab's own pipelines whose added tokens do
more than its special tokens do. Left out: offsets are exact only where the normalizer keeps the
text as it is (else each token spans its whole stretch of text)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from engine.algorithm.bytelevel import CHAR_TO_BYTE
from engine.formats.hf_added import AddedToken, AddedTokens
from engine.algorithm.tokenizer import Encoding, Tokenizer

if TYPE_CHECKING:
    from engine.formats.hf_steps import PreTokenizer


@dataclass(frozen=True)
class FrontEnd:
    """How a file cuts text into words and spells a word's first symbols.

    normalizers and pre_tokenizers: the file's steps, in order (``engine.formats.hf_steps``);
    name: the step that needs the front end ("Metaspace pre-tokenizer"), for messages;
    suffix: the model's ``end_of_word_suffix``; byte_fallback: unknown characters as ``<0xNN>``
    tokens when all their bytes have one;
    decoding: how ids read back, "metaspace" (``space`` is a space, the first one dropped;
    "metaspace_unprefixed" keeps it), "bytes" (the GPT-2 byte alphabet), else tokens joined (by the
    suffix, where there is one, or a space).
    ignore_merges: a word that is a token of the vocabulary whole is that token, merges unasked;
    fuse_unk: a run of unknown characters in a word is one unknown token.
    """

    normalizers: tuple[Callable[[str], str], ...]
    pre_tokenizers: tuple[PreTokenizer, ...]
    name: str
    suffix: str = ""
    byte_fallback: bool = False
    decoding: str = "join"
    space: str = "\u2581"
    ignore_merges: bool = False
    fuse_unk: bool = False

    def normalize(self, text: str) -> str:
        for step in self.normalizers:
            text = step(text)
        return text

    def words(self, text: str, at_start: bool) -> list[tuple[int, int, str]]:
        """(start, end, the word as the model sees it) of each word of normalized ``text``;
        ``at_start``: whether the text begins the input (Metaspace's prepend_scheme "first")."""
        from engine.formats.hf_steps import run_pre_tokenizers  # loaded with the steps themselves

        return run_pre_tokenizers(self.pre_tokenizers, text, at_start)


class FileTokenizer(Tokenizer):
    """A tokenizer with a file's merges replayed in order behind that file's front end and added tokens.

    ``front`` None keeps the inner tokenizer's own split and spelling (a file in BPE Lab's
    pipelines whose added tokens do more than special tokens do here).
    """

    def __init__(self, inner: Tokenizer, front: FrontEnd | None, unknown: str | None = None,
                 added: AddedTokens | None = None):
        super().__init__(inner.settings, inner.base, inner.merges, tables=inner.tables)
        self.front = front
        self._inner = inner
        self._unknown_name = unknown
        if added is None:
            # the library lists its unknown token among the added tokens: where special tokens are
            # allowed, its text stands for it like theirs
            added = AddedTokens([AddedToken(t, i, special=True) for t, i in inner.special_ids.items()])
            if unknown is not None and inner.unknown_id is not None:
                added = AddedTokens(added.tokens + (AddedToken(unknown, inner.unknown_id, special=True),))
        self.added = added
        self.special_ids = {**inner.special_ids}
        if unknown is not None and inner.unknown_id is not None:
            self.special_ids[unknown] = inner.unknown_id

    @property
    def way(self) -> str:
        """What about the file no format BPE Lab writes can hold, for a refusal."""
        if self.front is None:
            return "its added tokens' flags or shared ids"
        return f"its {self.front.name}"

    def truncated(self, merges: int) -> "FileTokenizer":
        inner = self._inner.truncated(merges)
        # a cut gives BPE Lab's ids: each added token takes the cut's id of its text, if it has one yet
        ids = {**inner.special_ids, **({self._unknown_name: inner.unknown_id} if self._unknown_name else {})}
        kept = []
        for token in self.added.tokens:
            i = ids.get(token.content, inner.token_to_id(token.content))
            if i is not None:
                kept.append(replace(token, id=i))
        return FileTokenizer(inner, self.front, self._unknown_name, AddedTokens(kept, self.added.normalize))

    @cached_property
    def vocab(self) -> list[str]:
        vocab = super().vocab
        if self.unknown_id is None or self._unknown_name is None:
            return vocab
        # the file's name for its unknown token ([UNK]), not BPE Lab's <unk>
        return vocab[: self.unknown_id] + [self._unknown_name] + vocab[self.unknown_id + 1:]

    def _words(self, segment: str, normalized: bool = False, at_start: bool = True) -> list[tuple[int, int, str]]:
        if self.front is None:
            return [(s, e, segment[s:e]) for s, e in super()._split_spans(segment)]
        text = segment if normalized else self.front.normalize(segment)
        return self.front.words(text, at_start)

    def _split(self, text: str) -> list[str]:
        return [word for _, _, word in self._words(text)]

    def _word_ids(self, word: str) -> tuple[int, ...]:
        if self.front is not None and self.front.ignore_merges:
            whole = self._ids.get(word)
            if whole is not None:
                return (whole,)
        return super()._word_ids(word)

    def _symbols(self, word: str) -> list[int]:
        """Each character (the last with the suffix) by its id, else its bytes' ``<0xNN>`` tokens, else unknown."""
        if self.front is None:
            return super()._symbols(word)
        ids, unknown, front = self._ids, self.unknown_id, self.front
        out: list[int] = []
        last = len(word) - 1
        # the library holds an unknown back until a known symbol or the word's end, so that fuse_unk
        # can join the next one to it; byte tokens do not flush it, and land before it
        pending = False
        for n, ch in enumerate(word):
            symbol = ch + front.suffix if n == last else ch
            i = ids.get(symbol)
            if i is not None:
                if pending:
                    out.append(unknown)  # type: ignore[arg-type]
                    pending = False
                out.append(i)
                continue
            if front.byte_fallback:
                found = [ids.get(f"<0x{b:02X}>") for b in symbol.encode("utf-8")]
                fallback = [f for f in found if f is not None]
                if len(fallback) == len(found):
                    out.extend(fallback)
                    continue
            if unknown is None:
                # with no unknown token an unseen character gives None, as Tokenizer._symbols does: which
                # id it should be (or whether it is dropped) is for the tokenizer's contract to say
                out.append(None)  # type: ignore[arg-type]
                continue
            if pending and not front.fuse_unk:
                out.append(unknown)
            pending = True
        if pending:
            out.append(unknown)  # type: ignore[arg-type]
        return out

    def pieces(self, text: str, allow_special: bool = False) -> list[tuple[str, bool]]:
        found: list[tuple[str, bool]] = []
        for start, end, added, piece, _, first in self._pieces(text, allow_special):
            if added is not None:
                found.append((text[start:end], True))
            else:
                found.extend((word, False) for _, _, word in self._words(piece, True, first))
        return found

    def _pieces(self, text: str, allow_special: bool) -> Iterator[tuple[int, int, int | None, str, bool, bool]]:
        """(start, end, added token's id or None, the normalized piece, whether normalizing kept it,
        whether the piece begins the text) in order: the library cuts the added tokens out of the
        text as typed, normalizes the rest, then cuts the normalized added tokens out of that."""
        for start, end, found in self.added.raw_segments(text, allow_special):
            if found is not None:
                yield start, end, found, "", True, start == 0
                continue
            piece = text[start:end]
            norm = piece if self.front is None else self.front.normalize(piece)
            same = norm == piece
            for s, e, inner in self.added.normalized_segments(norm, allow_special):
                # where normalizing changed the piece, its characters no longer line up with the text
                where = (start + s, start + e) if same else (start, end)
                yield *where, inner, norm[s:e], same, start == 0 and s == 0

    def encode_ids(self, text: str, allow_special: bool = False) -> list[int]:
        out: list[int] = []
        for _, _, found, piece, _, first in self._pieces(text, allow_special):
            if found is not None:
                out.append(found)
            else:
                self._extend_with_words(out, [word for _, _, word in self._words(piece, True, first)])
        return out

    def encode(self, text: str, allow_special: bool = False) -> Encoding:
        ids: list[int] = []
        starts: list[int] = []
        ends: list[int] = []
        for seg_start, seg_end, found, piece, same, first in self._pieces(text, allow_special):
            if found is not None:
                ids.append(found)
                starts.append(seg_start)
                ends.append(seg_end)
                continue
            for start, end, word in self._words(piece, True, first):
                word_ids = self._ids_of_word(word)
                ids.extend(word_ids)
                if self.front is None:
                    at = seg_start + start
                    for s, e in self._spans(word, word_ids):
                        starts.append(at + s)
                        ends.append(at + e)
                    continue
                s, e = (seg_start + start, seg_start + end) if same else (seg_start, seg_end)
                starts.extend([s] * len(word_ids))
                ends.extend([e] * len(word_ids))
        return Encoding(ids, self._spell, starts, ends)

    def decode(self, ids: Iterable[int]) -> str:
        """The text as the file's decoder gives it: Metaspace reads ``▁`` as a space (the first
        one dropped), a suffix ends a word, and the rest joins tokens with a space."""
        if self.front is None:
            return super().decode(ids)
        tokens = [self.vocab[i] for i in self._checked(ids)]
        front = self.front
        if front.decoding == "bytes":
            spelt = bytes(CHAR_TO_BYTE[c] for token in tokens for c in token if c in CHAR_TO_BYTE)
            return spelt.decode("utf-8", errors="replace")
        if front.decoding in ("metaspace", "metaspace_unprefixed"):
            data = bytearray()
            for token in tokens:
                if front.byte_fallback and len(token) == 6 and token.startswith("<0x") and token.endswith(">"):
                    data.append(int(token[3:5], 16))
                else:
                    data += token.encode("utf-8")
            text = data.decode("utf-8", errors="replace").replace(front.space, " ")
            # the space put before the text is taken off again, where one was put there
            return text[1:] if text.startswith(" ") and front.decoding == "metaspace" else text
        if front.suffix:
            last = len(tokens) - 1
            return "".join(t.replace(front.suffix, "" if n == last else " ") for n, t in enumerate(tokens))
        return " ".join(tokens)

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        if self.front is None:
            return super().decode_bytes(ids)
        return self.decode(ids).encode("utf-8")
