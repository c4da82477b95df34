"""Write engine/algorithm/unicode_hf_data.py: the Unicode facts `tokenizers` normalizes and pre-tokenizes by.

    .venv/bin/python tools/unicode_hf.py          # rewrite the table
    .venv/bin/python tools/unicode_hf.py --check  # exit 1 if the table is out of date

Why a table: `tokenizers` answers "is this a control character, a punctuation mark, a word
character, a digit, how does it decompose" from the Unicode tables of the Rust crates it was built
with (unicode-normalization-alignments, unicode_categories, the regex crate, Rust's own char), each of
its own Unicode version; Python's ``unicodedata`` knows another. A file imported from the library
must cut and normalize every text as the library does, so BPE Lab reads these facts from here.

Where the facts come from: the library itself, asked about every code point (surrogates aside),
many at a time, with a separator that the step in question leaves alone:
- normalization: NFD and NFKD of each code point give the full decompositions; a mark swaps with
  U+0334 (class 1) or U+0301 (class 230) exactly when it is a non-starter, and two non-starters
  swap exactly when the first has the greater class, which orders the classes (only the order
  matters, so the table keeps each class's rank); NFC of each pair a decomposition could be made
  of tells which pairs compose. Hangul syllables decompose by arithmetic and are left out.
- BertNormalizer: which characters clean_text removes or turns into a space, around which
  handle_chinese_chars puts spaces, which strip_accents drops after NFD; StripAccents' marks.
- pre-tokenizers: what Punctuation and BertPreTokenizer isolate, what Digits isolates
  (Rust's ``char::is_numeric``), what the Whitespace pre-tokenizer's ``\\w`` holds, and which
  script UnicodeScripts gives each code point: a character it passes over cuts nothing; the
  code points in order cut into runs of one script, and two runs share a script where a
  character of each stays in one piece (scripts are numbered, not named).
"""

from __future__ import annotations

import argparse
import sys
from functools import cmp_to_key
from importlib.metadata import version
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "engine" / "algorithm" / "unicode_hf_data.py"
PER_LINE = 8
HANGUL = range(0xAC00, 0xD7A4)
CODES = [c for c in range(1, 0x110000) if not 0xD800 <= c < 0xE000]


def each(normalize: Callable[[str], str], codes: list[int], sep: str = "\0") -> list[str]:
    """What ``normalize`` makes of each code point, all asked in one call."""
    pieces = normalize(sep.join(map(chr, codes))).split(sep)
    if len(pieces) != len(codes):
        sys.exit(f"the separator {sep!r} did not survive: the probe cannot tell the characters apart")
    return pieces


def each_text(normalize: Callable[[str], str], texts: list[str]) -> list[str]:
    pieces = normalize("\0".join(texts)).split("\0")
    if len(pieces) != len(texts):
        sys.exit("the separator did not survive")
    return pieces


def normalizer(name: str) -> Callable[[str], str]:
    from tokenizers import normalizers

    return getattr(normalizers, name)().normalize_str  # type: ignore[no-any-return]


def decompositions() -> tuple[dict[int, str], dict[int, str]]:
    """({code: NFD} where it differs, {code: NFKD} where that differs from NFD), Hangul aside."""
    nfd, nfkd = each(normalizer("NFD"), CODES), each(normalizer("NFKD"), CODES)
    canonical = {c: d for c, d in zip(CODES, nfd) if d != chr(c) and c not in HANGUL}
    compat = {c: k for c, k, d in zip(CODES, nfkd, nfd) if k != d and c not in HANGUL}
    for c in HANGUL:
        if nfd[CODES.index(c)] != hangul_decomposition(c):
            sys.exit(f"U+{c:04X} does not decompose as Hangul arithmetic says")
    return canonical, compat


