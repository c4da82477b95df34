"""The knobs of a training run, with the defaults of the lesson."""

from __future__ import annotations

from dataclasses import dataclass, field, asdict, replace
from typing import Any

from engine.errors import BpeLabError
from engine.algorithm.ranking import TIE_BREAKS

SPLITS = ("whitespace", "gpt2", "gpt4", "none")
UNITS = ("chars", "bytes")
DEFAULT_MARKER = "</w>"
# how the unknown token is spelt: chars units keep one id for every character training never saw
UNKNOWN = "<unk>"
# stands for "the marker this split and these units use by default" until resolved
AUTO = "auto"


@dataclass(frozen=True)
class Settings:
    """Everything that decides which merges a corpus yields.

    ``end_of_word`` is a marker string, ``None`` for no marker, or ``"auto"``: ``</w>`` with the
    whitespace split and chars units, no marker otherwise. Use ``resolved()`` to settle it.
    """

    split: str = "whitespace"
    units: str = "chars"
    end_of_word: str | None = AUTO
    lowercase: bool = False
    min_frequency: int = 2
    merges: int | None = None
    vocab_size: int | None = None
    special_tokens: tuple[str, ...] = field(default_factory=tuple)
    tie_break: str = "first"

    def __post_init__(self) -> None:
        if self.split not in SPLITS:
            raise BpeLabError(f"unknown split '{self.split}': choose one of {', '.join(SPLITS)}")
        if self.units not in UNITS:
            raise BpeLabError(f"unknown units '{self.units}': choose chars or bytes")
        if self.tie_break not in TIE_BREAKS:
            raise BpeLabError(f"unknown tie rule '{self.tie_break}': choose one of {', '.join(TIE_BREAKS)}")
        if self.end_of_word == "":
            raise BpeLabError("the end-of-word marker cannot be empty: give a string such as </w>, or turn it off")
        if self.units == "bytes" and self.end_of_word not in (None, AUTO):
            raise BpeLabError("an end-of-word marker needs chars units: bytes units keep the space in the next word instead")
        if self.min_frequency < 1:
            raise BpeLabError("min frequency must be at least 1")
        if self.merges is not None and self.merges < 0:
            raise BpeLabError("the number of merges cannot be negative")
        if self.merges is not None and self.vocab_size is not None:
            raise BpeLabError("give either a number of merges or a vocabulary size, not both")
        if self.vocab_size is not None and self.vocab_size < 1:
            raise BpeLabError("the vocabulary size must be positive")
        object.__setattr__(self, "special_tokens", tuple(self.special_tokens))
        for token in self.special_tokens:
            if not token:
                raise BpeLabError("a special token cannot be empty")
        if len(set(self.special_tokens)) != len(self.special_tokens):
            raise BpeLabError("a special token is given twice")
        if self.marker is not None and self.marker in self.special_tokens:
            # one string cannot be both: the marker ends every word, a special token stands apart
            raise BpeLabError(
                f"the special token {self.marker} is also the end-of-word marker: pick another special token, "
                "or another marker"
            )

    @property
    def marker(self) -> str | None:
        """The end-of-word marker in force, or None."""
        if self.end_of_word == AUTO:
            return DEFAULT_MARKER if (self.split == "whitespace" and self.units == "chars") else None
        return self.end_of_word

    def resolved(self) -> "Settings":
        return replace(self, end_of_word=self.marker)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self.resolved())
        data["special_tokens"] = list(self.special_tokens)
        return data
