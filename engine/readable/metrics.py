"""How good a vocabulary is on a text: the one set of measures every view, the CLI and the handout use.

For a tokenizer and a text (``measure``), each defined exactly (docs/metrics.md gives the sources):

- **characters** and **bytes**: the characters (and their UTF-8 bytes) of the pieces the tokenizer
  tokenizes (``Encoder.pieces``): whitespace a split drops is not counted, the end-of-word marker is
  not a character. Characters (bytes) per token = characters (bytes) / tokens.
- **words**: the maximal runs of characters that are not whitespace (``str.isspace``), i.e.
  ``text.split()``. Tokens per word (fertility) = tokens / words.
- a word is **kept in one token** when exactly one token covers it: a token covers a word when its
  characters overlap the word's, or, having no characters of its own (the end-of-word marker), when
  it stands at the word's end or inside it. Every other word is **split** into pieces.
- **unknown**: tokens whose id is the tokenizer's unknown token.
- **vocabulary used**: distinct token ids in the encoding, and their share of the vocabulary size.
- **Rényi efficiency** (Zouhar et al., ACL 2023): H_α(p) / log |V|, with p the unigram distribution
  of token ids in the encoding, H_α(p) = log(Σ p_t^α) / (1 − α), |V| the vocabulary size; α = 1 is
  Shannon's entropy −Σ p_t log p_t (Shannon efficiency). Default α = 2.5, as the paper recommends.

>>> from engine.algorithm.corpus import Corpus
>>> from engine.algorithm.settings import Settings
>>> from engine.algorithm.tokenizer import Tokenizer
>>> from engine.algorithm.trainer import train
>>> tok = Tokenizer.from_trainer(train(Corpus.from_word_counts("aa 3", Settings(end_of_word=None)))[0])
>>> m = measure(tok, "aa a")
>>> m.tokens, m.words_whole, round(m.tokens_per_word, 2)
(2, 2, 1.0)

Over a whole run (``run_metrics``): the same measures after every step, from what the history and
the held-out trace already know. A merge of ``a b`` made m times removes m tokens ``a`` and m
tokens ``b`` and adds m tokens ``ab``, so each step changes three counts of the distribution and
the sums of p^α and p log p are updated in O(1); nothing is encoded again per step.

Left out: the charts of these measures, the languages page and the handout table (views that call
this module).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.algorithm.encoder import Encoder
from engine.algorithm.tokenizer import Encoding

# Zouhar et al. (ACL 2023): α = 2.5 correlated best with translation quality
DEFAULT_ALPHA = 2.5
_WORD = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class Metrics:
    """The counts one encoding of a text gives; every measure is derived from them."""

    tokens: int
    characters: int
    bytes: int
    words: int
    words_whole: int
    unknown: int
    vocab_size: int
    vocab_used: int
    alpha: float
    renyi_entropy: float  # natural log; the efficiencies do not depend on the log's base
    shannon_entropy: float

    @property
    def characters_per_token(self) -> float:
        return _ratio(self.characters, self.tokens)

    @property
    def bytes_per_token(self) -> float:
        return _ratio(self.bytes, self.tokens)

    @property
    def tokens_per_word(self) -> float:
        return _ratio(self.tokens, self.words)

    @property
    def words_split(self) -> int:
        return self.words - self.words_whole

    @property
    def whole_share(self) -> float:
        return _ratio(self.words_whole, self.words)

    @property
    def split_share(self) -> float:
        return _ratio(self.words_split, self.words)

    @property
    def unknown_share(self) -> float:
        return _ratio(self.unknown, self.tokens)

    @property
    def vocab_used_share(self) -> float:
        return _ratio(self.vocab_used, self.vocab_size)

    @property
    def renyi_efficiency(self) -> float:
        return _efficiency(self.renyi_entropy, self.vocab_size)

    @property
    def shannon_efficiency(self) -> float:
        return _efficiency(self.shannon_entropy, self.vocab_size)

    def as_dict(self) -> dict[str, float | int]:
        """Every count and measure by name, as ``--json`` prints them."""
        names = ("tokens", "characters", "bytes", "words", "words_whole", "words_split", "unknown",
                 "vocab_size", "vocab_used", "alpha", "characters_per_token", "bytes_per_token",
                 "tokens_per_word", "whole_share", "split_share", "unknown_share", "vocab_used_share",
                 "renyi_efficiency", "shannon_efficiency")
        return {name: getattr(self, name) for name in names}


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def _efficiency(entropy: float, vocab_size: int) -> float:
    # one token type carries no information: log 1 = 0, and the efficiency is 0 by definition here
    return entropy / math.log(vocab_size) if vocab_size > 1 else 0.0


def entropies(counts: Iterable[int], alpha: float = DEFAULT_ALPHA) -> tuple[float, float]:
    """(Rényi entropy of order ``alpha``, Shannon entropy) of the distribution the counts make."""
    counts = [c for c in counts if c > 0]
    total = sum(counts)
    if not total:
        return 0.0, 0.0
    power = sum(c ** alpha for c in counts) if alpha != 1 else 0.0
    plogp = sum(c * math.log(c) for c in counts)
    return _entropies_of_sums(total, power, plogp, alpha)


def _entropies_of_sums(total: int, power: float, plogp: float, alpha: float) -> tuple[float, float]:
    """From Σ c^α and Σ c log c over counts c summing to ``total``: p = c / total, so
    Σ p^α = Σ c^α / total^α and −Σ p log p = log total − Σ c log c / total."""
    if total <= 0:
        return 0.0, 0.0
    shannon = max(0.0, math.log(total) - plogp / total)
    if alpha == 1:
        return shannon, shannon
    renyi = (math.log(power) - alpha * math.log(total)) / (1 - alpha) if power > 0 else 0.0
    return max(0.0, renyi), shannon


def word_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each word: a maximal run of characters that are not whitespace."""
    return [m.span() for m in _WORD.finditer(text)]


