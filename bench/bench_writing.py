"""What a save's lock costs, and how long cleaning a folder takes.

Run by hand: ``.venv/bin/python bench/bench_writing.py [SAVES]``. Saves a 4 KB file again and again
into one folder with its temporary locked (as on Linux and macOS) and without a lock (as where
flock is missing), interleaved so both meet the same disk; then cleans a folder that holds 1,000
files and 100 unlocked temporaries left by killed saves. Prints times per save and the ratio.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    from engine.files import writing

    saves = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    folder = Path(tempfile.mkdtemp())
    data = b"x" * 4096
    real = writing.fcntl
    times: dict[str, float] = {"locked": 0.0, "without a lock": 0.0}
    for i in range(saves):
        for label, module in (("locked", real), ("without a lock", None)) if i % 2 else (
                ("without a lock", None), ("locked", real)):
            writing.fcntl = module
            start = time.perf_counter()
            writing.write_atomic(folder / "lesson.bpelab", data)
            times[label] += time.perf_counter() - start
    writing.fcntl = real
    for label, total in times.items():
        print(f"save, {label}: {total / saves * 1000:.3f} ms")
    print(f"locked / without a lock: {times['locked'] / times['without a lock']:.2f}")

    crowded = Path(tempfile.mkdtemp())
    for i in range(1000):
        (crowded / f"file{i}.txt").write_bytes(b"x")
    for i in range(100):
        (crowded / f".file{i}.txt.abcd{i:04d}{writing.TEMP_SUFFIX}").write_bytes(data)
    start = time.perf_counter()
    removed = writing.clean_stale(crowded)
    took = time.perf_counter() - start
    start = time.perf_counter()
    writing.clean_stale(crowded)
    again = time.perf_counter() - start
    print(f"cleaning 1,100 entries: {len(removed)} temporaries removed in {took * 1000:.1f} ms; "
          f"nothing left to remove: {again * 1000:.1f} ms")
    for place in (folder, crowded):
        for p in place.iterdir():
            os.unlink(p)
        os.rmdir(place)


if __name__ == "__main__":
    main()