def hangul_decomposition(code: int) -> str:
    s = code - 0xAC00
    lead, vowel, tail = 0x1100 + s // 588, 0x1161 + (s % 588) // 28, 0x11A7 + s % 28
    return chr(lead) + chr(vowel) + (chr(tail) if tail != 0x11A7 else "")


def combining_ranks(canonical: dict[int, str]) -> dict[int, int]:
    """{code: rank of its combining class among the classes in use} for every non-starter."""
    nfd = normalizer("NFD")
    stable = [c for c in CODES if c not in canonical and c not in HANGUL]
    after = each_text(nfd, [chr(c) + "\u0334" for c in stable])
    before = each_text(nfd, ["\u0301" + chr(c) for c in stable])
    marks = [c for c, a, b in zip(stable, after, before) if a == "\u0334" + chr(c) or b == chr(c) + "\u0301"]
    marks += [0x0334, 0x0301]
    marks = sorted(set(marks))
    ordered = [(a, b) for a in marks for b in marks if a != b]
    swapped = each_text(nfd, [chr(a) + chr(b) for a, b in ordered])
    greater = {(a, b) for (a, b), s in zip(ordered, swapped) if s == chr(b) + chr(a)}
    below = {a: sum((a, b) in greater for b in marks) for a in marks}
    order = sorted(marks, key=cmp_to_key(lambda a, b: below[a] - below[b]))
    levels = sorted(set(below.values()))
    ranks = {c: levels.index(below[c]) + 1 for c in order}
    if any(((a, b) in greater) != (ranks[a] > ranks[b]) for a in marks for b in marks):
        sys.exit("the library's reordering is not one order of classes")
    return ranks


def compositions(canonical: dict[int, str]) -> dict[str, int]:
    """{first + second: composite} for every pair NFC joins, Hangul aside."""
    nfc = normalizer("NFC")
    stays = each(nfc, sorted(canonical))
    composites = [c for c, s in zip(sorted(canonical), stays) if s == chr(c) and len(canonical[c]) > 1]
    # the second part is one of the decomposition's characters, the last most often; the first is
    # what NFC makes of the rest, one character
    candidates = []
    for c in composites:
        d = canonical[c]
        for k in reversed(range(len(d))):
            candidates.append((c, d[:k] + d[k + 1:], d[k]))
    firsts = each_text(nfc, [rest for _, rest, _ in candidates])
    tried = [(c, a, b) for (c, _, b), a in zip(candidates, firsts) if len(a) == 1]
    joined = each_text(nfc, [a + b for _, a, b in tried])
    pairs: dict[str, int] = {}
    found = set()
    for (c, a, b), j in zip(tried, joined):
        if j == chr(c) and c not in found:
            pairs[a + b] = c
            found.add(c)
    missing = set(composites) - found
    if missing:
        sys.exit(f"no pair composes to {', '.join(f'U+{c:04X}' for c in sorted(missing)[:10])}")
    return pairs


def bert_classes() -> dict[str, set[int]]:
    from tokenizers import normalizers

    def bert(**flags: bool) -> Callable[[str], str]:
        options = {"clean_text": False, "handle_chinese_chars": False, "strip_accents": False, "lowercase": False}
        return normalizers.BertNormalizer(**(options | flags)).normalize_str  # type: ignore[arg-type]

    codes = [c for c in CODES if c != ord("a")]
    cleaned = each(bert(clean_text=True), codes, sep="a")
    removed = {c for c, s in zip(codes, cleaned) if s == ""} | {0}
    spaces = {c for c, s in zip(codes, cleaned) if s == " "}
    if any(s not in ("", " ", chr(c)) for c, s in zip(codes, cleaned)):
        sys.exit("clean_text did more than remove characters and make spaces")
    spaced = each(bert(handle_chinese_chars=True), CODES)
    chinese = {c for c, s in zip(CODES, spaced) if s == f" {chr(c)} "}
    stripped = each(bert(strip_accents=True), CODES)
    nfd = each(normalizer("NFD"), CODES)
    nonspacing = {c for c, s, d in zip(CODES, stripped, nfd) if s == "" and d == chr(c)}
    marks = {c for c, s in zip(CODES, each(normalizer("StripAccents"), CODES)) if s == ""}
    return {"BERT_REMOVED": removed, "BERT_SPACE": spaces, "BERT_CHINESE": chinese,
            "NONSPACING_MARK": nonspacing, "COMBINING_MARK": marks}


