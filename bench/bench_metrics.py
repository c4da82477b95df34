"""The measures of a vocabulary after every step of a long run; run by hand: python bench/bench_metrics.py

4 MB of real text (the system's licence files, then Python's standard library sources, as
bench_steps.py reads them) is trained to 100,000 merges (min frequency 1, so the run reaches that
many), then timed: the corpus's curve from the history index, a held-out text's curve (the
Python documentation preset's held-out topics, words counted once, traced once), and, for scale, measuring the
held-out text afresh at one step, which is what each step would cost if the curve re-encoded.
Goal: the full curve of a 100,000-merge run under 2 s. Per step, the curve's sweep changes three
counts; the figure printed is the sweep's time divided by the steps, and stepping reads a finished
curve (``curve.at(k)``), whose cost is printed too. ``--cache FILE`` keeps the
trained run (pickled) for the next run. Figures depend on the machine and its load; the script
prints them, it does not judge them.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.algorithm.corpus import Corpus  # noqa: E402
from engine.algorithm.settings import Settings  # noqa: E402
from engine.algorithm.tokenizer import Tokenizer  # noqa: E402
from engine.algorithm.trainer import train  # noqa: E402
from engine.lesson.history import History  # noqa: E402
from engine.readable import metrics_run  # noqa: E402
from engine.readable.metrics import measure  # noqa: E402
from engine.readable.metrics_run import corpus_metrics_curve, text_metrics_curve  # noqa: E402
from resources.presets import python_docs_text  # noqa: E402


def trained(merges: int, size: int, cache: str | None):
    if cache and os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    from bench.bench_window import real_text

    text, held_out = real_text(size), python_docs_text()[1]
    corpus = Corpus.from_text(text, Settings(merges=merges, min_frequency=1))
    start = time.perf_counter()
    trainer, steps = train(corpus)
    print(f"trained {len(steps):,} merges on {len(text):,} characters in {time.perf_counter() - start:.1f} s")
    found = (corpus, steps, Tokenizer.from_trainer(trainer), held_out)
    if cache:
        with open(cache, "wb") as f:
            pickle.dump(found, f)
    return found


def timed(what, *args, **kwargs):
    start = time.perf_counter()
    result = what(*args, **kwargs)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--merges", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=4_000_000, help="characters of training text")
    parser.add_argument("--cache")
    args = parser.parse_args()
    corpus, steps, tokenizer, held_out = trained(args.merges, args.size, args.cache)
    history, index_time = timed(History, corpus, steps)
    n = len(steps)
    print(f"{n:,} steps, {len(corpus):,} distinct words, held-out text {len(held_out):,} characters")
    print(f"history index (built once for every view): {index_time:.2f} s")
    corpus_curve, corpus_time = timed(corpus_metrics_curve, history)
    print(f"corpus curve, all {n + 1:,} steps: {corpus_time:.2f} s")
    text_curve, text_time = timed(text_metrics_curve, tokenizer, held_out)
    print(f"held-out curve, all {n + 1:,} steps: {text_time:.2f} s  (total with the corpus's: "
          f"{corpus_time + text_time:.2f} s; goal 2 s)")
    sweep_time = min(timed(metrics_run._sweep, *sweep_args(history))[1] for _ in range(3))
    print(f"the sweep alone: {sweep_time:.3f} s, {sweep_time / n * 1e6:.2f} µs a step")
    _, reads = timed(lambda: [text_curve.at(k) for k in range(0, n + 1, 100)])
    print(f"reading one step's measures from the curve (what a step in the window costs): "
          f"{reads / (n // 100 + 1) * 1e6:.1f} µs")
    _, fresh = timed(measure, tokenizer.truncated(n // 2), held_out)
    print(f"measuring the held-out text afresh at one step: {fresh * 1000:.0f} ms "
          f"(x {n:,} steps = {fresh * n / 60:.0f} min; the curve is {fresh * n / text_time:,.0f} times faster)")
    last = corpus_curve.at(n)
    print(f"at the last step: corpus {last.characters_per_token:.2f} characters per token, Rényi "
          f"{last.renyi_efficiency:.3f}; held-out {text_curve.at(n).characters_per_token:.2f}, "
          f"{text_curve.at(n).unknown} unknown")


def sweep_args(history: History):
    """The corpus curve's sweep inputs, so the sweep's own cost per step can be timed apart."""
    corpus = history.corpus
    from collections import Counter

    start: Counter = Counter()
    for w, count in enumerate(corpus.counts):
        for symbol in corpus.symbols(w):
            start[symbol] += count
    totals = history.totals()
    removed = [totals[k - 1] - totals[k] for k in range(1, len(totals))]
    run = metrics_run._Run(start, [s.pair for s in history.steps], removed, None, None)
    return run, history.vocab_sizes(), 0, 0, 0, 0, 2.5


if __name__ == "__main__":
    main()
