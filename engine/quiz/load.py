"""The one entry point for a quiz pack file, whichever of the two formats it is written in.

It sits above both readers (``engine.quiz.packs`` for JSON, ``engine.quiz.markdown`` for concept
pages), so neither needs the other's loader.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.errors import BpeLabError
from engine.files.reading import read_text
from engine.quiz.markdown import pack_from_markdown
from engine.quiz.packs import pack_from_json
from engine.quiz.questions import Pack


# a pack is questions and prose; a file past this size is not one
MAX_PACK_BYTES = 16 * 1024 * 1024
# the endings the pack dialog offers: a lesson file, which anyone may send, can make the window open
# only a file whose name says it is a pack (never, say, a key file whose lines a notice would quote)
PACK_SUFFIXES = (".json", ".md")


def check_pack_name(path: str | os.PathLike[str]) -> None:
    """Refuse a file a lesson names as its quiz pack unless its name ends like a pack's."""
    if Path(path).suffix.lower() not in PACK_SUFFIXES:
        raise BpeLabError(f"{path}: a lesson opens only quiz packs named *.json or *.md")


def load_pack(path: str | os.PathLike[str]) -> Pack:
    """A pack file of either format: JSON by its content, otherwise concept-page Markdown."""
    text = read_text(path, MAX_PACK_BYTES)
    source = str(path)
    if text.lstrip().startswith("{"):
        return pack_from_json(text, source)
    return pack_from_markdown(text, source)
