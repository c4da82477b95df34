"""How many tokens a text takes after every step of a lesson, in one pass over its words.

Encoding a held-out text again for each of 10,000 steps would cost 10,000 encodings. A word's
tokens only change when a merge applies to it, and encoding a word with the full tokenizer
records each merge that applied (``encode_steps``). So each distinct word is encoded once; a merge
of rank r that shortened it by d tokens makes the text d × (how often the word occurs) tokens
shorter from step r + 1 on. Summing those drops gives every step's total.

Encoding replays the merges in order, so a word's trace runs in rising rank and the tokenizer
limited to k merges stops at the first trace entry of rank >= k: an entry counts from the step
after its rank on.

Characters per token uses the characters of the words that are tokenized (whitespace the split
drops is not counted, the end-of-word marker is not a character) so training and held-out texts are
measured alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from engine.algorithm.bytelevel import symbols_to_bytes
from engine.algorithm.corpus import Corpus
from engine.algorithm.tokenizer import Tokenizer


@dataclass(frozen=True)
class TextCurve:
    """A text's token count after 0, 1, ..., n merges, and how many characters it holds."""

    tokens: tuple[int, ...]
    characters: int

    def characters_per_token(self, k: int) -> float:
        tokens = self.tokens[k]
        return self.characters / tokens if tokens else 0.0


def text_words(tokenizer: Tokenizer, text: str, allow_special: bool = False) -> tuple[Counter[str], list[str]]:
    """The text's words with their counts, split as the tokenizer splits, and the special tokens met
    (only where allowed: otherwise their text is ordinary text, as in ``encode``)."""
    pieces = tokenizer.pieces(text, allow_special)
    words = Counter(piece for piece, special in pieces if not special)
    return words, [piece for piece, special in pieces if special]


def token_curve(tokenizer: Tokenizer, text: str, steps: int | None = None, allow_special: bool = False) -> TextCurve:
    """Tokens of ``text`` after each of 0..steps merges of ``tokenizer``.

    ``token_curve(tok, text).tokens[k] == len(tok.truncated(k).encode(text, allow_special))`` for every k.
    """
    if steps is None:
        steps = len(tokenizer.merges)
    steps = max(0, min(steps, len(tokenizer.merges)))
    words, specials = text_words(tokenizer, text, allow_special)
    # drops[k] = how many tokens the text loses on step k (merge rank k - 1)
    drops = [0] * (steps + 1)
    start = len(specials)
    characters = sum(len(s) for s in specials)
    for word, count in words.items():
        base, trace = tokenizer.encode_steps(word)
        start += len(base) * count
        characters += len(word) * count
        length = len(base)
        for entry in trace:
            shorter = length - len(entry.tokens)
            length = len(entry.tokens)
            if entry.rank < steps:
                drops[entry.rank + 1] += shorter * count
    totals = [start] * (steps + 1)
    running = start
    for k in range(1, steps + 1):
        running -= drops[k]
        totals[k] = running
    return TextCurve(tuple(totals), characters)


def corpus_characters(corpus: Corpus) -> int:
    """Characters of the training words, each counted as often as it occurs."""
    length: Callable[[str], int] = len
    if corpus.settings.units == "bytes":
        def length(word: str) -> int:
            return len(symbols_to_bytes(word).decode("utf-8", errors="replace"))
    return sum(length(w) * c for w, c in zip(corpus.words, corpus.counts))
