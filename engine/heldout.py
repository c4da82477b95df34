"""How many tokens a text takes after every step of a lesson, in one pass over its words.

Encoding a held-out text again for each of 10,000 steps would cost 10,000 encodings. A word's
tokens only change when a merge applies to it, and encoding a word with the full tokenizer
records each merge that applied (``encode_steps``). So each distinct word is encoded once; a merge
of rank r that shortened it by d tokens makes the text d × (how often the word occurs) tokens
shorter from step r + 1 on. Summing those drops gives every step's total.

One subtlety: encoding merges the present pair of lowest rank first. When a merge mints a token
that an earlier merge had already made, a pair of lower rank can appear later in the trace. The
tokenizer limited to k merges stops at the first trace entry of rank >= k, so an entry counts from
the step after the highest rank up to and including it.

Characters per token uses the characters of the words that are tokenized (whitespace the split
drops is not counted, the end-of-word marker is not a character) so training and held-out texts are
measured alike.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.bytelevel import symbols_to_bytes
from engine.corpus import Corpus
from engine.pretokenize import lowercase, special_splitter, split_specials, split_words
from engine.tokenizer import Tokenizer


@dataclass(frozen=True)
class TextCurve:
    """A text's token count after 0, 1, ..., n merges, and how many characters it holds."""

    tokens: tuple[int, ...]
    characters: int

    def characters_per_token(self, k: int) -> float:
        tokens = self.tokens[k]
        return self.characters / tokens if tokens else 0.0


def text_words(tokenizer: Tokenizer, text: str) -> tuple[Counter, list[str]]:
    """The text's words with their counts, split as the tokenizer splits, and the special tokens met."""
    settings = tokenizer.settings
    if settings.lowercase:
        text = lowercase(text)
    words: Counter[str] = Counter()
    specials: list[str] = []
    for start, end, special in split_specials(text, special_splitter(settings.special_tokens)):
        if special:
            specials.append(text[start:end])
        else:
            words.update(split_words(text[start:end], settings.split))
    return words, specials


def token_curve(tokenizer: Tokenizer, text: str, steps: int | None = None) -> TextCurve:
    """Tokens of ``text`` after each of 0..steps merges of ``tokenizer``.

    ``token_curve(tok, text).tokens[k] == len(tok.truncated(k).encode(text))`` for every k.
    """
    if steps is None:
        steps = len(tokenizer.merges)
    steps = max(0, min(steps, len(tokenizer.merges)))
    words, specials = text_words(tokenizer, text)
    # drops[k] = how many tokens the text loses on step k (merge rank k - 1)
    drops = [0] * (steps + 1)
    start = len(specials)
    characters = sum(len(s) for s in specials)
    for word, count in words.items():
        base, trace = tokenizer.encode_steps(word)
        start += len(base) * count
        characters += len(word) * count
        length = len(base)
        highest = -1
        for entry in trace:
            highest = max(highest, entry.rank)
            shorter = length - len(entry.tokens)
            length = len(entry.tokens)
            if highest < steps:
                drops[highest + 1] += shorter * count
    totals = [start] * (steps + 1)
    running = start
    for k in range(1, steps + 1):
        running -= drops[k]
        totals[k] = running
    return TextCurve(tuple(totals), characters)


def corpus_characters(corpus: Corpus) -> int:
    """Characters of the training words, each counted as often as it occurs."""
    if corpus.settings.units == "bytes":
        def length(word: str) -> int:
            return len(symbols_to_bytes(word).decode("utf-8", errors="replace"))
    else:
        length = len
    return sum(length(w) * c for w, c in zip(corpus.words, corpus.counts))
