"""Tile view speed and memory, measured offscreen; run by hand: python bench/bench_tiles.py

Prints three figures against the goals of the tile view:
- frame time of a merge animation with about 1,000 tiles in view (goal: under 16 ms a frame);
- time for a jump of 500 steps to reach the screen (goal: under 100 ms);
- memory after many steps played, against memory after a few (goal: no growth with steps).
A frame here is the whole paint of the viewport into its offscreen buffer, the work a screen
refresh would cost; figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from app.session import Session  # noqa: E402
from engine.lesson.lesson import Lesson  # noqa: E402
from engine.algorithm.settings import Settings  # noqa: E402
from widgets.tiles import TileView  # noqa: E402


def busy_corpus(words: int = 300, length: int = 34, seed: int = 7) -> str:
    """Long words where the first merge lands in almost every row: many tiles move at once."""
    rng = random.Random(seed)
    letters = "abcdefghiklmnoprstu"
    lines = []
    for i in range(words):
        chars = [rng.choice(letters) for _ in range(length)]
        for k in range(0, length - 1, 6):
            chars[k], chars[k + 1] = "t", "h"
        lines.append(f"{''.join(chars)}{i} {1 + i % 5}")
    return "\n".join(lines)


def open_view(lesson: Lesson, width: int, height: int, scale: float) -> tuple[QApplication, Session, TileView]:
    session = Session(lesson)
    view = TileView(session)
    view.set_scale(scale)
    view.resize(width, height)
    view.show()
    QApplication.processEvents()
    return QApplication.instance(), session, view


def tiles_in_view(view: TileView) -> int:
    canvas = view.canvas
    vp = canvas.viewport()
    total = 0
    for r in canvas.visible_rows():
        for f in canvas.frame_tiles(canvas.row_order()[r]):
            if canvas.tiles_x + f.x < vp.width():
                total += 1
    return total


def bench_frames(frames: int) -> dict:
    lesson = Lesson(busy_corpus(), word_counts=True, settings=Settings(merges=20)).train()
    _, session, view = open_view(lesson, 1920, 1080, 0.5)
    canvas = view.canvas
    view.set_merge_duration(60_000)
    session.request_step(1)
    moving = sum(1 for r in canvas.visible_rows() for f in canvas.frame_tiles(canvas.row_order()[r]) if f.moving)
    count = tiles_in_view(view)
    times = []
    for i in range(frames):
        canvas.seek(i / (frames - 1) * 0.999)
        start = time.perf_counter()
        canvas.viewport().repaint()
        times.append((time.perf_counter() - start) * 1000)
    canvas.finish_animation()
    view.close()
    times.sort()
    return {"tiles": count, "moving": moving, "first": times and times[0], "median": statistics.median(times),
            "p95": times[int(len(times) * 0.95) - 1], "max": times[-1]}


def docs_lesson() -> Lesson:
    from resources.presets import python_docs_text

    return Lesson(python_docs_text()[0], settings=Settings(merges=1200)).train()


def bench_jump(lesson: Lesson, repeats: int) -> dict:
    """A move of 500 steps, split into the lesson state's share and the view's (slot plus repaint)."""
    _, session, view = open_view(lesson, 1600, 1000, 1.0)
    canvas = view.canvas
    state = session.state
    view_ms, engine_ms = [], []
    for i in range(repeats):
        a = (i * 97) % (lesson.last_step - 500)
        session.request_step(a)
        canvas.viewport().repaint()
        for target in (a + 500, a):
            start = time.perf_counter()
            change = state.go_to(target)  # what Session.request_step does first
            middle = time.perf_counter()
            session.step_changed.emit(change)
            canvas.viewport().repaint()
            end = time.perf_counter()
            engine_ms.append((middle - start) * 1000)
            view_ms.append((end - middle) * 1000)
    view.close()
    return {"view median": statistics.median(view_ms), "view max": max(view_ms),
            "engine median": statistics.median(engine_ms), "engine max": max(engine_ms)}


def bench_memory(lesson: Lesson, rounds: int, span: int = 300) -> dict:
    """Play steps 1..span forward and back, animated, with selections; memory after each round.

    The first round fills the caches that are bounded by the vocabulary (tile pictures, widths);
    after it, playing more steps must not add memory.
    """
    _, session, view = open_view(lesson, 1600, 1000, 1.0)
    canvas = view.canvas
    view.set_merge_duration(60_000)
    span = min(span, lesson.last_step)

    def play_round() -> None:
        for k in list(range(1, span + 1)) + list(range(span - 1, -1, -1)):
            session.request_step(k)
            canvas.seek(0.5)
            canvas.viewport().repaint()
            canvas.finish_animation()
            session.request_token_selection(session.state.tokens(0)[0] if k % 7 == 0 else "")

    tracemalloc.start()
    sizes = []
    for _ in range(rounds):
        play_round()
        gc.collect()
        sizes.append(tracemalloc.get_traced_memory()[0] / 1024)
    tracemalloc.stop()
    view.close()
    return {"steps a round": 2 * span, "KiB after each round": sizes}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=90)
    parser.add_argument("--jumps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    QApplication.instance() or QApplication([])

    f = bench_frames(args.frames)
    print(f"merge animation: {f['tiles']} tiles in view, {f['moving']} of them moving; frame "
          f"median {f['median']:.1f} ms, p95 {f['p95']:.1f} ms, max {f['max']:.1f} ms "
          f"(goal 16 ms: p95 is {f['p95'] / 16:.2f} of it)")
    t0 = time.perf_counter()
    lesson = docs_lesson()
    print(f"(trained the Python docs corpus: {len(lesson.corpus):,} words, {lesson.last_step} merges "
          f"in {time.perf_counter() - t0:.1f} s)")
    j = bench_jump(lesson, args.jumps)
    print(f"jump of 500 steps: the view updates and repaints in median {j['view median']:.1f} ms, "
          f"max {j['view max']:.1f} ms (goal 100 ms: max is {j['view max'] / 100:.2f} of it); the lesson "
          f"state's own move before it takes median {j['engine median']:.1f} ms, max {j['engine max']:.1f} ms")
    m = bench_memory(lesson, args.rounds)
    sizes = ", ".join(f"{k:.0f}" for k in m["KiB after each round"])
    growth = m["KiB after each round"][-1] - m["KiB after each round"][1]
    print(f"memory while playing {m['steps a round']} animated steps a round: traced KiB after each round: "
          f"{sizes}; from round 2 to round {len(m['KiB after each round'])}: {growth:+.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
