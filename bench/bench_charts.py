"""Chart speed with a 10,000-step history, measured offscreen; run by hand: python bench/bench_charts.py

Trains the Python documentation text (shipped with Python) to 10,000 merges, opens the Charts tab
and prints, against a 16 ms frame:
- one step forward or back: the session's move plus every chart's update, then the paint Qt does
  for it (the dirty parts of both charts, as a screen refresh would); and a full repaint of both
  charts, the worst case;
- one frame of the pair bars' glide, painted;
- dragging the step line: each drag update (1 and 5 pixels of the chart, a mouse move every 8 ms),
  with the lesson's move and the paint; the pair bars follow at most every 40 ms, so some updates
  carry their redraw too (they show in the p95 and max);
- once per lesson: the held-out curve for every step, and the replot when a lesson arrives.
"Charts only" leaves out the lesson's own move (LessonState.go_to), which every view shares.
Figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.session import Session  # noqa: E402
from engine.lesson.heldout import token_curve  # noqa: E402
from engine.lesson.lesson import Lesson  # noqa: E402
from engine.algorithm.settings import Settings  # noqa: E402
from widgets.charts import ChartsView  # noqa: E402
from widgets.charts.pairs import THROTTLE_MS  # noqa: E402

FRAME_MS = 16.0


def docs_texts() -> tuple[str, str]:
    """Training and held-out text: nine documentation topics in ten to train, the tenth held out."""
    from pydoc_data.topics import topics

    names = sorted(topics)
    train = "\n".join(topics[n] for i, n in enumerate(names) if i % 10 != 9)
    held = "\n".join(topics[n] for i, n in enumerate(names) if i % 10 == 9)
    return train, held


def ms(seconds: float) -> float:
    return seconds * 1000.0


def report(name: str, samples: list[float]) -> None:
    samples = sorted(samples)
    median = statistics.median(samples)
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    worst = samples[-1]
    print(f"{name:<48} median {median:6.2f} ms  p95 {p95:6.2f} ms  max {worst:6.2f} ms"
          f"  (p95 / 16 ms = {p95 / FRAME_MS:.2f})")


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return ms(time.perf_counter() - start)


class PaintCounter(QObject):
    """Counts paint events, to be sure a timed frame really painted."""

    def __init__(self):
        super().__init__()
        self.paints = 0

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--merges", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=200, help="single steps to time")
    args = parser.parse_args()

    app = QApplication.instance() or QApplication([])
    train, held = docs_texts()
    start = time.perf_counter()
    lesson = Lesson(train, settings=Settings(merges=args.merges), held_out=held).train()
    print(f"trained {len(train):,} characters to {lesson.last_step:,} merges in {time.perf_counter() - start:.1f} s")

    session = Session(lesson)
    go_to_ms: list[float] = []
    original = session.state.go_to

    def measured_go_to(k):
        t = time.perf_counter()
        changed = original(k)
        go_to_ms.append(ms(time.perf_counter() - t))
        return changed

    session.state.go_to = measured_go_to

    view = ChartsView(session)
    view.resize(1400, 760)
    view.show()
    app.processEvents()
    growth, pairs = view.growth, view.pairs
    print(f"held-out curve, {len(held):,} characters, every step: {timed(lambda: token_curve(lesson.tokenizer, held)):.1f} ms")
    print(f"replot when a lesson arrives: {timed(growth.replot):.1f} ms")
    print(f"growth chart: {growth.plot.getPlotItem().vb.width():.0f} px wide for {lesson.last_step:,} steps")

    counter = PaintCounter()
    for plot in (growth.plot, pairs.plot):
        plot.viewport().installEventFilter(counter)
    app.processEvents()

    def paint() -> None:
        app.processEvents()

    def full_repaint() -> None:
        growth.plot.viewport().repaint()
        pairs.plot.viewport().repaint()

    # -- one step forward and back, in the middle and near the end -------------------------------
    step, chart, frame, full = [], [], [], []
    counter.paints = 0
    for i in range(args.steps):
        base = 5000 if i % 2 == 0 else 9000
        k = base + (i // 2) % 50
        session.request_step(k - 1)
        pairs.finish_animation()
        app.processEvents()
        # steps by key press come further apart than the bars' refresh limit
        time.sleep(THROTTLE_MS / 1000)
        go_to_ms.clear()
        total = timed(lambda: session.request_step(k))  # noqa: B023 (timed runs it at once)
        step.append(total)
        chart.append(total - sum(go_to_ms))
        frame.append(timed(paint))
        full.append(timed(full_repaint))
        pairs.finish_animation()
    print(f"(paint events seen: {counter.paints:,})")
    report("one step: session move + every chart", step)
    report("one step: charts only", chart)
    report("one step: paint of what changed", frame)
    report("one step: update + paint", [a + b for a, b in zip(step, frame)])
    report("one step: charts only + paint", [a + b for a, b in zip(chart, frame)])
    report("full repaint of both charts (worst case)", full)

    glide = []
    session.request_step(4000)
    for i in range(60):
        pairs.finish_animation()
        time.sleep(THROTTLE_MS / 1000)
        session.request_step(4001 + i)
        app.processEvents()
        glide.append(timed(lambda: pairs._draw(0.5)) + timed(paint))
        pairs.finish_animation()
    report("pair bars: one glide frame (draw + paint)", glide)

    # -- dragging the step line ------------------------------------------------------------------
    vb = growth.plot.getPlotItem().vb
    steps_per_pixel = lesson.last_step / max(vb.width(), 1)
    line = growth.step_line
    for pixels in (1, 5):
        session.request_step(1000)
        pairs.finish_animation()
        app.processEvents()
        drag, drag_charts = [], []
        x = float(session.step)
        while x < 1000 + 300 * pixels * steps_per_pixel and x < lesson.last_step:
            x += pixels * steps_per_pixel
            go_to_ms.clear()
            # what a drag event does: move the line, which asks the session to follow, then paint
            update = timed(lambda: line.setPos(x))  # noqa: B023 (timed runs it at once)
            painted = timed(paint)
            drag.append(update + painted)
            drag_charts.append(update - sum(go_to_ms) + painted)
            # mouse moves arrive about every 8 ms; the bars catch up on their own timer
            time.sleep(0.008)
        report(f"drag {pixels} px ({pixels * steps_per_pixel:.0f} steps): update + paint", drag)
        report(f"drag {pixels} px: charts only (no lesson move)", drag_charts)
    view.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
