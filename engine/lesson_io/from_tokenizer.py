"""A tokenizer read from a file, shown as a lesson: its merges are the steps, and there is no corpus.

A ``tokenizer.json`` trained by `tokenizers`, a GPT-2 folder, a ``.tiktoken`` file or a BPE Lab
tokenizer file keeps its merges in order but not the text they were learned from. Stepping through
them shows how the vocabulary grew; nothing can say how often a pair occurred, so the lesson's
``corpus`` is None and each step's ``count`` is None: views say "not known", never "0 times".

    >>> lesson = imported_lesson(Tokenizer(Settings(end_of_word=None), ["a", "b"], [("a", "b")]), "t.json", "x")
    >>> lesson.last_step, lesson.history.vocab_size(1), lesson.steps[0].token, lesson.corpus
    (1, 4, 'ab', None)

A tokenizer given as ranks (a ``.tiktoken`` file whose ranks no merge list replays exactly, such as
cl100k's) steps through the merges its ranks stand for, and at each step encodes with tiktoken's own
rule over the ranks kept so far, so every id shown is the file's.

Left out: the file's training corpus (it has none).
"""

from __future__ import annotations

import os
from collections.abc import Generator, Sequence
from functools import partial
from pathlib import Path

from engine.algorithm.bytelevel import bytes_to_symbols
from engine.drain import drain
from engine.algorithm.encoder import Encoder
from engine.errors import BpeLabError, InternalError
from engine.formats.load import Recognised, read_tokenizer
from engine.formats.rank_merges import recover_merges
from engine.lesson.lesson import Lesson
from engine.lesson.source import FileSource
from engine.lesson.run import Run
from engine.algorithm.settings import Settings  # noqa: F401  (used by the doctest)
from engine.algorithm.tokenizer import RankTokenizer, Tokenizer
from engine.algorithm.trainer import MergeStep

# how many merges between two progress reports while the steps are built
_REPORT_EVERY = 5_000


def lesson_of(tokenizer: Encoder, name: str, kind: str, merges: Merges) -> Lesson:
    """The read-only lesson of a file's merges: its tokenizer at every step, no corpus."""
    run = Run(merges.steps, f"the file's merges end here ({len(merges.steps):,} merges)", tokenizer, merges.base,
              partial(merges.cut, tokenizer))
    return Lesson(FileSource(kind, name), settings=tokenizer.settings, run=run)


class Merges:
    """A file's merges as steps, its base vocabulary, and how to cut its tokenizer after k merges."""

    def __init__(self, base: list[str], steps: list[MergeStep], ranked: list[tuple[bytes, int]] | None = None):
        """``ranked``: for a tokenizer given as ranks, its single bytes and then the token each merge
        makes, with their ranks, in rank order."""
        self.base = base
        self.steps = steps
        self._ranked = ranked

    def cut(self, tokenizer: Encoder, k: int) -> Encoder:
        if isinstance(tokenizer, RankTokenizer) and self._ranked is not None:
            # ranks keep tiktoken's own rule: the single bytes and the tokens of the first k merges
            ranks = dict(self._ranked[: len(self.base) + k])
            return RankTokenizer(tokenizer.name, ranks, tokenizer.pattern, tokenizer.special_ids)
        if not isinstance(tokenizer, Tokenizer):
            raise InternalError(f"{type(tokenizer).__name__} cannot be cut at a step")
        return tokenizer.truncated(k)


def merges_of(tokenizer: Encoder, name: str) -> Generator[tuple[int, int], None, Merges]:
    """The ``Merges`` of a tokenizer read from a file, yielding (merges done, merges in all) now and
    then; the generator's return value is the ``Merges``. Refused with the reason when the
    tokenizer holds no merges to step through."""
    if isinstance(tokenizer, RankTokenizer):
        ranked = sorted(tokenizer.ranks.items(), key=lambda kv: kv[1])
        base = [bytes_to_symbols(t) for t, _ in ranked if len(t) == 1]
        try:
            pairs = [(bytes_to_symbols(a), bytes_to_symbols(b)) for a, b in recover_merges(tokenizer.ranks, name)]
        except BpeLabError as exc:
            raise BpeLabError(f"{exc}: the window cannot step through it") from None
        ordered = [(t, r) for t, r in ranked if len(t) == 1] + [(t, r) for t, r in ranked if len(t) > 1]
        steps = yield from _steps(base, pairs, len(tokenizer.special_ids), False)
        return Merges(base, steps, ordered)
    if not isinstance(tokenizer, Tokenizer):
        raise BpeLabError(f"{name}: this kind of tokenizer has no merge list to step through")
    steps = yield from _steps(tokenizer.base, tokenizer.merges, len(tokenizer.settings.special_tokens),
                              tokenizer.unknown_id is not None)
    return Merges(list(tokenizer.base), steps)


def _steps(base: Sequence[str], merges: Sequence[tuple[str, str]], specials: int,
           unknown: bool) -> Generator[tuple[int, int], None, list[MergeStep]]:
    if not merges:
        raise BpeLabError("the file holds no merges, so there is nothing to step through")
    made = set(base)
    extra = specials + unknown
    steps = []
    total = len(merges)
    for i, (a, b) in enumerate(merges, start=1):
        made.add(a + b)
        # the file keeps no corpus: how often the pair occurred, and the corpus's tokens, are not known
        steps.append(MergeStep(step=i, pair=(a, b), token=a + b, count=None, tie_count=1, tokens_before=None,
                               tokens_after=None, vocab_size=len(made) + extra))
        if i % _REPORT_EVERY == 0:
            yield i, total
    return steps


def imported_lesson(tokenizer: Encoder, name: str, kind: str) -> Lesson:
    """The lesson for a tokenizer already read (``read_imported`` reads a path)."""
    return lesson_of(tokenizer, name, kind, drain(merges_of(tokenizer, name)))


def read_imported(path: str | os.PathLike[str],
                  recognised: Recognised | None = None) -> Generator[tuple[int, int], None, Lesson]:
    """Read a tokenizer file and build its lesson, yielding (merges done, merges in all) while its
    merges become steps (reading the file says nothing: "Reading the tokenizer file…" stands until
    then). The generator's return value is the lesson. ``recognised``: what
    ``engine.formats.load.recognise`` found the file to be, so that it is not parsed twice."""
    name = Path(path).name or str(path)
    source = read_tokenizer(path, recognised=recognised)
    try:
        merges = yield from merges_of(source.tokenizer, name)
    except BpeLabError as exc:
        message = str(exc)
        raise BpeLabError(message if message.startswith(name) else f"{name}: {message}") from None
    return lesson_of(source.tokenizer, name, source.kind, merges)
