"""Write engine/algorithm/unicode_classes.py: the code points that tiktoken's and tokenizers' regex engines
count as letters (``\\p{L}``), numbers (``\\p{N}``) and white space (``\\s``).

    .venv/bin/python tools/unicode_classes.py          # rewrite the table
    .venv/bin/python tools/unicode_classes.py --check  # exit 1 if the table is out of date

Why a table: the published split patterns (GPT-2's, cl100k's) say ``\\p{L}``, ``\\p{N}`` and ``\\s``,
and every regex engine answers those from the Unicode tables it was built with. Python's ``regex``
follows the newest Unicode (17.0 in regex 2026.11.19), tiktoken's Rust ``regex`` crate and the
Oniguruma inside ``tokenizers`` an older one (16.0 in tiktoken 0.14.0 and tokenizers 0.23.3); a letter
added in between (U+0C5C, the CJK Extension J block) is split apart by one and kept in a word by the
other, and the ids differ. BPE Lab compiles the patterns with these classes spelt out as ranges, so
its splits follow the table whatever ``regex`` (or Python's ``unicodedata``) a fresh install brings.

Where the numbers come from: the engines themselves, asked about every code point (surrogates
aside, which no UTF-8 text holds).
- tiktoken: an ``Encoding`` whose pattern is the class alone and whose ranks are the 256 single
  bytes; tiktoken drops text its pattern does not match, so encoding every code point and
  decoding the ids gives exactly the class's members.
- tokenizers: a ``Split`` pre-tokenizer that removes runs of the class; what it leaves is the
  rest. ``WhitespaceSplit`` must cut at exactly the white space found.
The engines must agree; the script stops if they do not. The Unicode version written in the
table is named from sentinels: the first letter each version added.

Lowercasing has the same problem: ``tokenizers``' ``Lowercase`` normalizer maps each character
on its own with Rust's ``char::to_lowercase`` (no final-sigma rule, and Rust's Unicode version),
Python's ``str.lower`` with Python's. The table also holds every character that ``Lowercase``
changes, found by normalizing every code point, written as runs: ``0041+26/1:+20`` means 26 code
points from U+0041, one apart, each lowercased to itself plus 0x20; a character that lowercases
to several is written ``0130>0069,0307``.
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "engine" / "algorithm" / "unicode_classes.py"
# the classes the published patterns name
CLASSES = {"LETTER": r"\p{L}", "NUMBER": r"\p{N}", "WHITE_SPACE": r"\s"}
# (version, a letter that version added): the newest the engines know names the table's version
SENTINELS = [("14.0", 0x0870), ("15.0", 0x31350), ("15.1", 0x2EBF0), ("16.0", 0x105C0), ("17.0", 0x323B0)]
PER_LINE = 8


def every_code_point() -> str:
    return "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)


def tiktoken_members(pattern: str, text: str) -> set[str]:
    import tiktoken

    probe = tiktoken.Encoding(
        "class-probe", pat_str=pattern + "+", mergeable_ranks={bytes([b]): b for b in range(256)}, special_tokens={}
    )
    return set(bytes(probe.encode_ordinary(text)).decode("utf-8"))


def tokenizers_members(pattern: str, text: str) -> set[str]:
    from tokenizers import Regex, pre_tokenizers

    # removing the class leaves the runs of everything else: a few thousand pieces, not a million
    split = pre_tokenizers.Split(Regex(pattern + "+"), behavior="removed")
    return set(text) - set("".join(piece for piece, _ in split.pre_tokenize_str(text)))


def whitespace_split_cuts(text: str) -> set[str]:
    from tokenizers import pre_tokenizers

    kept = "".join(piece for piece, _ in pre_tokenizers.WhitespaceSplit().pre_tokenize_str(text))
    return set(text) - set(kept)


def lowercase_map() -> dict[int, str]:
    """{code point: its lowercase} for every character tokenizers' Lowercase changes."""
    from tokenizers import normalizers

    codes = [c for c in range(1, 0x110000) if not 0xD800 <= c < 0xE000]
    # NUL separates the characters: it lowercases to itself and is not among them
    lowered = normalizers.Lowercase().normalize_str("\0".join(map(chr, codes))).split("\0")
    if len(lowered) != len(codes):
        sys.exit("tokenizers' Lowercase made a NUL: the probe cannot tell the characters apart")
    return {c: low for c, low in zip(codes, lowered) if low != chr(c)}


