"""The metrics chart's cost, measured offscreen; run by hand: python bench/bench_metrics_chart.py

Trains the Python documentation text (as bench_charts.py does) and prints:
- once per lesson, in the worker: every measure at every step for the corpus and the held-out text
  (``metric_series``), and the replot when the result arrives on the GUI thread;
- one step: the metrics chart's update (the step line and the read-out), against the growth
  chart's for the same step and against a 16 ms frame. A step computes no measure.
Figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from app.session import Session  # noqa: E402
from bench.bench_charts import docs_texts  # noqa: E402
from engine.algorithm.settings import Settings  # noqa: E402
from engine.lesson.lesson import Lesson  # noqa: E402
from widgets.charts import ChartsView  # noqa: E402
from widgets.charts.metric_data import metric_series  # noqa: E402
from widgets.worker import wait_for_workers  # noqa: E402

FRAME_MS = 16.0


def ms(seconds: float) -> float:
    return seconds * 1000.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--merges", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=200, help="single steps to time")
    args = parser.parse_args()

    app = QApplication.instance() or QApplication([])
    train, held = docs_texts()
    lesson = Lesson(train, settings=Settings(merges=args.merges), held_out=held).train()
    print(f"trained {len(train):,} characters to {lesson.last_step:,} merges")
    start = time.perf_counter()
    metric_series(lesson, held)
    print(f"every measure at every step, corpus and held-out (in the worker): {ms(time.perf_counter() - start):.0f} ms")

    session = Session(lesson)
    view = ChartsView(session)
    view.resize(1400, 1000)
    view.show()
    while view.metrics.series is None:
        wait_for_workers(60_000)
        app.processEvents()
    start = time.perf_counter()
    view.metrics.replot()
    print(f"metrics chart replot when the result arrives: {ms(time.perf_counter() - start):.1f} ms")

    # each chart's own slot for the same step, timed in turn
    metrics_ms: list[float] = []
    growth_ms: list[float] = []
    for i in range(args.steps):
        k = (i * 37) % lesson.last_step
        session.request_step(k)
        app.processEvents()
        change = SimpleNamespace(step=k)  # what step_changed carries, as far as the charts read it
        for chart, samples in ((view.metrics, metrics_ms), (view.growth, growth_ms)):
            t = time.perf_counter()
            chart._on_step_changed(change)
            samples.append(ms(time.perf_counter() - t))
    m, g = statistics.median(metrics_ms), statistics.median(growth_ms)
    p95 = sorted(metrics_ms)[int(len(metrics_ms) * 0.95)]
    print(f"one step, metrics chart: median {m:.3f} ms, p95 {p95:.3f} ms (p95 / 16 ms = {p95 / FRAME_MS:.3f})")
    print(f"one step, growth chart:  median {g:.3f} ms; metrics / growth = {m / g:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
