"""Ranking pairs at a step, measured with no Qt; run by hand: python bench/bench_ranking.py

Trains the first ``--chars`` characters of the Python documentation text (shipped with Python)
under each tie rule, then at every 40th step times what the views ask of the lesson state: the
top 8 pairs (the pair bars, every step), the top 100, every pair, and the pairs tied with the
next merge (the tiles number them when a step names only the first few). Each is timed with the
state's words as lists and as numpy arrays (a large corpus), best of three in CPU time, and
printed in ms per call. Figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.lesson.lesson import Lesson, LessonState  # noqa: E402
from engine.algorithm.ranking import TIE_BREAKS  # noqa: E402
from engine.algorithm.settings import Settings  # noqa: E402


def docs_text(chars: int) -> str:
    from pydoc_data.topics import topics

    return "\n".join(topics[n] for n in sorted(topics))[:chars]


def best_ms(call) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=400_000)
    parser.add_argument("--merges", type=int, default=2_000)
    args = parser.parse_args()
    text = docs_text(args.chars)
    for rule in TIE_BREAKS:
        lesson = Lesson(text, settings=Settings(merges=args.merges, tie_break=rule)).train()
        steps = range(0, lesson.last_step, 40)
        for layout, limits in (("lists", {"LARGE_CORPUS": 10 ** 12}), ("arrays", {"LARGE_CORPUS": 0})):
            with mock.patch.multiple("engine.lesson.lesson", **limits):
                state = LessonState(lesson)
            asks = {"top 8": lambda s=state: s.ranked_pairs(8), "top 100": lambda s=state: s.ranked_pairs(100),
                    "all": lambda s=state: s.ranked_pairs(), "ties": lambda s=state: s.tied_pairs(s.next_step().count)}
            totals = dict.fromkeys(asks, 0.0)
            for k in steps:
                state.go_to(k)
                for name, ask in asks.items():
                    totals[name] += best_ms(ask)
            figures = "  ".join(f"{name} {total / len(steps):.3f}" for name, total in totals.items())
            print(f"{rule:6} {layout:7} ms per call: {figures}", flush=True)


if __name__ == "__main__":
    main()
