"""Export and import times for each format, as ratios to the training they come from.

Run by hand: ``.venv/bin/python bench/bench_formats.py [MERGES]``. Trains on Python's own source
(a few standard modules, about 400,000 characters), then writes and reads every format, each
export including its check in the target library.
"""

from __future__ import annotations

import inspect
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    import argparse as _argparse
    import collections
    import email.message
    import http.client
    import json.decoder
    import typing

    from engine.corpus import Corpus
    from engine.formats.load import Source, export, load_any
    from engine.settings import Settings
    from engine.tokenizer import Tokenizer
    from engine.trainer import train

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
    main()
