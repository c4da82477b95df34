"""A tokenizer read from a file, shown as a lesson: its merges are the steps, and there is no corpus.

A ``tokenizer.json`` trained by `tokenizers`, a GPT-2 folder, a ``.tiktoken`` file or a BPE Lab
tokenizer file keeps its merges in order but not the text they were learned from. Stepping through
them shows how the vocabulary grew; nothing can say how often a pair occurred, so
``counts_known`` is False: each step's ``count`` is 0 as a placeholder that views must not print
("not known", not "0 times"), and the corpus is empty (no tiles, no totals).

    >>> lesson = imported_lesson(Tokenizer(Settings(end_of_word=None), ["a", "b"], [("a", "b")]), "t.json", "x")
    >>> lesson.last_step, lesson.history.vocab_size(1), lesson.steps[0].token
    (1, 4, 'ab')

A tokenizer given as ranks (a ``.tiktoken`` file whose ranks no merge list replays exactly, such as
cl100k's) steps through the merges its ranks stand for, and at each step encodes with tiktoken's own
rule over the ranks kept so far, so every id shown is the file's.

Left out: the file's training corpus (it has none).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from engine.bytelevel import bytes_to_symbols
from engine.drain import drain
from engine.encoder import Encoder
from engine.errors import BpeLabError
from engine.history import History
from engine.lesson import Lesson
from engine.settings import Settings  # noqa: F401  (used by the doctest)
from engine.tokenizer import RankTokenizer, Tokenizer
from engine.trainer import MergeStep

# what a person calls each format the reader recognises
KINDS = {"hf": "a Hugging Face tokenizer.json", "gpt2": "GPT-2 vocab.json + merges.txt",
         "tiktoken": "a .tiktoken rank file", "bpelab": "a BPE Lab tokenizer file"}
# said where a count would be: the file keeps no corpus
NO_CORPUS = "no training corpus: it keeps the merges, not the text they were learned from"
# how many merges between two progress reports while the steps are built
_REPORT_EVERY = 5_000


class ImportedLesson(Lesson):
    """A read-only lesson: a file's merges as steps, its tokenizer at every step, no corpus."""

    counts_known = False

    def __init__(self, tokenizer: Encoder, name: str, kind: str, merges: Merges):
        """``merges``: the file's merges in order, as a ``Merges`` (``merges_of`` finds them)."""
        super().__init__("", False, tokenizer.settings)
        self.name = name
        self.kind = kind
        self.merges = merges
        self.steps = merges.steps
        self.stop_reason = f"the file's merges end here ({len(self.steps):,} merges)"
        self.tokenizer = tokenizer
        self._history = History(self.corpus, self.steps, base=merges.base)

    @property
    def base_vocab(self) -> list[str]:
        return list(self.merges.base)

    @property
    def is_empty(self) -> bool:
        # no corpus, yet a history to step through: views that need words ask ``counts_known``
        return False

    def origin(self) -> str:
        """One line on where the lesson comes from, for the status line and the corpus panel."""
        return (f"{self.name} is {KINDS.get(self.kind, 'a tokenizer file')} with {len(self.steps):,} merges and "
                f"{NO_CORPUS}.")

    def tokenizer_at(self, k: int) -> Encoder:
        if k >= self.last_step:
            return self.tokenizer  # the file's own, with the file's ids
        k = max(0, k)
        found = self._tokenizers.get(k)
        if found is None:
            if len(self._tokenizers) > 8:
                self._tokenizers.clear()
            found = self._tokenizers[k] = self.merges.cut(self.tokenizer, k)
        return found

    def training(self):
        raise BpeLabError("an imported tokenizer is not trained here: its merges come from the file")


class Merges:
    """A file's merges as steps, its base vocabulary, and how to cut its tokenizer after k merges."""

    def __init__(self, base: list[str], steps: list[MergeStep], ranked: list[tuple[bytes, int]] | None = None):
        """``ranked``: for a tokenizer given as ranks, its single bytes and then the token each merge
        makes, with their ranks, in rank order."""
        self.base = base
        self.steps = steps
        self._ranked = ranked

    def cut(self, tokenizer: Encoder, k: int) -> Encoder:
        if self._ranked is None:
            return tokenizer.truncated(k)
        # ranks keep tiktoken's own rule: the single bytes and the tokens of the first k merges
        ranks = dict(self._ranked[: len(self.base) + k])
        return RankTokenizer(tokenizer.name, ranks, tokenizer.pattern, tokenizer.special_ids)


def merges_of(tokenizer: Encoder, name: str) -> Iterator[tuple[int, int]]:
    """The ``Merges`` of a tokenizer read from a file, yielding (merges done, merges in all) now and
    then; the generator's return value is the ``Merges``. Refused with the reason when the
    tokenizer holds no merges to step through."""
    if isinstance(tokenizer, RankTokenizer):
        # only here: it brings in the regex engine, which the window's start goes without
        from engine.formats.tiktoken_file import recover_merges

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


def _steps(base, merges, specials: int, unknown: bool) -> Iterator[tuple[int, int]]:
    if not merges:
        raise BpeLabError("the file holds no merges, so there is nothing to step through")
    made = set(base)
    extra = specials + unknown
    steps = []
    total = len(merges)
    for i, (a, b) in enumerate(merges, start=1):
        made.add(a + b)
        # the counts and the corpus totals are not known: 0 stands for them (``counts_known`` is False)
        steps.append(MergeStep(step=i, pair=(a, b), token=a + b, count=0, tie_count=1, tokens_before=0,
                               tokens_after=0, vocab_size=len(made) + extra))
        if i % _REPORT_EVERY == 0:
            yield i, total
    return steps


def imported_lesson(tokenizer: Encoder, name: str, kind: str) -> ImportedLesson:
    """The lesson for a tokenizer already read (``read_imported`` reads a path)."""
    return ImportedLesson(tokenizer, name, kind, drain(merges_of(tokenizer, name)))


def read_imported(path: str | os.PathLike, recognised=None) -> Iterator[tuple[int, int]]:
    """Read a tokenizer file and build its lesson, yielding (merges done, merges in all) while its
    merges become steps (reading the file says nothing: "Reading the tokenizer file…" stands until
    then). The generator's return value is the lesson. ``recognised``: what
    ``engine.formats.load.recognise`` found the file to be, so that it is not parsed twice."""
    from engine.formats.load import load_source

    name = Path(path).name or str(path)
    source = load_source(path, recognised=recognised)
    try:
        merges = yield from merges_of(source.tokenizer, name)
    except BpeLabError as exc:
        message = str(exc)
        raise BpeLabError(message if message.startswith(name) else f"{name}: {message}") from None
    return ImportedLesson(source.tokenizer, name, source.kind, merges)