def isolated(pre_tokenizer: object) -> tuple[set[int], set[int]]:
    """(the characters the pre-tokenizer cuts out as pieces of their own, those it removes), each
    between two "a"s."""
    codes = [c for c in CODES if c != ord("a")]
    text = "a".join(map(chr, codes))
    pieces = [p for p, _ in pre_tokenizer.pre_tokenize_str(text)]  # type: ignore[attr-defined]
    alone = {ord(p) for p in pieces if len(p) == 1 and p != "a"}
    kept = set(map(ord, "".join(pieces)))
    return alone, set(codes) - kept


def pre_tokenizer_classes(white_space: set[int]) -> dict[str, set[int]]:
    from tokenizers import pre_tokenizers

    punctuation, none_removed = isolated(pre_tokenizers.Punctuation())
    bert_punctuation, bert_removed = isolated(pre_tokenizers.BertPreTokenizer())
    if none_removed or bert_punctuation != punctuation or bert_removed != white_space:
        sys.exit("BertPreTokenizer does not isolate Punctuation's characters and cut at white space")
    numeric, _ = isolated(pre_tokenizers.Digits(individual_digits=True))
    other, spaces = isolated(pre_tokenizers.Whitespace())
    if spaces != white_space:
        sys.exit("the Whitespace pre-tokenizer's \\s is not char::is_whitespace")
    word = set(CODES) - other - spaces
    return {"PUNCTUATION": punctuation, "NUMERIC": numeric, "WORD": word}


def scripts() -> dict[int, int]:
    """{code: its script's number} as UnicodeScripts sees it, for every code point it does not pass
    over (those, unassigned ones and the space among them, are left out)."""
    from tokenizers import pre_tokenizers

    probe = pre_tokenizers.UnicodeScripts().pre_tokenize_str

    def pieces(text: str) -> list[str]:
        return [p for p, _ in probe(text)]

    # a character it passes over joins the piece before it and cuts nothing after it
    every = [0, *CODES]
    passed = {c for c in every if c not in (ord("a"), 0x3B1) and pieces(f"\u03b1{chr(c)}a") == [f"\u03b1{chr(c)}", "a"]
              and pieces(f"a{chr(c)}\u03b1") == [f"a{chr(c)}", "\u03b1"]}
    # in code point order, a piece is a run of one script; runs of the same script join into one
    runs = pieces("".join(chr(c) for c in every if c not in passed))
    names: list[str] = []
    numbers: dict[int, int] = {}
    for run in runs:
        number = next((i for i, r in enumerate(names) if pieces(r + run[0]) == [r + run[0]]), None)
        if number is None:
            names.append(run[0])
            number = len(names) - 1
        numbers.update((ord(ch), number + 1) for ch in run)
    return numbers


