"""What the application-wide wheel filter costs; run by hand: python bench/bench_wheel_guard.py

The filter sees every event of the application, so it is timed where events are thickest: the
window stepping through a lesson with every view updated and painted. Prints the time of those
steps with the filter and without it (alternating rounds, the median of each), their ratio, and
how many events the filter looked at; then one event's cost with and without it, and what that
adds to a step. Figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.main import make_application  # noqa: E402


class Counter(QObject):
    seen = 0

    def eventFilter(self, watched, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        Counter.seen += 1
        return False


def steps(window, count: int) -> float:
    session = window.session
    start = time.perf_counter()
    for k in range(count):
        session.request_step(k % max(1, session.last_step))
        for view in window.views.values():
            view.repaint()
        QApplication.processEvents()
    return time.perf_counter() - start


def per_event(app, guard, count: int = 200_000) -> tuple[float, float]:
    """Microseconds to send one event to a plain widget, with the filter and without."""
    from PySide6.QtWidgets import QWidget

    target = QWidget()
    event = QEvent(QEvent.Type.User)

    def send() -> float:
        start = time.perf_counter()
        for _ in range(count):
            QApplication.sendEvent(target, event)
        return (time.perf_counter() - start) / count * 1e6

    guarded = min(send() for _ in range(3))
    app.removeEventFilter(guard)
    bare = min(send() for _ in range(3))
    app.installEventFilter(guard)
    return guarded, bare


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    app = make_application([])
    from app.window import MainWindow
    from widgets.wheel_guard import WheelGuard

    window = MainWindow(persist=False)
    window.resize(1600, 1000)
    for title in window.views:
        window.views[title]
    window.show()
    QApplication.processEvents()
    guard = app.findChild(WheelGuard)
    steps(window, args.steps)  # warm
    with_guard, without = [], []
    for r in range(args.rounds):
        # each round in the other order, so a machine that warms or cools meanwhile favours neither
        for guarded in ((True, False) if r % 2 else (False, True)):
            if not guarded:
                app.removeEventFilter(guard)
            (with_guard if guarded else without).append(steps(window, args.steps))
            if not guarded:
                app.installEventFilter(guard)
    counter = Counter()
    app.installEventFilter(counter)
    steps(window, args.steps)
    app.removeEventFilter(counter)
    a, b = statistics.median(with_guard), statistics.median(without)
    print(f"{args.steps} steps, every view painted: {a * 1000:.1f} ms with the filter, {b * 1000:.1f} ms without"
          f" (ratio {a / b:.3f}); {Counter.seen / args.steps:.0f} events a step pass through it")
    guarded, bare = per_event(app, guard)
    print(f"one event: {guarded:.2f} µs with the filter, {bare:.2f} µs without;"
          f" {(guarded - bare) * Counter.seen / args.steps / 1000:.3f} ms a step")
    window.close()


if __name__ == "__main__":
    main()
