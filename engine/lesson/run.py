"""A run: the steps a lesson went through, why they stopped, and the tokenizer after any of them.

A run is made once, by training a corpus (``Lesson.training``) or by reading a tokenizer file's
merges (``engine.lesson_io.from_tokenizer``); after that it only answers. Its steps are the same records
either way; a file's steps carry ``None`` where a count would be, as the file cannot know it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.algorithm.encoder import Encoder
from engine.algorithm.trainer import MergeStep

# tokenizers cut at a step kept at once: the few steps a view, the explorer and the quiz ask for
_KEPT = 8


class Run:
    """``steps`` in order, ``stop_reason`` in words, ``tokenizer`` after every step, and ``cut(k)``
    the tokenizer after the first k of them (``tokenizer_at`` keeps the last few asked for)."""

    def __init__(self, steps: Sequence[MergeStep], stop_reason: str | None, tokenizer: Encoder, base: Sequence[str],
                 cut: Callable[[int], Encoder]):
        """``base``: the vocabulary before the first step."""
        self.steps = list(steps)
        self.stop_reason = stop_reason
        self.tokenizer = tokenizer
        self.base = list(base)
        self._cut = cut
        self._tokenizers: dict[int, Encoder] = {}

    @property
    def last_step(self) -> int:
        return len(self.steps)

    def tokenizer_at(self, k: int) -> Encoder:
        """The tokenizer after the first k merges (clamped); after all of them, ``tokenizer`` itself,
        so a file's tokenizer keeps the file's ids."""
        if k >= self.last_step:
            return self.tokenizer
        k = max(0, k)
        found = self._tokenizers.get(k)
        if found is None:
            if len(self._tokenizers) > _KEPT:
                self._tokenizers.clear()
            found = self._tokenizers[k] = self._cut(k)
        return found
