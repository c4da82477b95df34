"""How fast `tokenizers` encodes with BPE Lab's tokenizer.json, against a model it trained itself.

    python bench/bench_export_speed.py [--mb 1] [--rounds 9] [--merges 4000]

For each setting, BPE Lab trains on the first tenth of a mixed text (Python's documentation and
sources, the presets' languages; ``bench_encode.mixed_text``) and exports tokenizer.json as it does
now ("after") and with the normalizer it wrote before ("before": for the marker spelt as a space, a
Strip and one Replace whose regex has the text's end among its choices, which Oniguruma then tries
at every character; the other settings' pipelines are unchanged, so their before is their after).
`tokenizers` trains a model of the same job on the same text to the same vocabulary size
(``end_of_word_suffix`` for the marker, ``ByteLevel`` for bytes). Each file then encodes the whole
text, once as one string, once line by line in one ``encode_batch`` and once line by line with one
``encode`` call per line, on one thread.

Printed: the tokens each file gives (the vocabularies differ a little, so the trained model's count
differs), the least CPU time of each over the rounds, and per file the median of its time / the
trained model's time in the same round (line by line: on the same part of 3,000 lines, the files
taking turns part by part, so a change in the machine's load falls on all alike), with the least
times' ratio beside it. Before and after are checked to give
BPE Lab's ids first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["RAYON_NUM_THREADS"] = "1"  # before tokenizers loads: one thread, as encode_batch would not be

# lines a part of the line-by-line jobs
CHUNK = 3000
SETTINGS = {
    "chars, </w>": {},
    "chars, no marker": {"end_of_word": None},
    "bytes, gpt2 split": {"units": "bytes", "split": "gpt2"},
    "bytes, gpt4 split": {"units": "bytes", "split": "gpt4"},
}


def before_data(tokenizer: Any) -> dict[str, Any]:
    """tokenizer.json as BPE Lab wrote it before the gaps took a Replace step each."""
    from engine.formats import hf

    data = hf.tokenizer_json_data(tokenizer)
    if data["normalizer"] == hf._SPACED_NORMALIZER:
        data["normalizer"] = hf._EARLIER_SPACED_NORMALIZER
    return data


def library_trained(training: str, settings: dict[str, Any], vocab_size: int) -> Any:
    """`tokenizers`' own model of the same job."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

    from engine.formats.hf import SPLIT_PATTERNS

    if settings.get("units") == "bytes":
        model = Tokenizer(models.BPE())
        byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False)
        if settings["split"] == "gpt2":
            model.pre_tokenizer = byte_level
        else:
            model.pre_tokenizer = pre_tokenizers.Sequence([
                pre_tokenizers.Split(Regex(SPLIT_PATTERNS[settings["split"]]), "isolated"),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
        model.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=1, show_progress=False,
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    else:
        suffix = {"end_of_word_suffix": "</w>"} if settings.get("end_of_word", "auto") is not None else {}
        model = Tokenizer(models.BPE(unk_token="<unk>", **suffix))
        model.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=1, show_progress=False,
                                      special_tokens=["<unk>"], **suffix)
    model.train_from_iterator([training], trainer)
    return model


def least_round(spent: list[float], per_round: int) -> float:
    """The least time a round took, from the times of its ``per_round`` parts in a row."""
    return min(sum(spent[i:i + per_round]) for i in range(0, len(spent), per_round))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0, help="size of the mixed text in MB")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--merges", type=int, default=4000, help="merges BPE Lab learns")
    parser.add_argument("--only", choices=list(SETTINGS), help="one setting")
    args = parser.parse_args()

    from tokenizers import Tokenizer as Library

    from bench.bench_encode import mixed_text
    from engine import Corpus, Settings, train
    from engine.algorithm.tokenizer import Tokenizer
    from engine.formats.hf import tokenizer_json

    text = mixed_text(args.mb)
    training = text[: len(text) // 10]
    lines = text.splitlines(keepends=True)
    print(f"mixed text: {len(text.encode('utf-8')) / 1e6:.1f} MB, {len(lines):,} lines; "
          f"trained on its first {len(training):,} characters", flush=True)
    for label, settings in SETTINGS.items():
        if args.only and label != args.only:
            continue
        trainer, _ = train(Corpus.from_text(training, Settings(merges=args.merges, **settings)))
        ours = Tokenizer.from_trainer(trainer)
        files = {
            "before": Library.from_str(json.dumps(before_data(ours), ensure_ascii=False)),
            "after": Library.from_str(tokenizer_json(ours)),
            "trained": library_trained(training, settings, ours.get_vocab_size()),
        }
        checked = lines[:2000]
        expected = [ours.encode_ids(t) for t in checked]
        for name in ("before", "after"):
            assert [e.ids for e in files[name].encode_batch(checked)] == expected, f"{label}: {name} ids differ"
        counts = "   ".join(f"{name} {len(library.encode(text).ids):,}" for name, library in files.items())
        jobs = {"one string": lambda lib, _: lib.encode(text), "encode_batch": lambda lib, part: lib.encode_batch(part),
                "a call a line": lambda lib, part: [lib.encode(line) for line in part]}
        # line by line, the files take turns on each part of CHUNK lines, so that the pairs are many
        # and short and a change in the machine's load rarely falls between the two of a pair
        parts = [lines[i:i + CHUNK] for i in range(0, len(lines), CHUNK)]
        times: dict[tuple[str, str], list[float]] = {(j, f): [] for j in jobs for f in files}
        for _ in range(args.rounds):
            for job, run in jobs.items():
                for part in [lines] if job == "one string" else parts:
                    for name, library in files.items():
                        start = time.process_time()
                        run(library, part)
                        times[job, name].append(time.process_time() - start)
        print(f"{label} ({ours.get_vocab_size():,} tokens; tokens of the text: {counts}):", flush=True)
        for job in jobs:
            per_round = 1 if job == "one string" else len(parts)
            base = times[job, "trained"]
            trained_least = least_round(base, per_round)
            row = [f"trained {trained_least:.3f} s"]
            for name in ("before", "after"):
                paired = statistics.median(a / b for a, b in zip(times[job, name], base))
                own = least_round(times[job, name], per_round)
                row.append(f"{name} {own:.3f} s = {paired:.2f}x ({own / trained_least:.2f}x least)")
            print(f"  {job:13}  " + "   ".join(row), flush=True)


if __name__ == "__main__":
    main()
