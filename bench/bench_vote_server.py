"""What the class vote's server costs: bundle size, and the GUI thread's waits while a class votes.

Run by hand: ``.venv/bin/python bench/bench_vote_server.py [RUNS]``. Prints

- the installed size of aiohttp with everything it depends on (on this Python), and segno's, beside
  the PySide6-Addons wheel that Qt's own HTTP server (QtHttpServer) would need: the choice the vote
  made (a library on one background thread, not QtHttpServer in the Qt event loop);
- for each of RUNS runs (default 5) of 300 students voting in two rounds from another process
  (tests/app/vote_load.py, as in the load test): the GUI thread's longest and median gap between
  ticks of a 5 ms timer, over the voting only (and, on Linux, how much of the longest the thread
  spent waiting for a CPU: other programs' share), each round's time and the time stop() took.

Figures depend on the machine and on what else runs on it: the machine's load is printed too.
"""

from __future__ import annotations

import glob
import os
import statistics
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from packaging.requirements import Requirement  # noqa: E402

# where a downloaded PySide6-Addons wheel may already be
WHEEL_PLACES = ("/tmp/dl", str(Path(tempfile.gettempdir()) / "bpe-lab-bench-wheels"))


def closure(name: str) -> list[str]:
    """The distribution and every one it requires on this Python (no extras), each once."""
    seen: dict[str, None] = {}
    todo = [name]
    while todo:
        dist = metadata.distribution(todo.pop())
        key = dist.metadata["Name"].lower()
        if key in seen:
            continue
        seen[key] = None
        for text in dist.requires or ():
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return list(seen)


def installed_bytes(name: str) -> int:
    dist = metadata.distribution(name)
    return sum(os.path.getsize(p) for f in dist.files or () if (p := dist.locate_file(f)).is_file())


def addons_wheel() -> Path | None:
    """The PySide6-Addons wheel for the installed Qt binding, downloaded once if not found."""
    version = metadata.version("PySide6-Essentials")
    for place in WHEEL_PLACES:
        found = sorted(glob.glob(os.path.join(place, f"pyside6_addons-{version}-*.whl")))
        if found:
            return Path(found[0])
    target = WHEEL_PLACES[-1]
    os.makedirs(target, exist_ok=True)
    result = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                             "-d", target, f"PySide6-Addons=={version}"], capture_output=True, text=True)
    found = sorted(glob.glob(os.path.join(target, "pyside6_addons-*.whl")))
    if result.returncode != 0 or not found:
        print(f"  (could not download PySide6-Addons {version}: {result.stderr.strip()[-200:]})")
        return None
    return Path(found[0])


def mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def sizes() -> None:
    names = closure("aiohttp")
    each = {n: installed_bytes(n) for n in names}
    total = sum(each.values())
    print(f"aiohttp and what it needs, installed: {mb(total)} ("
          + ", ".join(f"{n} {mb(b)}" for n, b in sorted(each.items(), key=lambda kv: -kv[1])) + ")")
    segno = installed_bytes("segno")
    print(f"segno (QR codes), installed: {mb(segno)}")
    wheel = addons_wheel()
    if wheel is not None:
        size = wheel.stat().st_size
        print(f"PySide6-Addons wheel ({wheel.name}): {mb(size)}, {size / total:.0f}x aiohttp and its dependencies")


def gaps(runs: int) -> None:
    from PySide6.QtWidgets import QApplication

    from app.collector import collect_in_gui_thread
    from tests.app.vote_load import GapMeter, run_class, wait_until

    app = QApplication.instance() or QApplication([])
    collect_in_gui_thread()  # as the app runs: the cycle collector on the GUI thread
    idle = GapMeter()
    idle.start()
    wait_until(lambda: False, 3.0)
    idle.stop()
    print(f"no server, 3 s idle: GUI gap longest {max(idle.gaps) * 1e3:.1f} ms, median "
          f"{statistics.median(idle.gaps) * 1e3:.1f} ms (what the machine's other work alone costs)")
    longest, medians, own = [], [], []
    print(f"300 students, two rounds, {runs} runs (load average before: {os.getloadavg()[0]:.1f}):")
    for i in range(runs):
        run = run_class()
        if run.problems or not run.gaps:
            print(f"  run {i + 1}: problems: {run.problems[:3]}")
            continue
        longest.append(max(run.gaps))
        medians.append(statistics.median(run.gaps))
        p99 = sorted(run.gaps)[int(0.99 * (len(run.gaps) - 1))]
        worst = run.gaps.index(longest[-1])
        own.append(max(g - q for g, q in zip(run.gaps, run.queued)))
        print(f"  run {i + 1}: GUI gap longest {longest[-1] * 1e3:.1f} ms ({run.queued[worst] * 1e3:.1f} ms of it "
              f"waiting for a CPU; longest without that {own[-1] * 1e3:.1f} ms), 99th percentile {p99 * 1e3:.1f} ms, "
              f"median {medians[-1] * 1e3:.1f} ms (timer 5 ms); rounds {', '.join(f'{s:.2f} s' for s in run.seconds)}; "
              f"stop {run.stop_seconds * 1e3:.0f} ms; {run.notices} tally notices")
    if longest:
        print(f"longest gap: best run {min(longest) * 1e3:.1f} ms, median run {statistics.median(longest) * 1e3:.1f} ms, "
              f"worst run {max(longest) * 1e3:.1f} ms; without the waits for a CPU: best {min(own) * 1e3:.1f} ms, "
              f"worst {max(own) * 1e3:.1f} ms; median gap {statistics.median(medians) * 1e3:.1f} ms "
              f"(load average after: {os.getloadavg()[0]:.1f})")
    del app


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    sizes()
    gaps(runs)


if __name__ == "__main__":
    main()