def ranges(members: set[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for c in sorted(members):
        if out and out[-1][1] == c - 1:
            out[-1] = (out[-1][0], c)
        else:
            out.append((c, c))
    return out


def spelled(members: set[int]) -> str:
    return wrapped([f"{a:04X}" if a == b else f"{a:04X}-{b:04X}" for a, b in ranges(members)])


def spelled_values(values: dict[int, int]) -> str:
    """Runs of consecutive code points with one value: ``0300-0314:17``."""
    runs: list[tuple[int, int, int]] = []
    for c in sorted(values):
        if runs and runs[-1][1] == c - 1 and runs[-1][2] == values[c]:
            runs[-1] = (runs[-1][0], c, values[c])
        else:
            runs.append((c, c, values[c]))
    return wrapped([(f"{a:04X}" if a == b else f"{a:04X}-{b:04X}") + f":{v}" for a, b, v in runs])


def spelled_map(mapping: dict[int, str]) -> str:
    """Runs of one-character mappings with a common stride and offset (``FF01+94/1:-FEE0``: 94 code
    points from U+FF01, one apart, each minus 0xFEE0), every other mapping as ``00C0>0041,0300``."""
    single = sorted((c, ord(m) - c) for c, m in mapping.items() if len(m) == 1)
    items, alone, i = [], set(), 0
    while i < len(single):
        start, delta = single[i]
        stride, count = 1, 1
        if i + 1 < len(single) and single[i + 1][1] == delta:
            stride = single[i + 1][0] - start
            while i + count < len(single) and single[i + count] == (start + count * stride, delta):
                count += 1
        if count == 1:
            alone.add(start)
        else:
            sign = "+" if delta >= 0 else "-"
            items.append(f"{start:04X}+{count}/{stride}:{sign}{abs(delta):X}")
        i += count
    for c, m in sorted(mapping.items()):
        if len(m) != 1 or c in alone:
            items.append(f"{c:04X}>" + ",".join(f"{ord(ch):04X}" for ch in m))
    return wrapped(items)


def wrapped(items: list[str]) -> str:
    return "\n".join(" ".join(items[i: i + PER_LINE]) for i in range(0, len(items), PER_LINE))


def module_text() -> str:
    from engine.algorithm.unicode_table import WHITE_SPACE

    canonical, compat = decompositions()
    ranks = combining_ranks(canonical)
    pairs = compositions(canonical)
    classes = bert_classes() | pre_tokenizer_classes({ord(ch) for ch in WHITE_SPACE.chars()})
    head = (
        '"""How `tokenizers` normalizes and pre-tokenizes each code point, asked of the library itself.\n\n'
        f"Generated by tools/unicode_hf.py from tokenizers {version('tokenizers')}; do not edit. Classes are code\n"
        "point ranges in hex. CANONICAL and COMPATIBILITY are full decompositions (NFD, and NFKD where it\n"
        "differs), Hangul syllables aside (arithmetic), written as runs (``FF01+94/1:-FEE0``: 94 code points\n"
        "from U+FF01, one apart, each minus 0xFEE0) or ``00C0>0041,0300``; COMBINING gives each non-starter\n"
        "the rank of its combining class (only the order counts); COMPOSE lists ``0041,0300>00C0``;\n"
        "SCRIPTS gives each code point UnicodeScripts does not pass over its script's number.\n"
        '"""\n'
    )
    parts = [head, f'TOKENIZERS_VERSION = "{version("tokenizers")}"\n']
    parts.append(f'CANONICAL = """\n{spelled_map(canonical)}\n"""\n')
    parts.append(f'COMPATIBILITY = """\n{spelled_map(compat)}\n"""\n')
    parts.append(f'COMBINING = """\n{spelled_values(ranks)}\n"""\n')
    composed = [f"{ord(p[0]):04X},{ord(p[1]):04X}>{c:04X}" for p, c in sorted(pairs.items())]
    parts.append(f'COMPOSE = """\n{wrapped(composed)}\n"""\n')
    parts.append(f'SCRIPTS = """\n{spelled_values(scripts())}\n"""\n')
    for name, members in classes.items():
        parts.append(f'{name} = """\n{spelled(members)}\n"""\n')
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the table is up to date")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    text = module_text()
    if args.check:
        current = TARGET.read_text(encoding="utf-8")
        same = current.split("CANONICAL =")[1] == text.split("CANONICAL =")[1]
        print("up to date" if same else "out of date: rerun tools/unicode_hf.py")
        sys.exit(0 if same else 1)
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(text) // 1024} KB)")


if __name__ == "__main__":
    main()
