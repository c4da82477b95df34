"""Stepping through a big lesson, measured offscreen; run by hand: python bench/bench_steps.py

A 20 MB text (by default real text, nothing repeated: the system's licence files, then Python's
standard library sources; ``--docs`` repeats the Python documentation preset instead) is trained
with default settings, then these moves are timed, with the lesson state alone and with the
main window's views updating and painting: 20 single steps forward, 20 back, a jump to the end,
back to the start, and to the middle. Goals: a single step under 100 ms (median), a jump under
0.5 s or else off the GUI thread. Prints the wall time and the process's CPU time of each (on a
machine others load, the CPU time moves less), the longest the GUI thread went without turning
its event loop during a move, and the peak memory. ``--cache FILE`` keeps the trained lesson in
a file (pickled) for the next run: training 20 MB takes minutes.
Figures depend on the machine and on what else runs on it; the script prints them, it does not
judge them.
"""

from __future__ import annotations

import argparse
import os
import pickle
import resource
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SIZE = 20_000_000
STEPS = 20


def big_text(size: int, docs: bool) -> str:
    if docs:
        from resources.presets import python_docs_text

        text = python_docs_text()[0]
        return (text * (size // len(text) + 1))[:size]
    from bench.bench_window import real_text

    return real_text(size)


def trained_lesson(size: int, docs: bool, cache: str | None):
    """The trained lesson, read from ``cache`` when it holds one."""
    if cache and os.path.exists(cache):
        from engine.readable.tile_colours import colour_every_token

        with open(cache, "rb") as f:
            lesson = pickle.load(f)
        colour_every_token(lesson)  # what the training worker does before the window gets the lesson
        return lesson, 0.0
    from app.training_worker import build_lesson
    from engine.formats.lesson_file import LessonFile
    from engine.algorithm.settings import Settings

    started = time.perf_counter()
    lesson, _ = build_lesson(LessonFile(big_text(size, docs), False, Settings()))
    trained = time.perf_counter() - started
    if cache:
        sys.setrecursionlimit(100_000)
        with open(cache, "wb") as f:
            pickle.dump(lesson, f, protocol=pickle.HIGHEST_PROTOCOL)
    return lesson, trained


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def moves(last: int) -> list[tuple[str, list[int]]]:
    return [
        ("step forward", list(range(1, STEPS + 1))),
        ("step back", list(range(STEPS - 1, -1, -1))),
        ("jump to the end", [last]),
        ("jump to the start", [0]),
        ("jump to the middle", [last // 2]),
    ]


def report(name: str, walls: list[float], cpus: list[float], gaps: list[float] | None = None) -> None:
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    what = "median " if len(walls) > 1 else ""
    line = f"  {name:<20} {what}{wall:8.0f} ms wall, {cpu:6.0f} ms CPU"
    if len(walls) > 1:
        line += f"   (worst {max(walls):.0f} ms)"
    if gaps:
        line += f"   GUI thread's longest turn {max(gaps):.0f} ms"
    print(line, flush=True)


def bench_engine(lesson) -> None:
    from engine.lesson.lesson import LessonState

    started = time.perf_counter()
    state = LessonState(lesson)
    print(f"lesson state alone (built in {time.perf_counter() - started:.1f} s); each move with the "
          "top 100 pairs ranked:", flush=True)
    for name, targets in moves(lesson.last_step):
        walls, cpus = [], []
        for k in targets:
            wall, cpu = time.perf_counter(), time.process_time()
            state.go_to(k)
            state.ranked_pairs(100)
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
        report(name, walls, cpus)
    print(f"  peak memory so far {peak_mb():,.0f} MB", flush=True)


def bench_window(lesson) -> None:
    from PySide6.QtCore import QElapsedTimer, QTimer

    from app.main import make_application
    from app.window import MainWindow
    from engine.lesson.lesson import LessonState

    app = make_application()
    window = MainWindow(persist=False)
    window.resize(1600, 1000)
    window.show()
    list(window.views.values())  # the views built after the first paint, built now
    app.processEvents()
    started = time.perf_counter()
    window.session.set_lesson(lesson, 0, LessonState(lesson))
    app.processEvents()
    print(f"main window, every view (shown in {time.perf_counter() - started:.1f} s):", flush=True)
    tiles = window.views.get("Tiles")
    if hasattr(tiles, "motion_box"):
        tiles.motion_box.setChecked(True)  # the animation is the tile view's own budget
    session = window.session
    # the longest time between two turns of the event loop: what freezes the window
    clock, gaps, last = QElapsedTimer(), [], [0]
    clock.start()

    def tick():
        now = clock.elapsed()
        gaps.append(now - last[0])
        last[0] = now

    ticker = QTimer()
    ticker.setInterval(5)
    ticker.timeout.connect(tick)
    ticker.start()
    for name, targets in moves(lesson.last_step):
        walls, cpus, turns = [], [], []
        for k in targets:
            app.processEvents()
            gaps.clear()
            last[0] = clock.elapsed()
            wall, cpu = time.perf_counter(), time.process_time()
            session.request_step(k)
            # a move may finish in the background: done when the session stands at k and is idle
            while session.step != k or getattr(session, "moving", False):
                app.processEvents()
                time.sleep(0.001)
            app.processEvents()
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
            tick()
            turns.append(max(gaps))
        report(name, walls, cpus, turns)
    ticker.stop()
    print(f"  peak memory so far {peak_mb():,.0f} MB", flush=True)
    window.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=SIZE, help="characters of text")
    parser.add_argument("--docs", action="store_true", help="repeat the Python documentation preset")
    parser.add_argument("--cache", metavar="FILE", help="keep the trained lesson in this file for the next run")
    parser.add_argument("--engine-only", action="store_true")
    args = parser.parse_args()
    lesson, trained = trained_lesson(args.size, args.docs, args.cache)
    where = f"trained in {trained:.0f} s" if trained else "read from the cache"
    print(f"{len(lesson.text):,} characters, {len(lesson.corpus):,} distinct words, {lesson.last_step:,} merges "
          f"({where}); peak memory {peak_mb():,.0f} MB", flush=True)
    bench_engine(lesson)
    if not args.engine_only:
        bench_window(lesson)


if __name__ == "__main__":
    main()
