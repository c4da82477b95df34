"""Training time and peak memory, BPE Lab's CLI against Hugging Face ``tokenizers``, whole process.

    .venv/bin/python bench/bench_training.py [--jobs 0.5M-16k,5M-16k] [--repeat 3] [--one-thread] [--before DIR]

Each job runs ``bpe-lab train`` and a small ``tokenizers`` script (BpeTrainer, WhitespaceSplit,
``</w>`` suffix, vocabulary = base + N, min frequency 2; byte-level: ByteLevel alphabet, no suffix)
as fresh processes under ``/usr/bin/time``, interleaved pair by pair, and prints the median wall
time, the peak resident memory and the CPU time (every thread's) of each, and their ratios (issue 17's targets: wall <= 1.5x at 0.5 MB
and 5 MB, <= 1.3x byte-level and at 50 MB; memory <= 1.5x). Both output files are read back to
check that the two made the same number of merges. ``--before DIR`` also runs the CLI of another
checkout (say main's, from ``git archive``) in the same rounds, for a before/after table in one run.

The corpora are real text found on this machine (Python sources, licence and copyright files, C
headers, Perl modules), each file once (duplicates by content are skipped), cut to 0.5, 5, 10, 50 and
100 MB and kept in --cache. The machine's load average is printed before and after: the figures
are only comparable within one run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from itertools import permutations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MB = 1_000_000
TEXT = (".py", ".txt", ".rst", ".h")
# folders in the order they are read, with the files taken from each; licence files are all taken
SOURCES = (("/usr/share/common-licenses", TEXT), ("/usr/lib/python3.11", TEXT), ("/usr/lib/python3", TEXT),
           ("/usr/share/doc", TEXT), ("/usr/include", TEXT), ("/usr/share/perl", (".pm", ".pl", ".pod")))
# name -> (corpus size in MB, merges or None for "until no pair repeats", units)
JOBS = {
    "0.5M-2k": (0.5, 2_000, "chars"),
    "0.5M-16k": (0.5, 16_000, "chars"),
    "5M-16k": (5, 16_000, "chars"),
    "bytes-5M-8k": (5, 8_000, "bytes"),
    "10M-50k": (10, 50_000, "chars"),
    "50M-50k": (50, 50_000, "chars"),
    "100M-end": (100, None, "chars"),
}
DEFAULT_JOBS = "0.5M-2k,0.5M-16k,5M-16k,bytes-5M-8k,50M-50k"


def text_files():
    """Every candidate file under the sources, in a fixed order."""
    for root, suffixes in SOURCES:
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                if os.path.islink(path) or not os.path.isfile(path):
                    continue
                if name.endswith(suffixes) or name == "copyright" or root.endswith("common-licenses"):
                    yield path


def build_corpus(size: float, out: Path) -> None:
    """At least ``size`` MB of distinct UTF-8 text files, concatenated, cut at a line end."""
    want = int(size * MB)
    seen: set[bytes] = set()
    parts, total = [], 0
    for path in text_files():
        data = Path(path).read_bytes()
        digest = hashlib.sha1(data).digest()
        if not data.strip() or digest in seen:
            continue
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        seen.add(digest)
        parts.append(data if data.endswith(b"\n") else data + b"\n")
        total += len(parts[-1])
        if total >= want:
            break
    if total < want:
        raise SystemExit(f"only {total / MB:.1f} MB of distinct text found for a {size} MB corpus")
    data = b"".join(parts)
    cut = data.rfind(b"\n", 0, want) + 1
    out.write_bytes(data[:cut])


def base_sizes(path: Path) -> dict:
    """tokenizers' starting vocabulary for chars with a suffix: each character, and each word-final
    character once more with the suffix."""
    words = set(path.read_text("utf-8").split())
    return {"chars": len(set().union(*words)) + len({w[-1] for w in words}), "bytes": 256}


def corpus(size: float, cache: Path) -> tuple[Path, dict]:
    path = cache / f"corpus-{size:g}MB.txt"
    meta = cache / f"corpus-{size:g}MB.json"
    if not path.exists():
        # in a child: the bench's own memory must stay small, Linux carries it into every child's peak
        run([sys.executable, __file__, "--build", str(size), str(path)])
    if not meta.exists():
        run([sys.executable, __file__, "--base", str(path), str(meta)])
    return path, json.loads(meta.read_text())


def run(cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr[-3000:]}")
    return done.stderr


def timed(cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> tuple[float, float, float]:
    """Wall seconds, peak resident MB and CPU seconds (user + system, every thread) of one process,
    as /usr/bin/time measures them."""
    err = run(["/usr/bin/time", "-f", "@@ %e %M %U %S", *cmd], env=env, cwd=cwd)
    line = [x for x in err.splitlines() if x.startswith("@@ ")][-1]
    wall, kb, user, system = line.split()[1:]
    return float(wall), int(kb) / 1024, float(user) + float(system)


def tokenizers_job(path: str, merges: str, units: str, vocab_size: str, out: str) -> None:
    """The reference job, run in its own process."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    n = None if merges == "end" else int(vocab_size)
    # "until no pair repeats": a vocabulary no corpus of these reaches (tokenizers aborts when asked
    # for a billion: it sets room aside for the whole vocabulary)
    big = 2_000_000
    if units == "bytes":
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.Sequence(
            [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
        trainer = trainers.BpeTrainer(vocab_size=n or big, min_frequency=2, show_progress=False,
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    else:
        tok = Tokenizer(models.BPE(end_of_word_suffix="</w>"))
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        trainer = trainers.BpeTrainer(vocab_size=n or big, min_frequency=2, show_progress=False,
                                      end_of_word_suffix="</w>")
    tok.train([path], trainer)
    tok.save(out)


def merges_in(path: Path) -> int:
    data = json.loads(path.read_text("utf-8"))
    return len(data["model"]["merges"] if "model" in data else data["merges"])


def commands(job: str, path: Path, base: dict, tmp: Path) -> tuple[list[str], list[str]]:
    _, merges, units = JOBS[job]
    ours = [sys.executable, "-m", "app", "train", str(path), "--out", str(tmp / "ours.json"), "--units", units]
    if merges is not None:
        ours += ["--merges", str(merges)]
    vocab = base[units] + (merges or 0)
    theirs = [sys.executable, __file__, "--tokenizers", str(path), str(merges or "end"), units, str(vocab),
              str(tmp / "theirs.json")]
    return ours, theirs


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def checkout_env(root: Path, cache: Path) -> dict:
    """The environment that runs ``root``'s CLI: its modules first (python -m also puts the working
    folder first, so the CLI runs in ``root`` too)."""
    # bytecode cached as an installed copy has it, whatever PYTHONDONTWRITEBYTECODE says: compiling
    # the modules afresh in every run would be timed as start-up
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONPYCACHEPREFIX": str(cache / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def bench(job: str, cache: Path, repeat: int, one_thread: bool, before: Path | None = None) -> dict:
    size, merges, units = JOBS[job]
    path, base = corpus(size, cache)
    env = checkout_env(ROOT, cache)
    hf_env = {**env, "RAYON_NUM_THREADS": "1"} if one_thread else env
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        ours_cmd, theirs_cmd = commands(job, path, base, tmp)
        ours, theirs, earlier = [], [], []
        runs = [(ours, ours_cmd, env, ROOT), (theirs, theirs_cmd, hf_env, None)]
        if before is not None:
            out = str(tmp / "ours.json")
            before_cmd = [str(tmp / "before.json") if x == out else x for x in ours_cmd]
            runs.append((earlier, before_cmd, checkout_env(before, cache), before))
        # interleaved, every order in turn: none always runs first, or always right after another
        # (a process that follows tokenizers' threads runs measurably quicker on this kind of host)
        orders = list(permutations(runs))
        for i in range(repeat):
            for found, cmd, e, cwd in orders[i % len(orders)]:
                found.append(timed(cmd, e, cwd))
        made = (merges_in(tmp / "ours.json"), merges_in(tmp / "theirs.json"))
        if before is not None and (tmp / "ours.json").read_bytes() != (tmp / "before.json").read_bytes():
            raise SystemExit(f"{job}: the checkout in {before} wrote another tokenizer file")
    result = {"job": job, "merges": made}
    for name, found in (("ours", ours), ("theirs", theirs), ("before", earlier)):
        if found:
            result[name] = (statistics.median(r[0] for r in found), max(r[1] for r in found),
                            statistics.median(r[2] for r in found))
    return result


def main() -> None:
    if sys.argv[1:2] == ["--build"]:
        return build_corpus(float(sys.argv[2]), Path(sys.argv[3]))
    if sys.argv[1:2] == ["--base"]:
        return Path(sys.argv[3]).write_text(json.dumps(base_sizes(Path(sys.argv[2]))))
    if sys.argv[1:2] == ["--tokenizers"]:
        return tokenizers_job(*sys.argv[2:7])
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", default=DEFAULT_JOBS, help=f"comma-separated, from {', '.join(JOBS)}")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--one-thread", action="store_true", help="hold tokenizers to one thread")
    parser.add_argument("--before", type=Path, metavar="DIR",
                        help="also run the CLI of the checkout in DIR (say main's), interleaved, for before/after")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "bpe-lab-bench-corpora"))
    args = parser.parse_args()
    cache = Path(args.cache)
    cache.mkdir(exist_ok=True)
    threads = "1 thread" if args.one_thread else f"all {os.cpu_count()} cores"
    print(f"load average before: {load()}; tokenizers on {threads}; median of {args.repeat}, peak = max")
    print(f"{'job':<16} {'BPE Lab':>9} {'tokenizers':>10} {'ratio':>6} {'peak MB':>9} {'tokenizers':>10} {'ratio':>6}"
          f" {'CPU s':>8} {'tokenizers':>10} {'ratio':>6}  merges")
    for job in args.jobs.split(","):
        r = bench(job, cache, args.repeat, args.one_thread, args.before)
        (w1, m1, c1) = r["theirs"]
        rows = [(job, r["ours"])] + ([(f"{job} before", r["before"])] if args.before else [])
        for name, (w0, m0, c0) in rows:
            print(f"{name:<16} {w0:>8.2f}s {w1:>9.2f}s {w0 / w1:>6.2f} {m0:>9.0f} {m1:>10.0f} {m0 / m1:>6.2f}"
                  f" {c0:>8.2f} {c1:>10.2f} {c0 / c1:>6.2f}  {r['merges'][0]} / {r['merges'][1]}", flush=True)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