def lowercase_runs(mapping: dict[int, str]) -> list[str]:
    """The map as runs of code points with a common stride and offset (see the module doc)."""
    single = sorted((c, ord(low) - c) for c, low in mapping.items() if len(low) == 1)
    items, i = [], 0
    while i < len(single):
        start, delta = single[i]
        stride, count = 1, 1
        if i + 1 < len(single) and single[i + 1][1] == delta:
            stride = single[i + 1][0] - start
            while i + count < len(single) and single[i + count] == (start + count * stride, delta):
                count += 1
        sign = "+" if delta >= 0 else "-"
        items.append(f"{start:04X}+{count}/{stride}:{sign}{abs(delta):X}")
        i += count
    for c, low in sorted(mapping.items()):
        if len(low) != 1:
            items.append(f"{c:04X}>" + ",".join(f"{ord(ch):04X}" for ch in low))
    return items


def ranges(members: set[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for c in sorted(map(ord, members)):
        if out and out[-1][1] == c - 1:
            out[-1] = (out[-1][0], c)
        else:
            out.append((c, c))
    return out


def spelled(rs: list[tuple[int, int]]) -> str:
    return wrapped([f"{a:04X}" if a == b else f"{a:04X}-{b:04X}" for a, b in rs])


def wrapped(items: list[str]) -> str:
    return "\n".join(" ".join(items[i : i + PER_LINE]) for i in range(0, len(items), PER_LINE))


def measured() -> tuple[dict[str, set[str]], str]:
    text = every_code_point()
    classes = {}
    for name, pattern in CLASSES.items():
        ours, theirs = tiktoken_members(pattern, text), tokenizers_members(pattern, text)
        if ours != theirs:
            differ = ranges(ours ^ theirs)
            sys.exit(f"tiktoken and tokenizers disagree on {pattern}: {spelled(differ)[:400]}")
        classes[name] = ours
    if whitespace_split_cuts(text) != classes["WHITE_SPACE"]:
        sys.exit("tokenizers' WhitespaceSplit does not cut at exactly its regex's \\s")
    known = [v for v, c in SENTINELS if chr(c) in classes["LETTER"]]
    unicode_version = known[-1] if known else "older than 14.0"
    return classes, unicode_version


def module_text(classes: dict[str, set[str]], unicode_version: str, lowercase: list[str]) -> str:
    parts = [
        '"""Letters, numbers and white space as tiktoken\'s and tokenizers\' regex engines know them.\n\n'
        f"Generated by tools/unicode_classes.py from tiktoken {version('tiktoken')} and tokenizers "
        f"{version('tokenizers')}\n(Unicode {unicode_version}); do not edit. Each class is a list of "
        'code point ranges in hex; LOWERCASE is what tokenizers\' Lowercase normalizer changes, as runs\n'
        '(``0041+26/1:+20``: 26 code points from U+0041, one apart, each plus 0x20; ``0130>0069,0307``).\n"""\n',
        f'UNICODE_VERSION = "{unicode_version}"\n',
    ]
    for name in CLASSES:
        parts.append(f'{name} = """\n{spelled(ranges(classes[name]))}\n"""\n')
    parts.append(f'LOWERCASE = """\n{wrapped(lowercase)}\n"""\n')
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the table is up to date")
    args = parser.parse_args()
    classes, unicode_version = measured()
    text = module_text(classes, unicode_version, lowercase_runs(lowercase_map()))
    if args.check:
        # the header names library versions; the classes are what must still hold
        current = TARGET.read_text(encoding="utf-8")
        same = current.split('UNICODE_VERSION')[1] == text.split('UNICODE_VERSION')[1]
        print("up to date" if same else f"out of date: the engines now know Unicode {unicode_version}")
        sys.exit(0 if same else 1)
    TARGET.write_text(text, encoding="utf-8")
    sizes = ", ".join(f"{n} {len(c)} code points" for n, c in classes.items())
    print(f"wrote {TARGET.relative_to(ROOT)}: Unicode {unicode_version}; {sizes}")


if __name__ == "__main__":
    main()
