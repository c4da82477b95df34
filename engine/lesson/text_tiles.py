"""A text of the user's cut by a lesson's merges at any step: what the tiles show of a tokenizer
read from a file, which keeps no training text.

The text is split as the tokenizer splits it, and each distinct word is kept once with how often
it occurs, in order of first appearance, as a corpus is. Each word is encoded once, with the trace
of every merge that applied to it (``Encoder.encode_steps``); its tokens at step k are then the
tokens after the last merge of the trace that step k includes, found by bisection. So stepping and
jumping to any of 100,000 steps costs a few look-ups per word, and no merge is replayed.

A merge-list tokenizer's trace is its replay in order, whose ranks are the merges' numbers: step k
includes ranks below k. Ranked bytes (a ``.tiktoken`` file) step through the tokens in rank
order, and tiktoken's rule over the ranks kept at step k merges exactly the trace's steps of rank
up to that step's token's (each token outranks its parts, so a word's ranks only rise). A word
longer than ``LONG_WORD`` symbols keeps no trace (its length squared in tokens) and is cut afresh
at each step asked for, with the same rules.

>>> lesson = Lesson("abb ab abb", settings=Settings(end_of_word=None)).train()
>>> [step.token for step in lesson.steps]
['ab', 'abb']
>>> tiles = TextTiles(lesson, "abb ab abb")
>>> tiles.words, tiles.counts, tiles.tokens(0, 1), tiles.tokens(0, 2), tiles.merge_offsets(0, 1)
(['abb', 'ab'], [2, 1], ['ab', 'b'], ['abb'], [0])

Left out: pairs and their counts (a text typed to look at is no corpus that merges were learned
from; the file's own counts are not known), and special tokens, which are ordinary text here as in
the Tokenize panel's default.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from engine.algorithm.bytelevel import BYTE_TO_CHAR, bytes_to_symbols, symbols_to_bytes
from engine.algorithm.encoder import Encoder
from engine.algorithm.merge_queue import merge_ranked_bytes
from engine.algorithm.settings import Settings  # noqa: F401  (used by the doctest)
from engine.algorithm.tokenizer import RankTokenizer, Tokenizer
from engine.errors import BpeLabError
from engine.lesson.lesson import Lesson

# a word of this many base symbols or more keeps no trace and is cut afresh at each step asked for
LONG_WORD = 200
# steps whose cut of every word is kept at once (the step shown, the one before it, a few jumps)
_KEPT_STEPS = 4


class TextTiles:
    """``words`` (distinct, in order of first appearance) and ``counts`` of a text, and each word's
    base symbols and tokens after the first k merges of ``lesson``, a lesson with merges (trained or
    read from a file)."""

    def __init__(self, lesson: Lesson, text: str):
        tokenizer = lesson.tokenizer
        if tokenizer is None:
            raise BpeLabError("the lesson has no merges yet to cut a text with")
        self.lesson = lesson
        self.text = text
        self.last_step = lesson.last_step
        self._tokenizer: Encoder = tokenizer
        found: dict[str, int] = {}
        for word in tokenizer.pre_tokenize(text):
            found[word] = found.get(word, 0) + 1
        self.words = list(found)
        self.counts = list(found.values())
        self._ranks: dict[bytes, int] | None = tokenizer.ranks if isinstance(tokenizer, RankTokenizer) else None
        self._symbols: list[list[str]] = []
        # per word: the ranks of the merges its trace applied, and the tokens after each (none for a long word)
        self._traced: list[tuple[list[int], list[tuple[str, ...]]] | None] = []
        for word in self.words:
            symbols, trace = self._base_and_trace(word)
            self._symbols.append(symbols)
            self._traced.append(trace)
        self._at: dict[int, list[list[str]]] = {}

    def _base_and_trace(self, word: str) -> tuple[list[str], tuple[list[int], list[tuple[str, ...]]] | None]:
        if self._ranks is not None:
            symbols = [BYTE_TO_CHAR[b] for b in word.encode("utf-8")]
            if len(symbols) >= LONG_WORD:
                return symbols, None
        elif len(word) >= LONG_WORD:
            # before any merge nothing applies: the word's base symbols, as the file spells them, in one pass
            return list(self.lesson.tokenizer_at(0).encode_steps(word)[0]), None
        base, trace = self._tokenizer.encode_steps(word)
        ranks = [step.rank for step in trace]
        if any(a > b for a, b in zip(ranks, ranks[1:])):
            # only a rank file that is no merge list takes a word whole past higher joins; such a
            # file is refused when read, so no trace here fails to rise
            raise BpeLabError(f"the merges applied to {word!r} do not come in the order of their ranks")
        return list(base), (ranks, [step.tokens for step in trace])

    def __len__(self) -> int:
        return len(self.words)

    # -- one word -----------------------------------------------------------------------------------

    def symbols(self, w: int) -> list[str]:
        """Word w's base symbols (the end-of-word marker included, an unseen character as unknown)."""
        return self._symbols[w]

    def tokens(self, w: int, k: int) -> list[str]:
        """Word w's tokens after the first k merges (clamped)."""
        return self._cut(self._clamp(k))[w]

    def token_count(self, w: int, k: int) -> int:
        return len(self.tokens(w, k))

    def merge_offsets(self, w: int, k: int) -> list[int]:
        """Base-symbol offsets in word w where step k merged its pair (the left token's start), left
        to right: none where the step left the word as it was, and none at step 0."""
        k = self._clamp(k)
        if k == 0:
            return []
        before, after = self.tokens(w, k - 1), self.tokens(w, k)
        if len(before) == len(after):
            return []
        symbols = self._symbols[w]
        starts = _starts(before, symbols)
        kept = set(_starts(after, symbols))
        # a start that went is where a right-hand token joined the token before it
        return [starts[i - 1] for i in range(1, len(starts)) if starts[i] not in kept]

    # -- the whole text -----------------------------------------------------------------------------

    def total_tokens(self, k: int) -> int:
        """The text's length in tokens after k merges, every word counted as often as it occurs."""
        return sum(n * len(tokens) for n, tokens in zip(self.counts, self._cut(self._clamp(k))))

    def places(self, k: int) -> int:
        """How many times step k merges its pair in the text, every word counted as often as it occurs."""
        k = self._clamp(k)
        if k == 0:
            return 0
        before, after = self._cut(k - 1), self._cut(k)
        return sum(n * (len(a) - len(b)) for n, a, b in zip(self.counts, before, after))

    def _clamp(self, k: int) -> int:
        return max(0, min(k, self.last_step))

    def _cut(self, k: int) -> list[list[str]]:
        found = self._at.get(k)
        if found is None:
            if len(self._at) >= _KEPT_STEPS:
                self._at.clear()
            bound = self._bound(k)
            found = self._at[k] = [self._word_at(w, k, bound) for w in range(len(self.words))]
        return found

    def _bound(self, k: int) -> int:
        """The ranks below this are the merges of the first k steps."""
        if self._ranks is None or k == 0:
            return k
        return self._ranks[symbols_to_bytes(self.lesson.steps[k - 1].token)] + 1

    def _word_at(self, w: int, k: int, bound: int) -> list[str]:
        traced = self._traced[w]
        if traced is not None:
            ranks, after = traced
            i = bisect_left(ranks, bound)
            return list(after[i - 1]) if i else list(self._symbols[w])
        tokenizer = self._tokenizer
        if self._ranks is not None:
            piece = self.words[w].encode("utf-8")
            whole = self._ranks.get(piece)
            if whole is not None and whole < bound:
                return [bytes_to_symbols(piece)]
            table = self._ranks

            def kept(joined: bytes) -> int | None:  # the ranks of the first k steps' tokens
                rank = table.get(joined)
                return rank if rank is not None and rank < bound else None

            return [bytes_to_symbols(part) for part in merge_ranked_bytes(piece, kept)]
        assert isinstance(tokenizer, Tokenizer)  # a long word of a merge list keeps no trace: it is cut here
        return tokenizer.merge_symbols(self._symbols[w], k)


def _starts(tokens: Sequence[str], symbols: Sequence[str]) -> list[int]:
    """The base-symbol offset where each token starts (a token is its symbols glued together)."""
    starts, s = [], 0
    for token in tokens:
        starts.append(s)
        need = len(token)
        while need > 0:
            need -= len(symbols[s])
            s += 1
    return starts
