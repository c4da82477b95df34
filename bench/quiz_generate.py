"""How long the quiz takes to build a lesson question on a large corpus (run by hand).

    .venv/bin/python bench/quiz_generate.py [MEGABYTES]

Trains on Python's own library sources (shipped with every Python) and prints, per generator, the
time to ask one question at a few steps, next to the training time for scale.
"""

from __future__ import annotations

import sys
import sysconfig
import time
from pathlib import Path

from engine import Corpus, Settings, train
from engine.lesson.history import History
from engine.quiz.generated import GENERATORS, LiveLesson, generate


def corpus_text(megabytes: float) -> str:
    limit = int(megabytes * 1_000_000)
    parts, size = [], 0
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        parts.append(text)
        size += len(text)
        if size >= limit:
            break
    return "".join(parts)[:limit]


def main() -> None:
    megabytes = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    text = corpus_text(megabytes)
    start = time.perf_counter()
    corpus = Corpus.from_text(text, Settings(vocab_size=2000))
    _, steps = train(corpus)
    history = History(corpus, steps)
    trained = time.perf_counter() - start
    print(f"{len(text) / 1e6:.1f} MB, {len(corpus)} distinct words, {len(steps)} merges: trained in {trained:.2f} s")
    for k in (0, len(steps) // 2, len(steps) - 1):
        state = LiveLesson(history, k)
        for kind in GENERATORS:
            start = time.perf_counter()
            generate(state, kind)
            took = time.perf_counter() - start
            print(f"  step {k:>5} {kind:<11} {took:.3f} s  ({took / trained:.2%} of training)")


if __name__ == "__main__":
    main()
