"""Python's cycle collector, run on the GUI thread only, and held off while a lesson trains.

Left automatic, a collection can start in a training or loading thread and destroy a Qt object of
the window there while the GUI thread tears down its neighbours: the two wait on each other for
ever. pyqtgraph's GarbageCollector is the remedy: automatic collection off, a timer on the GUI
thread collecting instead.

A collection walks every container object made since the last one. While a large corpus trains,
that is the worker's whole growing lesson, walked again and again on the GUI thread (a stall of
tens of milliseconds each time). So the timer stops while a background training runs, and the
lesson that comes back is moved out of the collector's sight (``gc.freeze``) before it is swapped
in: the engine's lessons hold no reference cycles, and reference counting frees them when they go.
"""

from __future__ import annotations

import gc
import os

# The one collector of the process, installed once and kept as long as the application runs
# (there is one QApplication per process), and how many background trainings hold it off.
_collector = None
_holds = 0


def collect_in_gui_thread() -> None:
    """Install the timer-driven collector once (a QApplication must exist); it lives as long as the process."""
    global _collector
    if _collector is not None:
        return
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from pyqtgraph.util.garbage_collector import GarbageCollector

    _collector = GarbageCollector(interval=0.5)


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
