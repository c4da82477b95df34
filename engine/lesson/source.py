"""Where a lesson comes from: text typed (or opened), word counts, or a tokenizer file.

A lesson trained here keeps the text it was trained on; a lesson read from a tokenizer file keeps
only the file's kind and name, because the file holds merges and not the text they were learned
from (``engine.lesson_io.from_tokenizer``).

    >>> FileSource("hf", "tokenizer.json").origin(3)
    'tokenizer.json is a Hugging Face tokenizer.json with 3 merges and no training corpus: it keeps the merges, not the text they were learned from.'
"""

from __future__ import annotations

from dataclasses import dataclass

# what a person calls each tokenizer format a lesson can be read from
KINDS = {"hf": "a Hugging Face tokenizer.json", "gpt2": "GPT-2 vocab.json + merges.txt",
         "tiktoken": "a .tiktoken rank file", "bpelab": "a BPE Lab tokenizer file"}
# said where a count would be: the file keeps no corpus
NO_CORPUS = "no training corpus: it keeps the merges, not the text they were learned from"


@dataclass(frozen=True)
class TextSource:
    """Training text as typed or opened, split into words by the settings."""

    text: str

    def origin(self, merges: int) -> str:
        return f"The lesson is trained on its text, with {merges:,} merges."


@dataclass(frozen=True)
class WordCountSource:
    """Lines of ``word count``, kept as typed (lines not yet of that form are refused by training)."""

    text: str

    def origin(self, merges: int) -> str:
        return f"The lesson is trained on its word counts, with {merges:,} merges."


@dataclass(frozen=True)
class FileSource:
    """A tokenizer file of kind ``kind`` (a key of ``KINDS``) named ``name``: merges, no text."""

    kind: str
    name: str

    def origin(self, merges: int) -> str:
        return f"{self.name} is {KINDS.get(self.kind, 'a tokenizer file')} with {merges:,} merges and {NO_CORPUS}."


LessonSource = TextSource | WordCountSource | FileSource
