"""Python's cycle collector, run on the GUI thread only, and held off while a lesson trains.

Left automatic, a collection can start in a training or loading thread and destroy a Qt object of
the window there while the GUI thread tears down its neighbours: the two wait on each other for
ever. pyqtgraph's GarbageCollector is the remedy, written here in its few lines (importing
pyqtgraph for it would cost the launch half a second): automatic collection off, a timer on the GUI
thread collecting instead, each generation once its count passes Python's own threshold.

A collection walks every container object made since the last one. While a large corpus trains,
that is the worker's whole growing lesson, walked again and again on the GUI thread (a stall of
tens of milliseconds each time). So the timer stops while a background training runs, and the
lesson that comes back is moved out of the collector's sight (``gc.freeze``) before it is swapped
in: the engine's lessons hold no reference cycles, and reference counting frees them when they go.

A full collection walks every object of the process: about 0.2 s on the GUI thread once the window
is up. Python's own collector walks them only when the objects that reached the oldest generation
since the last full walk are a quarter of those it found then; this one keeps the same rule, so a
long class vote (its server thread allocating as phones ask) does not freeze the window every few
seconds.
"""

from __future__ import annotations

import gc

# The one collector of the process, installed once and kept as long as the application runs
# (there is one QApplication per process), and how many background trainings hold it off.
_collector = None
_holds = 0


class _GuiThreadCollector:
    """Collects on a timer of the GUI thread, with automatic collection off."""

    def __init__(self, interval_ms: int):
        from PySide6.QtCore import QTimer

        self.threshold = gc.get_threshold()
        # objects in the oldest generation after the last full walk (none yet)
        self.long_lived = 0
        gc.disable()
        self.timer = QTimer()
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)

    def check(self) -> None:
        # the young generations first, as the automatic collector would
        l0, l1, l2 = gc.get_count()
        if l0 > self.threshold[0]:
            gc.collect(0)
            if l1 > self.threshold[1]:
                gc.collect(1)
                if l2 > self.threshold[2] and self.full_walk_due():
                    gc.collect(2)
                    self.long_lived = len(gc.get_objects(2))

    def full_walk_due(self) -> bool:
        """Python's rule: the oldest generation grew by a quarter since the last full walk (counting
        its objects is a list of pointers, a thousandth of a walk's time)."""
        return len(gc.get_objects(2)) - self.long_lived > self.long_lived // 4


def collect_in_gui_thread() -> None:
    """Install the timer-driven collector once (a QApplication must exist); it lives as long as the process."""
    global _collector
    if _collector is not None:
        return
    _collector = _GuiThreadCollector(interval_ms=500)


def collecting() -> bool:
    """Whether the GUI thread collects now: installed and held off by no training."""
    return _collector is not None and _collector.timer.isActive()


def hold() -> None:
    """A background training starts: no collection until every such training has ended."""
    global _holds
    if _collector is None:
        return
    _holds += 1
    _collector.timer.stop()


def release(trained: bool) -> None:
    """A background training ended; ``trained``: it made a lesson that is about to be shown."""
    global _holds
    if _collector is None or _holds <= 0:
        return
    if trained:
        gc.freeze()
    _holds -= 1
    if _holds == 0:
        _collector.timer.start()
