"""The settings every BPE Lab file carries (lesson, tokenizer file, sidecars, the CSV's first line),
read against their schema: each key's type and range, no unknown keys.

    {"split": "whitespace", "units": "chars", "end_of_word": "</w>", "lowercase": false,
     "min_frequency": 2, "merges": null, "vocab_size": null, "special_tokens": [], "tie_break": "first"}
"""

from __future__ import annotations

from typing import Any

from engine.errors import BpeLabError
from engine.formats.schema import MAX_COUNT, Fields, SchemaError
from engine.algorithm.ranking import TIE_BREAKS
from engine.algorithm.settings import AUTO, SPLITS, UNITS, Settings

# the longest end-of-word marker or special token: a name, not a text
MAX_TOKEN_CHARS = 1000


def settings_from_data(value: object, source: str, where: str = "settings") -> Settings:
    """``Settings`` from a file's settings object; ``SchemaError`` naming the first wrong value."""
    f = Fields.of(value, source, where)
    end_of_word = f.text("end_of_word", AUTO, optional=True, nonempty=True,
                         must="must be a marker text such as \"</w>\", or null for none")
    specials = f.strings("special_tokens", (), nonempty=True,
                         must="must be a list of special tokens, each a non-empty text")
    for token in (end_of_word or "", *specials):
        if len(token) > MAX_TOKEN_CHARS:
            raise SchemaError(f"{source}: {where}: a marker or special token of {len(token):,} characters; "
                              f"at most {MAX_TOKEN_CHARS:,}")
    values: dict[str, Any] = dict(
        split=f.choice("split", SPLITS, "whitespace"),
        units=f.choice("units", UNITS, "chars"),
        end_of_word=end_of_word,
        lowercase=f.flag("lowercase", False),
        min_frequency=f.whole("min_frequency", 2, low=1),
        merges=f.whole("merges", None, optional=True, must=f"must be a whole number from 0 to {MAX_COUNT:,}, or null"),
        vocab_size=f.whole("vocab_size", None, low=1, optional=True,
                           must=f"must be a whole number from 1 to {MAX_COUNT:,}, or null"),
        special_tokens=specials,
        tie_break=f.choice("tie_break", TIE_BREAKS, "first"),
    )
    f.done()
    try:
        return Settings(**values)
    except BpeLabError as exc:
        raise SchemaError(f"{source}: {where}: {exc}") from None
