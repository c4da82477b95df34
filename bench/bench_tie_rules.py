"""Training under each tie rule, measured with no Qt; run by hand: python bench/bench_tie_rules.py

Trains the Python documentation preset (its training text, shipped with Python) under every tie
rule, with the preset's settings and as bytes, and prints each run's CPU time (best of
``--repeat``), its merges, and its time as a ratio to the "first" rule's. The lexicographic rules
order the queue by labels that keep tokens in spelling order; "last" by the first place flipped.
Figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.algorithm.corpus import Corpus  # noqa: E402
from engine.algorithm.ranking import TIE_BREAKS  # noqa: E402
from engine.algorithm.settings import Settings  # noqa: E402
from engine.algorithm.trainer import train  # noqa: E402
from engine.lesson.rules_part import where_rules_part  # noqa: E402
from resources.presets import python_docs_text  # noqa: E402


def best_seconds(call, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--merges", type=int, default=None, help="stop after N merges (default: until no pair repeats)")
    args = parser.parse_args()
    text = python_docs_text()[0]
    print(f"Python documentation: {len(text):,} characters", flush=True)
    for units in ("chars", "bytes"):
        base = None
        for rule in TIE_BREAKS:
            corpus = Corpus.from_text(text, Settings(units=units, tie_break=rule, merges=args.merges))
            steps: list = []
            seconds = best_seconds(lambda c=corpus, s=steps: s.append(len(train(c)[1])), args.repeat)
            base = base or seconds
            print(f"{units:5} {rule:8} {seconds:7.2f} s  {steps[-1]:6,} merges  {seconds / base:.2f}x first", flush=True)
    corpus = Corpus.from_text(text, Settings(merges=args.merges))
    start = time.process_time()
    parted = where_rules_part(corpus)
    print(f"where the rules part (chars): {time.process_time() - start:.2f} s for {len(parted)} pairs of rules; "
          f"first steps: {sorted(p.step or 0 for p in parted.values())}")


if __name__ == "__main__":
    main()
