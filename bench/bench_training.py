"""Training time, CPU and peak memory of BPE Lab's CLI against the trainers a practitioner could pick
instead, each run's whole process tree measured by bench/tree.py.

    .venv/bin/python bench/bench_training.py [--jobs 0.5M-2k,5M-16k] [--repeat 3] [--before DIR]

Each job runs ``bpe-lab train`` and every peer installed that can train something like it, as fresh
processes interleaved round by round (each round in another order), and prints for each job and tool
the median wall time, CPU time (every process and thread of the tree, workers a forkserver reaped
included) and peak memory of the tree, with the ratios BPE Lab / tool: the median of each round's
ratio, below 1 means BPE Lab is faster or smaller. The peers:

- ``tokenizers`` (always; in its own process with RAYON_NUM_THREADS=1, and again on all threads);
- sentencepiece, youtokentome (char jobs), rustbpe, bpeasy (byte jobs), each when installed: the
  ``bench`` extra of pyproject.toml. A line under the table says what differs in each one's model.

Every output is read back for the merges each made. ``--before DIR`` also runs the CLI of another
checkout (say main's, from ``git archive``) in the same rounds, for a before/after table in one run;
the two must write the same tokenizer file.

The corpora are real text found on this machine (Python sources, licence and copyright files, C
headers, Perl modules), each file once (duplicates by content are skipped), cut to 0.5, 5, 10, 50 and
100 MB and kept in --cache. The machine's load average is printed before and after: the figures
are only comparable within one run.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.tree import Measured, measure  # noqa: E402

MB = 1_000_000
TEXT = (".py", ".txt", ".rst", ".h")
# folders in the order they are read, with the files taken from each; licence files are all taken
SOURCES = (("/usr/share/common-licenses", TEXT), ("/usr/lib/python3.11", TEXT), ("/usr/lib/python3", TEXT),
           ("/usr/share/doc", TEXT), ("/usr/include", TEXT), ("/usr/share/perl", (".pm", ".pl", ".pod")))
# name -> (corpus size in MB, merges or None for "until no pair repeats", units); chars jobs cut words at
# whitespace and end each with </w>, bytes jobs cut them with GPT-2's pattern
JOBS = {
    "0.5M-2k": (0.5, 2_000, "chars"),
    "0.5M-16k": (0.5, 16_000, "chars"),
    "5M-16k": (5, 16_000, "chars"),
    "bytes-5M-8k": (5, 8_000, "bytes"),
    "10M-50k": (10, 50_000, "chars"),
    "50M-50k": (50, 50_000, "chars"),
    "100M-end": (100, None, "chars"),
}
DEFAULT_JOBS = "0.5M-2k,5M-16k,bytes-5M-8k,50M-50k"
# engine/algorithm/pretokenize.py's GPT2_PATTERN, written out: a peer must not lean on the engine
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


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
    """Each trainer's starting vocabulary on this corpus, so that each is asked for the same number of
    merges. tokenizers, chars with a suffix: each character, and each word-final character once more
    with the suffix. sentencepiece: each character but the space and the line end, its word-start
    mark and 3 control tokens. youtokentome: each character but ASCII whitespace, its word-start mark
    and 4 special tokens."""
    text = path.read_text("utf-8")
    words = set(text.split())
    return {"chars": len(set().union(*words)) + len({w[-1] for w in words}), "bytes": 256,
            "sentencepiece": len(set(text) - {" ", "\n"}) + 1 + 3,
            "youtokentome": len(set(text) - set(" \t\n\r\f\v")) + 1 + 4}


def corpus(size: float, cache: Path) -> tuple[Path, dict]:
    path = cache / f"corpus-{size:g}MB.txt"
    meta = cache / f"corpus-{size:g}MB.bases.json"
    if not path.exists():
        # in a child: the bench's own memory must stay small, Linux carries it into every child's peak
        run([sys.executable, __file__, "--build", str(size), str(path)])
    if not meta.exists():
        run([sys.executable, __file__, "--base", str(path), str(meta)])
    return path, json.loads(meta.read_text())


def run(cmd: list[str], env: dict | None = None, cwd: Path | None = None, method: str = "auto") -> Measured:
    done = measure(cmd, env=env, cwd=cwd, method=method)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr[-3000:]}")
    return done


# --- the peers, each run in its own process as `bench_training.py --peer NAME ...` ---------------

def lines(path: str):
    """The corpus a line at a time, line ends kept, as tokenizers reads a file."""
    with open(path, encoding="utf-8", newline="") as f:
        yield from f


def made(out: str, merges: int) -> None:
    Path(out).write_text(json.dumps({"made": merges}))


def tokenizers_job(path: str, units: str, vocab_size: str, out: str) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    # "until no pair repeats": a vocabulary no corpus of these reaches (tokenizers aborts when asked
    # for a billion: it sets room aside for the whole vocabulary)
    n = int(vocab_size) if vocab_size != "end" else 2_000_000
    if units == "bytes":
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)  # GPT-2's pattern
        trainer = trainers.BpeTrainer(vocab_size=n, min_frequency=2, show_progress=False,
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    else:
        tok = Tokenizer(models.BPE(end_of_word_suffix="</w>"))
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        trainer = trainers.BpeTrainer(vocab_size=n, min_frequency=2, show_progress=False,
                                      end_of_word_suffix="</w>")
    tok.train([path], trainer)
    tok.save(out)


def sentencepiece_job(path: str, units: str, vocab_size: str, out: str) -> None:
    import sentencepiece as spm

    spm.SentencePieceTrainer.train(
        input=path, model_prefix=out, model_type="bpe", vocab_size=int(vocab_size), split_by_whitespace=True,
        max_sentencepiece_length=64, character_coverage=1.0, normalization_rule_name="identity",
        # every line of the corpus kept (longer ones are dropped), on every core
        max_sentence_length=1 << 24, num_threads=os.cpu_count() or 1, minloglevel=2)
    model = spm.SentencePieceProcessor(model_file=out + ".model")
    made(out, sum(1 for i in range(model.get_piece_size())
                  if len(model.id_to_piece(i)) > 1 and not (model.is_control(i) or model.is_unknown(i))))


def youtokentome_job(path: str, units: str, vocab_size: str, out: str) -> None:
    import youtokentome as yttm

    yttm.BPE.train(data=path, model=out + ".model", vocab_size=int(vocab_size), coverage=1.0, n_threads=-1)
    specials = {"<PAD>", "<UNK>", "<BOS>", "<EOS>"}
    made(out, sum(1 for t in yttm.BPE(model=out + ".model").vocab() if len(t) > 1 and t not in specials))


def rustbpe_job(path: str, units: str, vocab_size: str, out: str) -> None:
    import rustbpe

    tok = rustbpe.Tokenizer()
    tok.train_from_iterator(lines(path), int(vocab_size), pattern=GPT2_PATTERN)
    made(out, len(tok.get_mergeable_ranks()) - 256)


def bpeasy_job(path: str, units: str, vocab_size: str, out: str) -> None:
    import bpeasy

    # a piece of any length: BPE Lab sets no limit
    vocab = bpeasy.train_bpe(lines(path), GPT2_PATTERN, 1 << 20, int(vocab_size))
    made(out, sum(1 for token in vocab if len(token) > 1))


@dataclass(frozen=True)
class Peer:
    name: str
    job: Callable[[str, str, str, str], None]
    module: str
    units: tuple[str, ...]
    note: str
    env: tuple[tuple[str, str], ...] = ()
    missing: str = "not installed (the bench extra)"

    def base(self, units: str) -> str:
        return self.module if self.module in ("sentencepiece", "youtokentome") else units


SAME = "the same model: words cut at whitespace and ended with </w> (chars), GPT-2's pattern (bytes); min frequency 2"
PEERS = {
    "tokenizers-1": Peer("tokenizers ×1", tokenizers_job, "tokenizers", ("chars", "bytes"),
                         SAME + "; one thread (RAYON_NUM_THREADS=1)", (("RAYON_NUM_THREADS", "1"),)),
    "tokenizers": Peer("tokenizers", tokenizers_job, "tokenizers", ("chars", "bytes"), SAME + "; every core"),
    "sentencepiece": Peer("sentencepiece", sentencepiece_job, "sentencepiece", ("chars",),
                          "BPE over whitespace cuts with ▁ at a word's start (not </w> at its end), pieces ≤ 64 "
                          "characters, no normalisation but runs of spaces made one, each line a sentence; every "
                          "core"),
    "youtokentome": Peer("youtokentome", youtokentome_job, "youtokentome", ("chars",),
                         "▁ at a word's start (not </w> at its end), words cut at any ASCII whitespace, every "
                         "character kept; every core",
                         missing="not installed: PyPI has no wheel of it for CPython 3.11, only a source archive "
                                 "whose setup needs Cython already installed"),
    "rustbpe": Peer("rustbpe", rustbpe_job, "rustbpe", ("bytes",),
                    "bytes, GPT-2's pattern given, fed line by line (a run of spaces never spans a line end); "
                    "counts on every core"),
    "bpeasy": Peer("bpeasy", bpeasy_job, "bpeasy", ("bytes",),
                   "bytes, GPT-2's pattern given, fed line by line; pieces of any length"),
}


# --- the rounds ------------------------------------------------------------------------------------

def merges_in(path: Path) -> int:
    data = json.loads(path.read_text("utf-8"))
    if "made" in data:
        return data["made"]
    return len(data["model"]["merges"] if "model" in data else data["merges"])


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


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


@dataclass
class Contender:
    name: str
    cmd: list[str]
    env: dict
    cwd: Path | None
    out: Path
    runs: list[Measured] = field(default_factory=list)


def contenders(job: str, path: Path, base: dict, tmp: Path, cache: Path, before: Path | None) -> list[Contender]:
    _, merges, units = JOBS[job]
    env = checkout_env(ROOT, cache)
    ours = [sys.executable, "-m", "app", "train", str(path), "--out", str(tmp / "ours.json"), "--units", units]
    if units == "bytes":
        ours += ["--split", "gpt2"]
    if merges is not None:
        ours += ["--merges", str(merges)]
    found = [Contender("BPE Lab", ours, env, ROOT, tmp / "ours.json")]
    if before is not None:
        cmd = [str(tmp / "before.json") if x == str(tmp / "ours.json") else x for x in ours]
        found.append(Contender("BPE Lab before", cmd, checkout_env(before, cache), before, tmp / "before.json"))
    for key, peer in PEERS.items():
        # only tokenizers can be asked to go on until no pair repeats
        if units not in peer.units or not installed(peer.module) or (merges is None and peer.module != "tokenizers"):
            continue
        vocab = "end" if merges is None else str(base[peer.base(units)] + merges)
        out = tmp / f"{key}.json"
        cmd = [sys.executable, __file__, "--peer", key, str(path), units, vocab, str(out)]
        found.append(Contender(peer.name, cmd, {**env, **dict(peer.env)}, None, out))
    return found


def order(items: list, i: int) -> list:
    """Round i's order: turned by one place every two rounds, backwards every other round, so that no
    contender always runs first or always right after another (a process that follows tokenizers'
    threads runs measurably quicker on this kind of host)."""
    k = (i // 2) % len(items)
    turned = items[k:] + items[:k]
    return turned[::-1] if i % 2 else turned


def bench(job: str, cache: Path, repeat: int, before: Path | None = None, method: str = "auto") -> list[dict]:
    size, merges, units = JOBS[job]
    path, base = corpus(size, cache)
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        found = contenders(job, path, base, tmp, cache, before)
        for i in range(repeat):
            for c in order(found, i):
                c.runs.append(run(c.cmd, c.env, c.cwd, method))
        if before is not None and found[0].out.read_bytes() != found[1].out.read_bytes():
            raise SystemExit(f"{job}: the checkout in {before} wrote another tokenizer file")
        made = [merges_in(c.out) for c in found]
    ours = found[0].runs
    rows = []
    for c, n in zip(found, made):
        row = {"job": job, "tool": c.name, "merges": n, "method": c.runs[0].method}
        for key, of in (("wall", lambda m: m.wall_s), ("cpu", lambda m: m.cpu_s), ("peak", lambda m: m.peak_bytes)):
            row[key] = statistics.median(of(m) for m in c.runs)
            # paired: each round's BPE Lab run over the same round's run of this tool
            row[key + "_ratio"] = statistics.median(of(a) / of(b) for a, b in zip(ours, c.runs))
        rows.append(row)
    return rows


def main() -> None:
    if sys.argv[1:2] == ["--build"]:
        return build_corpus(float(sys.argv[2]), Path(sys.argv[3]))
    if sys.argv[1:2] == ["--base"]:
        return Path(sys.argv[3]).write_text(json.dumps(base_sizes(Path(sys.argv[2]))))
    if sys.argv[1:2] == ["--peer"]:
        return PEERS[sys.argv[2]].job(*sys.argv[3:7])
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", default=DEFAULT_JOBS, help=f"comma-separated, from {', '.join(JOBS)}")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", type=Path, metavar="DIR",
                        help="also run the CLI of the checkout in DIR (say main's), interleaved, for before/after")
    parser.add_argument("--method", choices=("auto", "cgroup", "psutil"), default="auto",
                        help="how bench/tree.py follows each run's processes (auto: a cgroup where one can be made)")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "bpe-lab-bench-corpora"))
    args = parser.parse_args()
    cache = Path(args.cache)
    cache.mkdir(exist_ok=True)
    print(f"load average before: {load()}; {os.cpu_count()} cores; median of {args.repeat} interleaved rounds")
    print("ratio = BPE Lab / tool, the median of each round's ratio (below 1: BPE Lab is faster or smaller)")
    print(f"{'job':<12} {'tool':<15} {'wall s':>8} {'CPU s':>8} {'peak MB':>8} {'wall':>6} {'CPU':>6} {'peak':>6}"
          f" {'merges':>7}")
    method = ""
    for job in args.jobs.split(","):
        for r in bench(job, cache, args.repeat, args.before, args.method):
            method = r["method"]
            print(f"{r['job']:<12} {r['tool']:<15} {r['wall']:>8.2f} {r['cpu']:>8.2f} {r['peak'] / 2**20:>8.0f}"
                  f" {r['wall_ratio']:>6.2f} {r['cpu_ratio']:>6.2f} {r['peak_ratio']:>6.2f} {r['merges']:>7}",
                  flush=True)
    print(f"load average after: {load()}")
    print(f"measured by bench/tree.py, {method}")
    print("peak MB = MiB of the whole tree (in a cgroup its anonymous memory: the resident set less the library and"
          " other file pages mapped, which /usr/bin/time counts). What differs from BPE Lab's job in each peer's model:")
    for peer in PEERS.values():
        print(f"  {peer.name}: {peer.note if installed(peer.module) else peer.missing}")


if __name__ == "__main__":
    main()
