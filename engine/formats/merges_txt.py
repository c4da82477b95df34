"""The ``merges.txt`` of GPT-2 style folders: an optional "#version" line, then "left right" per line.

Its own module because two sides read it: the gpt2 folder reader, and the export check that loads
the written files in the `tokenizers` library before they are saved.
"""

from __future__ import annotations

from engine.errors import BpeLabError

HEADER = "#version: 0.2"


def read_merges(text: str, source: str) -> tuple[list[tuple[str, str]], list[int]]:
    """The merges, and the line each one is on."""
    merges = []
    numbers = []
    # `tokenizers` cuts lines at "\n" only, so a lone "\r" or other separator stays inside a token
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line or (number == 1 and line.startswith("#version")):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise BpeLabError(f"{source}, line {number}: expected two tokens separated by one space, got '{line}'")
        merges.append((parts[0], parts[1]))
        numbers.append(number)
    return merges, numbers
