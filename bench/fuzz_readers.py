"""The readers' fuzz run, longer than CI's: mutated files of every format through the CLI
in-process (and the API where they load), counting what loaded, what was refused with one line,
and every failure.

Run by hand: ``.venv/bin/python bench/fuzz_readers.py [COUNT_PER_FORMAT] [SEED]`` (default 3,000
per format, 24,000 in all). Exit status 1 when any file failed; the first failures are printed
with the seed and the mutation's number, so they can be made again.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    from tests.engine.formats.mutations import FORMATS, Mutator, check, make_seeds

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    seed = sys.argv[2] if len(sys.argv) > 2 else "bench"
    root = Path(tempfile.mkdtemp(prefix="bpe-lab-fuzz-"))
    seeds = make_seeds(root / "seeds")
    totals = {"ok": 0, "refused": 0, "failed": 0}
    start = time.perf_counter()
    for kind in sorted(FORMATS):
        rng = random.Random(f"{seed}-{kind}")
        mutator = Mutator(seeds[kind], root / kind)
        counts = {"ok": 0, "refused": 0, "failed": 0}
        began = time.perf_counter()
        for n in range(count):
            path = mutator.next(rng)
            try:
                outcome, problem = check(kind, path)
            except Exception as exc:  # noqa: BLE001 (counting every escape is the point)
                outcome, problem = "failed", "".join(traceback.format_exception_only(exc)).strip()
            if problem is not None:
                outcome = "failed"
                if counts["failed"] < 3:
                    print(f"  FAILED {kind} #{n} (seed {seed!r}): {problem[:300]}")
            counts[outcome] += 1
        for key in totals:
            totals[key] += counts[key]
        print(f"{kind:14} {count:6,} files in {time.perf_counter() - began:6.1f} s: {counts['ok']:5,} loaded, "
              f"{counts['refused']:5,} refused with one line, {counts['failed']} failed")
    total = sum(totals.values())
    print(f"all formats   {total:6,} files in {time.perf_counter() - start:6.1f} s: {totals['ok']:,} loaded, "
          f"{totals['refused']:,} refused with one line, {totals['failed']} failed")
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
