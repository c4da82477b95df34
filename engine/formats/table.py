"""A tokenizer laid out as the file formats need it: every id with its token, and each merge's ids.

``TokenTable.of(tokenizer)`` works for BPE Lab's own tokenizers and for imported ones whose ids
follow another layout. Formats spell tokens in their own way (the end-of-word marker as one
character, bytes in the GPT-2 alphabet); ``spelled()`` builds that spelling from the merges, so
a token is spelt by how it was made, never by searching its string for the marker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import BpeLabError
from engine.formats.refusal import ExportRefused, Retrain
from engine.algorithm.settings import UNKNOWN, Settings


@dataclass(frozen=True)
class Merge:
    rank: int
    left: int
    right: int
    token: int


@dataclass(frozen=True)
class TokenTable:
    settings: Settings
    tokens: tuple[str, ...]  # by id, in BPE Lab's spelling
    base_ids: tuple[int, ...]
    merges: tuple[Merge, ...]
    special_ids: dict[str, int]
    unknown_id: int | None

    @classmethod
    def of(cls, tokenizer: Any) -> "TokenTable":
        # any Encoder: one without merges (a ranked vocabulary) is refused by what it lacks
        if not hasattr(tokenizer, "merges") or not hasattr(tokenizer, "base"):
            raise BpeLabError(
                f"{getattr(tokenizer, 'name', 'this tokenizer')} is a ranked vocabulary (tiktoken's form) that "
                "this format cannot hold as a merge list: export it with --format tiktoken or csv"
            )
        find = tokenizer.token_to_id
        merges = []
        for rank, (a, b) in enumerate(tokenizer.merges):
            merges.append(Merge(rank, find(a), find(b), find(a + b)))
        return cls(
            settings=tokenizer.settings,
            tokens=tuple(tokenizer.vocab),
            base_ids=tuple(find(t) for t in tokenizer.base),
            merges=tuple(merges),
            special_ids=dict(tokenizer.special_ids),
            unknown_id=tokenizer.unknown_id,
        )

    def spelled(self, marker_as: str | None, format_name: str) -> list[str]:
        """Every token spelt for a file, the marker written as ``marker_as``; refuses clashes."""
        marker = self.settings.marker
        spelling: dict[int, str] = {}
        for i in self.base_ids:
            t = self.tokens[i]
            spelling[i] = marker_as if (marker is not None and t == marker and marker_as) else t
        for m in self.merges:
            s = spelling[m.left] + spelling[m.right]
            if spelling.setdefault(m.token, s) != s:
                raise BpeLabError(
                    f"merge {m.rank + 1} makes '{self.tokens[m.token]}' a second way that {format_name} would "
                    "spell differently: export with --format bpelab, which keeps the merges as they are"
                )
        for t, i in self.special_ids.items():
            spelling[i] = t
        if self.unknown_id is not None:
            spelling[self.unknown_id] = UNKNOWN
        if sorted(spelling) != list(range(len(spelling))):
            raise BpeLabError("the token ids do not run from 0 without gaps: export with --format bpelab")
        out = [spelling[i] for i in range(len(spelling))]
        seen: dict[str, int] = {}
        for i, s in enumerate(out):
            if s in seen:
                raise BpeLabError(
                    f"'{s}' is both token {seen[s]} and token {i} (a special token or {UNKNOWN} spelt like a "
                    f"learned token?); {format_name} needs each token once: rename the special token, or "
                    "export with --format bpelab"
                )
            seen[s] = i
        return out

    def repeated_pair(self) -> Merge | None:
        """A merge whose pair an earlier merge already has (BPE Lab replays only the first)."""
        seen = set()
        for m in self.merges:
            if (m.left, m.right) in seen:
                return m
            seen.add((m.left, m.right))
        return None


def refuse_lowercase(settings: Settings, format_name: str) -> None:
    if settings.lowercase:
        raise ExportRefused(
            f"{format_name} does not carry BPE Lab's lowercasing: ", Retrain("lowercase", False),
            " and lowercase the text yourself, or export with --format bpelab"
        )


