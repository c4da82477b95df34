"""The textbook loop against the trainer on each preset; run by hand: python bench/bench_textbook_race.py

Races the two loops (engine.algorithm.textbook_race) on every small preset and on the first
``--chars`` characters of the Python documentation text for ``--merges`` merges, and prints each
loop's time, the ratio, and k·n (merges × symbols of the distinct words), the work the textbook loop
does at most. One run each: the small presets take milliseconds, so their ratio moves from run to
run; figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.algorithm.corpus import Corpus  # noqa: E402
from engine.algorithm.settings import Settings  # noqa: E402
from engine.algorithm.textbook_race import drive, race  # noqa: E402
from resources.presets import PRESETS  # noqa: E402


def docs_text(chars: int) -> str:
    from pydoc_data.topics import topics

    return "\n".join(topics[n] for n in sorted(topics))[:chars]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=100_000, help="characters of the documentation text")
    parser.add_argument("--merges", type=int, default=300, help="merges on the documentation text")
    args = parser.parse_args()
    corpora = []
    for p in PRESETS:
        if p.stem is not None:
            text = p.text()
            corpora.append((p.key, Corpus.from_word_counts(text, p.settings) if p.word_counts
                            else Corpus.from_text(text, p.settings)))
    corpora.append((f"docs {args.chars:,} chars", Corpus.from_text(docs_text(args.chars), Settings(merges=args.merges))))
    print(f"{'corpus':<22}{'merges':>8}{'k·n':>14}{'textbook ms':>14}{'trainer ms':>12}{'ratio':>8}")
    for name, corpus in corpora:
        result = drive(race(corpus))
        assert result.same, f"{name}: the loops part at merge {result.parted_at}"
        print(f"{name:<22}{result.merges:>8,}{result.merges * result.word_symbols:>14,}"
              f"{result.textbook_seconds * 1000:>14.1f}{result.trainer_seconds * 1000:>12.1f}{result.ratio:>8.1f}")


if __name__ == "__main__":
    main()