def covering_tokens(offsets: Sequence[tuple[int, int]], start: int, end: int) -> int:
    """How many tokens (their offsets in text order) cover the word at [start, end)."""
    starts = [s for s, _ in offsets]
    ends = [e for _, e in offsets]
    return _covering(starts, ends, start, end)


def _covering(starts: Sequence[int], ends: Sequence[int], start: int, end: int) -> int:
    # a token covers [start, end) when it starts at or before the end and ends at or after the start;
    # of those, one with characters that only touches the word (ends at its start, starts at its end)
    # does not overlap it, while one with none (the marker at the word's end) does
    lo = bisect_left(ends, start)
    hi = bisect_right(starts, end)
    count = 0
    for s, e in zip(starts[lo:hi], ends[lo:hi]):
        if s == e or (s < end and e > start):
            count += 1
    return count


def words_kept_whole(text: str, encoding: Encoding) -> tuple[int, int]:
    """(words, words exactly one token covers) of ``text`` encoded as ``encoding``."""
    starts, ends = encoding.starts, encoding.ends
    spans = word_spans(text)
    whole = sum(1 for a, b in spans if _covering(starts, ends, a, b) == 1)
    return len(spans), whole


def measure(encoder: Encoder, text: str, alpha: float = DEFAULT_ALPHA, allow_special: bool = False) -> Metrics:
    """Every measure of ``text`` encoded by ``encoder`` (see the module's definitions)."""
    encoding = encoder.encode(text, allow_special=allow_special)
    pieces = [piece for piece, _ in encoder.pieces(text, allow_special)]
    return measure_encoding(text, encoding, pieces, encoder.unknown_id, encoder.get_vocab_size(), alpha)


def measure_encoding(text: str, encoding: Encoding, pieces: Sequence[str], unknown_id: int | None,
                     vocab_size: int, alpha: float = DEFAULT_ALPHA) -> Metrics:
    """The measures of one encoding of ``text``, given the pieces its tokenizer tokenized: what a
    tokenizer that is not an ``Encoder`` (one of the ``tokenizers`` library's) is measured with."""
    characters = sum(len(p) for p in pieces)
    size = sum(len(p.encode("utf-8", errors="surrogatepass")) for p in pieces)
    words, whole = words_kept_whole(text, encoding)
    counts = Counter(encoding.ids)
    unknown = counts.get(unknown_id, 0) if unknown_id is not None else 0
    renyi, shannon = entropies(counts.values(), alpha)
    return Metrics(len(encoding), characters, size, words, whole, unknown, vocab_size, len(counts), alpha,
                   renyi, shannon)
