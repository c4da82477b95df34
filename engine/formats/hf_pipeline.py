"""The front ends of `tokenizers`' own trainers that BPE Lab's settings do not name, read from a file.

A ``tokenizer.json`` trained with ``tokenizers`` often cuts and spells words otherwise than BPE
Lab trains: the ``Whitespace`` pre-tokenizer (``\\w+|[^\\w\\s]+``), ``CharBPETokenizer``'s BERT
normalizer and pre-tokenizer with an ``end_of_word_suffix`` glued to each word's last character,
``SentencePieceBPETokenizer``'s NFKC and ``Metaspace`` (``▁`` for each space, one before the
text) with ``<0xNN>`` byte tokens for characters outside the vocabulary. ``FileTokenizer`` keeps
BPE Lab's merge replay and lets such a front end cut the words and give their first symbols, so
the ids equal the library's; the file's added tokens are cut out first, with their flags
(``engine.formats.hf_added``), also for a file in BPE Lab's own pipelines whose added tokens do
more than its special tokens do. Left out: offsets are exact only where the normalizer keeps the
text as it is (else each token spans its whole stretch of text).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Iterable, Iterator

import regex

from engine.formats.hf_added import AddedToken, AddedTokens
from engine.algorithm.pretokenize import SplitPattern, iter_word_spans
from engine.algorithm.tokenizer import Encoding, Tokenizer

# letters, numbers and spaces as the library's Unicode has them, whatever the installed regex knows
_WORD_OR_PUNCT = SplitPattern(r"\w+|[^\w\s]+")
_BERT_PIECE = regex.compile(r"[^\s\p{P}!-/:-@\[-`{-~]+|[\p{P}!-/:-@\[-`{-~]")
# the CJK blocks BERT's normalizer puts spaces around
_CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
        (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _bert_char(ch: str) -> str:
    """BertNormalizer(clean_text, handle_chinese_chars) on one character."""
    code = ord(ch)
    # the library's is_control: every "other" category (control, format, private use, unassigned)
    if code in (0, 0xFFFD) or (ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")):
        return ""
    if ch.isspace():
        return " "
    if any(lo <= code <= hi for lo, hi in _CJK):
        return f" {ch} "
    return ch


@dataclass(frozen=True)
class FrontEnd:
    """How a file cuts text into words and spells a word's first symbols.

    normalizer: None, "nfkc" or "bert"; split: "whitespace" (the ``Whitespace`` pre-tokenizer),
    "whitespace_split", "bert" or "metaspace"; suffix: the model's ``end_of_word_suffix``;
    byte_fallback: unknown characters as ``<0xNN>`` tokens when all their bytes have one.
    """

    normalizer: str | None
    split: str
    suffix: str = ""
    byte_fallback: bool = False
    space: str = "\u2581"

    def normalize(self, text: str) -> str:
        if self.normalizer == "nfkc":
            return unicodedata.normalize("NFKC", text)
        if self.normalizer == "bert":
            return "".join(_bert_char(ch) for ch in text)
        return text

    def word_spans(self, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of each word of normalized ``text``."""
        if self.split == "metaspace":
            # each space starts a word, and the text starts one (the library puts a space before it)
            starts = [0] + [i for i, ch in enumerate(text) if ch == " " and i > 0]
            for s, e in zip(starts, starts[1:] + [len(text)]):
                if e > s:
                    yield s, e
            return
        if self.split == "whitespace_split":
            # the cuts of BPE Lab's whitespace split are the library's WhitespaceSplit
            yield from iter_word_spans(text, "whitespace")
            return
        if self.split == "whitespace":
            yield from _WORD_OR_PUNCT.spans(text)
            return
        yield from (m.span() for m in _BERT_PIECE.finditer(text))

    def model_word(self, word: str, first: bool) -> str:
        """The word as the model sees it: Metaspace spells spaces ``▁`` and puts one before the text."""
        if self.split != "metaspace":
            return word
        word = word.replace(" ", self.space)
        # the library prepends one only where the piece does not start with one already, typed or not
        if first and not word.startswith(self.space):
            word = self.space + word
        return word


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
        return f"its {self.front.split} pre-tokenizer"

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

    def _words(self, segment: str, normalized: bool = False) -> list[tuple[int, int, str]]:
        if self.front is None:
            return [(s, e, segment[s:e]) for s, e in super()._split_spans(segment)]
        text = segment if normalized else self.front.normalize(segment)
        return [(s, e, self.front.model_word(text[s:e], n == 0)) for n, (s, e) in
                enumerate(self.front.word_spans(text))]

    def _split(self, text: str) -> list[str]:
        return [word for _, _, word in self._words(text)]

    def _symbols(self, word: str) -> list[int]:
        """Each character (the last with the suffix) by its id, else its bytes' ``<0xNN>`` tokens, else unknown."""
        if self.front is None:
            return super()._symbols(word)
        ids, unknown, front = self._ids, self.unknown_id, self.front
        out = []
        last = len(word) - 1
        for n, ch in enumerate(word):
            symbol = ch + front.suffix if n == last else ch
            i = ids.get(symbol)
            if i is None and front.byte_fallback:
                found = [ids.get(f"<0x{b:02X}>") for b in symbol.encode("utf-8")]
                fallback = [f for f in found if f is not None]
                if len(fallback) == len(found):
                    out.extend(fallback)
                    continue
            # with no unknown token an unseen character gives None, as Tokenizer._symbols does: which
            # id it should be (or whether it is dropped) is for the tokenizer's contract to say
            out.append(unknown if i is None else i)  # type: ignore[arg-type]
        return out

    def pieces(self, text: str, allow_special: bool = False) -> list[tuple[str, bool]]:
        found: list[tuple[str, bool]] = []
        for start, end, added, piece, _ in self._pieces(text, allow_special):
            if added is not None:
                found.append((text[start:end], True))
            else:
                found.extend((word, False) for _, _, word in self._words(piece, normalized=True))
        return found

    def _pieces(self, text: str, allow_special: bool) -> Iterator[tuple[int, int, int | None, str, bool]]:
        """(start, end, added token's id or None, the normalized piece, whether normalizing kept it)
        in order: the library cuts the added tokens out of the text as typed, normalizes the rest,
        then cuts the normalized added tokens out of that."""
        for start, end, found in self.added.raw_segments(text, allow_special):
            if found is not None:
                yield start, end, found, "", True
                continue
            piece = text[start:end]
            norm = piece if self.front is None else self.front.normalize(piece)
            same = norm == piece
            for s, e, inner in self.added.normalized_segments(norm, allow_special):
                # where normalizing changed the piece, its characters no longer line up with the text
                where = (start + s, start + e) if same else (start, end)
                yield *where, inner, norm[s:e], same

    def encode_ids(self, text: str, allow_special: bool = False) -> list[int]:
        out: list[int] = []
        for _, _, found, piece, _ in self._pieces(text, allow_special):
            if found is not None:
                out.append(found)
            else:
                self._extend_with_words(out, [word for _, _, word in self._words(piece, normalized=True)])
        return out

    def encode(self, text: str, allow_special: bool = False) -> Encoding:
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        for seg_start, seg_end, found, piece, same in self._pieces(text, allow_special):
            if found is not None:
                ids.append(found)
                offsets.append((seg_start, seg_end))
                continue
            for start, end, word in self._words(piece, normalized=True):
                word_ids = self._ids_of_word(word)
                ids.extend(word_ids)
                if self.front is None:
                    at = seg_start + start
                    offsets.extend((at + s, at + e) for s, e in self._spans(word, word_ids))
                    continue
                span = (seg_start + start, seg_start + end) if same else (seg_start, seg_end)
                offsets.extend([span] * len(word_ids))
        return Encoding(tuple(ids), self._tokens(ids), tuple(offsets))

    def decode(self, ids: Iterable[int]) -> str:
        """The text as the file's decoder gives it: Metaspace reads ``▁`` as a space (the first
        one dropped), a suffix ends a word, and the rest joins tokens with a space."""
        if self.front is None:
            return super().decode(ids)
        tokens = [self.vocab[i] for i in self._checked(ids)]
        front = self.front
        if front.split == "metaspace":
            data = bytearray()
            for token in tokens:
                if front.byte_fallback and len(token) == 6 and token.startswith("<0x") and token.endswith(">"):
                    data.append(int(token[3:5], 16))
                else:
                    data += token.encode("utf-8")
            text = data.decode("utf-8", errors="replace").replace(front.space, " ")
            return text[1:] if text.startswith(" ") else text
        if front.suffix:
            last = len(tokens) - 1
            return "".join(t.replace(front.suffix, "" if n == last else " ") for n, t in enumerate(tokens))
        return " ".join(tokens)

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        if self.front is None:
            return super().decode_bytes(ids)
        return self.decode(ids).encode("utf-8")
