"""The readers' fuzz run, longer than CI's: mutated files of every format through the CLI
in-process (and the API where they load), counting what loaded, what was refused with one line,
and every failure.

Run by hand: ``.venv/bin/python bench/fuzz_readers.py [COUNT_PER_FORMAT] [SEED] [FORMAT ...]``
(default 2,000 per format, 24,000 in all). Exit status 1 when any file failed; the first failures
are printed with the seed and the mutation's number, so they can be made again. A file that takes
longer than ``LIMIT`` seconds counts as a hang, a failure like any other; the slowest file of each
format is printed with its time.
"""

from __future__ import annotations

import random
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


# the most one file may take (the slowest well-formed use takes under a second)
LIMIT = 20.0


class Hang(BaseException):
    """Raised into a check that ran past LIMIT; a BaseException, so no reader's handler takes it."""


def _on_alarm(signum, frame):
    raise Hang(f"still running after {LIMIT:.0f} s")


def main() -> int:
    from tests.engine.formats.mutations import FORMATS, Mutator, check, make_seeds

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed = sys.argv[2] if len(sys.argv) > 2 else "bench"
    kinds = sys.argv[3:] or sorted(FORMATS)
    signal.signal(signal.SIGALRM, _on_alarm)
    root = Path(tempfile.mkdtemp(prefix="bpe-lab-fuzz-"))
    seeds = make_seeds(root / "seeds")
    totals = {"ok": 0, "refused": 0, "failed": 0}
    start = time.perf_counter()
    for kind in kinds:
        rng = random.Random(f"{seed}-{kind}")
        mutator = Mutator(seeds[kind], root / kind)
        counts = {"ok": 0, "refused": 0, "failed": 0}
        began = time.perf_counter()
        slowest = (0.0, -1)
        for n in range(count):
            path = mutator.next(rng)
            one = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, LIMIT)
            try:
                outcome, problem = check(kind, path)
            except (Exception, Hang) as exc:  # noqa: BLE001 (counting every escape is the point)
                # where it was raised, the last frames first to read
                outcome, problem = "failed", "".join(traceback.format_exception(exc)[-6:]).strip()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            slowest = max(slowest, (time.perf_counter() - one, n))
            if problem is not None:
                outcome = "failed"
                if counts["failed"] < 3:
                    print(f"  FAILED {kind} #{n} (seed {seed!r}): {problem[-1500:]}", flush=True)
            counts[outcome] += 1
        for key in totals:
            totals[key] += counts[key]
        print(f"{kind:14} {count:6,} files in {time.perf_counter() - began:6.1f} s: {counts['ok']:5,} loaded, "
              f"{counts['refused']:5,} refused with one line, {counts['failed']} failed; "
              f"slowest #{slowest[1]} {slowest[0]:.2f} s", flush=True)
    total = sum(totals.values())
    print(f"all formats   {total:6,} files in {time.perf_counter() - start:6.1f} s: {totals['ok']:,} loaded, "
          f"{totals['refused']:,} refused with one line, {totals['failed']} failed")
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
